"""Grok Build's hook files, each rule at its line and column, the hooks it registers, and what
its matchers select (xai-org/grok-build@19d42e3, crates/codegen/: xai-grok-hooks/src/event.rs,
config.rs, matcher.rs; xai-grok-tools/src/types/claude_alias.rs)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agenthooks.sources.dialects import dialect_spec
from agenthooks.sources.dialects.grok import CLAUDE_NAMES
from agenthooks.sources.dialects.matching import selection, selects
from tests.sources.dialects.conftest import check_file, found

FILE = ".grok/hooks/gate.json"


@pytest.fixture(autouse=True)
def trusted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Grok's home, trusting the test's folder: each rule below is seen alone."""
    home = tmp_path / "grok-home"
    home.mkdir()
    (home / "trusted_folders.toml").write_text(f'[folders."{tmp_path}"]\ntrusted = true\n')
    monkeypatch.setenv("GROK_HOME", str(home))
    monkeypatch.delenv("GROK_FOLDER_TRUST", raising=False)
    return home


def hooks(event: str = "PreToolUse", matcher: str | None = "run_terminal_command",
          **handler: object) -> str:
    """A Grok hook file of one group, on lines of their own (the group's on line 3)."""
    group: dict[str, object] = {"hooks": [{"type": "command", "command": "true", **handler}]}
    if matcher is not None:
        group = {"matcher": matcher, **group}
    return f'{{"hooks": {{\n  "{event}": [\n    {json.dumps(group)}\n  ]\n}}}}\n'


# (text, the findings: rule, line, column).
CASES: list[tuple[str, list[tuple[str, int, int]]]] = [
    (hooks(), []),
    (hooks(timeout=30, env={"A": "1"}), []),
    # Every key Grok reads an event by: its own, snake_case, camelCase, Cursor's words.
    (hooks("pre_tool_use"), []),
    (hooks("preToolUse"), []),
    (hooks("beforeShellExecution"), []),
    (hooks("stop_cancelled", matcher="user_interrupt"), []),
    (hooks("SubagentEnd", matcher=None), []),
    (hooks("PreTooluse"), [("unknown-event", 2, 3)]),
    (hooks("PermissionRequest"), [("unknown-event", 2, 3)]),
    # Claude Code's names select Grok's tools; another host's name does not.
    (hooks(matcher="Bash|Edit"), []),
    (hooks(matcher="run_shell_command"), [("matcher-wrong-host", 3, 17)]),
    (hooks(matcher="run_terminal_comand"), [("matcher-misspelt", 3, 17)]),
    (hooks(matcher="run_(terminal"), [("matcher-regex", 3, 17)]),
    (hooks("Stop", matcher="x"), [("flat-matcher", 3, 6)]),
    # Two handler types, and only their keys.
    (hooks(type="prompt", prompt="x"), [("handler-kind", 3, 60)]),
    (hooks(timeout=5, statusMessage="x"), [("unknown-key", 3, 104)]),
]


@pytest.mark.parametrize(("text", "expected"), CASES,
                         ids=[f"{i}-{e[0][0] if e else 'fine'}" for i, (_, e) in enumerate(CASES)])
def test_rule_at_line_and_column(tmp_path: Path, text: str,
                                 expected: list[tuple[str, int, int]]) -> None:
    assert sorted(found(check_file(tmp_path, FILE, "grok", text))) == sorted(expected)


def test_the_hooks_grok_registers(tmp_path: Path) -> None:
    """Each key's handlers under the event it is; 5 s by default, 600 on Stop; `sh -c`."""
    text = json.dumps({"hooks": {
        "pre_tool_use": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "a"}]}],
        "stop": [{"hooks": [{"type": "command", "command": "b"}]}],
        "afterFileEdit": [{"hooks": [{"type": "command", "command": "c", "timeout": 9}]}]}})
    hook_file = check_file(tmp_path, FILE, "grok", text)
    assert [(h.event, h.matcher, h.command, h.timeout, h.shell) for h in hook_file.handlers] == [
        ("PreToolUse", "Bash", "a", 5.0, "sh"), ("Stop", None, "b", 600.0, "sh"),
        ("PostToolUse", None, "c", 9.0, "sh")]


