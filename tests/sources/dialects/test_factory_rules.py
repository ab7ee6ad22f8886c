"""Factory Droid's files, each rule at its line and column, and the handlers Droid would
register (docs.factory.ai/harness/hooks, "Configuration" and "Structure"): a hooks.json is a
bare event map, a settings file holds `hooks` and counts only where no hooks.json is beside it."""

from __future__ import annotations

from pathlib import Path

import pytest

from agenthooks.model.handlers import HookFile
from agenthooks.sources.discovery import detect
from tests.sources.dialects.conftest import check_file, found

HOOKS = ".factory/hooks.json"
SETTINGS = ".factory/settings.json"
GATE = '[{"matcher": "Execute", "hooks": [{"type": "command", "command": "exit 2"}]}]'

# (file, text, the findings: rule, line, column).
CASES: list[tuple[str, str, list[tuple[str, int, int]]]] = [
    (HOOKS, '{"PreToolUse": ' + GATE + '}\n', []),
    # The trap: settings.json's shape in hooks.json, where Droid finds no event.
    (HOOKS, '{\n  "hooks": {"PreToolUse": ' + GATE + '}\n}\n',
     [("factory-hooks-wrapper", 2, 3)]),
    # A wrapper beside events: the events run, the wrapper's do not.
    (HOOKS, '{"Stop": [],\n "hooks": {"PreToolUse": []}}\n', [("factory-hooks-wrapper", 2, 2)]),
    (HOOKS, '[]\n', [("settings-type", 1, 1)]),
    (HOOKS, '{"PreToolUse": {}}\n', [("event-type", 1, 16)]),
    # Claude Code's events that Droid has not.
    (HOOKS, '{\n  "PermissionRequest": []\n}\n', [("unknown-event", 2, 3)]),
    (HOOKS, '{"Stop": [{"hooks": [{"type": "prompt", "prompt": "x"}]}]}\n',
     [("handler-kind", 1, 31)]),
    (HOOKS, '{"Stop": [{"hooks": [{"type": "command", "command": "x", "async": true}]}]}\n',
     [("unknown-key", 1, 58)]),
    (SETTINGS, '{"hooks": {"PreToolUse": ' + GATE + '}}\n', []),
    # A group's filter on the shell command (Factory's own .factory/settings.json has one).
    (SETTINGS, '{"hooks": {"PreToolUse": [{"matcher": "Execute", "commandRegex": "\\\\bgh\\\\s",\n'
               '  "hooks": [{"type": "command", "command": "true"}]}]}}\n', []),
    (SETTINGS, '{"hooks": {"PreToolUse": [{"matcher": "Execute", "commandRegex": "(gh",\n'
               '  "hooks": [{"type": "command", "command": "true"}]}]}}\n',
     [("factory-command-regex-invalid", 1, 66)]),
    (SETTINGS, '{"hooks": {"PreToolUse": [{"matcher": "Execute", "commandRegex": 3,\n'
               '  "hooks": [{"type": "command", "command": "true"}]}]}}\n',
     [("factory-command-regex-invalid", 1, 66)]),
    # Claude Code's `if` is no key of Droid's.
    (SETTINGS, '{"hooks": {"PreToolUse": [{"hooks": [\n'
               '  {"type": "command", "command": "true", "if": "Bash(rm *)"}]}]}}\n',
     [("unknown-key", 2, 42)]),
    (SETTINGS, '{"hooks": {"SubagentStart": []}}\n', [("unknown-event", 1, 12)]),
]


@pytest.mark.parametrize(("rel", "text", "expected"), CASES,
                         ids=[f"{i}-{e[0][0] if e else 'fine'}"
                              for i, (_, _, e) in enumerate(CASES)])
def test_rule_at_line_and_column(tmp_path: Path, rel: str, text: str,
                                 expected: list[tuple[str, int, int]]) -> None:
    assert sorted(found(check_file(tmp_path, rel, "factory", text))) == sorted(expected)


def test_settings_hooks_beside_a_hooks_json_never_run(tmp_path: Path) -> None:
    """Droid reads a settings file's `hooks` only where no hooks.json is beside it."""
    text = '{\n  "hooks": {"PreToolUse": ' + GATE + '}\n}\n'
    alone = check_file(tmp_path, SETTINGS, "factory", text)
    assert [h.event for h in alone.handlers] == ["PreToolUse"]
    check_file(tmp_path, HOOKS, "factory", "{}\n")
    shadowed = check_file(tmp_path, SETTINGS, "factory", text)
    assert found(shadowed) == [("factory-settings-ignored", 2, 3)]
    assert shadowed.handlers == ()


def test_the_handlers_droid_registers(tmp_path: Path) -> None:
    text = ('{"PreToolUse": ' + GATE + ',\n'
            ' "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}\n')
    hook_file: HookFile = check_file(tmp_path, HOOKS, "factory", text)
    assert [(h.event, h.matcher, h.command, h.dialect) for h in hook_file.handlers] == [
        ("PreToolUse", "Execute", "exit 2", "factory")]


@pytest.mark.parametrize("rel", [HOOKS, SETTINGS, ".factory/settings.local.json"])
def test_a_factory_file_is_known_by_its_place(tmp_path: Path, rel: str) -> None:
    path = tmp_path / rel
    path.parent.mkdir(parents=True)
    path.write_text("{}\n", encoding="utf-8")
    assert detect(str(path)) == "factory"


def test_a_command_regex_is_each_handlers_condition(tmp_path: Path) -> None:
    text = ('{"hooks": {"PreToolUse": [{"matcher": "Execute", "commandRegex": "^git push",\n'
            '  "hooks": [{"type": "command", "command": "true"}]},\n'
            ' {"matcher": "Execute", "commandRegex": "(",\n'
            '  "hooks": [{"type": "command", "command": "false"}]}]}}\n')
    handlers = check_file(tmp_path, SETTINGS, "factory", text).handlers
    # A regex that does not compile filters nothing: the group runs for every command.
    assert [(h.command, h.condition, h.condition_test) for h in handlers] == [
        ("true", "^git push", "agenthooks.sources.dialects.matching:command_regex_holds"),
        ("false", None, None)]
