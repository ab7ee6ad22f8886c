"""Kiro's hooks files, each rule at its line and column, the hooks it registers, and what its
matchers select (kiro.dev/docs/cli/v3/hooks, "The new format", "Trigger reference")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agenthooks.sources.dialects.matching import selection, selects
from tests.sources.dialects.conftest import check_file, found

FILE = ".kiro/hooks/gates.json"


def hooks(*entries: object, version: object = "v1") -> str:
    """A Kiro hooks file, one hook a line so that each finding's line says which."""
    lines = ["{" + (f'"version": {json.dumps(version)}, ' if version is not None else "")
             + '"hooks": [']
    lines += [f"  {json.dumps(entry)}," for entry in entries]
    lines[-1] = lines[-1].rstrip(",")
    lines.append("]}")
    return "\n".join(lines) + "\n"


def command(text: str = "true") -> dict[str, str]:
    return {"type": "command", "command": text}


GATE = {"name": "gate", "trigger": "PreToolUse", "matcher": "execute_bash",
        "action": command(), "timeout": 30}

# Rules whose case needs a folder below .kiro/hooks/: tested below, each in its own test.
TESTED_APART = {"kiro-file-unread"}

# (text, the findings: rule, line, column).
CASES: list[tuple[str, list[tuple[str, int, int]]]] = [
    (hooks(GATE), []),
    (hooks({"trigger": "Stop", "action": command()}), []),
    (hooks({"trigger": "PostFileSave", "matcher": "\\.ts$", "action": command("npm run lint")},
           {"trigger": "PreTaskExec", "action": command()}), []),
    # The version Kiro reads.
    (hooks(GATE, version=None), [("kiro-version", 1, 1)]),
    (hooks(GATE, version="1.0.0"), [("kiro-version", 1, 13)]),
    (hooks(GATE, version=1), [("kiro-version", 1, 13)]),
    # Triggers Kiro does not know: its 2.x and IDE 0.x names, Claude Code's it has not.
    (hooks({"trigger": "preToolUse", "action": command()}), [("unknown-event", 2, 15)]),
    (hooks({"trigger": "agentSpawn", "action": command()}), [("unknown-event", 2, 15)]),
    (hooks({"trigger": "fileEdited", "action": command()}), [("unknown-event", 2, 15)]),
    (hooks({"trigger": "SessionEnd", "action": command()}), [("unknown-event", 2, 15)]),
    (hooks({"action": command()}), [("unknown-event", 2, 3)]),
    # A matcher where the trigger takes none, one that is not a regex.
    (hooks({"trigger": "SessionStart", "matcher": "x", "action": command()}),
     [("flat-matcher", 2, 31)]),
    (hooks({"trigger": "PreToolUse", "matcher": "(", "action": command()}),
     [("matcher-regex", 2, 40)]),
    (hooks({"trigger": "PreToolUse", "matcher": "*", "action": command()}), []),
    # Actions.
    (hooks({"trigger": "PreToolUse", "action": {"type": "agent", "prompt": "be careful"}}),
     [("handler-host-only", 2, 48)]),
    (hooks({"trigger": "PreToolUse", "action": {"type": "askAgent", "prompt": "x"}}),
     [("handler-kind", 2, 48)]),
    (hooks({"trigger": "PreToolUse", "action": {"type": "command"}}),
     [("command-missing", 2, 39)]),
    (hooks({"trigger": "PreToolUse", "action": {"type": "agent"}}),
     [("prompt-missing", 2, 39), ("handler-host-only", 2, 48)]),
    (hooks({"trigger": "PreToolUse"}), [("command-missing", 2, 3)]),
    (hooks({"trigger": "PreToolUse", "action": "true"}), [("handler-type", 2, 39)]),
    # Timeouts in seconds; CLI 2.x's key.
    (hooks({**GATE, "timeout": 30000}), [("timeout-seconds", 2, 133)]),
    (hooks({"trigger": "Stop", "timeout_ms": 5000, "action": command()}),
     [("unknown-key", 2, 23)]),
    (hooks({"trigger": "Stop", "timeout": 0, "action": command()}),
     [("timeout-invalid", 2, 34)]),
    # Turned off, listed.
    (hooks({"trigger": "Stop", "enabled": False, "action": command()}),
     [("kiro-hook-disabled", 2, 34)]),
    (hooks({"trigger": "Stop", "enabled": "no", "action": command()}),
     [("enabled-type", 2, 34)]),
    # The file's shape.
    ('{"version": "v1", "hooks": {"PreToolUse": []}}\n', [("settings-type", 1, 28)]),
    ("[]\n", [("settings-type", 1, 1)]),
    ('{"version": "v1", "hooks": [], "mine": 1}\n', [("unknown-key", 1, 32)]),
    (hooks({**GATE, "when": "x"}), [("unknown-key", 2, 137)]),
    # Claude Code's tool name, which Kiro never calls a tool.
    (hooks({"trigger": "PreToolUse", "matcher": "Bash", "action": command()}),
     [("matcher-wrong-host", 2, 40)]),
]


