"""Hook files where agenthooks never looks: `validate` warns (rule `near-miss`) with the place
they belong; a run that finds no hook says so once, in the answer too under `--host`, and
denies under `--fail-closed` only when a gate sits in the wrong place."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from agenthooks.sources.nearmiss import near_misses_in, near_misses_upward, typos
from tests.conftest import Run
from tests.support import program

pytestmark = pytest.mark.program

GATE = json.dumps({"gate": {"PreToolUse": [{"matcher": "", "hooks": [{"command": "exit 2"}]}]}})
MARKDOWN = ("---\nevent: tool.pre\nscript: |\n  def handle(event, payload):\n"
            "      return allow()\n---\n")


@pytest.mark.parametrize(("word", "target", "edits"), [
    ("hooks.json", "hooks.json", 0),
    ("hook.json", "hooks.json", 1),
    ("Hooks.json", "hooks.json", 0),
    (".agnets", ".agents", 1),
    ("agents", ".agents", 1),
    ("harness", ".harness", 1),
    ("agenthooks.json", "hooks.json", 5),
    ("", "abc", 3),
])
def test_typos(word: str, target: str, edits: int) -> None:
    assert typos(word, target) == edits


# (where the file is, its text, where agenthooks reads such a file; None: not a near miss)
PLACES = [
    ("hooks.json", GATE, ".agents/hooks.json"),
    (".agents/hook.json", GATE, ".agents/hooks.json"),
    (".agents/Hooks.json", GATE, ".agents/hooks.json"),
    (".agent/hooks.jsonc", GATE, ".agent/hooks.json"),
    ("agents/hooks.json", GATE, ".agents/hooks.json"),
    (".agnets/hooks.json", GATE, ".agents/hooks.json"),
    ("_agnet/hook.json", GATE, ".agents/hooks.json"),
    ("hooks.json", "{not json", ".agents/hooks.json"),
    (".claude-ish/hooks.json", GATE, None),
    ("hooks.json", json.dumps({"hooks": {"PreToolUse": []}}), ".agents/hooks.json"),
    (".harness/guard.md", MARKDOWN, ".harness/hooks/"),
    (".harness/hook/guard.md", MARKDOWN, ".harness/hooks/"),
    ("harness/hooks/guard.md", MARKDOWN, ".harness/hooks/"),
    # Not hook files: a webhook list, a README, an agenthooks.json named with --config.
    ("hooks.json", json.dumps([{"id": "deploy"}]), None),
    ("hooks.json", json.dumps({"deploy": {"url": "x"}}), None),
    (".harness/README.md", "# notes\n", None),
    (".agents/agenthooks.json", GATE, None),
    # Where agenthooks does look.
    (".agents/hooks.json", GATE, None),
    (".agent/hooks.json", GATE, None),
    (".harness/hooks/guard.md", MARKDOWN, None),
]


@pytest.mark.parametrize(("place", "text", "belongs"), PLACES)
def test_near_misses_in(tmp_path: Path, place: str, text: str, belongs: str | None) -> None:
    path = tmp_path / place
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    found = [(m.path, m.expected) for m in near_misses_in(str(tmp_path))]
    expected = [] if belongs is None else [
        (str(path), str(tmp_path / belongs) + (os.sep if belongs.endswith("/") else ""))]
    assert [(p, e.rstrip("/") + ("/" if e.endswith("/") else "")) for p, e in found] == expected


def test_upward_stops_at_the_top_of_the_work_tree(tmp_path: Path) -> None:
    (tmp_path / "hooks.json").write_text(GATE)
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "hooks.json").write_text(GATE)
    below = repo / "src" / "deep"
    below.mkdir(parents=True)
    assert [m.path for m in near_misses_upward(str(below))] == [str(repo / "hooks.json")]


def _misplaced(root: Path) -> Path:
    (root / ".git").mkdir(parents=True)
    (root / "hooks.json").write_text(GATE)
    (root / "agents").mkdir()
    (root / "agents" / "hooks.json").write_text(GATE)
    return root


def test_validate_warns_with_the_right_path(agenthooks: Run, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    root = _misplaced(tmp_path / "ws")
    monkeypatch.chdir(root)
    done = agenthooks("validate")
    assert done.code == 0, done.err
    assert ("hooks.json:1:1: warning [near-miss] hooks.json looks like a hook file, but "
            "agenthooks never reads it there: move it to .agents/hooks.json") in done.out
    assert "agents/hooks.json:1:1: warning [near-miss] agents/hooks.json" in done.out
    assert agenthooks("validate", "--strict").code == 1
    recursive = agenthooks("validate", "-r", "--format", "json")
    rules = [(d["file"], d["rule"]) for d in json.loads(recursive.out)["diagnostics"]]
    assert rules == [("hooks.json", "near-miss"), ("agents/hooks.json", "near-miss")]
    # A proper file beside them: the warnings stay, now saying "merge".
    (root / ".agents").mkdir()
    (root / ".agents" / "hooks.json").write_text(GATE)
    assert "merge it into .agents/hooks.json" in agenthooks("validate", ".").out


def _run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    call = {"tool_name": "Bash", "tool_input": {"command": "ls"}}
    return program("run", "PreToolUse", "--no-user", *args, stdin=json.dumps(call), cwd=cwd)


def test_run_says_it_once_and_in_the_answer(tmp_path: Path) -> None:
    root = _misplaced(tmp_path / "ws")
    done = _run(root, "--host", "claude")
    assert done.returncode == 0
    lines = [line for line in done.stderr.splitlines() if "near" in line or "hook file" in line]
    assert lines == [
        "agenthooks: warning: no hook file found; hooks.json looks like a hook file, but "
        "agenthooks never reads it there: move it to .agents/hooks.json (and 1 more: "
        "agenthooks validate)"]
    answer = json.loads(done.stdout)
    assert "hookSpecificOutput" not in answer  # no decision: the call goes on as without us
    assert answer["systemMessage"].startswith("agenthooks warning: no hook file found; hooks")


def test_fail_closed_denies_a_misplaced_gate(tmp_path: Path) -> None:
    root = _misplaced(tmp_path / "ws")
    done = _run(root, "--host", "claude", "--fail-closed")
    answer = json.loads(done.stdout)["hookSpecificOutput"]
    assert answer["permissionDecision"] == "deny"
    assert "hooks.json looks like a hook file" in answer["permissionDecisionReason"]
    assert done.stderr.count("looks like a hook file") == 2  # the error and the reason, once each


def test_nothing_at_all_allows_and_says_so(tmp_path: Path) -> None:
    root = tmp_path / "empty"
    (root / ".git").mkdir(parents=True)
    for closed in ((), ("--fail-closed",)):
        done = _run(root, "--host", "gemini", *closed)
        assert done.returncode == 0
        assert json.loads(done.stdout)["systemMessage"] == (
            "agenthooks warning: no hook file found: nothing ran (agenthooks init sets up a "
            "workspace)")
        assert done.stderr.count("no hook file found") == 1
    plain = _run(root)  # Antigravity's words: the answer has no message field for it
    assert json.loads(plain.stdout) == {}
    assert "no hook file found" in plain.stderr


def test_a_run_with_hooks_says_nothing(tmp_path: Path) -> None:
    root = _misplaced(tmp_path / "ws")
    (root / ".agents").mkdir()
    (root / ".agents" / "hooks.json").write_text(
        json.dumps({"ok": {"Stop": [{"command": "true"}]}}))
    done = _run(root, "--host", "claude")
    assert "hook file" not in done.stderr
    assert "systemMessage" not in json.loads(done.stdout)


def test_list_names_the_near_miss(agenthooks: Run, tmp_path: Path,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(_misplaced(tmp_path / "ws"))
    done = agenthooks("list", "--no-user")
    assert done.code == 0
    assert done.err.splitlines()[-1] == (
        "agenthooks: hooks.json looks like a hook file, but agenthooks never reads it there: "
        "move it to .agents/hooks.json")
