"""Each host's schema and `validate` agree on that host's files, checked with jsonschema.

A file `validate` finds no error in is valid for the schema (the sample workspace, the test
fixtures, every case of the rule tables in tests/sources/dialects); a file it reports an error in is
rejected by the schema, except for what no schema can express (SCHEMA_BLIND).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from agenthooks import schemagen
from agenthooks.sources.dialects.load import check_dialect_file
from agenthooks.sources.discovery import dialect_source
from agenthooks.sources.hooksjson.loader import check_file
from agenthooks.sources.paths import sources_for_paths
from tests.sources.dialects import (
    test_codex_rules,
    test_copilot_rules,
    test_cursor_rules,
    test_factory_rules,
    test_rules,
    test_rulesync_rules,
)

REPO = Path(__file__).resolve().parent.parent.parent
# Where each host's file is written, so that validate reads it as that host's.
PLACES = {"claude": ".claude/settings.json", "gemini": ".gemini/settings.json",
          "cursor": ".cursor/hooks.json", "codex": ".codex/hooks.json",
          "copilot": ".github/hooks/gates.json", "antigravity": ".agents/hooks.json",
          "rulesync": ".rulesync/hooks.jsonc", "factory": ".factory/hooks.json"}
# Errors no schema can see: regexes (a schema's `pattern` is ECMA 262, the hosts' are not),
# another host's or a misspelt tool name. BLIND lists each kind, with a file.
SCHEMA_BLIND = frozenset(("matcher-regex", "matcher-wrong-host", "matcher-misspelt"))


def validator(host: str) -> Any:
    schema = schemagen.build(schemagen.schema_file(host))
    return jsonschema.Draft7Validator(schema)


def validate_errors(root: Path, host: str, text: str) -> list[str]:
    """The rules of the errors `validate` reports in `text`, as the host's file."""
    path = root / PLACES[host]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    if host == "antigravity":
        sources, _ = sources_for_paths([str(path)])
        hook_file = check_file(sources[0])
    else:
        source = dialect_source(str(path), host, str(root), os.getcwd())
        hook_file = check_dialect_file(source).hook_file
    return [d.rule for d in hook_file.diagnostics if d.severity == "error"]


def schema_errors(host: str, text: str) -> list[str]:
    doc = json.loads(text)
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
            for e in validator(host).iter_errors(doc)]


def _table_cases() -> list[tuple[str, str]]:
    """(host, file text) of every case of the rule tables in tests/sources/dialects."""
    cases = [(dialect, text) for dialect, text, _ in test_rules.CASES]
    cases += [("cursor", text) for text, _ in test_cursor_rules.CASES]
    cases += [("codex", text) for text, _ in test_codex_rules.CASES]
    cases += [("copilot", text) for text, _ in test_copilot_rules.CASES]
    cases += [("rulesync", text) for text, _ in test_rulesync_rules.CASES]
    # Factory Droid's hooks.json, but for a top-level key that is no event: one schema takes
    # its settings files too, whose other keys are settings.
    cases += [("factory", text) for rel, text, expected in test_factory_rules.CASES
              if rel == test_factory_rules.HOOKS
              and all(rule != "unknown-event" for rule, _, _ in expected)]
    return cases


def _file_cases() -> list[tuple[str, Path]]:
    """(host, file) of the sample workspace and the fixtures of the tests."""
    samples = REPO / "sample_hooks"
    files = [("claude", samples / ".claude/settings.json"),
             ("gemini", samples / ".gemini/settings.json"),
             ("antigravity", samples / ".agents/hooks.json")]
    good = REPO / "tests/sources/hooksjson/good"
    files += [("antigravity", path) for path in sorted(good.glob("*.json"))]
    invariant = REPO / "tests/invariant"
    files += [("antigravity", path) for path in sorted(invariant.glob("*/.agents/hooks.json"))]
    files += [("gemini", path) for path in sorted(invariant.glob("*/.gemini/settings.json"))]
    files += [("claude", invariant / "claude-hooks.json")]
    return files


