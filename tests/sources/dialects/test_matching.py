"""Each host's matcher semantics, table-driven from the hosts' documented examples."""

from __future__ import annotations

import pytest

from agenthooks.model.matcher import handler_matches
from agenthooks.sources.dialects.matching import matches

# (matcher, event, value, Claude Code runs the group) — Claude Code's hooks reference: "*",
# "" or none match all; letters, digits, _, -, spaces, "," and "|" only: exact names; anything
# else: an unanchored JavaScript regex.
CLAUDE: list[tuple[str | None, str, str, bool]] = [
    (None, "PreToolUse", "Bash", True),
    ("*", "PreToolUse", "Bash", True),
    ("", "PreToolUse", "Bash", True),
    ("Bash", "PreToolUse", "Bash", True),
    ("Bash", "PreToolUse", "BashOutput", False),  # exact
    ("Edit|Write", "PreToolUse", "Write", True),
    ("Edit|Write", "PreToolUse", "NotebookEdit", False),
    ("Edit, Write", "PreToolUse", "Write", True),  # a comma list
    ("Edit.*", "PreToolUse", "Edit", True),
    ("Edit.*", "PreToolUse", "NotebookEdit", True),  # the trap: unanchored
    ("^Edit.*$", "PreToolUse", "NotebookEdit", False),
    ("Notebook.*", "PreToolUse", "NotebookEdit", True),
    ("^Notebook", "PreToolUse", "NotebookEdit", True),
    ("mcp__memory", "PreToolUse", "mcp__memory__create_entities", False),  # exact: no such tool
    ("mcp__memory__.*", "PreToolUse", "mcp__memory__create_entities", True),
    ("mcp__.*__write.*", "PreToolUse", "mcp__filesystem__write_file", True),
    ("Edit(", "PreToolUse", "Edit(", False),  # not a regex: never runs
    ("startup|resume", "SessionStart", "resume", True),  # matched against `source`
    ("startup", "SessionStart", "compact", False),
    ("manual", "PreCompact", "auto", False),
    ("permission_prompt", "Notification", "permission_prompt", True),
    ("Bash", "Stop", "anything", True),  # Stop ignores matchers
    ("Bash", "UserPromptSubmit", "anything", True),
    ("a-b", "PreToolUse", "a-b", True),  # `-` keeps it exact on tool events...
    ("a-b", "FileChanged", "xa-b", True),  # ...but makes a regex on FileChanged
]

# Gemini CLI (hookPlanner.ts): trimmed; "*" or "" match all; tool events: unanchored regex,
# exact text when it does not compile; SessionStart/SessionEnd/PreCompress: exact text;
# other events: no context, so every matcher matches.
GEMINI: list[tuple[str | None, str, str, bool]] = [
    (None, "BeforeTool", "read_file", True),
    ("*", "BeforeTool", "read_file", True),
    (" * ", "BeforeTool", "read_file", True),  # trimmed
    ("read_file", "BeforeTool", "read_file", True),
    ("read_file", "BeforeTool", "mcp_x_read_file_v2", True),  # unanchored
    ("^read_file$", "BeforeTool", "mcp_x_read_file_v2", False),
    ("write_.*", "BeforeTool", "write_file", True),
    ("write_file|replace", "AfterTool", "replace", True),
    ("^(read", "BeforeTool", "^(read", True),  # invalid regex: exact text
    ("^(read", "BeforeTool", "read_file", False),
    ("startup", "SessionStart", "startup", True),
    ("startup|resume", "SessionStart", "startup", False),  # exact text: never matches
    ("start.*", "SessionStart", "startup", False),
    ("manual", "PreCompress", "manual", True),
    ("exit", "SessionEnd", "logout", False),
    ("anything", "BeforeAgent", "x", True),  # no context: the matcher is ignored
    ("anything", "Notification", "ToolPermission", True),
]

# hooks.json (unchanged): anchored at both ends.
ANTIGRAVITY: list[tuple[str | None, str, bool]] = [
    ("run_command", "run_command", True),
    ("run_command", "mcp_x_run_command_v2", False),
    ("view_.*", "view_file", True),
    ("view_.*", "x_view_file", False),
]


@pytest.mark.parametrize(("matcher", "event", "value", "runs"), CLAUDE)
def test_claude_code(matcher: str | None, event: str, value: str, runs: bool) -> None:
    assert matches("claude", matcher, event, value) is runs


@pytest.mark.parametrize(("matcher", "event", "value", "runs"), GEMINI)
def test_gemini_cli(matcher: str | None, event: str, value: str, runs: bool) -> None:
    assert matches("gemini", matcher, event, value) is runs


@pytest.mark.parametrize(("matcher", "tool", "runs"), ANTIGRAVITY)
def test_hooks_json_is_unchanged(matcher: str | None, tool: str, runs: bool) -> None:
    assert matches("antigravity", matcher, "PreToolUse", tool) is runs
    assert handler_matches(matcher, True, tool) is runs


def test_no_value_known_selects_only_match_all() -> None:
    assert matches("claude", None, "PreToolUse", None)
    assert not matches("claude", "Bash", "PreToolUse", None)
    assert not matches("gemini", "read_file", "BeforeTool", None)
