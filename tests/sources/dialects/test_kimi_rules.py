"""Kimi Code's config.toml, each rule at its line and column, the handlers it registers, and
what its matchers select (@moonshot-ai/kimi-code 2.1.0: externalHooks `configSection.ts`,
`matchHooks.ts`; app/config `buildValidated`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from agenthooks.sources.dialects.matching import selection, selects
from tests.sources.dialects.conftest import check_file, found

CONFIG = ".kimi-code/config.toml"


def entry(event: str = "PreToolUse", **keys: object) -> str:
    lines = ["[[hooks]]", f'event = "{event}"', 'command = "true"']
    lines += [f"{key} = {value!r}".replace("'", '"') for key, value in keys.items()]
    return "\n".join(lines) + "\n"


# (text, the findings: rule, line, column).
CASES: list[tuple[str, list[tuple[str, int, int]]]] = [
    ('default_model = "kimi"\n', []),
    (entry(matcher="Bash", timeout=5), []),
    (entry("UserPromptSubmit", matcher="deploy"), []),
    # The strict schema: one bad entry and Kimi Code drops every hook of the file.
    (entry(timeout=601), [("kimi-hooks-ignored", 4, 11)]),
    (entry(timeout=0), [("kimi-hooks-ignored", 4, 11)]),
    (entry(timeout=1.5), [("kimi-hooks-ignored", 4, 11)]),
    (entry() + "async = true\n", [("kimi-hooks-ignored", 4, 1)]),
    (entry("PreToolUs"), [("kimi-hooks-ignored", 2, 9)]),
    ('[[hooks]]\nevent = "Stop"\ncommand = ""\n', [("kimi-hooks-ignored", 3, 11)]),
    ('[[hooks]]\nevent = "Stop"\n', [("kimi-hooks-ignored", 1, 1)]),
    ('hooks = "x"\n', [("kimi-hooks-ignored", 1, 1)]),
    (entry(matcher="(Bash"), [("matcher-regex", 4, 11)]),
    # No value to test a Stop matcher against but "": `Bash` never matches it.
    (entry("Stop", matcher="Bash"), [("matcher-never-runs", 4, 11)]),
    (entry("Stop", matcher=".*"), []),
    # Claude Code's shell tool is Kimi Code's too; Gemini CLI's is not.
    (entry(matcher="run_shell_command"), [("matcher-wrong-host", 4, 11)]),
    ('[[hooks]]\nevent = "Stop"\ncommand = "   "\n', [("command-missing", 3, 11)]),
    ("[[hooks]\n", [("toml-syntax", 1, 8)]),
]


@pytest.mark.parametrize(("text", "expected"), CASES,
                         ids=[f"{i}-{e[0][0] if e else 'fine'}" for i, (_, e) in enumerate(CASES)])
def test_rule_at_line_and_column(tmp_path: Path, text: str,
                                 expected: list[tuple[str, int, int]]) -> None:
    assert sorted(found(check_file(tmp_path, CONFIG, "kimi", text))) == sorted(expected)


def test_the_handlers_kimi_registers(tmp_path: Path) -> None:
    text = entry(matcher="Bash", timeout=5) + entry("Stop")
    hook_file = check_file(tmp_path, CONFIG, "kimi", text)
    assert [(h.event, h.matcher, h.command, h.timeout, h.pointer, h.dialect)
            for h in hook_file.handlers] == [
        ("PreToolUse", "Bash", "true", 5.0, "/hooks/0", "kimi"),
        ("Stop", None, "true", 30.0, "/hooks/1", "kimi")]


def test_one_bad_entry_leaves_no_hook_to_run(tmp_path: Path) -> None:
    """Kimi Code drops the whole `hooks` section: so does agenthooks."""
    hook_file = check_file(tmp_path, CONFIG, "kimi", entry() + entry(timeout=900))
    assert hook_file.handlers == ()
    assert not hook_file.ok


def test_a_never_running_matcher_keeps_the_rest(tmp_path: Path) -> None:
    hook_file = check_file(tmp_path, CONFIG, "kimi", entry("Stop", matcher="Bash") + entry())
    assert [h.event for h in hook_file.handlers] == ["Stop", "PreToolUse"]
    assert hook_file.ok


@pytest.mark.parametrize(("matcher", "event", "value", "selected"), [
    (None, "PreToolUse", "Bash", True),
    ("", "PreToolUse", "Bash", True),
    ("Bash", "PreToolUse", "Bash", True),
    ("Bash", "PreToolUse", "BashOutput", True),  # searched, not whole
    ("^Bash$", "PreToolUse", "BashOutput", False),
    ("Read|Write", "PreToolUse", "Write", True),
    ("(Bash", "PreToolUse", "Bash", False),  # not a regex: nothing
    ("deploy", "UserPromptSubmit", "please deploy now", True),  # the prompt's text
    ("Bash", "Stop", None, False),  # tested against ""
    (".*", "Stop", None, True),
    ("^$", "SessionHeartbeat", None, True),
])
def test_what_a_matcher_selects(matcher: str | None, event: str, value: str | None,
                                selected: bool) -> None:
    assert selects(selection("kimi", matcher, event), value) is selected
