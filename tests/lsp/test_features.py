"""The language server's answers as pure functions of a path and a text (`lsp.features`),
and the findings' fixes they write (`Diagnostic.fix`), by tables."""

from __future__ import annotations

import pytest

pytest.importorskip("lsprotocol", reason="the lsp extra (lsprotocol) is not installed")
from lsprotocol import types

from agenthooks.lsp import features
from agenthooks.model.handlers import Diagnostic

IS_HOOK_FILE = [
    ("/p/.agents/hooks.json", True),
    ("/p/_agent/hooks.json", True),
    ("/p/.agents/agenthooks.json", True),
    ("/p/.harness/hooks/guard.md", True),
    ("/p/.claude/settings.json", True),
    ("/p/.claude/settings.local.json", True),
    ("/p/.gemini/settings.json", True),
    ("/p/.cursor/hooks.json", True),
    ("/p/.codex/hooks.json", True),
    ("/p/.codex/config.toml", True),
    ("/p/.github/hooks/gate.json", True),
    ("/p/hooks.json", False),  # where agenthooks never looks (validate's near-miss)
    ("/p/package.json", False),
    ("/p/README.md", False),
    ("/p/.agents/gate.hooktest.yaml", False),  # a fixture: `agenthooks test`'s
    ("/p/.github/workflows/ci.json", False),
]


@pytest.mark.parametrize(("path", "expected"), IS_HOOK_FILE)
def test_hook_files_are_those_validate_reads(path: str, expected: bool) -> None:
    assert features.is_hook_file(path) is expected


# (line, character index) -> UTF-16 offset: a character outside the BMP is two units.
UTF16 = [
    ("abc", 2, 2),
    ("é\"x\"", 2, 2),
    ("😀\"x\"", 1, 2),
    ("😀😀x", 2, 4),
    ("", 0, 0),
]


@pytest.mark.parametrize(("line", "index", "units"), UTF16)
def test_columns_count_utf16_units_both_ways(line: str, index: int, units: int) -> None:
    assert features.utf16(line, index) == units
    assert features.from_utf16(line, units) == index


TOKENS = [
    ('  "PreToolUze": [],', 2, 14),  # a key with its quotes
    ('"a\\"b": 1', 0, 6),  # an escaped quote inside
    ('"timeout": 5000}', 11, 15),  # a number
    ("event: tool.pree", 7, 16),  # a bare YAML word
    ("x = 'a'", 4, 7),  # a TOML literal string
    ("}", 0, 1),  # punctuation: one character
    ("ab", 2, 2),  # past the end
]


@pytest.mark.parametrize(("line", "start", "end"), TOKENS)
def test_a_finding_covers_its_token(line: str, start: int, end: int) -> None:
    assert features.token_end(line, start) == end


REPLACEMENTS = [
    ('"PreToolUze"', "PreToolUse", '"PreToolUse"'),
    ('"run_comand|Edit"', "run_command|Edit", '"run_command|Edit"'),
    ("5000", "5", "5"),
    ("tool.pree", "tool.pre", "tool.pre"),
    ("'tool.pree'", "tool.pre", "'tool.pre'"),
    ('"a"', 'say "hi"', '"say \\"hi\\""'),
]


@pytest.mark.parametrize(("token", "fix", "written"), REPLACEMENTS)
def test_a_fix_is_written_as_the_token_was(token: str, fix: str, written: str) -> None:
    assert features.replacement(token, fix) == written


def test_a_finding_becomes_the_protocols_diagnostic() -> None:
    text = '{\n  "h": {"😀": 1, "PreToolUze": []}\n}\n'
    found = Diagnostic(".agents/hooks.json", 2, 17, "note", "unknown-event", "m", "/h/x",
                       "PreToolUse")
    converted = features.to_lsp(found, text, "https://d/")
    # Column 17 is the 16th character after the emoji: 17 UTF-16 units in.
    assert converted.range == types.Range(types.Position(1, 17), types.Position(1, 29))
    assert converted.severity == types.DiagnosticSeverity.Information
    assert converted.code == "unknown-event"
    assert converted.code_description == types.CodeDescription(href="https://d/validate/#rules")
    assert converted.data == {"fix": "PreToolUse"}
    assert features.to_lsp(found._replace(fix=None), text).code_description is None


# (file, text, rule, fix): what each rule that knows the answer says to write.
FIXES = [
    (".agents/hooks.json", '{"h": {"PreToolUze": []}}', "unknown-event", "PreToolUse"),
    (".agents/hooks.json", '{"h": {"BeforeTool": []}}', "unknown-event", "PreToolUse"),
    (".agents/hooks.json",
     '{"h": {"PreToolUse": [{"matcher": "Edit|run_comand", "hooks": [{"command": "x"}]}]}}',
     "matcher-misspelt", "Edit|run_command"),
    (".agents/hooks.json", '{"h": {"Stop": [{"command": "x", "timeout": 5000}]}}',
     "timeout-seconds", "5"),
    (".claude/settings.json", '{"hooks": {"BeforeTool": []}}', "unknown-event", "PreToolUse"),
    (".claude/settings.json",
     '{"hooks": {"PreToolUse": [{"matcher": "run_shell_command", '
     '"hooks": [{"type": "command", "command": "x"}]}]}}', "matcher-wrong-host", "Bash"),
    (".gemini/settings.json", '{"hooks": {"BeforeTol": []}}', "unknown-event", "BeforeTool"),
    (".gemini/settings.json",
     '{"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "x", '
     '"timeout": 5}]}]}}', "timeout-milliseconds", "5000"),
    (".github/hooks/gate.json", '{"version": 1, "hooks": {"pretooluse": []}}',
     "copilot-unknown-event", "preToolUse"),
    (".harness/hooks/gate.md",
     "---\nevent: tool.pree\nscript: |\n  def handle(event, payload):\n    return None\n---\n",
     "event-invalid", "tool.pre"),
]


