"""Devin CLI's files, each rule at its line and column, and the handlers Devin would register
(docs.devin.ai/cli/extensibility/hooks/overview; .../configuration): a `.devin/hooks.v1.json`
is a bare event map, `.devin/config.json` and the user's config.json hold `hooks`; seven
events, `command` and `prompt` handlers, its tools by its own lowercase names."""

from __future__ import annotations

from pathlib import Path

import pytest

from agenthooks.model.handlers import HookFile
from agenthooks.sources.discovery import detect
from tests.sources.dialects.conftest import check_file, found

HOOKS = ".devin/hooks.v1.json"
CONFIG = ".devin/config.json"
GATE = '[{"matcher": "exec", "hooks": [{"type": "command", "command": "exit 2"}]}]'

# (file, text, the findings: rule, line, column).
CASES: list[tuple[str, str, list[tuple[str, int, int]]]] = [
    (HOOKS, '{"PreToolUse": ' + GATE + '}\n', []),
    # The trap: config.json's shape in hooks.v1.json, where Devin finds no event.
    (HOOKS, '{\n  "hooks": {"PreToolUse": ' + GATE + '}\n}\n',
     [("devin-hooks-wrapper", 2, 3)]),
    # A wrapper beside events: the events run, the wrapper's do not.
    (HOOKS, '{"Stop": [],\n "hooks": {"PreToolUse": []}}\n', [("devin-hooks-wrapper", 2, 2)]),
    (HOOKS, '[]\n', [("settings-type", 1, 1)]),
    (HOOKS, '{"PreToolUse": {}}\n', [("event-type", 1, 16)]),
    # Claude Code's events that Devin has not.
    (HOOKS, '{\n  "PreCompact": []\n}\n', [("unknown-event", 2, 3)]),
    (CONFIG, '{"hooks": {"SubagentStop": []}}\n', [("unknown-event", 1, 12)]),
    # A matcher in Claude Code's tool names selects none of Devin's tools: its shell is `exec`.
    (HOOKS, '{"PreToolUse": [{"matcher": "Bash", "hooks": [\n'
            '  {"type": "command", "command": "exit 2"}]}]}\n', [("matcher-wrong-host", 1, 29)]),
    (CONFIG, '{"hooks": {"PostToolUse": [{"matcher": "Edit|Write", "hooks": [\n'
             '  {"type": "command", "command": "true"}]}]}}\n',
     [("matcher-wrong-host", 1, 40), ("matcher-wrong-host", 1, 40)]),
    (HOOKS, '{"PreToolUse": [{"matcher": "exce", "hooks": [\n'
            '  {"type": "command", "command": "true"}]}]}\n', [("matcher-misspelt", 1, 29)]),
    # Its own names, an MCP tool and every tool ("" or no matcher).
    (HOOKS, '{"PreToolUse": [{"matcher": "edit|write|mcp__github__create_issue", "hooks": [\n'
            '  {"type": "command", "command": "true"}]},\n'
            ' {"matcher": "", "hooks": [{"type": "command", "command": "true"}]}]}\n', []),
    # command and prompt; Claude Code's other handlers and keys are not Devin's.
    (HOOKS, '{"Stop": [{"hooks": [{"type": "prompt", "prompt": "done?"}]}]}\n',
     [("handler-host-only", 1, 31)]),
    (HOOKS, '{"Stop": [{"hooks": [{"type": "http", "url": "https://x"}]}]}\n',
     [("handler-kind", 1, 31)]),
    (HOOKS, '{"Stop": [{"hooks": [{"type": "command", "command": "x", "async": true}]}]}\n',
     [("unknown-key", 1, 58)]),
    (CONFIG, '{"hooks": {"PreToolUse": [{"hooks": [\n'
             '  {"type": "command", "command": "true", "if": "Bash(rm *)"}]}]}}\n',
     [("unknown-key", 2, 42)]),
    (CONFIG, '{"permissions": {"allow": ["Exec(git)"]}, "hooks": {"PreToolUse": ' + GATE + '}}\n',
     []),
]


@pytest.mark.parametrize(("rel", "text", "expected"), CASES,
                         ids=[f"{i}-{e[0][0] if e else 'fine'}"
                              for i, (_, _, e) in enumerate(CASES)])
def test_rule_at_line_and_column(tmp_path: Path, rel: str, text: str,
                                 expected: list[tuple[str, int, int]]) -> None:
    assert sorted(found(check_file(tmp_path, rel, "devin", text))) == sorted(expected)


def test_the_handlers_devin_registers(tmp_path: Path) -> None:
    """The events of a hooks.v1.json at its top level, none under a `hooks` wrapper; a
    command's timeout in seconds."""
    text = ('{"PreToolUse": [{"matcher": "exec", "hooks": [\n'
            '  {"type": "command", "command": "exit 2", "timeout": 5}]}],\n'
            ' "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}\n')
    hook_file: HookFile = check_file(tmp_path, HOOKS, "devin", text)
    assert [(h.event, h.matcher, h.command, h.timeout, h.dialect)
            for h in hook_file.handlers] == [("PreToolUse", "exec", "exit 2", 5.0, "devin")]


@pytest.mark.parametrize("rel", [HOOKS, CONFIG, ".devin/config.local.json"])
def test_its_files_are_known_by_their_place(tmp_path: Path, rel: str) -> None:
    path = tmp_path / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{}\n", encoding="utf-8")
    assert detect(str(path)) == "devin"


def test_a_project_with_claude_code_hooks_too_is_said(tmp_path: Path) -> None:
    """Devin runs the project's Claude Code hooks too: said in its own file, once."""
    bare = '{"PreToolUse": ' + GATE + '}\n'
    assert found(check_file(tmp_path, HOOKS, "devin", bare)) == []
    check_file(tmp_path, ".claude/settings.local.json", "claude", '{"hooks": {}}\n')
    assert found(check_file(tmp_path, HOOKS, "devin", bare)) == []  # no hooks there
    claude = '{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [\n' \
             '  {"type": "command", "command": "exit 2"}]}]}}\n'
    check_file(tmp_path, ".claude/settings.json", "claude", claude)
    said = check_file(tmp_path, HOOKS, "devin", bare)
    assert found(said) == [("devin-reads-claude", 1, 1)]
    assert said.diagnostics[0].message.startswith(
        "Devin CLI also runs the hooks of .claude/settings.json (Claude Code's): ")
    assert said.handlers  # its own hooks run all the same
    assert found(check_file(tmp_path, CONFIG, "devin", '{"hooks": {}}\n')) == [
        ("devin-reads-claude", 1, 1)]
