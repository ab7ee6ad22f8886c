"""Charm Crush's crush.json, each rule at its line and column, the hooks it registers, and what
its matchers select (charmbracelet/crush internal/config/load.go@37f36e9 `ValidateHooks`,
`normalizeHookEvent`; internal/hooks/runner.go@37f36e9: RE2 `MatchString`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agenthooks.sources.dialects.matching import selection, selects
from tests.sources.dialects.conftest import check_file, found

FILE = "crush.json"


def hooks(*entries: object, event: str = "PreToolUse", **more: object) -> str:
    """A crush.json, one key a line so that each finding's line says which."""
    lines = ['{"options": {"debug": false}, "hooks": {', f'  "{event}": [']
    lines += [f"    {json.dumps(entry)}," for entry in entries]
    lines[-1] = lines[-1].rstrip(",")
    lines.append("  ]" + "".join(f',\n  "{key}": {json.dumps(value)}'
                                 for key, value in more.items()))
    lines.append("}}")
    return "\n".join(lines) + "\n"


# Rules whose case needs a file beside the crush.json: tested below, each in its own test.
TESTED_APART = {"crush-rc-unread"}

GATE = {"name": "gate", "matcher": "^bash$", "command": "true", "timeout": 10}

# (text, the findings: rule, line, column).
CASES: list[tuple[str, list[tuple[str, int, int]]]] = [
    (hooks(GATE), []),
    (hooks({"command": "true"}), []),
    (hooks({"command": "true", "matcher": "", "timeout": 0}), []),
    # Crush's spellings of its one event.
    (hooks(GATE, event="pre_tool_use"), []),
    (hooks(GATE, event="PRETOOLUSE"), []),
    # Events it keeps and never runs.
    (hooks(GATE, event="PostToolUse"), [("crush-event-never-fires", 2, 3)]),
    (hooks(GATE, event="pre-tool-use"), [("crush-event-never-fires", 2, 3)]),
    (hooks(GATE, PreCompact=[{"command": "true"}]), [("crush-event-never-fires", 5, 3)]),
    # What Crush refuses, and does not start.
    (hooks({"matcher": "Bash", "hooks": [{"type": "command", "command": "x"}]}),
     [("crush-will-not-start", 3, 5)]),
    (hooks({"matcher": "bash"}), [("crush-will-not-start", 3, 5)]),
    (hooks({"command": ""}), [("crush-will-not-start", 3, 17)]),
    (hooks({"command": "true", "matcher": "*"}), [("crush-will-not-start", 3, 36)]),
    (hooks({"command": "true", "matcher": "(?=x)bash"}), [("crush-will-not-start", 3, 36)]),
    (hooks({"command": "true", "timeout": 10.5}), [("crush-will-not-start", 3, 36)]),
    (hooks({"command": "true", "timeout": "10s"}), [("crush-will-not-start", 3, 36)]),
    (hooks({"command": "true", "name": 1}), [("crush-will-not-start", 3, 33)]),
    (hooks("true"), [("crush-will-not-start", 3, 5)]),
    ('{"hooks": {"PreToolUse": {"command": "true"}}}\n', [("crush-will-not-start", 1, 26)]),
    ('{"hooks": []}\n', [("crush-will-not-start", 1, 11)]),
    # Strict JSON: a comment or a trailing comma, and Crush does not start.
    ('{"hooks": {}, // mine\n}\n', [("json-syntax", 1, 15)]),
    # Keys it ignores.
    (hooks({"command": "true", "type": "command"}), [("unknown-key", 3, 25)]),
    # Claude Code's tool names, which Crush's case-sensitive search never finds.
    (hooks({"command": "true", "matcher": "Bash"}), [("matcher-wrong-host", 3, 36)]),
    (hooks({"command": "true", "matcher": "mcp__github__create_issue"}),
     [("matcher-wrong-host", 3, 36)]),
    (hooks({"command": "true", "matcher": "mcp_github_create_issue"}), []),
    (hooks({"command": "true", "matcher": "bsh"}), [("matcher-misspelt", 3, 36)]),
    (hooks({"command": "true", "timeout": 5000}), [("timeout-seconds", 3, 36)]),
]


