"""Augment's settings files, each rule at its line and column, and what its matchers select
(@augmentcode/auggie 0.36.0, augment.mjs: the group schema `znt`, the matcher `f7n`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from agenthooks.sources.dialects.matching import selection, selects
from tests.sources.dialects.conftest import check_file, found

SETTINGS = ".augment/settings.json"


def group(matcher: str, event: str = "PreToolUse") -> str:
    return ('{"hooks": {"' + event + '": [{"matcher": "' + matcher + '",\n'
            '  "hooks": [{"type": "command", "command": "true"}]}]}}\n')


# (text, the findings: rule, line, column).
CASES: list[tuple[str, list[tuple[str, int, int]]]] = [
    (group(".*"), []),
    (group("^(launch-process|save-file)$"), []),
    # Searched anywhere in the name, as Claude Code's regexes are, but a list too.
    (group("launch-process|save-file"), [("matcher-unanchored", 1, 39)]),
    (group("mcp:*"), []),
    (group("mcp:.*_github$"), []),
    # The trap: Claude Code's MCP spelling, which Augment's plain regexes never match.
    (group("mcp__github__.*"), [("augment-mcp-matcher", 1, 39)]),
    (group("launch-process|mcp_.*"), [("augment-mcp-matcher", 1, 39)]),
    # Claude Code's every tool is a broken regex to Augment, which drops the event's entry.
    (group("*"), [("matcher-regex", 1, 39)]),
    (group("mcp:("), [("matcher-regex", 1, 39)]),
    # The other events take no matcher: Augment's schema drops it.
    (group("x", "Stop"), [("flat-matcher", 1, 22)]),
    (group(".*", "UserPromptSubmit"), [("unknown-event", 1, 12)]),
    ('{"hooks": {"PreToolUse": [{"hooks": [\n'
     '  {"type": "command", "command": "true", "async": true}]}]}}\n', [("unknown-key", 2, 42)]),
    ('{"hooks": {"Stop": [{"hooks": [{"type": "http", "url": "http://127.0.0.1/"}]}]}}\n',
     [("handler-kind", 1, 41)]),
    # Cursor's words: read by Augment as matchers none of its tools has, or not at all.
    ('{"hooks": {"beforeShellExecution": [{"command": "x"}]}}\n',
     [("augment-cursor-event", 1, 12)]),
    ('{"hooks": {"Stop": [],\n  "stop": [{"command": "x"}]}}\n',
     [("augment-cursor-event", 2, 3)]),
    ('{"hooks": {"stop": [{"command": "x"}]}}\n', [("augment-cursor-stop", 1, 12)]),
    ('{"hooks": {"PreToolUse": [{"metadata": {"includeConversationData": true},\n'
     '  "hooks": [{"type": "command", "command": "x", "args": ["a"], "timeout": 5000}]}]}}\n', []),
]


@pytest.mark.parametrize(("text", "expected"), CASES,
                         ids=[f"{i}-{e[0][0] if e else 'fine'}" for i, (_, e) in enumerate(CASES)])
def test_rule_at_line_and_column(tmp_path: Path, text: str,
                                 expected: list[tuple[str, int, int]]) -> None:
    assert sorted(found(check_file(tmp_path, SETTINGS, "augment", text))) == sorted(expected)


def test_the_handlers_augment_registers(tmp_path: Path) -> None:
    text = ('{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "gate.sh",\n'
            '  "timeout": 5000}]}], "PromptSubmit": [{"hooks": [{"type": "command",\n'
            '  "command": "note.sh"}]}]}}\n')
    handlers = check_file(tmp_path, SETTINGS, "augment", text).handlers
    assert [(h.event, h.command, h.timeout) for h in handlers] == [
        ("PreToolUse", "gate.sh", 5.0), ("PromptSubmit", "note.sh", 60.0)]
    assert dict(handlers[0].call_vars)["AUGMENT_TOOL_NAME"] == "tool_name"


MCP = "mcp__github__create_issue"
GEMINI_MCP = "mcp_github_create_issue"


# matcher -> (the names it selects, those it does not), as Augment's `f7n` reads it.
@pytest.mark.parametrize(("matcher", "chosen", "left"), [
    (None, ["view", MCP], []),
    ("", ["view", MCP], []),
    (".*", ["view", MCP], []),
    ("launch-process", ["launch-process", "x-launch-process"], ["view", "mcp__launch-process"]),
    ("^view$", ["view"], ["view2", "review"]),
    (".+", ["view"], [MCP, GEMINI_MCP]),
    ("mcp:*", [MCP, GEMINI_MCP], ["view", "launch-process"]),
    ("mcp:github", [MCP, GEMINI_MCP], ["github", "mcp__memory__x"]),
    ("mcp__github__.*", [], [MCP, "view"]),
    ("*", [], ["view", MCP]),
])
def test_what_a_matcher_selects(matcher: str | None, chosen: list[str], left: list[str]) -> None:
    picked = selection("augment", matcher, "PreToolUse")
    assert [name for name in chosen if selects(picked, name)] == chosen
    assert [name for name in left if selects(picked, name)] == []


def test_the_other_events_run_whatever_the_matcher() -> None:
    assert selection("augment", "x", "Stop").form == "all"
