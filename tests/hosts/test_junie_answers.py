"""JetBrains Junie as a host, by tables: its writer over verdicts (one flat JSON object; exit 1
on a PermissionRequest no hook decided, which Junie's exit 0 would approve), and a Junie
handler's process read with its own rules (junie.jetbrains.com/docs/junie-cli-hooks.html)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agenthooks.combine.verdict import Verdict
from agenthooks.executor import ProcessResult
from agenthooks.hosts.junie.render import write
from agenthooks.hosts.writers import HostAnswer
from agenthooks.kinds.protocols.junie import answer
from agenthooks.model.decision import Decision
from agenthooks.model.handlers import Answer, Handler, Source

DENY = Verdict("PreToolUse", Decision.deny("no"), word="deny", reason="no", blocked=True)

# (name, verdict, Junie's event, the answer)
TABLE: list[tuple[str, Verdict, str, HostAnswer]] = [
    ("nothing", Verdict("PreToolUse"), "PreToolUse", HostAnswer({}, 0)),
    ("deny", DENY, "PreToolUse", HostAnswer({"decision": "deny", "reason": "no"}, 0)),
    ("ask", Verdict("PreToolUse", Decision.ask("sure?"), word="ask", reason="sure?"),
     "PreToolUse", HostAnswer({"decision": "ask", "reason": "sure?"}, 0)),
    ("stopped on a tool call", Verdict("PreToolUse", blocked=True, stopped=True,
                                       stop_reason="halt"), "PreToolUse",
     HostAnswer({"decision": "deny", "reason": "halt"}, 0)),
    ("rewritten arguments", Verdict("PreToolUse", Decision.approve(), word="allow",
                                    updated_args={"command": "ls"}), "PreToolUse",
     HostAnswer({"updatedInput": {"command": "ls"}}, 0)),
    ("context before the call", Verdict("PreToolUse", context="mind it"), "PreToolUse",
     HostAnswer({"additionalContext": "mind it"}, 0)),
    ("a prompt refused", Verdict("UserPromptSubmit", word="block", reason="secret",
                                 blocked=True), "UserPromptSubmit",
     HostAnswer({"decision": "block", "reason": "secret"}, 0)),
    ("keep going", Verdict("Stop", word="continue", reason="tests fail", blocked=True), "Stop",
     HostAnswer({"decision": "block", "reason": "tests fail"}, 0)),
    ("stopped", Verdict("Stop", blocked=True, stopped=True, stop_reason="halt"), "Stop",
     HostAnswer({"continue": False, "stopReason": "halt"}, 0)),
    ("a message on Stop", Verdict("Stop", message="reviewed"), "Stop",
     HostAnswer({"systemMessage": "reviewed"}, 0)),
    ("a permission denied", Verdict("PermissionRequest", word="deny", reason="no",
                                    blocked=True), "PermissionRequest",
     HostAnswer({"decision": "deny", "reason": "no"}, 0)),
    ("a permission allowed", Verdict("PermissionRequest", Decision.approve(), word="allow"),
     "PermissionRequest", HostAnswer({}, 0)),
    # Exit 0 would approve the dialog: no hook decided, so Junie asks the user.
    ("a permission no hook decided", Verdict("PermissionRequest"), "PermissionRequest",
     HostAnswer({}, 1)),
    ("an event Junie reads nothing of", Verdict("SessionEnd", context="x"), "SessionEnd",
     HostAnswer({}, 0)),
]


@pytest.mark.parametrize(("verdict", "event", "expected"), [row[1:] for row in TABLE],
                         ids=[row[0] for row in TABLE])
def test_writer(verdict: Verdict, event: str, expected: HostAnswer) -> None:
    assert write(verdict, event) == expected


SOURCE = Source(".junie/config.json", "/h/.junie/config.json", "/w", "user", "/h/.junie",
                dialect="junie")


def run(event: str, code: int | None, stdout: str = "", stderr: str = "", *,
        block_on_error: bool = False) -> Answer:
    options = (("blockOnError", True),) if block_on_error else ()
    handler = Handler(SOURCE, "", event, None, "./gate.sh", 10.0, "command", True,
                      "/hooks/x/0/hooks/0", dialect="junie", options=options)
    status = "exited" if code is not None else "timeout"
    result = ProcessResult(status, code, None, stdout.encode(), stderr.encode(), False, False,
                           1.0)
    return answer(handler, result, event)


def said(**fields: Any) -> str:
    return json.dumps(fields)


# (name, event, exit code, stdout, stderr, blockOnError, decision, reason, failed)
PROCESSES: list[tuple[str, str, int | None, str, str, bool, str | None, str | None, bool]] = [
    ("deny", "PreToolUse", 0, said(decision="deny", reason="no rm"), "", False, "deny",
     "no rm", False),
    ("block", "PreToolUse", 0, said(decision="block", reason="no"), "", False, "deny", "no",
     False),
    ("ask", "PreToolUse", 0, said(decision="ask", reason="sure?"), "", False, "ask", "sure?",
     False),
    ("allow", "PreToolUse", 0, said(decision="allow"), "", False, "allow", None, False),
    # Claude Code's nested answer is not Junie's [unverified]: nothing.
    ("Claude Code's answer", "PreToolUse", 0,
     said(hookSpecificOutput={"permissionDecision": "deny"}), "", False, None, None, False),
    ("exit 2", "PreToolUse", 2, said(decision="allow"), "refused", False, "deny", "refused",
     False),
    ("exit 1", "PreToolUse", 1, "", "crash", False, None, None, True),
    ("a timeout", "PreToolUse", None, "", "", False, None, None, True),
    ("malformed JSON", "PreToolUse", 0, "{nope", "", False, None, None, True),
    ("a permission denied", "PermissionRequest", 0, said(decision="deny"), "", False, "block",
     None, False),
    ("a permission at exit 2", "PermissionRequest", 2, "", "no", False, "block", "no", False),
    ("a prompt blocked", "UserPromptSubmit", 0, said(decision="block", reason="x"), "", False,
     "block", "x", False),
    ("Stop block", "Stop", 0, said(decision="block", reason="again"), "", False, "continue",
     "again", False),
    ("Stop exit 2", "Stop", 2, "", "tests fail", False, "continue", "tests fail", False),
    ("Stop exit 1", "Stop", 1, "out", "crash", False, None, None, True),
    ("Stop exit 1, blockOnError", "Stop", 1, "out", "crash", True, "continue", "out\ncrash",
     True),
    ("blockOnError off Stop", "PreToolUse", 1, "", "crash", True, None, None, True),
    ("StopFailure is ignored", "StopFailure", 2, said(decision="block"), "x", False, None,
     None, False),
]


@pytest.mark.parametrize(("event", "code", "stdout", "stderr", "block_on_error", "decision",
                          "reason", "failed"), [row[1:] for row in PROCESSES],
                         ids=[row[0] for row in PROCESSES])
def test_protocol(event: str, code: int | None, stdout: str, stderr: str, block_on_error: bool,
                  decision: str | None, reason: str | None, failed: bool) -> None:
    found = run(event, code, stdout, stderr, block_on_error=block_on_error)
    assert (found.decision, found.reason, found.failed) == (decision, reason, failed)


def specific(event: str, **fields: Any) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": event, **fields}}


# (name, event, stdout, the answer's output in the engine's words)
OUTPUTS: list[tuple[str, str, str, dict[str, Any] | None]] = [
    ("rewrite", "PreToolUse", said(updatedInput={"command": "ls"}),
     specific("PreToolUse", updatedInput={"command": "ls"})),
    ("a rewrite beside a deny", "PreToolUse",
     said(decision="deny", updatedInput={"command": "ls"}), None),
    ("context", "PreToolUse", said(additionalContext="mind it"),
     specific("PreToolUse", additionalContext="mind it")),
    # Junie gives the model stdout that is not JSON.
    ("plain text", "PreToolUse", "debug: looked at it\n",
     specific("PreToolUse", additionalContext="debug: looked at it")),
    ("plain text elsewhere", "UserPromptSubmit", "hello", None),
    ("Stop's nested context", "Stop", said(hookSpecificOutput={"additionalContext": "x"}),
     specific("Stop", additionalContext="x")),
    ("Stop ended", "Stop", said(**{"continue": False, "stopReason": "done"}),
     {"continue": False, "stopReason": "done"}),
    ("continue off Stop", "UserPromptSubmit", said(**{"continue": False}), None),
    ("Stop's message", "Stop", said(systemMessage="hi"), {"systemMessage": "hi"}),
]


@pytest.mark.parametrize(("event", "stdout", "output"), [row[1:] for row in OUTPUTS],
                         ids=[row[0] for row in OUTPUTS])
def test_what_an_answer_says(event: str, stdout: str, output: dict[str, Any] | None) -> None:
    assert run(event, 0, stdout).output == output
