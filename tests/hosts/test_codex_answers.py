"""Codex as a host: its writer over a table of verdicts (every answer in Codex's schema, never
a field Codex refuses), and a Codex handler's process read with Codex's own rules."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from agenthooks.combine.verdict import Verdict
from agenthooks.executor import ProcessResult
from agenthooks.hosts.codex.render import write
from agenthooks.hosts.writers import HostAnswer
from agenthooks.kinds.protocols.codex import answer
from agenthooks.model.decision import Decision
from agenthooks.model.handlers import Handler, Source
from tests.hosts.conftest import answer as run_snippet
from tests.hosts.conftest import schema
from tests.hosts.test_host_output import commands, snippets

pytestmark = pytest.mark.program

DENY = Verdict("PreToolUse", Decision.deny("no"), word="deny", reason="no", blocked=True)
ARGS = {"command": "make -n"}


def pre(**specific: Any) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": "PreToolUse", **specific}}


# (name, verdict, Codex's event, Codex's answer)
TABLE: list[tuple[str, Verdict, str, HostAnswer]] = [
    ("nothing", Verdict("PreToolUse"), "PreToolUse", HostAnswer({}, 0)),
    ("deny", DENY, "PreToolUse",
     HostAnswer(pre(permissionDecision="deny", permissionDecisionReason="no"), 0)),
    # Codex refuses a deny without a reason (the call would run): one is always given.
    ("deny without a reason", DENY._replace(reason=None), "PreToolUse",
     HostAnswer(pre(permissionDecision="deny", permissionDecisionReason=(
         "PreToolUse blocked (decision: deny, no reason given)")), 0)),
    # Codex has no ask: the call is denied, the reason saying a person must confirm.
    ("ask", Verdict("PreToolUse", Decision.ask("sure?"), word="ask", reason="sure?"),
     "PreToolUse",
     HostAnswer(pre(permissionDecision="deny", permissionDecisionReason=(
         "a hook asks a person to confirm this call, which Codex cannot ask from a hook: "
         "sure?")), 0)),
    ("allow with rewritten arguments",
     Verdict("PreToolUse", Decision.approve(), word="allow", updated_args=ARGS), "PreToolUse",
     HostAnswer(pre(permissionDecision="allow", updatedInput=ARGS), 0)),
    # Codex refuses a bare allow: nothing is said, which lets the call go on as well.
    ("a bare allow", Verdict("PreToolUse", Decision.approve("ok"), word="allow", reason="ok"),
     "PreToolUse", HostAnswer({}, 0)),
    # PreToolUse refuses continue:false: the stop becomes a deny.
    ("continue false on PreToolUse",
     Verdict("PreToolUse", blocked=True, stopped=True, stop_reason="halt"), "PreToolUse",
     HostAnswer(pre(permissionDecision="deny", permissionDecisionReason="halt"), 0)),
    ("a permission request denied",
     Verdict("PermissionRequest", word="block", reason="not here", blocked=True),
     "PermissionRequest",
     HostAnswer({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
                                        "decision": {"behavior": "deny",
                                                     "message": "not here"}}}, 0)),
    ("keep working", Verdict("Stop", word="continue", reason="tests fail", blocked=True),
     "Stop", HostAnswer({"decision": "block", "reason": "tests fail"}, 0)),
    ("a prompt blocked", Verdict("UserPromptSubmit", word="block", reason="secret",
                                 blocked=True),
     "UserPromptSubmit", HostAnswer({"decision": "block", "reason": "secret"}, 0)),
    ("continue false elsewhere",
     Verdict("PostToolUse", blocked=True, stopped=True, suppress_output=True), "PostToolUse",
     HostAnswer({"continue": False, "stopReason": "PostToolUse stopped the agent"}, 0)),
    ("context", Verdict("SessionStart", context="branch: main"), "SessionStart",
     HostAnswer({"hookSpecificOutput": {"hookEventName": "SessionStart",
                                        "additionalContext": "branch: main"}}, 0)),
    # A block Codex's JSON cannot say there: told to the user, never a refused field.
    ("a block on PreCompact", Verdict("PreCompact", word="block", reason="busy", blocked=True),
     "PreCompact", HostAnswer({"systemMessage": "PreCompact blocked: busy"}, 0)),
    ("warnings", Verdict("Stop", warnings=("hook 'h' exited 1",)), "Stop",
     HostAnswer({"systemMessage": "agenthooks: warning: hook 'h' exited 1"}, 0)),
]


@pytest.mark.parametrize(("name", "verdict", "event", "expected"), TABLE,
                         ids=[row[0] for row in TABLE])
def test_writer(name: str, verdict: Verdict, event: str, expected: HostAnswer) -> None:
    told = write(verdict, event)
    assert told == expected
    jsonschema.validate(told.output, schema("codex"))
    if event in ("PreToolUse", "PermissionRequest"):
        assert "continue" not in told.output and "suppressOutput" not in told.output


@pytest.mark.parametrize("bad", [
    pre(permissionDecision="ask", permissionDecisionReason="x"),
    pre(permissionDecision="deny"),
    pre(permissionDecision="deny", permissionDecisionReason=" "),
    pre(permissionDecision="allow"),
    {"decision": "block"},
    {"decision": "deny", "reason": "x"},
    {**pre(permissionDecision="deny", permissionDecisionReason="x"), "continue": False},
])
def test_the_schema_refuses_what_codex_refuses(bad: dict[str, Any]) -> None:
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema("codex"))


# --- a Codex handler's process, read with Codex's rules ---------------------------------------

SOURCE = Source(".codex/hooks.json", "/w/.codex/hooks.json", "/w", "workspace", "/w",
                dialect="codex")


def run(event: str, code: int, stdout: str = "", stderr: str = "",
        status: str = "exited") -> Any:
    handler = Handler(SOURCE, "", event, None, "gate", 600.0, "command", True, "/hooks",
                      dialect="codex")
    result = ProcessResult(status, code, None, stdout.encode(), stderr.encode(), False, False,
                           1.0)
    return answer(handler, result, event)


# (event, exit code, stdout, stderr, decision, reason, failed)
PROCESSES = [
    ("PreToolUse", 2, "", "no deletes", "deny", "no deletes", False),
    # An exit 2 with nothing on stderr blocks nothing in Codex.
    ("PreToolUse", 2, "", "", None, None, True),
    # JSON is read on exit 0 only.
    ("PreToolUse", 2, '{"decision": "block", "reason": "x"}', "", None, None, True),
    ("PreToolUse", 0, '{"hookSpecificOutput": {"hookEventName": "PreToolUse", '
     '"permissionDecision": "deny", "permissionDecisionReason": "nope"}}', "",
     "deny", "nope", False),
    ("PreToolUse", 0, '{"decision": "block", "reason": "legacy"}', "", "deny", "legacy", False),
    # What Codex refuses is a failed hook, not a decision: the call goes on.
    ("PreToolUse", 0, '{"hookSpecificOutput": {"hookEventName": "PreToolUse", '
     '"permissionDecision": "ask"}}', "", None, None, True),
    ("PreToolUse", 0, '{"hookSpecificOutput": {"hookEventName": "PreToolUse", '
     '"permissionDecision": "deny"}}', "", None, None, True),
    ("PreToolUse", 0, '{"continue": false}', "", None, None, True),
    ("PreToolUse", 1, "", "crash", None, None, True),
    ("Stop", 0, "all done", "", None, None, True),
    ("Stop", 2, "", "tests fail", "continue", "tests fail", False),
    ("Stop", 0, '{"decision": "block", "reason": "again"}', "", "continue", "again", False),
    ("UserPromptSubmit", 0, "remember the style guide", "", None, None, False),
]


@pytest.mark.parametrize(("event", "code", "stdout", "stderr", "decision", "reason", "failed"),
                         PROCESSES)
def test_protocol(event: str, code: int, stdout: str, stderr: str, decision: str | None,
                  reason: str | None, failed: bool) -> None:
    found = run(event, code, stdout, stderr)
    assert (found.decision, found.reason, found.failed) == (decision, reason, failed)


def test_plain_text_is_context_on_prompt_events() -> None:
    found = run("UserPromptSubmit", 0, "remember the style guide\n")
    assert found.output == {"hookSpecificOutput": {
        "hookEventName": "UserPromptSubmit", "additionalContext": "remember the style guide"}}


def test_a_timeout_is_a_failure() -> None:
    found = run("PreToolUse", 0, status="timeout")
    assert found.failed and found.status == "timeout"


# --- the documented wiring, fed Codex's payloads through real processes ---------------------


def codex_payload(event: str, cwd: Path, **fields: Any) -> dict[str, Any]:
    """Codex's common input fields (codex-rs/hooks/schema/generated/*.command.input)."""
    return {"session_id": "019a-session", "turn_id": "019a-turn", "transcript_path": None,
            "cwd": str(cwd), "hook_event_name": event, "model": "gpt-5.1-codex",
            "permission_mode": "default", **fields}


