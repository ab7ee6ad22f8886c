"""Every rule of a Codex hooks.json, each at its line and column, the handlers Codex would
register, and the hooks it would skip as untrusted (openai/codex codex-rs/config/src/hooks.rs,
codex-rs/hooks/src/engine/discovery.rs, codex-rs/hooks/src/events/common.rs)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from agenthooks.model.handlers import HookFile
from agenthooks.sources.dialects import codex_trust as trust
from agenthooks.sources.dialects.codex import selection
from agenthooks.sources.dialects.matching import selects
from tests.sources.dialects.conftest import check_file

# Every valid hook of a test file is untrusted: those findings are left out of the cases
# unless a case is about them.
TRUST_RULES = frozenset(("codex-untrusted-hook", "codex-project-untrusted"))


@pytest.fixture(autouse=True)
def codex_home(monkeypatch: pytest.MonkeyPatch) -> Path:
    home = Path(os.environ["HOME"]) / ".codex"
    home.mkdir(exist_ok=True)
    monkeypatch.setenv("CODEX_HOME", str(home))
    return home


def check(root: Path, text: str) -> HookFile:
    return check_file(root, ".codex/hooks.json", "codex", text)


def found(hook_file: HookFile, keep: frozenset[str] = frozenset()) -> list[tuple[str, int, int]]:
    return [(d.rule, d.line, d.column) for d in hook_file.diagnostics
            if d.rule not in TRUST_RULES or d.rule in keep]


def hooks(event: str, group: str) -> str:
    return '{"hooks": {"' + event + '": [' + group + ']}}\n'


CMD = '{"type": "command", "command": "x"'
# (file text, the findings: rule, line, column).
CASES: list[tuple[str, list[tuple[str, int, int]]]] = [
    ('[]\n', [("settings-type", 1, 1)]),
    ('{"hooks": []}\n', [("settings-type", 1, 11)]),
    ('{"version": 1, "hooks": {}}\n', [("codex-root-key", 1, 2)]),
    ('{"hooks": {\n  "BeforeTool": []\n}}\n', [("codex-unknown-event", 2, 3)]),
    ('{"hooks": {"Stop": {}}}\n', [("event-type", 1, 20)]),
    (hooks("Stop", "3"), [("group-type", 1, 21)]),
    (hooks("Stop", '{"hooks": [' + CMD + ', "timeout": 1.5}]}'), [("timeout-invalid", 1, 79)]),
    (hooks("Stop", '{"hooks": [{"type": "Command", "command": "x"}]}'),
     [("handler-kind", 1, 41)]),
    (hooks("Stop", '{"hooks": [{"type": "command", "command": ""}]}'),
     [("command-missing", 1, 63)]),
    (hooks("Stop", '{"hooks": [{"type": "prompt", "prompt": "check"}]}'),
     [("handler-host-only", 1, 41)]),
    (hooks("Stop", '{"matcher": "done", "hooks": [' + CMD + '}]}'), [("flat-matcher", 1, 22)]),
    (hooks("PreToolUse", '{"matcher": "Bash(", "hooks": [' + CMD + '}]}'),
     [("codex-matcher-skipped", 1, 39)]),
    (hooks("PreToolUse", '{"matcher": "Bash", "hooks": [' + CMD + ', "async": "no"}]}'),
     [("option-type", 1, 102)]),
    (hooks("SessionEnd", '{"hooks": [' + CMD + ', "timeout": 30}]}'),
     [("codex-shutdown-timeout", 1, 85)]),
    (hooks("Stop", '{"hooks": [' + CMD + ', "env": {}}]}'), [("unknown-key", 1, 68)]),
    # A plain name list is exact, and MCP tools are mcp__<server>__<tool>: a server alone
    # names no tool; a regex on the server's prefix selects its tools.
    (hooks("PreToolUse", '{"matcher": "Bash|mcp__memory", "hooks": [' + CMD + '}]}'),
     [("matcher-mcp-server", 1, 39)]),
]

# Rules whose case needs more than the one file (tests/sources/dialects/test_rules.py counts them).
TESTED_APART = frozenset((*TRUST_RULES, "toml-syntax"))


@pytest.mark.parametrize(("text", "expected"), CASES,
                         ids=[f"{e[0][0]}-{i}" for i, (_, e) in enumerate(CASES)])
def test_rule_at_line_and_column(tmp_path: Path, text: str,
                                 expected: list[tuple[str, int, int]]) -> None:
    assert sorted(found(check(tmp_path, text))) == sorted(expected)


@pytest.mark.parametrize("matcher", ["^mcp__memory__.*", "mcp__memory__create", "mcp__.*"])
def test_a_matcher_naming_mcp_tools_is_fine(tmp_path: Path, matcher: str) -> None:
    text = hooks("PreToolUse", '{"matcher": "' + matcher + '", "hooks": [' + CMD + '}]}')
    assert found(check(tmp_path, text)) == []


def test_the_handlers_codex_registers(tmp_path: Path) -> None:
    hook_file = check(tmp_path, '{"hooks": {\n'
                                '  "PreToolUse": [{"matcher": "Bash", "hooks": [\n'
                                '    {"type": "command", "command": "gate", "timeout": 5}]}],\n'
                                '  "Stop": [{"matcher": "ignored", "hooks": [\n'
                                '    {"type": "command", "command": "check", "async": true}]}]}}\n')
    [pre, stop] = hook_file.handlers
    assert (pre.event, pre.matcher, pre.timeout, pre.dialect) == ("PreToolUse", "Bash", 5.0,
                                                                  "codex")
    # Codex drops the matcher on Stop, and runs an async hook without waiting.
    assert (stop.matcher, stop.timeout, stop.background) == (None, 600.0, True)


def test_a_bad_matcher_skips_its_group_only(tmp_path: Path) -> None:
    hook_file = check(tmp_path, '{"hooks": {"Stop": [{"hooks": [' + CMD + '}]}],'
                                ' "PreToolUse": [{"matcher": "(", "hooks": [' + CMD + '}]}]}}')
    assert [h.event for h in hook_file.handlers] == ["Stop", "PreToolUse"]
    assert not selects(selection("(", "PreToolUse"), "Bash")


def test_a_file_with_an_error_registers_nothing(tmp_path: Path) -> None:
    # Codex fails to parse the whole file: none of it runs.
    hook_file = check(tmp_path, '{"x": 1, "hooks": {"Stop": [{"hooks": [' + CMD + '}]}]}}')
    assert hook_file.handlers == ()


def test_untrusted_and_modified_hooks_are_named(tmp_path: Path, codex_home: Path) -> None:
    text = ('{"hooks": {"Stop": [{"hooks": [\n'
            '  {"type": "command", "command": "a"},\n'
            '  {"type": "command", "command": "b"},\n'
            '  {"type": "command", "command": "c"}]}]}}\n')
    path = tmp_path / ".codex" / "hooks.json"
    key = f"{os.path.realpath(path)}:stop:0:"
    trusted = trust.hook_hash("Stop", None, {"command": "a"})
    (codex_home / "config.toml").write_text(
        f'[hooks.state."{key}0"]\ntrusted_hash = "{trusted}"\n'
        f'[hooks.state."{key}1"]\ntrusted_hash = "sha256:old"\n'
        f'[projects.{json.dumps(str(tmp_path.resolve()))}]\ntrust_level = "trusted"\n')
    hook_file = check(tmp_path, text)
    assert found(hook_file, TRUST_RULES) == [("codex-untrusted-hook", 3, 34),
                                             ("codex-untrusted-hook", 4, 34)]
    messages = [d.message for d in hook_file.diagnostics]
    assert "it changed since it was trusted" in messages[0]
    assert "its hash is not recorded as trusted" in messages[1]
    assert "agenthooks trust --host codex" in messages[1]


def test_a_project_codex_does_not_trust_is_named(tmp_path: Path) -> None:
    hook_file = check(tmp_path, hooks("Stop", '{"hooks": [' + CMD + '}]}'))
    assert ("codex-project-untrusted", 1, 2) in found(hook_file, TRUST_RULES)


@pytest.mark.parametrize(("matcher", "event", "tool", "chosen"), [
    (None, "PreToolUse", "Bash", True),
    ("*", "PreToolUse", "Bash", True),
    ("Bash", "PreToolUse", "Bash", True),
    ("Bash", "PreToolUse", "BashOutput", False),
    ("Edit|Write", "PreToolUse", "apply_patch", True),  # Codex's matcher aliases
    ("Edit", "PostToolUse", "apply_patch", True),
    ("mcp__memory", "PreToolUse", "mcp__memory__create", False),  # exact name
    ("mcp__memory__.*", "PreToolUse", "mcp__memory__create", True),  # regex, searched
    ("^Bash", "PreToolUse", "BashOutput", True),
    ("Bash(", "PreToolUse", "Bash", False),  # does not compile: the group is skipped
    ("nothing", "Stop", None, True),  # Stop drops its matcher
])
def test_selection(matcher: str | None, event: str, tool: str | None, chosen: bool) -> None:
    assert selects(selection(matcher, event), tool) is chosen


# --- inline [hooks] of config.toml ------------------------------------------------------------


def check_toml(root: Path, text: str) -> HookFile:
    return check_file(root, ".codex/config.toml", "codex", text)


TOML = """model = "gpt-5.1-codex"

