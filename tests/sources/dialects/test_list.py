"""`agenthooks list` with Claude Code and Gemini CLI files: dialect per row, each host's
selection and dedup."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.sources.dialects.conftest import settings


def rows(agenthooks, *args: str) -> list[dict]:
    outcome = agenthooks("list", "--no-user", "--format", "json", *args)
    assert outcome.code == 0, outcome.err
    return json.loads(outcome.out)


@pytest.fixture
def samples(tmp_path: Path) -> Path:
    target = tmp_path / "sample_hooks"
    shutil.copytree(REPO / "sample_hooks", target, symlinks=True,
                    ignore=shutil.ignore_patterns(".harness"))
    return target


def test_the_samples_list_every_dialect(agenthooks, samples: Path) -> None:
    listed = rows(agenthooks, "--workspace", str(samples))
    assert [(r["dialect"], r["event"]) for r in listed] == [
        ("antigravity", "PreToolUse"), ("antigravity", "PostToolUse"),
        ("antigravity", "PreInvocation"), ("antigravity", "Stop"), ("antigravity", "PreToolUse"),
        ("claude", "PreToolUse"), ("claude", "PostToolUse"), ("claude", "UserPromptSubmit"),
        ("claude", "Stop"),
        ("gemini", "BeforeTool"), ("gemini", "AfterTool"), ("gemini", "BeforeAgent"),
        ("gemini", "AfterAgent"),
    ]
    gemini = listed[9]
    assert (gemini["name"], gemini["timeout"], gemini["matches"]) == (
        "safety-gate", 10.0, "exactly run_shell_command")
    text = agenthooks("list", "--no-user", "--workspace", str(samples))
    header = text.out.splitlines()[0].split()
    assert header[-1] == "DIALECT"


def test_an_event_word_of_any_dialect_selects_each_host_by_its_own_rules(
        agenthooks, samples: Path) -> None:
    # The samples wire the same scripts for every host: each runs once per event, as the
    # hooks.json handler that comes first, whoever calls and in whatever words.
    for word in ("PreToolUse", "BeforeTool", "tool.pre"):
        on_bash = rows(agenthooks, "--workspace", str(samples), "--event", word, "--tool", "Bash")
        assert [(r["dialect"], r["hook"]) for r in on_bash] == [("antigravity", "safety-gate")]
    shell = rows(agenthooks, "--workspace", str(samples), "--event", "BeforeTool", "--tool",
                 "run_shell_command")
    assert [(r["dialect"], r["hook"]) for r in shell] == [("antigravity", "safety-gate")]
    stop = rows(agenthooks, "--workspace", str(samples), "--event", "AfterAgent")
    assert [(r["dialect"], r["event"]) for r in stop] == [("antigravity", "Stop")]
    # Under Claude Code, its own file is left to it; Gemini CLI's only when asked for.
    mine = rows(agenthooks, "--workspace", str(samples), "--event", "PreToolUse", "--tool",
                "Bash", "--host", "claude")
    assert [(r["dialect"], r["hook"]) for r in mine] == [("antigravity", "safety-gate")]


CLAUDE_EDIT = """{"hooks": {"PreToolUse": [
  {"matcher": "Edit.*", "hooks": [{"type": "command", "command": "a"}]},
  {"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "b"}]},
  {"matcher": "Edit", "hooks": [{"type": "command", "command": "b"}]}
]}}"""


@pytest.mark.parametrize(("tool", "commands"), [
    ("Edit", ["a", "b"]),  # b once: Claude Code runs identical handlers once
    ("NotebookEdit", ["a"]),  # Edit.* is unanchored
    ("Write", ["b"]),
    ("Read", []),
])
def test_claude_selection_and_dedup(agenthooks, tmp_path: Path, tool: str,
                                    commands: list[str]) -> None:
    settings(tmp_path, "claude", CLAUDE_EDIT)
    listed = rows(agenthooks, "--workspace", str(tmp_path), "--event", "PreToolUse", "--tool",
                  tool)
    assert [r["command"] for r in listed] == commands


def test_gemini_lifecycle_matchers_are_exact_text(agenthooks, tmp_path: Path) -> None:
    settings(tmp_path, "gemini", """{"hooks": {"SessionStart": [
      {"matcher": "startup|resume", "hooks": [{"type": "command", "command": "never"}]},
      {"matcher": "startup", "hooks": [{"type": "command", "command": "first", "name": "n"}]},
      {"matcher": "*", "hooks": [{"type": "command", "command": "first", "name": "n"}]}
    ]}}""")
    listed = rows(agenthooks, "--workspace", str(tmp_path), "--event", "SessionStart",
                  "--tool", "startup")
    assert [r["command"] for r in listed] == ["first"]  # deduplicated by name:command


def test_switches_act_across_files(agenthooks, tmp_path: Path) -> None:
    settings(tmp_path, "claude", '{"hooks": {"Stop": [{"hooks": [{"type": "command", '
                                 '"command": "c"}]}]}}')
    settings(tmp_path, "claude", '{"disableAllHooks": true}', "settings.local.json")
    settings(tmp_path, "gemini", '{"hooksConfig": {"disabled": ["g"]}, "hooks": {"AfterAgent": '
                                 '[{"hooks": [{"type": "command", "command": "g"}, {"type": '
                                 '"command", "command": "h"}]}]}}')
    listed = rows(agenthooks, "--workspace", str(tmp_path))
    assert [(r["command"], r["enabled"]) for r in listed] == [
        ("c", False), ("g", False), ("h", True)]
    running = rows(agenthooks, "--workspace", str(tmp_path), "--event", "Stop")
    assert [r["command"] for r in running] == ["h"]


def test_errors_leave_out_what_each_host_leaves_out(agenthooks, tmp_path: Path) -> None:
    bad = ('{"hooks": {"%s": [{"hooks": [{"type": "Command", "command": "bad"}, '
           '{"type": "command", "command": "good"}]}]}}')
    settings(tmp_path, "gemini", bad % "BeforeTool")
    settings(tmp_path, "claude", bad % "PreToolUse")
    outcome = agenthooks("list", "--no-user", "--format", "json", "--workspace", str(tmp_path))
    assert outcome.code == 1
    # Gemini CLI drops the bad handler and runs the other; Claude Code reads none of the file.
    assert [(r["dialect"], r["command"]) for r in json.loads(outcome.out)] == [
        ("gemini", "good")]
    assert outcome.err.count("[handler-kind]") == 2
    assert "Claude Code reads none of its hooks" in outcome.err
    assert "Gemini CLI skips each one and runs the rest" in outcome.err