# matcher -> (the names it selects, those it does not), as `HookMatcher::is_match` reads them.
@pytest.mark.parametrize(("matcher", "chosen", "left"), [
    (None, ["run_terminal_command", "x__y"], []),
    ("*", ["run_terminal_command"], []),
    ("", ["run_terminal_command"], []),
    ("run_terminal_command", ["run_terminal_command"], ["run_terminal_command_v2"]),
    ("read_file|list_dir", ["read_file", "list_dir"], ["grep", "my_read_file"]),
    ("|read_file||grep|", ["read_file", "grep"], [""]),
    ("Bash", ["Bash", "run_terminal_command"], ["bash"]),
    ("Edit|Write", ["search_replace", "hashline_edit", "write"], ["read_file"]),
    ("run_.*", ["run_terminal_command", "xrun_y"], ["read_file"]),
    ("^Ba", ["run_terminal_command"], ["read_file"]),  # by its Claude Code name
    ("Read|x-y", ["read_file", "hashline_read", "x-y"], ["grep"]),
    ("run_(", [], ["run_terminal_command"]),
])
def test_what_a_matcher_selects(matcher: str | None, chosen: list[str], left: list[str]) -> None:
    picked = selection("grok", matcher, "PreToolUse")
    assert [name for name in chosen if selects(picked, name)] == chosen
    assert [name for name in left if selects(picked, name)] == []


def test_a_matcher_on_stop_selects_every_call() -> None:
    assert selection("grok", "anything", "Stop").form == "all"


@pytest.mark.parametrize(("stored", "warned"), [
    (None, True),  # no trust file: Grok asks, and `grok -p` asks no one
    ('[folders."{root}"]\ntrusted = true\n', False),
    ('[folders."{parent}"]\ntrusted = true\n', False),  # a folder above it decides
    ('[folders."{parent}"]\ntrusted = true\n[folders."{root}"]\ntrusted = false\n', True),
    ('[folders."{root}/x"]\ntrusted = true\n', True),
    ('[folders."/"]\ntrusted = true\n', True),  # the root never counts
    ("not toml [", True),
])
def test_a_project_in_a_folder_grok_does_not_trust(tmp_path: Path, trusted: Path,
                                                  stored: str | None, warned: bool) -> None:
    root = tmp_path / "project"
    root.mkdir()
    (trusted / "trusted_folders.toml").unlink()
    if stored is not None:
        (trusted / "trusted_folders.toml").write_text(stored.format(root=root, parent=tmp_path))
    rules = [rule for rule, _, _ in found(check_file(root, FILE, "grok", hooks()))]
    assert rules == (["grok-untrusted-folder"] if warned else [])


def test_the_trust_gate_turned_off(tmp_path: Path, trusted: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    (trusted / "trusted_folders.toml").unlink()
    monkeypatch.setenv("GROK_FOLDER_TRUST", "0")
    assert found(check_file(tmp_path / "project", FILE, "grok", hooks())) == []


def test_the_claude_code_names_a_matcher_may_say_are_those_grok_build_maps() -> None:
    """The row's `matcher_aliases` (model.hosts, which imports no source) are the keys of the
    dialect's CLAUDE_NAMES: a name in one alone would be a matcher word validate flags or one
    that selects nothing."""
    assert sorted(dialect_spec("grok").matcher_aliases) == sorted(CLAUDE_NAMES)


def test_a_hook_named_in_grok_disabled_hooks(tmp_path: Path, trusted: Path) -> None:
    """Grok names a hook by its file's stem, its event in snake_case and its place; a name in
    $GROK_HOME/disabled-hooks is never run, whichever key spelt the event."""
    text = json.dumps({"hooks": {
        "preToolUse": [{"matcher": "run_terminal_command", "hooks": [
            {"type": "command", "command": "true"}, {"type": "command", "command": "false"}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "true"}]}],
    }}, indent=1)
    (trusted / "disabled-hooks").write_text(
        "# turned off\ngate:pre_tool_use[0].hooks[1]\n  other:stop[0].hooks[0]\n\n")
    assert found(check_file(tmp_path, FILE, "grok", text)) == [("grok-hook-disabled", 11, 6)]
    (trusted / "disabled-hooks").write_text("gate:stop[0].hooks[0]\n")
    assert found(check_file(tmp_path, FILE, "grok", text)) == [("grok-hook-disabled", 21, 6)]
    (trusted / "disabled-hooks").unlink()
    assert found(check_file(tmp_path, FILE, "grok", text)) == []
