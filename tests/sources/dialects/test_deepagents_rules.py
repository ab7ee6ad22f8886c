"""deepagents-code's hooks.json, each rule at its line and column, what its matchers select and
the handlers it registers (PyPI deepagents-code 0.2.2, deepagents_code/hooks: `loading.py`,
`snapshot.py`, `models/config.py`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agenthooks.sources.dialects.deepagents import is_name_list
from agenthooks.sources.dialects.matching import selection, selects
from tests.sources.dialects.conftest import check_file, found

FILE = ".deepagents/hooks.json"


def group(matcher: str, event: str = "PreToolUse", handler: str = "") -> str:
    return ('{"hooks": {"' + event + '": [{"matcher": "' + matcher + '",\n'
            '  "hooks": [{"type": "command", "command": "true"' + handler + '}]}]}}\n')


# (text, the findings: rule, line, column).
CASES: list[tuple[str, list[tuple[str, int, int]]]] = [
    (group("Bash"), []),
    (group("Bash|Write, Edit"), []),
    (group("*"), []),
    (group("^(Bash|LS)$"), []),
    # Its own names are not what its matchers see: Claude Code's are.
    (group("execute"), [("matcher-misspelt", 1, 39)]),
    (group("Bash|edit_file"), [("matcher-misspelt", 1, 39)]),
    (group("read_file"), [("matcher-wrong-host", 1, 39)]),  # Gemini CLI's: said so alone
    (group("Bash("), [("matcher-regex", 1, 39)]),
    # UserPromptSubmit and Stop have no value: a group with a matcher is dropped.
    (group("x", "Stop"), [("matcher-never-runs", 1, 22)]),
    (group("*", "UserPromptSubmit"), []),
    (group("Bash", handler=', "async": true'), [("deepagents-async", 2, 52)]),
    (group("Bash", handler=', "onFailure": "block"'), [("option-ignored", 2, 52)]),
    (group("Bash", handler=', "timeout": 0'), [("timeout-invalid", 2, 63)]),
    ('{"hooks": {"TaskCreated": []}}\n', [("unknown-event", 1, 12)]),
    ('{"hooks": {"Stop": [{"hooks": [{"type": "http", "url": "http://127.0.0.1/"}]}]}}\n',
     [("handler-kind", 1, 41)]),
    ('{"hooks": {"PreToolUse": [{"hooks": [\n'
     '  {"type": "command", "command": "true", "statusMessage": "checking"}]}]}}\n', []),
]


@pytest.mark.parametrize(("text", "expected"), CASES,
                         ids=[f"{i}-{e[0][0] if e else 'fine'}" for i, (_, e) in enumerate(CASES)])
def test_rule_at_line_and_column(tmp_path: Path, text: str,
                                 expected: list[tuple[str, int, int]]) -> None:
    assert sorted(found(check_file(tmp_path, FILE, "deepagents", text))) == sorted(expected)


def test_the_handlers_it_registers(tmp_path: Path) -> None:
    """Its defaults (600 s, 30 s on UserPromptSubmit), `sh -c`, no project variable; a bad
    handler is skipped alone."""
    text = ('{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "gate.sh",\n'
            '  "timeout": 5}, {"type": "command", "command": "x", "async": true}]}],\n'
            '  "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "note.sh"}]}],\n'
            '  "Stop": [{"hooks": [{"type": "command", "command": "stop.sh"}]}]}}\n')
    checked = check_file(tmp_path, FILE, "deepagents", text)
    assert [(h.event, h.command, h.timeout, h.shell) for h in checked.handlers] == [
        ("PreToolUse", "gate.sh", 5.0, "sh"), ("UserPromptSubmit", "note.sh", 30.0, "sh"),
        ("Stop", "stop.sh", 600.0, "sh")]


MCP = "mcp__github__create_issue"


# matcher -> (the names it selects, those it does not), as `snapshot.py` reads it.
@pytest.mark.parametrize(("matcher", "chosen", "left"), [
    (None, ["Bash", MCP], []),
    ("", ["Bash", MCP], []),
    ("*", ["Bash", MCP], []),
    ("Bash", ["Bash"], ["bash", "BashOutput"]),
    ("Bash , Write|Edit", ["Bash", "Write", "Edit"], ["Read"]),
    ("Bash-x", ["Bash-x"], ["Bash"]),
    ("Bash.*", ["Bash", "BashOutput"], ["bash"]),
    ("Edit$", ["Edit", "MultiEdit"], ["Editor"]),
    ("mcp__github__.*", [MCP], ["Bash"]),
    ("Bash(", [], ["Bash"]),
    ("(?i)bash", ["Bash", "BASH"], ["Read"]),  # a Python regex, its inline flags too
])
def test_what_a_matcher_selects(matcher: str | None, chosen: list[str], left: list[str]) -> None:
    picked = selection("deepagents", matcher, "PreToolUse")
    assert [name for name in chosen if selects(picked, name)] == chosen
    assert [name for name in left if selects(picked, name)] == []


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.text(st.characters(codec="utf-8"), min_size=1, max_size=12)
       | st.text(alphabet="Ab_1 ,-|\t.*é٣", min_size=1, max_size=12))
def test_a_name_list_is_what_its_regex_says(matcher: str) -> None:
    r"""`is_name_list` stands for `re.fullmatch(r"[\w\s,\-|]+", ...)` (`hooks/snapshot.py`),
    Unicode word and space characters included."""
    assert is_name_list(matcher) is (re.fullmatch(r"[\w\s,\-|]+", matcher) is not None)


@pytest.mark.parametrize(("matcher", "runs"), [(None, True), ("", True), ("*", True),
                                               ("x", False), (".*", False)])
def test_a_matcher_on_an_event_with_no_value_drops_its_group(matcher: str | None,
                                                              runs: bool) -> None:
    for event in ("Stop", "UserPromptSubmit"):
        assert selects(selection("deepagents", matcher, event), None) is runs
