"""Every rule of `agenthooks.model.rules`, each on a real file, at the line and column it names."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from agenthooks.model.events import foreign_events
from agenthooks.model.handlers import SELECTS_NOTHING, HookFile
from agenthooks.model.rules import MARKDOWN_RULES, RULES
from agenthooks.sources.hooksjson.loader import check_file, load
from agenthooks.sources.paths import sources_for_paths
from agenthooks.sources.reading.text import MAX_CONFIG_BYTES

BAD = Path(__file__).parent / "bad"

# rule id -> (line, column) where its bad file must report it. Files are BAD/<rule>.json, a
# workspace directory BAD/<rule>/, a file written by the test (GENERATED) or a missing path.
EXPECTED: dict[str, tuple[int, int]] = {
    "unreadable": (1, 1),
    "not-a-file": (1, 1),
    "too-large": (1, 1),
    "encoding": (4, 29),
    "bom": (1, 1),
    "json-syntax": (8, 9),
    "json-constant": (6, 20),
    "nesting-too-deep": (2, 210),
    "format-ambiguous": (2, 3),
    "top-level-type": (1, 1),
    "definition-type": (7, 15),
    "enabled-type": (3, 16),
    "unknown-event": (6, 5),
    "event-type": (3, 13),
    "handler-needs-group": (4, 7),
    "group-in-flat-event": (4, 7),
    "group-type": (4, 7),
    "group-hooks": (4, 7),
    "matcher-type": (5, 20),
    "matcher-regex": (5, 20),
    "handler-type": (7, 11),
    "handler-kind": (5, 17),
    "handler-dialect": (6, 20),
    "command-missing": (4, 7),
    "prompt-missing": (4, 7),
    "timeout-invalid": (6, 20),
    "command-unrunnable": (5, 20),
    "schema": (7, 18),
    "unknown-key": (6, 9),
    "duplicate-key": (7, 9),
    "flat-matcher": (5, 9),
    "script-missing": (7, 24),
    "prompt-handler": (5, 17),
    "no-events": (2, 11),
    "matcher-backtracking": (5, 20),
    "matcher-misspelt": (5, 20),
    "matcher-other-host": (5, 20),
    "matcher-unknown-tool": (5, 20),
    "timeout-seconds": (6, 20),
    "control-character": (5, 20),
    "duplicate-handler": (9, 60),
}

# Rules about discovery, the user config or what a run reads rather than one file's content,
# each with tests of its own (tests/cli/commands/test_nearmiss.py, test_recursion.py...).
DISCOVERY_RULES = {"unsafe-workspace", "near-miss", "user-config", "runs-itself",
                   "config-missing", "wiring-runs-nothing", "gate-cannot-block", "run-refused"}

# Bad files that cannot be committed as text: git and editors would "fix" them.
GENERATED: dict[str, bytes] = {
    "bom": b'\xef\xbb\xbf{\n  "lint": {\n    "Stop": [{ "command": "make lint" }]\n  }\n}\n',
    "encoding": (
        b'{\n  "lint": {\n    "Stop": [\n      { "command": "echo caf\xe9 ok" }\n    ]\n  }\n}\n'
    ),
    # 600 levels: Python's json and a recursive reader would both raise RecursionError near 1000.
    "nesting-too-deep": b'{\n  "deep": ' + b"[" * 600 + b"]" * 600 + b"\n}\n",
}
# Rules whose bad file is not a JSON text: made by `special_path`.
SPECIAL = {"unreadable", "not-a-file", "too-large"}

# A finding that comes with the rule's own, by construction: a prompt handler always gets
# the prompt-handler warning.
ALSO: dict[str, set[str]] = {
    "prompt-missing": {"prompt-handler"},
    "schema": {"prompt-handler"},
}


def bad_path(rule: str, tmp_path: Path) -> Path:
    """The file (or workspace directory) that breaks `rule`."""
    if rule in GENERATED:
        path = tmp_path / f"{rule}.json"
        path.write_bytes(GENERATED[rule])
        return path
    if rule in SPECIAL:
        return special_path(rule, tmp_path)
    if (BAD / rule).is_dir():
        return BAD / rule
    return BAD / f"{rule}.json"


def special_path(rule: str, tmp_path: Path) -> Path:
    path = tmp_path / "hooks.json"
    if rule == "not-a-file":
        os.mkfifo(path)  # opening it to read would block until a writer came: it must not
    elif rule == "too-large":
        with path.open("wb") as handle:  # sparse: no 16 MiB written
            handle.truncate(MAX_CONFIG_BYTES + 1)
    else:
        path = tmp_path / "does-not-exist" / "hooks.json"
    return path


def check_path(path: Path) -> HookFile:
    sources, empty = sources_for_paths([str(path)])
    assert not empty and len(sources) == 1
    return check_file(sources[0])


def check_text(tmp_path: Path, text: str, name: str = "hooks.json") -> HookFile:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return check_path(path)


def test_every_rule_has_a_bad_file() -> None:
    # Markdown hooks' rules have their own table: tests/sources/markdown/test_validate.py.
    assert set(EXPECTED) | DISCOVERY_RULES == set(RULES) - set(MARKDOWN_RULES)


def test_every_bad_file_is_in_the_table() -> None:
    on_disk = {path.stem if path.is_file() else path.name for path in BAD.iterdir()}
    assert on_disk <= set(EXPECTED), on_disk - set(EXPECTED)
    assert on_disk | set(GENERATED) | SPECIAL == set(EXPECTED)


@pytest.mark.parametrize("rule", sorted(EXPECTED))
def test_bad_file_reports_its_rule_at_its_place(rule: str, tmp_path: Path) -> None:
    hook_file = check_path(bad_path(rule, tmp_path))
    found = {(d.rule, d.line, d.column) for d in hook_file.diagnostics}
    assert (rule, *EXPECTED[rule]) in found, hook_file.diagnostics
    # Each bad file breaks one rule, so that a finding of another rule is a regression.
    assert {d.rule for d in hook_file.diagnostics} <= {rule} | ALSO.get(rule, set())
    severity = RULES[rule].severity
    assert all(d.severity == severity for d in hook_file.diagnostics if d.rule == rule)
    if severity == "error" and rule not in SELECTS_NOTHING:
        assert not hook_file.ok
        assert hook_file.handlers == ()
        # `run` loads the same way and must see the same errors (the schema rule aside: its
        # only shape, a prompt handler's `model`, is skipped by run anyway).
        if rule != "schema":
            assert not load(hook_file.source).ok
    else:
        # A warning, or a matcher that selects nothing: the file runs, in validate's reading
        # as in run's.
        assert hook_file.ok and load(hook_file.source).ok


def test_diagnostics_carry_file_and_pointer(tmp_path: Path) -> None:
    hook_file = check_path(bad_path("timeout-invalid", tmp_path))
    (diagnostic,) = hook_file.diagnostics
    assert diagnostic.file == str(BAD / "timeout-invalid.json")
    assert diagnostic.pointer == "/lint/Stop/0/timeout"
    assert diagnostic.as_json() == {
        "file": diagnostic.file,
        "line": 6,
        "column": 20,
        "severity": "error",
        "rule": "timeout-invalid",
        "message": diagnostic.message,
        "pointer": "/lint/Stop/0/timeout",
    }


def test_script_missing_also_when_not_executable(tmp_path: Path) -> None:
    # Relative to the folder that holds hooks.json, where the handler runs.
    script = tmp_path / ".agents" / "scripts" / "gate.sh"
    script.parent.mkdir(parents=True)
    script.write_text("#!/bin/sh\nexit 0\n")
    script.chmod(0o644)
    hooks = '{"gate": {"Stop": [{"command": "./scripts/gate.sh --fast"}]}}'
    (tmp_path / ".agents" / "hooks.json").write_text(hooks)
    (diagnostic,) = check_path(tmp_path).diagnostics
    assert diagnostic.rule == "script-missing"
    assert "chmod +x ./scripts/gate.sh" in diagnostic.message
    script.chmod(0o755)
    assert check_path(tmp_path).diagnostics == ()


def test_script_paths_are_not_checked_for_the_user_file(home: Path) -> None:
    user = home / ".gemini" / "config" / "hooks.json"
    user.parent.mkdir(parents=True)
    user.write_text('{"gate": {"Stop": [{"command": "./scripts/nowhere.sh"}]}}')
    assert check_path(user).diagnostics == ()


TIMEOUT = '{{\n  "lint": {{\n    "Stop": [{{ "command": "make", "timeout": {} }}]\n  }}\n}}\n'


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ('"10"', "not the string '10'"),
        ("5.0", "write 5, not 5.0"),
        ("0", "not 0"),
        ("-3", "not -3"),
        ("true", "not true"),
        ("2147483648", "at most 2147483647"),
        ("1.5", "not 1.5"),
        ("null", "not null"),
    ],
)
def test_timeout_must_be_a_positive_whole_number(value: str, says: str, tmp_path: Path) -> None:
    text = TIMEOUT.format(value)
    hook_file = check_text(tmp_path, text)
    (diagnostic,) = hook_file.diagnostics
    assert diagnostic.rule == "timeout-invalid"
    line = text.splitlines()[2]
    assert (diagnostic.line, diagnostic.column) == (3, line.index(f": {value}") + 3)
    assert says in diagnostic.message


@pytest.mark.parametrize("value", ["1", "30", "999", "1000", "2147483647"])
def test_timeout_accepts_whole_numbers_within_int32(value: str, tmp_path: Path) -> None:
    hook_file = check_text(tmp_path, TIMEOUT.format(value))
    # 1000 seconds or more is most likely milliseconds: a warning naming the unit.
    rules = ["timeout-seconds"] if int(value) >= 1000 else []
    assert [d.rule for d in hook_file.diagnostics] == rules
    if rules:
        assert f"if you meant {int(value) / 1000:g} seconds" in hook_file.diagnostics[0].message
    assert hook_file.handlers[0].timeout == int(value)


def test_default_timeout_is_30(tmp_path: Path) -> None:
    hook_file = check_text(tmp_path, '{"a": {"Stop": [{"command": "x"}]}}')
    assert hook_file.handlers[0].timeout == 30


def test_did_you_mean_an_event(tmp_path: Path) -> None:
    hook_file = check_text(tmp_path, '{"a": {"PreToolUs": []}}')
    (diagnostic,) = hook_file.diagnostics
    assert diagnostic.rule == "unknown-event"
    assert "did you mean 'PreToolUse'?" in diagnostic.message
    assert (diagnostic.line, diagnostic.column) == (1, 8)  # the key, not its value


def test_did_you_mean_a_handler_key(tmp_path: Path) -> None:
    hook_file = check_text(tmp_path, '{"a": {"Stop": [{"command": "x", "timout": 5}]}}')
    (diagnostic,) = hook_file.diagnostics
    assert (diagnostic.rule, diagnostic.severity) == ("unknown-key", "warning")
    assert "did you mean 'timeout'?" in diagnostic.message
    assert diagnostic.column == 34


def test_did_you_mean_a_handler_type(tmp_path: Path) -> None:
    hook_file = check_text(tmp_path, '{"a": {"Stop": [{"type": "Command", "command": "x"}]}}')
    (diagnostic,) = hook_file.diagnostics
    assert diagnostic.rule == "handler-kind"
    assert "did you mean 'command'?" in diagnostic.message


@pytest.mark.parametrize(
    ("foreign", "ours"),
    [
        ("BeforeTool", "PreToolUse"),
        ("AfterTool", "PostToolUse"),
        ("BeforeModel", "PreInvocation"),
        ("BeforeAgent", "PreInvocation"),
        ("UserPromptSubmit", "PreInvocation"),
        ("AfterModel", "PostInvocation"),
        ("AfterAgent", "Stop"),
        ("SubagentStop", "Stop"),
    ],
)
def test_other_hosts_event_names_get_a_hint(foreign: str, ours: str, tmp_path: Path) -> None:
    assert foreign_events()[foreign] == ours
    hook_file = check_text(tmp_path, json.dumps({"a": {foreign: []}}))
    (diagnostic,) = hook_file.diagnostics
    assert diagnostic.rule == "unknown-event"
    assert f"here it is '{ours}'" in diagnostic.message


def test_duplicate_key_reports_the_later_one(tmp_path: Path) -> None:
    text = (
        '{\n'
        '  "lint": {"Stop": [{"command": "one"}]},\n'
        '  "lint": {"Stop": [{"command": "two"}]}\n'
        '}\n'
    )
    hook_file = check_text(tmp_path, text)
    (diagnostic,) = hook_file.diagnostics
    assert (diagnostic.rule, diagnostic.line, diagnostic.column) == ("duplicate-key", 3, 3)
    assert diagnostic.pointer == "/lint"
    # JSON keeps the last one, and so does agenthooks.
    assert [h.command for h in hook_file.handlers] == ["two"]


def test_columns_count_characters_not_bytes(tmp_path: Path) -> None:
    line = '  "提醒 😀": {"Stop": [{"command": "echo 你好, café", "timeout": "10"}]}'
    hook_file = check_text(tmp_path, "{\n" + line + "\n}\n")
    (diagnostic,) = hook_file.diagnostics
    assert diagnostic.rule == "timeout-invalid"
    assert (diagnostic.line, diagnostic.column) == (2, line.index('"10"') + 1)


def test_missing_keys_are_reported_at_the_enclosing_brace(tmp_path: Path) -> None:
    text = (
        '{"a": {\n'
        '  "PreToolUse": [  {"matcher": "run_command"}  ],\n'
        '  "Stop": [ { "timeout": 5 } ]\n'
        '}}\n'
    )
    hook_file = check_text(tmp_path, text)
    found = {d.rule: (d.line, d.column) for d in hook_file.diagnostics}
    assert found == {"group-hooks": (2, 20), "command-missing": (3, 13)}


def test_unknown_event_with_a_value_points_at_the_key(tmp_path: Path) -> None:
    hook_file = check_text(tmp_path, '{"a": {\n    "Stopp": [{"command": "x"}]\n}}')
    (diagnostic,) = hook_file.diagnostics
    assert (diagnostic.line, diagnostic.column) == (2, 5)


def test_keeps_going_after_the_first_error(tmp_path: Path) -> None:
    text = """{
  "a": {
    "enabled": "yes",
    "PreToolUs": [],
    "PreToolUse": [
      { "matcher": "(", "hooks": [{ "command": "x", "timeout": 0 }] },
      { "command": "flat" }
    ],
    "Stop": [{ "type": "shell", "command": "" }]
  },
  "b": []
}
"""
    hook_file = check_text(tmp_path, text)
    rules = [(d.rule, d.line) for d in hook_file.diagnostics]
    assert rules == [
        ("enabled-type", 3),
        ("unknown-event", 4),
        ("matcher-regex", 6),
        ("timeout-invalid", 6),
        ("handler-needs-group", 7),
        ("handler-kind", 9),
        ("command-missing", 9),
        ("definition-type", 11),
    ]


def test_whitespace_only_command_is_missing(tmp_path: Path) -> None:
    hook_file = check_text(tmp_path, '{"a": {"Stop": [{"command": "   "}]}}')
    (diagnostic,) = hook_file.diagnostics
    assert diagnostic.rule == "command-missing"


def test_trailing_comma_and_comment_get_a_cause(tmp_path: Path) -> None:
    comma = check_text(tmp_path, '{"a": {"Stop": [],}}')
    assert "trailing commas are not allowed" in comma.diagnostics[0].message
    comment = check_text(tmp_path, '{\n  // hooks\n  "a": {}\n}')
    (diagnostic,) = comment.diagnostics
    assert (diagnostic.rule, diagnostic.line, diagnostic.column) == ("json-syntax", 2, 3)
    assert "comments are not allowed" in diagnostic.message


def test_good_files_have_handlers_in_file_order(tmp_path: Path) -> None:
    hook_file = check_path(Path(__file__).parent / "good" / "every-event.json")
    assert hook_file.diagnostics == ()
    assert [(h.hook, h.event, h.command) for h in hook_file.handlers] == [
        ("gate", "PreToolUse", "python3 -c pass"),
        ("gate", "PostToolUse", "true"),
        ("gate", "PostToolUse", "echo linted"),
        ("loop", "PreInvocation", "echo before"),
        ("loop", "PostInvocation", "echo after"),
        ("loop", "Stop", "echo stop"),
        ("loop", "SessionStart", "echo hello"),
    ]


# --- matcher-backtracking ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("matcher", "warned"),
    [
        (r"(\w+\s?)+", True),
        (r"(a+)+b", True),
        (r"(?:mcp_(\w+_)*)+x", True),
        (r"(a|ab{1,3})*c", True),
        (r"run_command", False),
        (r"view_.*|list_dir", False),
        (r"mcp__.*__(read|write)_.*", False),
        (r"(ab{2})+", False),  # a fixed count inside repeats one way only
        (r"(a++)+", False),  # possessive: never backtracks into itself
        (r"(?>a+)+", False),  # atomic group
        (r"", False),
    ],
)
def test_nested_quantifiers_are_warned_about(matcher: str, warned: bool, tmp_path: Path) -> None:
    doc = {"g": {"PreToolUse": [{"matcher": matcher, "hooks": [{"command": "x"}]}]}}
    hook_file = check_text(tmp_path, json.dumps(doc))
    rules = [d.rule for d in hook_file.diagnostics]
    assert rules == (["matcher-backtracking"] if warned else [])
    assert hook_file.ok  # a warning: the matcher still runs


# --- commands and names that cannot run, or would hide -----------------------------------------


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("make\u0000lint", "command-unrunnable"),
        ("echo \ud800", "command-unrunnable"),
        ("echo ok\rrm -rf ~", "control-character"),
        ("echo \u001b[2J", "control-character"),
        ("echo \u202eexe.sh", "control-character"),  # a bidi override reorders what is seen
        ("echo\ttabs are fine", None),
        ("echo 你好 café", None),
    ],
)
def test_commands_with_control_characters(command: str, rule: str | None,
                                          tmp_path: Path) -> None:
    text = json.dumps({"g": {"Stop": [{"command": command}]}})
    hook_file = check_text(tmp_path, text)
    assert [d.rule for d in hook_file.diagnostics] == ([rule] if rule else [])
    if rule is not None:
        (diagnostic,) = hook_file.diagnostics
        assert (diagnostic.line, diagnostic.column) == (1, text.index(': "') + 3)
    # An unrunnable command is an error for `run` as well: the file is skipped.
    assert load(hook_file.source).ok == (rule != "command-unrunnable")


def test_hook_names_with_control_characters(tmp_path: Path) -> None:
    text = '{\n  "lint\\r\\u001b[2K": {"Stop": [{"command": "make"}]}\n}'
    (diagnostic,) = check_text(tmp_path, text).diagnostics
    assert (diagnostic.rule, diagnostic.line, diagnostic.column) == ("control-character", 2, 3)
    assert "'lint\\r\\x1b[2K'" in diagnostic.message


# --- duplicate-handler -------------------------------------------------------------------------


def handlers_doc(*hooks: tuple[str, str, str | None, str]) -> str:
    """A document of (hook name, event, matcher, command)."""
    doc: dict[str, dict[str, list[object]]] = {}
    for name, event, matcher, command in hooks:
        item: dict[str, object] = {"command": command}
        if event in ("PreToolUse", "PostToolUse"):
            group: dict[str, object] = {"hooks": [item]}
            if matcher is not None:
                group["matcher"] = matcher
            item = group
        doc.setdefault(name, {}).setdefault(event, []).append(item)
    return json.dumps(doc, indent=2)


@pytest.mark.parametrize(
    ("hooks", "warned"),
    [
        ((("a", "Stop", None, "x"), ("b", "Stop", None, "x")), True),
        ((("a", "PreToolUse", "*", "x"), ("b", "PreToolUse", "run_command", "x")), True),
        ((("a", "PreToolUse", "view_file", "x"), ("b", "PreToolUse", "run_command", "x")),
         False),  # never the same tool call
        ((("a", "Stop", None, "x"), ("b", "SessionStart", None, "x")), False),
        ((("a", "Stop", None, "x"), ("b", "Stop", None, "y")), False),
        ((("a", "Stop", None, "x"), ("a", "Stop", None, "x")), False),  # one hook
    ],
)
def test_duplicate_handlers_under_two_names(hooks: tuple[tuple[str, str, str | None, str], ...],
                                            warned: bool, tmp_path: Path) -> None:
    hook_file = check_text(tmp_path, handlers_doc(*hooks))
    rules = [d.rule for d in hook_file.diagnostics]
    assert rules == (["duplicate-handler"] if warned else [])
    if warned:
        assert "AGENTHOOKS_HOOK_NAME=a" in hook_file.diagnostics[0].message


def test_duplicates_differ_by_timeout_or_a_disabled_hook(tmp_path: Path) -> None:
    timeouts = {"a": {"Stop": [{"command": "x"}]}, "b": {"Stop": [{"command": "x", "timeout": 5}]}}
    assert check_text(tmp_path, json.dumps(timeouts)).diagnostics == ()
    disabled = {"a": {"enabled": False, "Stop": [{"command": "x"}]},
                "b": {"Stop": [{"command": "x"}]}}
    assert check_text(tmp_path, json.dumps(disabled)).diagnostics == ()


# --- script-missing for interpreters -----------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        "python3 ../.githooks/agent-stop.py",
        "python ../.githooks/agent-stop.py --fast",
        "/usr/bin/env python3 ../.githooks/agent-stop.py",
        "node ../.githooks/agent-stop.js",
        "bash scripts/stop.sh",
        "sh stop.sh",
        "deno run ../.githooks/stop.ts",
    ],
)
def test_the_script_of_an_interpreter_must_exist(command: str, tmp_path: Path) -> None:
    # The trap Antigravity sets: handlers run in .agents/, so ../.githooks is the repository's.
    hooks = tmp_path / ".agents" / "hooks.json"
    hooks.parent.mkdir()
    hooks.write_text(json.dumps({"stop": {"Stop": [{"command": command}]}}))
    (diagnostic,) = check_path(tmp_path).diagnostics
    assert diagnostic.rule == "script-missing"
    script = command.split()[-2 if command.endswith("--fast") else -1]
    assert diagnostic.message.startswith(
        f"{script} does not exist in {tmp_path / '.agents'}, where the handler runs"
    )
    target = tmp_path / ".agents" / script
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("")  # an interpreter needs no exec bit
    assert check_path(tmp_path).diagnostics == ()


@pytest.mark.parametrize(
    "command",
    ["python3 -m mypkg.hook", "bash -c 'exit 0'", "python3", "node /abs/hook.js",
     "python3 $HOME/hook.py", "make python3", "python3 ~/hook.py"],
)
def test_interpreter_commands_without_a_relative_script(command: str, tmp_path: Path) -> None:
    hooks = tmp_path / ".agents" / "hooks.json"
    hooks.parent.mkdir()
    hooks.write_text(json.dumps({"stop": {"Stop": [{"command": command}]}}))
    assert check_path(tmp_path).diagnostics == ()