@pytest.mark.parametrize(("file", "text", "rule", "fix"), FIXES)
def test_each_rule_that_knows_says_what_to_write(tmp_path_factory: pytest.TempPathFactory,
                                                 file: str, text: str, rule: str,
                                                 fix: str) -> None:
    root = tmp_path_factory.mktemp("project")
    found = features.check(str(root / file), text, str(root))
    assert [d.fix for d in found if d.rule == rule] == [fix]


def test_a_quick_fix_replaces_the_token_of_each_fixable_finding() -> None:
    text = '{"h": {"PreToolUze": []}}'
    uri = "file:///p/.agents/hooks.json"
    span = types.Range(types.Position(0, 7), types.Position(0, 19))
    fixable = types.Diagnostic(range=span, message="m", source="agenthooks",
                               data={"fix": "PreToolUse"})
    others = [types.Diagnostic(range=span, message="m", source="agenthooks"),
              types.Diagnostic(range=span, message="m", source="another",
                               data={"fix": "x"})]
    (action,) = features.quick_fixes(uri, text, [fixable, *others])
    assert action.edit == types.WorkspaceEdit(
        changes={uri: [types.TextEdit(range=span, new_text='"PreToolUse"')]})
    assert action.diagnostics == [fixable]


# (file, text, format): the format completion and hover read a file in.
FORMATS = [
    (".agents/hooks.json", "{}", "antigravity"),
    (".claude/settings.json", "{}", "claude"),
    (".codex/config.toml", "", "codex"),
    (".harness/hooks/a.md", "", "markdown"),
    # A file its place says nothing of: the shape of the text, not of the file on disk.
    ("hooks/hooks.json", '{"hooks": {"BeforeTool": []}}', "gemini"),
]


@pytest.mark.parametrize(("file", "text", "fmt"), FORMATS)
def test_the_format_of_a_file_is_its_places_else_its_texts(file: str, text: str,
                                                             fmt: str) -> None:
    assert features.file_format(f"/nowhere/{file}", text) == fmt


COMPLETIONS = [
    (".agents/hooks.json", "PreToolUse", "BeforeTool"),
    (".gemini/settings.json", "BeforeTool", "PreToolUse"),
    (".cursor/hooks.json", "beforeShellExecution", "PreToolUse"),
    (".harness/hooks/a.md", "tool.pre", "PreToolUse"),
]


@pytest.mark.parametrize(("file", "offered", "not_offered"), COMPLETIONS)
def test_completion_offers_the_files_own_events(file: str, offered: str,
                                                not_offered: str) -> None:
    labels = [item.label for item in
              features.completions(f"/p/{file}", "{}", types.Position(0, 1))]
    assert offered in labels and not_offered not in labels


def test_completion_inside_a_string_replaces_it_whole() -> None:
    text = '{"h": {"Pre": []}}'
    items = features.completions("/p/.agents/hooks.json", text, types.Position(0, 10))
    edit = next(item.text_edit for item in items if item.label == "PreToolUse")
    assert edit == types.TextEdit(range=types.Range(types.Position(0, 7),
                                                    types.Position(0, 12)),
                                  new_text='"PreToolUse"')


# (file, line, character offset, what the hover says)
HOVERS = [
    (".agents/hooks.json", '{"h": {"BeforeTool": []}}', 10, "| Cursor | `preToolUse` |"),
    (".agents/hooks.json", '{"h": {"Stop": []}}', 9, "| Gemini CLI | `AfterAgent` |"),
    (".agents/hooks.json", '{"matcher": "run_command"}', 15,
     "| shell | `run_command` | `Bash`, `PowerShell` | `run_shell_command` |"),
    (".agents/hooks.json", '{"matcher": "Bash"}', 14, "| shell | `run_command` |"),
    (".agents/hooks.json", '{"matcher": "*"}', 13, "every tool"),
    (".claude/settings.json", '{"matcher": "Edit|Write"}', 14,
     "| write | `Write` |\n| edit | `Edit` |"),
    (".claude/settings.json", '{"matcher": "Edit.*"}', 14, "| multi-edit | `MultiEdit` |"),
    (".harness/hooks/a.md", "event: tool.pre", 9, "| Claude Code | `PreToolUse` |"),
]


@pytest.mark.parametrize(("file", "text", "character", "says"), HOVERS)
def test_hover_names_events_and_matchers_across_hosts(file: str, text: str, character: int,
                                                      says: str) -> None:
    found = features.hover(f"/p/{file}", text, types.Position(0, character))
    assert found is not None and isinstance(found.contents, types.MarkupContent)
    assert says in found.contents.value, found.contents.value


def test_hover_off_a_word_says_nothing() -> None:
    assert features.hover("/p/.agents/hooks.json", '{"h": {}}', types.Position(0, 6)) is None


def test_an_entry_the_run_refuses_is_placed_in_the_editors_text(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """`run-refused` and `gate-cannot-block` in unsaved text, at the entry's command."""
    root = tmp_path_factory.mktemp("project")
    text = ('{"hooks": {\n "PreToolUse": [{"hooks": [{"type": "command",\n'
            '  "command": "agenthooks run PreToolUse2 --host claude"}]}],\n'
            ' "PostToolUse": [{"hooks": [{"type": "command",\n'
            '  "command": "agenthooks run PostToolUse --host claude --fail-closed"}]}]}}\n')
    found = features.check(str(root / ".claude" / "settings.json"), text, str(root))
    assert sorted((d.rule, d.line) for d in found
                  if d.rule in ("run-refused", "gate-cannot-block")) == [
        ("gate-cannot-block", 5), ("run-refused", 3)]
