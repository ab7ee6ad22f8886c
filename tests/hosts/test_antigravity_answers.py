"""Antigravity CLI's two documented answers, read from real handler processes.

Antigravity's hooks page documents `{"decision": "deny", "reason": ...}`; Google's migration
guide from Gemini CLI (google-gemini/gemini-cli@a69d422
docs/resources/migrating-to-antigravity-cli.md, "Hooks") documents
`{"allowTool": false, "denyReason": ...}` for the same block. A handler that answers either way
must block: ignoring `allowTool: false` would let the tool run.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from agenthooks.api import EventResult, load_hooks
from agenthooks.kinds.protocols.antigravity import read_decision

pytestmark = pytest.mark.program


def ran(tmp_path: Path, output: dict[str, Any], event: str = "PreToolUse") -> EventResult:
    """One hooks.json handler (a real `/bin/sh` process) that prints `output`."""
    handler = [{"command": f"echo '{json.dumps(output)}'"}]
    group: Any = [{"matcher": "", "hooks": handler}] if event == "PreToolUse" else handler
    path = tmp_path / "hooks.json"
    path.write_text(json.dumps({"h": {event: group}}), encoding="utf-8")
    payload = {"toolCall": {"name": "run_command", "args": {"CommandLine": "rm -rf /"}}}
    return load_hooks(configs=[str(path)]).run(event, json.dumps(payload).encode())


def test_allow_tool_false_is_a_deny_with_its_reason(tmp_path: Path) -> None:
    result = ran(tmp_path, {"allowTool": False, "denyReason": "no recursive deletes"})
    assert result.blocked
    assert (result.decision.word, result.decision.reason) == ("deny", "no recursive deletes")


def test_allow_tool_false_without_a_reason_still_denies(tmp_path: Path) -> None:
    result = ran(tmp_path, {"allowTool": False})
    assert result.blocked and result.decision.word == "deny"


def test_allow_tool_true_is_an_allow(tmp_path: Path) -> None:
    result = ran(tmp_path, {"allowTool": True})
    assert not result.blocked and result.decision.word == "allow"


@pytest.mark.parametrize(("output", "expected"), [
    # The two vocabularies agree, or one is silent.
    ({"allowTool": False, "denyReason": "r"}, ("deny", "r", None)),
    ({"allowTool": True}, ("allow", None, None)),
    ({"decision": "deny", "reason": "r", "allowTool": False}, ("deny", "r", None)),
    # They disagree: the more restrictive one wins, never the allow.
    ({"decision": "allow", "allowTool": False, "denyReason": "r"}, ("deny", "r", None)),
    ({"decision": "deny", "reason": "r", "allowTool": True}, ("deny", "r", None)),
    ({"decision": "ask", "allowTool": False}, ("deny", None, None)),
    # Not a boolean: unknown, reported, ignored (as an unknown decision word is).
    ({"allowTool": "false"}, (None, None, 'allowTool: "false"')),
    ({"allowTool": 0}, (None, None, "allowTool: 0")),
])
def test_read_decision_reads_both_vocabularies(output: dict[str, Any],
                                               expected: tuple[Any, ...]) -> None:
    assert read_decision(output, "PreToolUse") == expected


def deny_in_claudes_words(reason: str, **more: Any) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                   "permissionDecisionReason": reason}, **more}


@pytest.mark.parametrize(("output", "event", "expected"), [
    # A hooks.json handler written for Claude Code, Gemini CLI or Antigravity is read in its
    # own words: Claude Code's permissionDecision, Gemini CLI's block/deny.
    (deny_in_claudes_words("secret"), "PreToolUse", ("deny", "secret", None)),
    ({"decision": "block", "reason": "secret"}, "PreToolUse", ("deny", "secret", None)),
    ({"decision": "deny", "reason": "secret"}, "PreToolUse", ("deny", "secret", None)),
    # Two vocabularies in one answer: the more restrictive wins, whichever is written first.
    (deny_in_claudes_words("secret", decision="allow"), "PreToolUse",
     ("deny", "secret", None)),
    ({"decision": "ask", "hookSpecificOutput": {"permissionDecision": "allow"}}, "PreToolUse",
     ("ask", None, None)),
    ({"decision": "allow", "hookSpecificOutput": {"permissionDecision": "ask"}}, "PreToolUse",
     ("ask", None, None)),
    # An unknown word in one is reported; the other still counts.
    (deny_in_claudes_words("secret", decision="nope"), "PreToolUse",
     ("deny", "secret", "nope")),
    ({"decision": "block", "reason": "again"}, "Stop", ("continue", "again", None)),
    # Copilot CLI's answer: permissionDecision at the top level.
    ({"permissionDecision": "deny", "permissionDecisionReason": "secret"}, "PreToolUse",
     ("deny", "secret", None)),
    ({"decision": "allow", "permissionDecision": "ask"}, "PreToolUse", ("ask", None, None)),
])
def test_every_hosts_answer_is_read_the_most_restrictive_winning(
        output: dict[str, Any], event: str, expected: tuple[Any, ...]) -> None:
    assert read_decision(output, event) == expected


def test_allow_tool_is_read_on_pre_tool_use_only() -> None:
    assert read_decision({"allowTool": False}, "PostToolUse") == (None, None, None)


def test_a_string_allow_tool_is_a_warning(tmp_path: Path) -> None:
    result = ran(tmp_path, {"allowTool": "no"})
    assert not result.blocked
    assert any("allowTool" in w for w in result.warnings), result.warnings


# --- agenthooks as Antigravity's one hook: an answer every documented version reads --------


def agy_run(project: Path, *args: str, payload: object) -> tuple[int, dict[str, Any]]:
    from tests.hosts.conftest import answer

    done = answer(["agenthooks", "run", *args], payload, project)
    assert done.stdout, done.stderr
    return done.returncode, json.loads(done.stdout)


CALL = {"toolCall": {"name": "run_command", "args": {"CommandLine": "rm -rf build"}},
        "stepIdx": 3, "conversationId": "c1"}


def gate_project(tmp_path: Path, output: str) -> Path:
    """A project whose `.agents/agenthooks.json` (agenthooks' own file, which Antigravity
    does not read) holds one PreToolUse handler printing `output`."""
    (tmp_path / ".agents").mkdir()
    (tmp_path / ".agents" / "agenthooks.json").write_text(json.dumps({"gate": {"PreToolUse": [
        {"matcher": "", "hooks": [{"command": f"echo '{output}'"}]}]}}), encoding="utf-8")
    return tmp_path


OWN = ("--config", ".agents/agenthooks.json")


@pytest.mark.parametrize("said", [
    '{"decision": "deny", "reason": "no recursive deletes"}',
    '{"allowTool": false, "denyReason": "no recursive deletes"}',
])
def test_a_deny_is_said_in_both_vocabularies(tmp_path: Path, said: str) -> None:
    from tests.hosts.conftest import schema

    project = gate_project(tmp_path, said)
    code, output = agy_run(project, "PreToolUse", "--host", "antigravity", *OWN,
                           payload=CALL)
    assert code == 2
    assert output == {"decision": "deny", "reason": "no recursive deletes",
                      "allowTool": False, "denyReason": "no recursive deletes"}
    jsonschema.validate(output, schema("antigravity"))
    jsonschema.validate(output, schema("antigravity_cli"))


@pytest.mark.parametrize(("said", "expected"), [
    ('{"decision": "allow"}', {"decision": "allow"}),
    ('{"allowTool": true}', {"decision": "allow"}),
    ('{"decision": "ask", "reason": "check"}', {"decision": "ask", "reason": "check"}),
])
def test_an_allow_or_ask_is_said_in_the_hooks_pages_words_only(
        tmp_path: Path, said: str, expected: dict[str, Any]) -> None:
    from tests.hosts.conftest import schema

    project = gate_project(tmp_path, said)
    code, output = agy_run(project, "PreToolUse", "--host", "antigravity", *OWN,
                           payload=CALL)
    assert (code, output) == (0, expected)
    jsonschema.validate(output, schema("antigravity"))
    jsonschema.validate(output, schema("antigravity_cli"))


def test_a_fail_closed_deny_is_said_in_both_vocabularies(tmp_path: Path) -> None:
    project = gate_project(tmp_path, "{not json")
    code, output = agy_run(project, "PreToolUse", "--host", "antigravity", "--fail-closed",
                           *OWN, payload=CALL)
    assert code == 2 and output["decision"] == "deny" and output["allowTool"] is False
    assert output["denyReason"] == output["reason"]


def test_no_decision_is_agys_usual_flow_not_an_empty_answer(tmp_path: Path) -> None:
    """agy denies a tool on a PreToolUse answer without a decision (3p: agy 1.0.5, 1.0.15):
    under --host antigravity a call no handler decided gets `ask`, its usual flow."""
    from tests.hosts.conftest import schema

    project = gate_project(tmp_path, "{}")
    code, output = agy_run(project, "PreToolUse", "--host", "antigravity", *OWN, payload=CALL)
    assert (code, output) == (0, {"decision": "ask"})
    jsonschema.validate(output, schema("antigravity"))
    code, output = agy_run(project, "PreToolUse", "--host", "antigravity", *OWN,
                           "--default-decision", "allow", payload=CALL)
    assert (code, output) == (0, {"decision": "allow"})
    # Other events answer as before.
    code, output = agy_run(project, "PostToolUse", "--host", "antigravity", *OWN, payload=CALL)
    assert (code, output) == (0, {})
