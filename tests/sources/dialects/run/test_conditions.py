"""Claude Code's `if` (permission-rule syntax), as a table, and under `run` with real handlers."""

from __future__ import annotations

from pathlib import Path

import pytest

from agenthooks.api import load_hooks
from agenthooks.sources.dialects.conditions import Unreadable, holds
from tests.sources.dialects.run.conftest import cmd, group, write_settings

CASES = [
    # rule, tool, tool_input, holds
    ("Bash", "Bash", {"command": "ls"}, True),
    ("Bash", "Read", {"file_path": "a"}, False),
    ("Bash(git *)", "Bash", {"command": "git push origin main"}, True),
    ("Bash(git *)", "Bash", {"command": "ls -la"}, False),
    ("Bash(git *)", "Bash", {"command": "ls && git push"}, True),  # command by command
    ("Bash(git *)", "Bash", {"command": "FOO=1 git push"}, True),  # assignments dropped
    ("Bash(git *)", "Bash", {"command": "echo git"}, False),
    ("Bash(npm run test:*)", "Bash", {"command": "npm run test -- --watch"}, True),
    ("Bash(npm run test:*)", "Bash", {"command": "npm run test"}, True),
    ("Bash(npm run test:*)", "Bash", {"command": "npm run testing"}, False),
    ("Bash(rm -rf *)", "Bash", {"command": "cd x; rm -rf build"}, True),
    ("Bash(*)", "Bash", {"command": "anything"}, True),
    ("Bash(git *)", "Bash", {}, True),  # no command to read: a gate runs
    ("Edit(src/**)", "Edit", {"file_path": "src/a/b.py"}, True),
    ("Edit(src/**)", "Edit", {"file_path": "/proj/src/a.py"}, True),  # relative to cwd
    ("Edit(src/**)", "Edit", {"file_path": "docs/a.md"}, False),
    ("Edit(*.ts)", "Edit", {"file_path": "a.ts"}, True),
    ("Write(./notes/*)", "Write", {"file_path": "notes/x.md"}, True),
    ("Read(*.env)", "Read", {"file_path": ".env"}, True),
    ("WebFetch(domain:example.com)", "WebFetch", {"url": "https://example.com/x"}, True),
    ("WebFetch(domain:example.com)", "WebFetch", {"url": "https://api.example.com/x"}, False),
    ("WebFetch(domain:example.com)", "WebFetch", {"url": "https://example.org/"}, False),
    ("mcp__memory__*", "mcp__memory__create", {}, True),
]


@pytest.mark.parametrize(("rule", "tool", "tool_input", "expected"), CASES,
                         ids=[f"{c[0]}-{c[1]}-{c[3]}" for c in CASES])
def test_holds(rule: str, tool: str, tool_input: dict[str, object], expected: bool) -> None:
    assert holds(rule, tool, tool_input, "/proj") is expected


@pytest.mark.parametrize(("rule", "tool"), [
    ("Bash(git", "Bash"), ("WebFetch(https://x)", "WebFetch"), ("Skill(deploy *)", "Skill"),
    ("PowerShell(Remove-Item *)", "PowerShell"),
])
def test_rules_agenthooks_cannot_read(rule: str, tool: str) -> None:
    # Such a handler runs for every call its matcher selects: the safe side for a gate.
    with pytest.raises(Unreadable):
        holds(rule, tool, {"url": "x"}, "")


def test_no_tool_name_never_holds() -> None:
    assert holds("Bash(git *)", None, {"command": "git status"}, "") is False


def test_a_handler_whose_if_does_not_hold_does_not_start(project: Path) -> None:
    marks = project / "marks"
    write_settings(project, "claude", {"PreToolUse": [group(
        {**cmd(f"echo git >> {marks}; exit 2"), "if": "Bash(git *)"},
        {**cmd(f"echo any >> {marks}")},
        matcher="Bash",
    )]})
    hooks = load_hooks(workspaces=[str(project)], no_user=True)
    result = hooks.run("PreToolUse", {"tool_name": "Bash", "tool_input": {"command": "ls"}})
    assert not result.blocked
    assert marks.read_text().split() == ["any"]
    assert [a.hook for a in result.handlers if "git" in a.command] == []
    result = hooks.run("PreToolUse",
                       {"tool_name": "Bash", "tool_input": {"command": "git push --force"}})
    assert result.blocked and sorted(marks.read_text().split()) == ["any", "any", "git"]