def codex_payloads(cwd: Path) -> dict[str, dict[str, Any]]:
    return {
        "PreToolUse": codex_payload("PreToolUse", cwd, tool_name="Bash",
                                    tool_input={"command": "rm -rf build"},
                                    tool_use_id="call_1"),
        "PostToolUse": codex_payload("PostToolUse", cwd, tool_name="Bash",
                                     tool_input={"command": "make"}, tool_response="ok",
                                     tool_use_id="call_2"),
        "UserPromptSubmit": codex_payload("UserPromptSubmit", cwd, prompt="fix the build"),
        "Stop": codex_payload("Stop", cwd, stop_hook_active=False,
                              last_assistant_message="done"),
        "SessionStart": codex_payload("SessionStart", cwd, source="startup"),
    }


def context(event: str, text: str) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}


EXPECTED: dict[str, dict[str, Any]] = {
    "PreToolUse": pre(permissionDecision="deny",
                      permissionDecisionReason="no recursive deletes: rm -rf build"),
    "PostToolUse": context("PostToolUse", "lint: 2 warnings"),
    "UserPromptSubmit": context("UserPromptSubmit", "run the tests first"),
    "Stop": {"decision": "block", "reason": "the tests fail: keep going"},
    "SessionStart": context("SessionStart", "branch: main"),
}


def test_the_documented_wiring_answers_in_codex_schema(project: Path) -> None:
    registered = commands("codex")
    sent = codex_payloads(project)
    assert set(registered) == set(sent) == set(EXPECTED)
    (project / ".codex").mkdir()
    (project / ".codex" / "hooks.json").write_text(json.dumps(snippets()["codex"]), "utf-8")
    for event, argv in registered.items():
        done = run_snippet(argv, sent[event], project)
        assert done.returncode == 0, (event, done.stderr)
        output = json.loads(done.stdout)
        jsonschema.validate(output, schema("codex"))
        assert output == EXPECTED[event], event
