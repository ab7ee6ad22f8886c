"""deepagents-code as a host, by tables: its writer over verdicts (Claude Code's JSON, without
what deepagents-code would misread), and a deepagents-code handler's process read with its
own rules (PyPI deepagents-code 0.2.2, deepagents_code/hooks/reducer.py)."""

from __future__ import annotations

from typing import Any

import pytest

from agenthooks.combine.verdict import Verdict
from agenthooks.executor import ProcessResult
from agenthooks.hosts.deepagents.render import write
from agenthooks.hosts.writers import HostAnswer
from agenthooks.kinds.protocols.deepagents import answer
from agenthooks.model.decision import Decision
from agenthooks.model.handlers import Handler, Source

DENY = Verdict("PreToolUse", Decision.deny("no"), word="deny", reason="no", blocked=True)


def specific(event: str, **fields: Any) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": event, **fields}}


# (name, verdict, deepagents-code's event, the answer)
TABLE: list[tuple[str, Verdict, str, HostAnswer]] = [
    ("nothing", Verdict("PreToolUse"), "PreToolUse", HostAnswer({}, 0)),
    ("deny", DENY, "PreToolUse", HostAnswer(specific(
        "PreToolUse", permissionDecision="deny", permissionDecisionReason="no"), 0)),
    ("ask", Verdict("PreToolUse", Decision.ask("sure?"), word="ask", reason="sure?"),
     "PreToolUse", HostAnswer(specific("PreToolUse", permissionDecision="ask",
                                       permissionDecisionReason="sure?"), 0)),
    # No updatedInput: deepagents-code would drop the allow beside it and apply nothing.
    ("rewritten arguments", Verdict("PreToolUse", Decision.approve(), word="allow",
                                    updated_args={"command": "ls"}), "PreToolUse",
     HostAnswer(specific("PreToolUse", permissionDecision="allow"), 0)),
    ("a handler's defer", Verdict("PreToolUse", deferred=True), "PreToolUse",
     HostAnswer({}, 0)),
    ("keep going", Verdict("Stop", word="continue", reason="tests fail", blocked=True), "Stop",
     HostAnswer({"decision": "block", "reason": "tests fail"}, 0)),
    ("a prompt refused", Verdict("UserPromptSubmit", word="block", reason="secret",
                                 blocked=True), "UserPromptSubmit",
     HostAnswer({"decision": "block", "reason": "secret"}, 0)),
    ("a compaction refused", Verdict("PreCompact", word="block", reason="not now",
                                     blocked=True), "PreCompact",
     HostAnswer({"decision": "block", "reason": "not now"}, 0)),
    ("context on a prompt", Verdict("UserPromptSubmit", context="mind the branch"),
     "UserPromptSubmit", HostAnswer(specific("UserPromptSubmit",
                                             additionalContext="mind the branch"), 0)),
    # On Stop additionalContext keeps the agent going: context is a message there.
    ("context on Stop", Verdict("Stop", context="done?"), "Stop",
     HostAnswer({"systemMessage": "done?"}, 0)),
    ("a permission refused", Verdict("PermissionRequest", word="block", reason="no",
                                     blocked=True), "PermissionRequest",
     HostAnswer(specific("PermissionRequest", decision={"behavior": "deny", "message": "no"}),
                0)),
]


@pytest.mark.parametrize(("verdict", "event", "expected"), [row[1:] for row in TABLE],
                         ids=[row[0] for row in TABLE])
def test_writer(verdict: Verdict, event: str, expected: HostAnswer) -> None:
    assert write(verdict, event) == expected


SOURCE = Source(".deepagents/hooks.json", "/w/.deepagents/hooks.json", "/w", "workspace", "/w",
                dialect="deepagents")


def run(event: str, code: int, stdout: str = "", stderr: str = "") -> Any:
    handler = Handler(SOURCE, "", event, None, "gate", 600.0, "command", True, "/hooks/0",
                      dialect="deepagents")
    result = ProcessResult("exited", code, None, stdout.encode(), stderr.encode(), False,
                           False, 1.0)
    return answer(handler, result, event)


def decided(word: str, **more: Any) -> str:
    import json

    return json.dumps(specific("PreToolUse", permissionDecision=word, **more))


# (event, exit code, stdout, stderr, decision, rewritten, failed)
PROCESSES = [
    ("PreToolUse", 2, "", "no deletes", "deny", False, False),
    ("PreToolUse", 0, decided("deny", permissionDecisionReason="nope"), "", "deny", False,
     False),
    ("PreToolUse", 0, decided("allow"), "", "allow", False, False),
    # updatedInput: never applied, and the allow or ask beside it dropped; a deny stands.
    ("PreToolUse", 0, decided("allow", updatedInput={"command": "ls"}), "", None, False, True),
    ("PreToolUse", 0, decided("ask", updatedInput={"command": "ls"}), "", None, False, True),
    ("PreToolUse", 0, decided("deny", updatedInput={"command": "ls"}), "", "deny", False, True),
    ("PreToolUse", 0, decided("defer"), "", None, False, False),
    # A crash or another exit code lets the call through: no fail-closed switch.
    ("PreToolUse", 1, decided("deny"), "crash", None, False, True),
    ("Stop", 2, "", "tests fail", "continue", False, False),
]


@pytest.mark.parametrize(("event", "code", "stdout", "stderr", "decision", "rewritten",
                          "warned"), PROCESSES)
def test_protocol(event: str, code: int, stdout: str, stderr: str, decision: str | None,
                  rewritten: bool, warned: bool) -> None:
    found = run(event, code, stdout, stderr)
    specific_output = (found.output or {}).get("hookSpecificOutput") or {}
    assert (found.decision, "updatedInput" in specific_output, found.warning is not None) == (
        decision, rewritten, warned)
