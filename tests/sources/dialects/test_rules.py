"""Every rule of Claude Code and Gemini CLI settings files, each at its line and column."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agenthooks.model.rules import DIALECT_RULES
from tests.sources.dialects.conftest import check, found

# (dialect, file text, the findings: rule, line, column). Lines and columns are 1-based and
# point at the key or value the message is about.
CASES: list[tuple[str, str, list[tuple[str, int, int]]]] = [
    ("claude", '[]\n', [("settings-type", 1, 1)]),
    ("claude", '{"hooks": []}\n', [("settings-type", 1, 11)]),
    ("gemini", '{\n  "hooks": 5\n}\n', [("settings-type", 2, 12)]),
    ("claude", '{"disableAllHooks": "yes"}\n', [("hooks-config-invalid", 1, 21)]),
    ("gemini", '{"hooksConfig": {"enabled": 1}}\n', [("hooks-config-invalid", 1, 29)]),
    ("gemini", '{"hooksConfig": {"disabled": "x"}}\n', [("hooks-config-invalid", 1, 30)]),
    ("gemini", '{"hooksConfig": []}\n', [("hooks-config-invalid", 1, 17)]),
    ("claude", '{"disableAllHooks": true}\n', [("hooks-disabled", 1, 21)]),
    ("gemini", '{"hooksConfig": {"enabled": false}}\n', [("hooks-disabled", 1, 29)]),
    # Unknown events: another host's name, a typo, a case slip.
    ("claude", '{"hooks": {\n  "BeforeTool": []\n}}\n', [("unknown-event", 2, 3)]),
    ("gemini", '{"hooks": {\n  "PreToolUse": []\n}}\n', [("unknown-event", 2, 3)]),
    ("gemini", '{"hooks": {"BeforeTol": []}}\n', [("unknown-event", 1, 12)]),
    ("claude", '{"hooks": {"Stop": {}}}\n', [("event-type", 1, 20)]),
    ("claude", '{"hooks": {"Stop": [3]}}\n', [("group-type", 1, 21)]),
    ("claude", '{"hooks": {"Stop": [{"type": "command", "command": "x"}]}}\n',
     [("handler-needs-group", 1, 21)]),
    ("gemini", '{"hooks": {"AfterAgent": [{"matcher": ""}]}}\n', [("group-hooks", 1, 27)]),
    ("gemini", '{"hooks": {"AfterAgent": [{"hooks": {}}]}}\n', [("group-hooks", 1, 37)]),
    ("claude", '{"hooks": {"PreToolUse": [{"matcher": 7, "hooks": []}]}}\n',
     [("matcher-type", 1, 39)]),
    ("claude", '{"hooks": {"PreToolUse": [{"matcher": "Edit(", "hooks": []}]}}\n',
     [("matcher-regex", 1, 39)]),
    ("claude", '{"hooks": {"Stop": [{"hooks": ["x"]}]}}\n', [("handler-type", 1, 32)]),
    ("gemini",
     '{"hooks": {"AfterAgent": [{"hooks": [\n  {"type": "Command", "command": "x"}\n]}]}}\n',
     [("handler-kind", 2, 12)]),
    ("claude", '{"hooks": {"Stop": [{"hooks": [{"command": "x"}]}]}}\n',
     [("handler-kind", 1, 32)]),
    ("claude", '{"hooks": {"Stop": [{"hooks": [{"type": "command"}]}]}}\n',
     [("command-missing", 1, 32)]),
    ("claude", '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": ""}]}]}}\n',
     [("command-missing", 1, 63)]),
    ("claude", '{"hooks": {"Stop": [{"hooks": [{"type": "prompt", "prompt": 4}]}]}}\n',
     [("prompt-missing", 1, 61), ("handler-host-only", 1, 41)]),
    ("claude", '{"hooks": {"Stop": [{"hooks": [{"type": "http"}]}]}}\n',
     [("field-missing", 1, 32)]),
    ("claude", '{"hooks": {"Stop": [{"hooks": [{"type": "http", "url": "file:///etc/x"}]}]}}\n',
     [("url-scheme", 1, 56)]),
    ("claude", '{"hooks": {"Stop": [{"hooks": [{"type": "http", "url": "data:,{}"}]}]}}\n',
     [("url-scheme", 1, 56)]),
    ("claude", '{"hooks": {"Stop": [{"hooks": [{"type": "mcp_tool", "server": "m"}]}]}}\n',
     [("field-missing", 1, 32), ("handler-host-only", 1, 41)]),
    ("claude",
     '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "async": "y"}]}]}}\n',
     [("option-type", 1, 77)]),
    ("claude",
     '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "args": "-v"}]}]}}\n',
     [("option-type", 1, 76)]),
    ("gemini", '{"hooks": {"AfterAgent": [{"sequential": 1, "hooks": []}]}}\n',
     [("option-type", 1, 42)]),
    ("claude",
     '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "timeout": "5"}]}]}}\n',
     [("timeout-invalid", 1, 79)]),
    ("gemini",
     '{"hooks": {"AfterAgent": [{"hooks": [\n'
     '  {"type": "command", "command": "x", "timeout": -1}\n]}]}}\n',
     [("timeout-invalid", 2, 50)]),
    ("gemini",
     '{"hooks": {"AfterAgent": [{"hooks": [\n'
     '  {"type": "command", "command": "x", "timeout": 5}\n]}]}}\n',
     [("timeout-milliseconds", 2, 50)]),
    ("claude",
     '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "timout": 5}]}]}}\n',
     [("unknown-key", 1, 68)]),
    ("claude", '{"hooks": {"Stop": [{"sequential": true, "hooks": []}]}}\n',
     [("unknown-key", 1, 22)]),
    ("claude", '{"hooks": {"Stop": [{"matcher": "Bash", "hooks": []}]}}\n',
     [("flat-matcher", 1, 22)]),
    ("gemini", '{"hooks": {"BeforeModel": [{"matcher": "x", "hooks": []}]}}\n',
     [("flat-matcher", 1, 29)]),
    ("claude", '{"hooks": {"PreToolUse": [{"matcher": "Edit.*", "hooks": []}]}}\n',
     [("matcher-unanchored", 1, 39)]),
    ("gemini", '{"hooks": {"BeforeTool": [{"matcher": "read_file", "hooks": []}]}}\n',
     [("matcher-unanchored", 1, 39)]),
    ("claude", '{"hooks": {"PreToolUse": [{"matcher": "mcp__memory", "hooks": []}]}}\n',
     [("matcher-mcp-server", 1, 39)]),
    # Tool names: another host's (never matched by this host), misspelt, or unknown (fine).
    ("claude", '{"hooks": {"PreToolUse": [{"matcher": "run_shell_command", "hooks": []}]}}\n',
     [("matcher-wrong-host", 1, 39)]),
    ("claude", '{"hooks": {"PreToolUse": [{"matcher": "Edit|bash", "hooks": []}]}}\n',
     [("matcher-wrong-host", 1, 39)]),
    ("gemini", '{"hooks": {"BeforeTool": [{"matcher": "^Bash$", "hooks": []}]}}\n',
     [("matcher-wrong-host", 1, 39)]),
    # The name is wrong: no advice on anchoring it (matcher-unanchored) beside.
    ("gemini", '{"hooks": {"BeforeTool": [{"matcher": "Bash", "hooks": []}]}}\n',
     [("matcher-wrong-host", 1, 39)]),
    ("claude", '{"hooks": {"PreToolUse": [{"matcher": "Bassh|Write", "hooks": []}]}}\n',
     [("matcher-misspelt", 1, 39)]),
    ("gemini", '{"hooks": {"BeforeTool": [{"matcher": "^(run_shell_comand)$", "hooks": []}]}}\n',
     [("matcher-misspelt", 1, 39)]),
    ("claude", '{"hooks": {"PreToolUse": [{"matcher": "BashOutput|KillShell", "hooks": []}]}}\n',
     []),
    ("gemini",
     '{"hooks": {"BeforeTool": [{"matcher": "^(read_file|write_file)$", "hooks": []}]}}\n', []),
    ("claude",
     '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "timeout": 30000}]}]}}\n',
     [("timeout-seconds", 1, 79)]),
    ("gemini", '{"hooks": {"SessionStart": [{"matcher": "startup|resume", "hooks": []}]}}\n',
     [("matcher-exact-text", 1, 41)]),
    ("gemini", '{"hooks": {"BeforeTool": [{"matcher": "^(read", "hooks": []}]}}\n',
     [("matcher-regex-fallback", 1, 39)]),
    ("gemini", '{"hooks": {"AfterAgent": [{"hooks": [{"type": "plugin"}]}]}}\n',
     [("handler-host-only", 1, 47)]),
    # A hook beside the agenthooks entry runs under the host's rules, not agenthooks'.
    ("claude", '{"hooks": {"Stop": [{"hooks": [\n'
               '  {"type": "command", "command": "agenthooks run Stop --host claude"},\n'
               '  {"type": "command", "command": "echo done"}\n]}]}}\n',
     [("beside-agenthooks", 3, 34)]),
    ("gemini", '{"hooks": {"AfterAgent": [{"hooks": [\n'
               '  {"type": "command", "command": "python -m agenthooks run AfterAgent"},\n'
               '  {"type": "command", "command": "echo done"}\n]}]}}\n',
     [("beside-agenthooks", 3, 34)]),
    ("claude",
     '{"hooks": {"Stop": [{"hooks": [\n  {"type": "command", "command": "./gate.sh"}\n]}]}}\n',
     [("script-missing", 2, 34)]),
    ("claude", '{"hooks": {"Stop": [{"hooks": [{"type": "command",\n'
               '  "command": "$CLAUDE_PROJECT_DIR/.claude/hooks/gate.py"}]}]}}\n',
     [("script-missing", 2, 14)]),
    ("gemini", '{"hooks": {"AfterAgent": [{"hooks": [{"type": "command",\n'
               '  "command": "python3 \\"$GEMINI_PROJECT_DIR\\"/hooks/gate.py"}]}]}}\n',
     [("script-missing", 2, 14)]),
    ("claude", '{"hooks": {"Stop": [], "Stop": []}}\n', [("duplicate-key", 1, 24)]),
    ("claude", '{"hooks": {"Stop": [],}}\n', [("json-syntax", 1, 23)]),
    ("claude", '{"hooks": {\n  // no comments in Claude Code\n}}\n', [("json-syntax", 2, 3)]),
]


@pytest.mark.parametrize(("dialect", "text", "expected"), CASES,
                         ids=[f"{d}-{e[0][0] if e else 'fine'}-{i}"
                              for i, (d, _, e) in enumerate(CASES)])
def test_rule_at_line_and_column(tmp_path: Path, dialect: str, text: str,
                                 expected: list[tuple[str, int, int]]) -> None:
    assert sorted(found(check(tmp_path, dialect, text))) == sorted(expected)


def test_every_dialect_rule_has_a_case() -> None:
    from tests.hosts.test_windsurf import TESTED_APART as WINDSURF_APART
    from tests.sources.dialects.test_augment_rules import CASES as AUGMENT_CASES
    from tests.sources.dialects.test_cline_rules import CASES as CLINE_CASES
    from tests.sources.dialects.test_codex_rules import CASES as CODEX_CASES
    from tests.sources.dialects.test_codex_rules import TESTED_APART as CODEX_APART
    from tests.sources.dialects.test_copilot_rules import CASES as COPILOT_CASES
    from tests.sources.dialects.test_copilot_rules import TESTED_APART as COPILOT_APART
    from tests.sources.dialects.test_crush_rules import CASES as CRUSH_CASES
    from tests.sources.dialects.test_crush_rules import TESTED_APART as CRUSH_APART
    from tests.sources.dialects.test_cursor_rules import CASES as CURSOR_CASES
    from tests.sources.dialects.test_cursor_rules import TESTED_APART
    from tests.sources.dialects.test_deepagents_rules import CASES as DEEPAGENTS_CASES
    from tests.sources.dialects.test_devin_rules import CASES as DEVIN_CASES
    from tests.sources.dialects.test_factory_rules import CASES as FACTORY_CASES
    from tests.sources.dialects.test_goose_rules import CASES as GOOSE_CASES
    from tests.sources.dialects.test_goose_rules import TESTED_APART as GOOSE_APART
    from tests.sources.dialects.test_junie_rules import CASES as JUNIE_CASES
    from tests.sources.dialects.test_kimi_rules import CASES as KIMI_CASES
    from tests.sources.dialects.test_kiro_rules import CASES as KIRO_CASES
    from tests.sources.dialects.test_kiro_rules import TESTED_APART as KIRO_APART
    from tests.sources.dialects.test_rulesync_rules import CASES as RULESYNC_CASES
    from tests.sources.dialects.test_rulesync_rules import TESTED_APART as RULESYNC_APART
    from tests.sources.dialects.test_vibe_rules import CASES as VIBE_CASES

    covered = {rule for _, _, expected in CASES for rule, _, _ in expected}
    covered |= {rule for _, expected in CURSOR_CASES for rule, _, _ in expected} | TESTED_APART
    covered |= {rule for _, expected in COPILOT_CASES for rule, _, _ in expected} | COPILOT_APART
    covered |= {rule for _, expected in CODEX_CASES for rule, _, _ in expected} | CODEX_APART
    covered |= WINDSURF_APART
    covered |= {rule for _, _, expected in FACTORY_CASES for rule, _, _ in expected}
    covered |= {"factory-settings-ignored"}  # test_factory_rules: it needs a file beside
    covered |= {rule for _, _, expected in DEVIN_CASES for rule, _, _ in expected}
    covered |= {"devin-reads-claude"}  # test_devin_rules: it needs a Claude Code file beside
    covered |= {rule for _, expected in AUGMENT_CASES for rule, _, _ in expected}
    covered |= {rule for _, expected in KIMI_CASES for rule, _, _ in expected}
    covered |= {rule for _, expected in DEEPAGENTS_CASES for rule, _, _ in expected}
    covered |= {rule for _, expected in VIBE_CASES for rule, _, _ in expected}
    covered |= {rule for _, expected in CRUSH_CASES for rule, _, _ in expected} | CRUSH_APART
    covered |= {rule for _, expected in KIRO_CASES for rule, _, _ in expected} | KIRO_APART
    covered |= {rule for _, expected in GOOSE_CASES for rule, _, _ in expected} | GOOSE_APART
    covered |= {rule for _, _, expected in CLINE_CASES for rule, _ in expected}
    covered |= {"cline-link-skipped"}  # test_cline_rules: it needs a link
    covered |= {"cline-folder-unread"}  # test_cline_rules: it needs a git root above
    covered |= {"vibe-untrusted-folder"}  # test_vibe_rules: it needs Vibe's trust file
    covered |= {"grok-untrusted-folder", "grok-hook-disabled"}  # test_grok_rules: Grok's home
    covered |= {rule for _, expected in JUNIE_CASES for rule, _, _ in expected}
    covered |= {"junie-project-hooks-ignored"}  # test_junie_rules: it needs a project file
    covered |= {rule for _, expected in RULESYNC_CASES for rule, _, _ in expected} | RULESYNC_APART
    assert set(DIALECT_RULES) <= covered


def test_gemini_reads_comments_claude_does_not(tmp_path: Path) -> None:
    text = '{\n  // a comment\n  "hooks": {} /* and another */\n}\n'
    assert found(check(tmp_path, "gemini", text)) == []
    assert [rule for rule, _, _ in found(check(tmp_path, "claude", text))] == ["json-syntax"]


def test_messages_say_what_the_host_does(tmp_path: Path) -> None:
    def message(dialect: str, text: str) -> str:
        return check(tmp_path, dialect, text).diagnostics[0].message

    assert "Claude Code calls it 'PreToolUse'" in message("claude", '{"hooks": {"BeforeTool": []}}')
    assert "Gemini CLI calls it 'BeforeTool'" in message("gemini", '{"hooks": {"PreToolUse": []}}')
    assert "did you mean 'BeforeTool'?" in message("gemini", '{"hooks": {"BeforeTol": []}}')
    assert "Stop is Claude Code's name; Gemini CLI calls it 'AfterAgent'" in message(
        "gemini", '{"hooks": {"Stop": []}}')
    assert "BeforeModel is Gemini CLI's event, with no counterpart in Claude Code" in message(
        "claude", '{"hooks": {"BeforeModel": []}}')
    assert "PreInvocation is hooks.json's name; Claude Code calls it 'UserPromptSubmit'" in (
        message("claude", '{"hooks": {"PreInvocation": []}}'))
    kind = message("gemini", '{"hooks": {"AfterAgent": [{"hooks": [{"type": "Command"}]}]}}')
    assert "did you mean 'command'?" in kind and "silently drops" in kind
    ms = message("gemini", '{"hooks": {"AfterAgent": [{"hooks": '
                           '[{"type": "command", "command": "x", "timeout": 5}]}]}}')
    assert "5 ms" in ms and "write 5000" in ms
    unanchored = message("claude", '{"hooks": {"PreToolUse": [{"matcher": "Edit.*", '
                                   '"hooks": []}]}}')
    assert "NotebookEdit" in unanchored and "'^Edit.*$'" in unanchored
    mcp = message("claude", '{"hooks": {"PreToolUse": [{"matcher": "mcp__memory", "hooks": []}]}}')
    assert "'^mcp__memory__.*'" in mcp
    ignored = message("claude", '{"hooks": {"UserPromptSubmit": [{"matcher": "x", "hooks": []}]}}')
    assert "silently ignores" in ignored


def test_a_script_that_exists_is_fine_and_one_not_executable_is_not(tmp_path: Path) -> None:
    script = tmp_path / ".claude" / "hooks" / "gate.sh"
    script.parent.mkdir(parents=True)
    script.write_text("#!/bin/sh\nexit 0\n")
    text = ('{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", '
            '"command": "$CLAUDE_PROJECT_DIR/.claude/hooks/gate.sh"}]}]}}')
    assert [r for r, _, _ in found(check(tmp_path, "claude", text))] == ["script-missing"]
    os.chmod(script, 0o755)
    assert found(check(tmp_path, "claude", text)) == []


def test_handlers_carry_their_dialect_and_seconds(tmp_path: Path) -> None:
    gemini = check(tmp_path, "gemini", '{"hooks": {"BeforeTool": [{"matcher": "^x$", '
                                       '"sequential": true, "hooks": [{"type": "command", '
                                       '"command": "a", "name": "n", "timeout": 2500, '
                                       '"env": {"K": "v"}}]}]}}')
    (handler,) = gemini.handlers
    assert (handler.dialect, handler.event, handler.matcher, handler.timeout) == (
        "gemini", "BeforeTool", "^x$", 2.5)
    assert (handler.name, handler.sequential) == ("n", True)
    assert handler.options == (("env", (("K", "v"),)),)
    claude = check(tmp_path, "claude", '{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": '
                                       '"command", "command": "a", "args": ["-v"]}]}], '
                                       '"Stop": [{"hooks": [{"type": "http", "url": "http://x"}]}]}}')
    prompt, http = claude.handlers
    assert (prompt.timeout, prompt.options) == (30.0, (("args", ("-v",)),))  # its own default
    assert (http.kind, http.command, http.timeout) == ("http", "http://x", 600.0)


def test_a_file_with_errors_has_no_handlers(tmp_path: Path) -> None:
    hook_file = check(tmp_path, "claude", '{"hooks": {"Stop": [{"hooks": [{"type": "command", '
                                          '"command": "a"}, {"type": "command"}]}]}}')
    assert hook_file.handlers == () and not hook_file.ok


def test_gemini_skips_settings_written_inside_hooks(tmp_path: Path) -> None:
    # types.ts HOOKS_CONFIG_FIELDS: the registry skips these keys of `hooks`, as not events.
    hook_file = check(tmp_path, "gemini", '{"hooks": {"enabled": true, "disabled": [], '
                                          '"notifications": false}}')
    assert found(hook_file) == []


def test_a_plugin_script_is_looked_up_in_its_plugin(tmp_path: Path) -> None:
    from agenthooks.sources.dialects.load import check_dialect_file
    from agenthooks.sources.discovery import dialect_source

    plugin = tmp_path / "plugin"
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / ".claude-plugin" / "plugin.json").write_text("{}")
    (plugin / "hooks").mkdir()
    hooks = plugin / "hooks" / "hooks.json"
    hooks.write_text('{"description": "d", "hooks": {"Stop": [{"hooks": [{"type": "command", '
                     '"command": "python3 ${CLAUDE_PLUGIN_ROOT}/scripts/stop.py"}]}]}}')
    source = dialect_source(str(hooks), "claude", str(tmp_path), str(tmp_path))
    assert [d.rule for d in check_dialect_file(source).hook_file.diagnostics] == [
        "script-missing"]
    (plugin / "scripts").mkdir()
    (plugin / "scripts" / "stop.py").write_text("")
    assert check_dialect_file(source).hook_file.diagnostics == ()
