"""Every rule of a Cursor hooks.json, each at its line and column, and the handlers Cursor
would register (cursor.com/docs/hooks; mirror mehmetbaykar/cursor-docs-skill@1cc1c99)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agenthooks.model.handlers import HookFile
from agenthooks.sources.discovery import detect
from tests.sources.dialects.conftest import check_file, found


def check(root: Path, text: str) -> HookFile:
    return check_file(root, ".cursor/hooks.json", "cursor", text)


V = '"version": 1, '
# (file text, the findings: rule, line, column).
CASES: list[tuple[str, list[tuple[str, int, int]]]] = [
    ('{"hooks": {}}\n', [("version-missing", 1, 1)]),
    ('{"version": 2, "hooks": {}}\n', [("version-invalid", 1, 13)]),
    ('{"version": "1", "hooks": {}}\n', [("version-invalid", 1, 13)]),
    ('[]\n', [("settings-type", 1, 1)]),
    ('{' + V + '"hooks": []}\n', [("settings-type", 1, 25)]),
    ('{' + V + '"hook": {}}\n', [("unknown-key", 1, 16)]),
    # Claude Code's word in a Cursor file: the hint names Cursor's.
    ('{' + V + '"hooks": {\n  "PreToolUse": []\n}}\n', [("unknown-event", 2, 3)]),
    ('{' + V + '"hooks": {"stop": {}}}\n', [("event-type", 1, 34)]),
    ('{' + V + '"hooks": {"stop": [3]}}\n', [("handler-type", 1, 35)]),
    ('{' + V + '"hooks": {"preToolUse": [{"matcher": "Shell", "hooks": []}]}}\n',
     [("group-in-flat-event", 1, 41)]),
    ('{' + V + '"hooks": {"stop": [{"type": "Command", "command": "x"}]}}\n',
     [("handler-kind", 1, 44)]),
    ('{' + V + '"hooks": {"stop": [{"command": ""}]}}\n', [("command-missing", 1, 47)]),
    ('{' + V + '"hooks": {"stop": [{"type": "prompt"}]}}\n',
     [("prompt-missing", 1, 35), ("handler-host-only", 1, 44)]),
    ('{' + V + '"hooks": {"stop": [{"command": "x", "timeout": "5"}]}}\n',
     [("timeout-invalid", 1, 63)]),
    ('{' + V + '"hooks": {"stop": [{"command": "x", "timeout": 5000}]}}\n',
     [("timeout-seconds", 1, 63)]),
    # Tool names: Claude Code's `Bash` in Cursor's file never matches; Cursor's own is fine.
    ('{' + V + '"hooks": {"preToolUse": [{"command": "x", "matcher": "Bash"}]}}\n',
     [("matcher-wrong-host", 1, 69)]),
    ('{' + V + '"hooks": {"preToolUse": [{"command": "x", "matcher": "Shell|Read"}]}}\n', []),
    ('{' + V + '"hooks": {"stop": [{"command": "x", "loop_limit": -1}]}}\n',
     [("option-type", 1, 66)]),
    ('{' + V + '"hooks": {"preToolUse": [{"command": "x", "loop_limit": 3}]}}\n',
     [("option-ignored", 1, 58)]),
    ('{' + V + '"hooks": {"postToolUse": [{"command": "x", "failClosed": true}]}}\n',
     [("option-ignored", 1, 59)]),
    ('{' + V + '"hooks": {"preToolUse": [{"command": "x", "failClosed": "yes"}]}}\n',
     [("option-type", 1, 72)]),
    ('{' + V + '"hooks": {"preToolUse": [{"command": "x", "matcher": ["Shell"]}]}}\n',
     [("option-type", 1, 69)]),
    ('{' + V + '"hooks": {"preToolUse": [{"command": "x", "matcher": "Shell("}]}}\n',
     [("matcher-regex", 1, 69)]),
    ('{' + V + '"hooks": {"sessionStart": [{"command": "x", "matcher": "startup"}]}}\n',
     [("flat-matcher", 1, 60)]),
    ('{' + V + '"hooks": {"stop": [{"command": "x", "env": {}}]}}\n', [("unknown-key", 1, 52)]),
    ('{' + V + '"hooks": {"stop": [{"command": "./gate.sh"}]}}\n', [("script-missing", 1, 47)]),
]


# Rules whose case needs more than the one file (tests/sources/dialects/test_rules.py counts them).
TESTED_APART = frozenset(("cursor-reads-claude",))


@pytest.mark.parametrize(("text", "expected"), CASES,
                         ids=[f"{e[0][0] if e else 'fine'}-{i}" for i, (_, e) in enumerate(CASES)])
def test_rule_at_line_and_column(tmp_path: Path, text: str,
                                 expected: list[tuple[str, int, int]]) -> None:
    assert sorted(found(check(tmp_path, text))) == sorted(expected)


def test_a_claude_event_name_is_told_cursors_word(tmp_path: Path) -> None:
    [finding] = check(tmp_path, '{"version": 1, "hooks": {"PreToolUse": []}}').diagnostics
    assert "Cursor calls it 'preToolUse'" in finding.message


def test_a_project_with_claude_hooks_too_is_told_cursor_runs_both(tmp_path: Path) -> None:
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.json").write_text(
        '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}')
    assert found(check(tmp_path, '{"version": 1, "hooks": {}}')) == [
        ("cursor-reads-claude", 1, 1)]


def test_the_handlers_cursor_registers(tmp_path: Path) -> None:
    hook_file = check(tmp_path, '{"version": 1, "hooks": {\n'
                                '  "preToolUse": [{"command": "true", "matcher": "Shell",\n'
                                '                  "failClosed": true, "timeout": 5}],\n'
                                '  "stop": [{"command": "true", "loop_limit": null}]}}\n')
    [pre, stop] = hook_file.handlers
    assert (pre.event, pre.matcher, pre.timeout, pre.kind, pre.dialect) == (
        "preToolUse", "Shell", 5.0, "command", "cursor")
    assert ("failClosed", True) in pre.options
    assert (stop.matcher, stop.timeout, ("loop_limit", None) in stop.options) == (
        None, 60.0, True)
    # Project hooks run in the project root.
    assert pre.source.cwd == os.path.realpath(tmp_path)


def test_a_file_with_an_error_registers_nothing(tmp_path: Path) -> None:
    hook_file = check(tmp_path, '{"version": 1, "hooks": {"stop": [{"command": "true"}],'
                                ' "nope": []}}')
    assert hook_file.handlers == ()


@pytest.mark.parametrize(("text", "dialect"), [
    ('{"version": 1, "hooks": {"preToolUse": []}}', "cursor"),
    ('{"hooks": {"beforeShellExecution": []}}', "cursor"),
    ('{"version": 1, "hooks": {}}', "cursor"),
    ('{"hooks": {"UserPromptSubmit": []}}', "claude"),
])
def test_a_cursor_file_is_known_by_its_shape(tmp_path: Path, text: str, dialect: str) -> None:
    path = tmp_path / "hooks-anywhere.json"
    path.write_text(text)
    assert detect(str(path)) == dialect


def test_a_cursor_file_is_known_by_its_place(tmp_path: Path) -> None:
    path = tmp_path / ".cursor" / "hooks.json"
    path.parent.mkdir()
    path.write_text("{}")
    assert detect(str(path)) == "cursor"


def test_a_script_named_from_the_project_variable_is_checked(tmp_path: Path) -> None:
    text = ('{"version": 1, "hooks": {"stop": [{"command": '
            '"$CURSOR_PROJECT_DIR/.cursor/hooks/gate.sh"}]}}')
    assert [rule for rule, _, _ in found(check(tmp_path, text))] == ["script-missing"]


def test_user_hooks_run_in_their_own_folder(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Cursor runs `~/.cursor/hooks.json`'s handlers from `~/.cursor/`, a project's from the
    project root."""
    from agenthooks.sources.load import load_all

    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    for root in (home, tmp_path / "project"):
        path = root / ".cursor" / "hooks.json"
        path.parent.mkdir(parents=True)
        path.write_text('{"version": 1, "hooks": {"stop": [{"command": "./hooks/x.sh"}]}}')
    loaded = load_all(cwd=str(tmp_path / "project"), dialect="cursor")
    assert [(f.source.level, f.source.cwd) for f in loaded.files] == [
        ("user", os.path.realpath(home / ".cursor")),
        ("workspace", os.path.realpath(tmp_path / "project"))]