@pytest.mark.parametrize(("text", "expected"), CASES,
                         ids=[f"{i}-{e[0][0] if e else 'fine'}" for i, (_, e) in enumerate(CASES)])
def test_rule_at_line_and_column(tmp_path: Path, text: str,
                                 expected: list[tuple[str, int, int]]) -> None:
    assert sorted(found(check_file(tmp_path, FILE, "kiro", text))) == sorted(expected)


def test_the_messages_say_what_kiro_does(tmp_path: Path) -> None:
    text = hooks({"trigger": "fileEdited", "action": command()},
                 {"trigger": "Stop", "timeout_ms": 5000, "action": command()})
    hook_file = check_file(tmp_path, FILE, "kiro", text)
    messages = {d.rule: d.message for d in hook_file.diagnostics}
    assert "a v1 hooks file says 'PostFileSave'" in messages["unknown-event"]
    assert "takes `timeout`, in seconds" in messages["unknown-key"]
    fixes = {d.rule: d.fix for d in hook_file.diagnostics}
    assert fixes["unknown-event"] == "PostFileSave"


def test_the_hooks_kiro_registers(tmp_path: Path) -> None:
    """Its default timeout, `sh`, an agent action (listed, never run) and a disabled hook."""
    text = hooks(GATE, {"trigger": "UserPromptSubmit", "action": command("echo hi")},
                 {"trigger": "PreToolUse", "action": {"type": "agent", "prompt": "care"}},
                 {"name": "off", "trigger": "Stop", "enabled": False, "action": command()})
    hook_file = check_file(tmp_path, FILE, "kiro", text)
    assert [(h.hook, h.event, h.matcher, h.kind, h.command, h.timeout, h.shell, h.enabled,
             h.pointer) for h in hook_file.handlers] == [
        ("gate", "PreToolUse", "execute_bash", "command", "true", 30.0, "sh", True,
         "/hooks/0"),
        ("", "UserPromptSubmit", None, "command", "echo hi", 60.0, "sh", True, "/hooks/1"),
        ("", "PreToolUse", None, "agent", "care", 60.0, "sh", True, "/hooks/2"),
        ("off", "Stop", None, "command", "true", 60.0, "sh", False, "/hooks/3")]
    assert hook_file.handlers[1].call_vars == (("USER_PROMPT", "prompt"),)


def test_a_file_below_the_hooks_folder_is_said(tmp_path: Path) -> None:
    hook_file = check_file(tmp_path, ".kiro/hooks/team/gates.json", "kiro", hooks(GATE))
    assert found(hook_file) == [("kiro-file-unread", 1, 1)]
    assert "team/" in hook_file.diagnostics[0].message
    # and from the folder Kiro reads, the folder below it that holds JSON files
    assert found(check_file(tmp_path, FILE, "kiro", hooks(GATE))) == [
        ("kiro-file-unread", 1, 1)]
    (tmp_path / ".kiro/hooks/team/gates.json").unlink()
    assert found(check_file(tmp_path, FILE, "kiro", hooks(GATE))) == []


# matcher -> (the names it selects, those it does not): a regex searched in the tool's name;
# none, "" or `*` every tool; one that does not compile, none.
@pytest.mark.parametrize(("matcher", "chosen", "left"), [
    (None, ["execute_bash", "@git/status"], []),
    ("", ["fs_read"], []),
    ("*", ["fs_write", "@git/status"], []),
    ("execute_bash", ["execute_bash"], ["fs_write"]),
    ("fs_write|str_replace", ["fs_write"], ["fs_read", "execute_bash"]),
    ("^fs_", ["fs_read", "fs_write"], ["execute_bash"]),
    ("@git/", ["@git/status"], ["@github/x", "execute_bash"]),
    ("(", [], ["execute_bash", "("]),
])
def test_what_a_kiro_matcher_selects(matcher: str | None, chosen: list[str],
                                     left: list[str]) -> None:
    picked = selection("kiro", matcher, "PreToolUse")
    assert [name for name in chosen + left if selects(picked, name)] == chosen