@pytest.mark.parametrize(("text", "expected"), CASES,
                         ids=[f"{i}-{e[0][0] if e else 'fine'}" for i, (_, e) in enumerate(CASES)])
def test_rule_at_line_and_column(tmp_path: Path, text: str,
                                 expected: list[tuple[str, int, int]]) -> None:
    assert sorted(found(check_file(tmp_path, FILE, "crush", text))) == sorted(expected)


def test_the_messages_say_what_crush_does(tmp_path: Path) -> None:
    text = hooks({"matcher": "Bash", "hooks": [{"command": "x"}]}, event="PreToolUse",
                 PostToolUse=[{"command": "true"}])
    messages = {d.rule: d.message for d in check_file(tmp_path, FILE, "crush", text).diagnostics}
    assert messages["crush-event-never-fires"] == \
        "Crush runs only PreToolUse hooks: PostToolUse never fires"
    assert "Claude Code matcher group" in messages["crush-will-not-start"]
    assert "does not start" in messages["crush-will-not-start"]


def test_the_hooks_crush_registers(tmp_path: Path) -> None:
    """Its defaults (30 s, `sh`), every spelling of PreToolUse as PreToolUse, and none of an
    event that never fires."""
    text = hooks(GATE, {"command": "echo", "timeout": -1}, PostToolUse=[{"command": "no"}],
                 pre_tool_use=[{"command": "late"}])
    hook_file = check_file(tmp_path, FILE, "crush", text)
    assert [(h.hook, h.event, h.matcher, h.command, h.timeout, h.shell, h.pointer)
            for h in hook_file.handlers] == [
        ("gate", "PreToolUse", "^bash$", "true", 10.0, "sh", "/hooks/PreToolUse/0"),
        ("", "PreToolUse", None, "echo", 30.0, "sh", "/hooks/PreToolUse/1"),
        ("", "PreToolUse", None, "late", 30.0, "sh", "/hooks/pre_tool_use/0")]


def test_a_file_crush_refuses_runs_no_hook(tmp_path: Path) -> None:
    hook_file = check_file(tmp_path, FILE, "crush", hooks(GATE, {"matcher": "*", "command": "x"}))
    assert hook_file.handlers == ()


def test_a_crushrc_with_hook_lines_is_said(tmp_path: Path) -> None:
    (tmp_path / "crushrc").write_text("hook add PreToolUse --command ./gate.sh\n")
    assert found(check_file(tmp_path, FILE, "crush", hooks(GATE))) == [
        ("crush-rc-unread", 1, 1)]
    (tmp_path / "crushrc").write_text("export EDITOR=vi\n")
    assert found(check_file(tmp_path, FILE, "crush", hooks(GATE))) == []


# matcher -> (the names it selects, those it does not): Go's RE2 searched in the tool's name,
# case-sensitive; none or "" selects every tool; one that does not compile, none.
@pytest.mark.parametrize(("matcher", "chosen", "left"), [
    (None, ["bash", "mcp_github_x"], []),
    ("", ["bash", "view"], []),
    ("bash", ["bash"], ["Bash", "view"]),
    ("edit", ["edit", "multiedit"], ["write"]),
    ("^edit$", ["edit"], ["multiedit"]),
    ("ls", ["ls", "lsp_rename"], ["bash"]),
    ("fetch", ["fetch", "agentic_fetch", "web_fetch"], ["download"]),
    ("Bash", [], ["bash"]),
    ("Edit|Write", [], ["edit", "write"]),
    ("^mcp_github_", ["mcp_github_create_issue"], ["mcp__github__create_issue"]),
    ("*", [], ["bash", "*"]),
])
def test_what_a_crush_matcher_selects(matcher: str | None, chosen: list[str],
                                      left: list[str]) -> None:
    picked = selection("crush", matcher, "PreToolUse")
    assert [name for name in chosen + left if selects(picked, name)] == chosen