[[hooks.PreToolUse]]
matcher = "Bash"
[[hooks.PreToolUse.hooks]]
type = "command"
command = "gate"
timeout = 5

[[hooks.Stop]]
matcher = "done"
[[hooks.Stop.hooks]]
type = "command"
command = "check"

[hooks.state."/elsewhere:stop:0:0"]
trusted_hash = "sha256:0"
"""


def test_inline_hooks_are_read_and_placed(tmp_path: Path) -> None:
    hook_file = check_toml(tmp_path, TOML)
    assert [(h.event, h.matcher, h.command, h.timeout) for h in hook_file.handlers] == [
        ("PreToolUse", "Bash", "gate", 5.0), ("Stop", None, "check", 600.0)]
    # `state` is no event; the Stop matcher is found on its line.
    assert found(hook_file) == [("flat-matcher", 11, 1)]
    untrusted = [(d.line, d.column) for d in hook_file.diagnostics
                 if d.rule == "codex-untrusted-hook"]
    assert untrusted == [(7, 11), (14, 11)]


def test_an_inline_error_is_at_its_line(tmp_path: Path) -> None:
    hook_file = check_toml(tmp_path, TOML.replace("timeout = 5", "timeout = 1.5"))
    assert found(hook_file) == [("timeout-invalid", 8, 11), ("flat-matcher", 11, 1)]
    assert hook_file.handlers == ()


def test_a_config_toml_that_is_not_toml(tmp_path: Path) -> None:
    hook_file = check_toml(tmp_path, 'model = "x"\n[hooks\n')
    assert found(hook_file) == [("toml-syntax", 2, 7)]
    assert "Codex does not start" in hook_file.diagnostics[0].message


def test_a_config_toml_without_hooks_says_nothing(tmp_path: Path) -> None:
    assert check_toml(tmp_path, 'model = "x"\n').diagnostics == ()


@pytest.mark.parametrize(("text", "hooks"), [
    ('model = "x"\n[projects."/a"]\ntrust_level = "trusted"\n', False),
    ('hooks_dir = "x"\n', False),
    ('[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "c"\n', True),
    ('hooks.Stop = [{hooks = [{type = "command", command = "c"}]}]\n', True),
    ('[[ "hooks" . Stop ]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "c"\n', True),
])
def test_only_a_config_toml_that_may_hold_hooks_is_parsed(tmp_path: Path, text: str,
                                                           hooks: bool) -> None:
    hook_file = check_toml(tmp_path, text)
    assert bool(hook_file.handlers) == hooks


def test_an_unknown_inline_event_is_at_its_table(tmp_path: Path) -> None:
    hook_file = check_toml(tmp_path, TOML.replace("[[hooks.Stop]]", "[[hooks.AfterAgent]]")
                           .replace("[[hooks.Stop.hooks]]", "[[hooks.AfterAgent.hooks]]"))
    assert ("codex-unknown-event", 10, 9) in found(hook_file)


def test_a_timeout_in_milliseconds_is_named(tmp_path: Path) -> None:
    hook_file = check(tmp_path, hooks("Stop", '{"hooks": [' + CMD + ', "timeout": 30000}]}'))
    assert found(hook_file) == [("timeout-seconds", 1, 79)]
    (diagnostic,) = [d for d in hook_file.diagnostics if d.rule == "timeout-seconds"]
    assert "30000 seconds in Codex; if you meant 30 seconds, write 30" in diagnostic.message


@pytest.mark.parametrize(("matcher", "rules"), [
    ("Bash|apply_patch", []),
    ("Write|Edit|Agent", []),  # Codex's matcher aliases
    ("run_shell_command", ["matcher-wrong-host"]),
    ("Bassh", ["matcher-misspelt"]),
])
def test_tool_names_in_a_codex_matcher(tmp_path: Path, matcher: str, rules: list[str]) -> None:
    hook_file = check(tmp_path, hooks("PreToolUse", '{"matcher": "' + matcher +
                                      '", "hooks": [' + CMD + '}]}'))
    assert [rule for rule, _, _ in found(hook_file)] == rules
    assert [h.command for h in hook_file.handlers] == ["x"]  # Codex runs the file