def _parses(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


TABLE = [(host, text) for host, text in _table_cases() if _parses(text)]


def assert_agree(root: Path, host: str, text: str) -> list[str]:
    """The schema accepts what validate finds no error in, and rejects what it reports an
    error in (but for SCHEMA_BLIND); returns validate's errors."""
    found = validate_errors(root, host, text)
    rejected = schema_errors(host, text)
    if not found:
        assert rejected == [], f"validate finds no error, the schema does: {rejected}"
    elif not set(found) <= SCHEMA_BLIND:
        assert rejected, f"validate reports {found}, the schema accepts the file"
    return found


@pytest.mark.parametrize(("host", "text"), TABLE, ids=[f"{h}-{i}" for i, (h, _) in
                                                      enumerate(TABLE)])
def test_the_rule_tables_cases(tmp_path: Path, host: str, text: str) -> None:
    assert_agree(tmp_path, host, text)


def test_the_rule_tables_have_both_kinds_of_case(tmp_path: Path) -> None:
    """Keep the table test meaningful: many cases of each kind, for every host."""
    for host in ("claude", "gemini", "cursor", "codex", "copilot"):
        found = [bool(validate_errors(tmp_path / str(index), host, text))
                 for index, (other, text) in enumerate(TABLE) if other == host]
        assert found.count(True) >= 2 and found.count(False) >= 3, host


@pytest.mark.parametrize(("host", "path"), _file_cases(),
                         ids=[f"{h}-{p.relative_to(REPO)}" for h, p in _file_cases()])
def test_sample_and_fixture_files(tmp_path: Path, host: str, path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    if host == "gemini":  # JSON with comments: the schema sees the document without them
        from agenthooks.sources.dialects.load import strip_comments

        text = strip_comments(text)
    found = assert_agree(tmp_path, host, text)
    if path.is_relative_to(REPO / "sample_hooks") or "good" in path.parts:
        assert found == [], path


def _file(host: str, hooks: dict[str, Any], **top: Any) -> str:
    """A host's file holding `hooks`, with the top-level keys it needs."""
    if host in ("cursor", "copilot"):
        top = {"version": 1, **top}
    return json.dumps({**top, "hooks": hooks})


def _grouped(event: str, handler: Any, **group: Any) -> dict[str, Any]:
    return {event: [{**group, "hooks": [handler]}]}


CMD = {"type": "command", "command": "x"}
# (host, file text, the error validate reports): each rejected by the host's schema too.
INVALID: list[tuple[str, str, str]] = [
    ("claude", _file("claude", {"PreToolUze": []}), "unknown-event"),
    ("claude", _file("claude", {"Stop": {}}), "event-type"),
    ("claude", _file("claude", {"Stop": [CMD]}), "handler-needs-group"),
    ("claude", _file("claude", {"Stop": [{"matcher": ""}]}), "group-hooks"),
    ("claude", _file("claude", {"Stop": [{"hooks": ["ls"]}]}), "handler-type"),
    ("claude", _file("claude", _grouped("Stop", {"command": "x"})), "handler-kind"),
    ("claude", _file("claude", _grouped("Stop", {"type": "Command", "command": "x"})),
     "handler-kind"),
    ("claude", _file("claude", _grouped("Stop", {"type": "command"})), "command-missing"),
    ("claude", _file("claude", _grouped("Stop", {"type": "command", "command": ""})),
     "command-missing"),
    ("claude", _file("claude", _grouped("Stop", {**CMD, "timeout": "10"})), "timeout-invalid"),
    ("claude", _file("claude", _grouped("Stop", {**CMD, "timeout": 0})), "timeout-invalid"),
    ("claude", _file("claude", _grouped("Stop", {**CMD, "timeout": True})), "timeout-invalid"),
    ("claude", _file("claude", _grouped("Stop", {**CMD, "timeout": 2147484})),
     "timeout-invalid"),
    ("claude", _file("claude", _grouped("Stop", {**CMD, "async": "yes"})), "option-type"),
    ("claude", _file("claude", _grouped("Stop", {**CMD, "args": "a b"})), "option-type"),
    ("claude", _file("claude", _grouped("Stop", {**CMD, "command": "a\u0000b"})),
     "command-unrunnable"),
    ("claude", _file("claude", _grouped("Stop", {"type": "http"})), "field-missing"),
    ("claude", _file("claude", _grouped("Stop", {"type": "http", "url": "file:///x"})),
     "url-scheme"),
    ("claude", _file("claude", _grouped("Stop", {"type": "mcp_tool", "server": "s"})),
     "field-missing"),
    ("claude", _file("claude", _grouped("Stop", {"type": "prompt"})), "prompt-missing"),
    ("claude", _file("claude", _grouped("Stop", CMD, sequential="yes")), "option-type"),
    ("claude", _file("claude", _grouped("PreToolUse", CMD, matcher=["Bash"])), "matcher-type"),
    ("claude", _file("claude", {}, disableAllHooks="yes"), "hooks-config-invalid"),
    ("claude", json.dumps({"hooks": []}), "settings-type"),
    ("gemini", _file("gemini", {"PreToolUse": []}), "unknown-event"),
    ("gemini", _file("gemini", _grouped("AfterAgent", {**CMD, "timeout": -5})),
     "timeout-invalid"),
    ("gemini", _file("gemini", _grouped("AfterAgent", {**CMD, "timeout": 2**31})),
     "timeout-invalid"),
    ("gemini", _file("gemini", _grouped("AfterAgent", {**CMD, "env": {"A": 1}})), "option-type"),
    ("gemini", _file("gemini", _grouped("AfterAgent", {"type": "runtime"})), "field-missing"),
    ("gemini", _file("gemini", _grouped("AfterAgent", CMD, sequential=1)), "option-type"),
    ("gemini", _file("gemini", {}, hooksConfig={"disabled": "x"}), "hooks-config-invalid"),
    ("gemini", _file("gemini", {}, hooksConfig=[]), "hooks-config-invalid"),
    ("cursor", _file("cursor", {"PreToolUse": []}), "unknown-event"),
    ("cursor", _file("cursor", {"stop": [{"matcher": "x", "hooks": []}]}),
     "group-in-flat-event"),
    ("cursor", _file("cursor", {"stop": [3]}), "handler-type"),
    ("cursor", _file("cursor", {"stop": [{}]}), "command-missing"),
    ("cursor", _file("cursor", {"stop": [{"type": "prompt"}]}), "prompt-missing"),
    ("cursor", _file("cursor", {"stop": [{"type": "shell", "command": "x"}]}), "handler-kind"),
    ("cursor", _file("cursor", {"stop": [{"command": "x", "timeout": "5"}]}), "timeout-invalid"),
    ("cursor", _file("cursor", {"stop": [{"command": "x", "loop_limit": -1}]}), "option-type"),
    ("cursor", _file("cursor", {"stop": [{"command": "x", "failClosed": "no"}]}),
     "option-type"),
    ("cursor", _file("cursor", {"stop": [{"command": "x", "matcher": 1}]}), "option-type"),
    ("cursor", _file("cursor", {}, version=2), "version-invalid"),
    ("codex", _file("codex", {}, version=1), "codex-root-key"),
    ("codex", _file("codex", {"Stop": [{"hooks": [{"command": "x"}]}]}), "handler-kind"),
    ("codex", _file("codex", _grouped("Stop", {**CMD, "timeout": 1.5})), "timeout-invalid"),
    ("codex", _file("codex", _grouped("Stop", {**CMD, "timeout": -1})), "timeout-invalid"),
    ("codex", _file("codex", _grouped("Stop", {"type": "command"})), "command-missing"),
    ("codex", _file("codex", _grouped("Stop", {**CMD, "async": 1})), "option-type"),
    ("codex", _file("codex", {"Stop": "x"}), "event-type"),
    ("copilot", _file("copilot", {}, version="1"), "version-invalid"),
    ("copilot", _file("copilot", {"agentStop": {}}), "event-type"),
    ("copilot", json.dumps({"version": 1, "hooks": []}), "settings-type"),
]
# (host, file text): what validate only warns about, which the schema lets through.
WARNED: list[tuple[str, str]] = [
    ("claude", _file("claude", _grouped("Stop", {**CMD, "colour": "red"}), model="opus")),
    ("claude", _file("claude", _grouped("Stop", CMD, matcher="Bash", note=1))),
    ("gemini", _file("gemini", {"enabled": True})),
    ("gemini", _file("gemini", _grouped("BeforeTool", {**CMD, "timeout": 5}))),
    ("gemini", _file("gemini", {}, hooksConfig={"colour": 1})),
    ("cursor", json.dumps({"hooks": {"stop": [{"command": "x"}]}, "extra": 1})),
    ("cursor", _file("cursor", {"sessionStart": [{"command": "x", "loop_limit": 3}]})),
    ("codex", _file("codex", {"PreToolUze": 5})),
    ("codex", _file("codex", _grouped("Stop", {"type": "prompt", "timeout": "x"}))),
    ("codex", _file("codex", _grouped("Stop", {**CMD, "timeout": 0}))),
    ("copilot", _file("copilot", {"pretooluse": 5})),
    ("copilot", _file("copilot", {"ErrorOccurred": 5})),
    ("copilot", _file("copilot", {"agentStop": [3, {"type": "command"}, {"bash": 5}]})),
    ("copilot", _file("copilot", {"agentStop": [{"bash": "x", "timeoutSec": "slow"}]},
                      disableAllHooks="yes")),
]


@pytest.mark.parametrize(("host", "text", "rule"), INVALID,
                         ids=[f"{h}-{r}-{i}" for i, (h, _, r) in enumerate(INVALID)])
def test_what_validate_calls_an_error_the_schema_rejects(tmp_path: Path, host: str, text: str,
                                                        rule: str) -> None:
    assert rule in validate_errors(tmp_path, host, text)
    assert schema_errors(host, text), text


@pytest.mark.parametrize(("host", "text"), WARNED, ids=[f"{h}-{i}" for i, (h, _) in
                                                        enumerate(WARNED)])
def test_what_validate_only_warns_about_the_schema_lets_through(tmp_path: Path, host: str,
                                                                text: str) -> None:
    assert validate_errors(tmp_path, host, text) == []
    assert schema_errors(host, text) == [], text


# (host, file text, the error validate reports) that no schema can see, so `validate` alone
# reports it: the list stays honest, each schema letting its file through.
BLIND: list[tuple[str, str, str]] = [
    ("claude", _file("claude", _grouped("PreToolUse", CMD, matcher="Edit(")), "matcher-regex"),
    ("claude", _file("claude", _grouped("PreToolUse", CMD, matcher="run_shell_command")),
     "matcher-wrong-host"),
    ("claude", _file("claude", _grouped("PreToolUse", CMD, matcher="Grepp")), "matcher-misspelt"),
    # minLength counts blanks; a command of blanks runs nothing
    ("claude", _file("claude", _grouped("Stop", {"type": "command", "command": "  "})),
     "command-missing"),
    ("cursor", _file("cursor", {"stop": [{"command": "\t"}]}), "command-missing"),
    # a schema's integer takes 5.0; Codex's u64 does not
    ("codex", _file("codex", _grouped("Stop", {**CMD, "timeout": 5.0})), "timeout-invalid"),
    ("cursor", _file("cursor", {"stop": [{"command": "x", "loop_limit": 2.0}]}), "option-type"),
]


@pytest.mark.parametrize(("host", "text", "rule"), BLIND,
                         ids=[f"{h}-{r}-{i}" for i, (h, _, r) in enumerate(BLIND)])
def test_what_no_schema_can_see_is_for_validate_alone(tmp_path: Path, host: str, text: str,
                                                   rule: str) -> None:
    assert rule in validate_errors(tmp_path, host, text)
    assert schema_errors(host, text) == [], f"the schema rejects it after all: {text}"


def test_the_blind_rules_each_have_a_case() -> None:
    assert SCHEMA_BLIND.issubset(rule for _, _, rule in BLIND)
