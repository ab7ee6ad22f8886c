"""Grok Build as a host, by tables: its writer over verdicts (always exit 0, one JSON object in
the words each of its gates knows), and a Grok handler's process read with its own rules
(xai-org/grok-build@19d42e3 crates/codegen/xai-grok-hooks/src/runner/command.rs; Claude Code's
deny words as Grok 1.0.41 reads them, measured by tests/e2e/test_grok.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agenthooks.combine.verdict import Verdict
from agenthooks.executor import ProcessResult
from agenthooks.hosts.grok.render import write
from agenthooks.hosts.writers import HostAnswer
from agenthooks.kinds.protocols.grok import answer
from agenthooks.model.decision import Decision
from agenthooks.model.handlers import Answer, Handler, Source

DENY = Verdict("PreToolUse", Decision.deny("no"), word="deny", reason="no", blocked=True)


def denied(reason: str) -> HostAnswer:
    return HostAnswer({"decision": "deny", "reason": reason}, 0)


# (name, verdict, Grok's event, the answer)
TABLE: list[tuple[str, Verdict, str, HostAnswer]] = [
    ("nothing", Verdict("PreToolUse"), "PreToolUse", HostAnswer({}, 0)),
    ("deny", DENY, "PreToolUse", denied("no")),
    ("deny without a reason", Verdict("PreToolUse", word="deny", blocked=True), "PreToolUse",
     denied("PreToolUse blocked (decision: deny, no reason given)")),
    # No ask from a Grok hook: the deny it would be, never the call let through.
    ("ask", Verdict("PreToolUse", Decision.ask("sure?"), word="ask", reason="sure?"),
     "PreToolUse", denied("a hook asks a person to confirm this call, which Grok cannot ask "
                          "from a hook: sure?")),
    ("stopped on a tool call", Verdict("PreToolUse", blocked=True, stopped=True,
                                       stop_reason="halt"), "PreToolUse", denied("halt")),
    ("an allow says nothing", Verdict("PreToolUse", Decision.approve(), word="allow"),
     "PreToolUse", HostAnswer({}, 0)),
    ("rewritten arguments", Verdict("PreToolUse", Decision.approve(), word="allow",
                                    updated_args={"command": "ls"}), "PreToolUse",
     HostAnswer({"hookSpecificOutput": {"updatedInput": {"command": "ls"}}}, 0)),
    ("context before the call is not read", Verdict("PreToolUse", context="mind it"),
     "PreToolUse", HostAnswer({}, 0)),
    ("keep going", Verdict("Stop", word="continue", reason="tests fail", blocked=True), "Stop",
     HostAnswer({"decision": "block", "reason": "tests fail"}, 0)),
    ("keep going with context", Verdict("Stop", word="continue", reason="tests fail",
                                        blocked=True, context="3 failing"), "Stop",
     HostAnswer({"decision": "block", "reason": "tests fail",
                 "hookSpecificOutput": {"additionalContext": "3 failing"}}, 0)),
    ("stopped", Verdict("Stop", blocked=True, stopped=True, stop_reason="halt"), "Stop",
     HostAnswer({"continue": False, "stopReason": "halt"}, 0)),
    ("a subagent kept going", Verdict("SubagentStop", word="continue", reason="again",
                                      blocked=True), "SubagentStop",
     HostAnswer({"decision": "block", "reason": "again"}, 0)),
    ("an event Grok reads nothing of", Verdict("PostToolUse", word="block", reason="x",
                                               blocked=True), "PostToolUse", HostAnswer({}, 0)),
]


@pytest.mark.parametrize(("verdict", "event", "expected"), [row[1:] for row in TABLE],
                         ids=[row[0] for row in TABLE])
def test_writer(verdict: Verdict, event: str, expected: HostAnswer) -> None:
    assert write(verdict, event) == expected


SOURCE = Source(".grok/hooks/gate.json", "/w/.grok/hooks/gate.json", "/w", "workspace", "/w",
                dialect="grok")


def run(event: str, code: int | None, stdout: str = "", stderr: str = "") -> Answer:
    handler = Handler(SOURCE, "", event, None, "./gate.sh", 5.0, "command", True,
                      "/hooks/x/0/hooks/0", dialect="grok")
    status = "exited" if code is not None else "timeout"
    result = ProcessResult(status, code, None, stdout.encode(), stderr.encode(), False, False,
                           1.0)
    return answer(handler, result, event)


def said(**fields: Any) -> str:
    return json.dumps(fields)


LONG = "x" * 300
# (name, event, exit code, stdout, stderr, decision, reason, failed)
PROCESSES: list[tuple[str, str, int | None, str, str, str | None, str | None, bool]] = [
    ("deny", "PreToolUse", 0, said(decision="deny", reason="no rm"), "", "deny", "no rm",
     False),
    ("deny on any exit", "PreToolUse", 1, said(decision="deny", reason="no"), "", "deny", "no",
     False),
    ("deny without a reason takes stderr's first line", "PreToolUse", 0, said(decision="deny"),
     "\n first \nsecond", "deny", "first", False),
    ("deny with nothing said", "PreToolUse", 0, said(decision="deny", reason=" "), "", "deny",
     "denied by hook './gate.sh'", False),
    ("Claude Code's block", "PreToolUse", 0, said(decision="block", reason="old"), "", "deny",
     "old", False),
    ("Claude Code's permissionDecision", "PreToolUse", 0,
     said(hookSpecificOutput={"permissionDecision": "deny",
                              "permissionDecisionReason": "claude-style"}), "", "deny",
     "claude-style", False),
    ("allow", "PreToolUse", 0, said(decision="allow"), "", None, None, False),
    # An unknown word is a failed hook: the call goes on, even on exit 2.
    ("an unknown word", "PreToolUse", 0, said(decision="ask"), "", None, None, True),
    ("an unknown word on exit 2", "PreToolUse", 2, said(decision="Deny"), "", None, None, True),
    ("a JSON allow on exit 2 denies", "PreToolUse", 2, said(decision="allow"), "why", "deny",
     "why", False),
    ("exit 2", "PreToolUse", 2, "", "EXIT2 reason\nsecond", "deny", "EXIT2 reason", False),
    ("exit 2, silent", "PreToolUse", 2, "", "", "deny",
     "denied by hook './gate.sh' (exit code 2)", False),
    ("exit 2, a long line", "PreToolUse", 2, "", LONG, "deny", "x" * 256 + "\u2026", False),
    ("a log line is no answer", "PreToolUse", 0, said(level="info"), "", None, None, False),
    ("a typed field of the wrong type voids the object", "PreToolUse", 2,
     said(decision="deny", reason=7), "e", "deny", "e", False),
    ("exit 1", "PreToolUse", 1, "", "crash", None, None, True),
    ("a timeout", "PreToolUse", None, "", "", None, None, True),
    ("Stop block", "Stop", 0, said(decision="block", reason="keep going"), "", "continue",
     "keep going", False),
    ("Stop block without a reason", "Stop", 0, said(decision="block"), "", "continue",
     "Blocked by stop hook './gate.sh'", False),
    ("Stop approve", "Stop", 0, said(decision="approve"), "", None, None, False),
    ("Stop JSON wins over exit 2", "Stop", 2, said(decision="approve"), "no", None, None,
     False),
    ("Stop exit 2 keeps going with all of stderr", "Stop", 2, "", " a\nb \n", "continue",
     "a\nb", False),
    ("Stop unknown word", "Stop", 0, said(decision="deny"), "", None, None, True),
    ("Stop exit 1", "Stop", 1, "", "crash", None, None, True),
    ("observe-only events read nothing", "PostToolUse", 2, said(decision="deny"), "no", None,
     None, False),
]


@pytest.mark.parametrize(("event", "code", "stdout", "stderr", "decision", "reason", "failed"),
                         [row[1:] for row in PROCESSES], ids=[row[0] for row in PROCESSES])
def test_protocol(event: str, code: int | None, stdout: str, stderr: str,
                  decision: str | None, reason: str | None, failed: bool) -> None:
    found = run(event, code, stdout, stderr)
    assert (found.decision, found.reason, found.failed) == (decision, reason, failed)


def specific(event: str, **fields: Any) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": event, **fields}}


# (name, event, exit code, stdout, the answer's output in the engine's words)
OUTPUTS: list[tuple[str, str, int, str, dict[str, Any] | None]] = [
    ("rewrite", "PreToolUse", 0, said(hookSpecificOutput={"updatedInput": {"command": "ls"}}),
     specific("PreToolUse", updatedInput={"command": "ls"})),
    ("rewrite beside an allow", "PreToolUse", 0,
     said(decision="allow", hookSpecificOutput={"updatedInput": {"command": "ls"}}),
     specific("PreToolUse", updatedInput={"command": "ls"})),
    ("a rewrite that is no object", "PreToolUse", 0,
     said(hookSpecificOutput={"updatedInput": "ls"}), None),
    ("a rewrite on exit 2", "PreToolUse", 2,
     said(hookSpecificOutput={"updatedInput": {"command": "ls"}}), None),
    ("Stop context", "Stop", 0, said(hookSpecificOutput={"additionalContext": "3 failing"}),
     specific("Stop", additionalContext="3 failing")),
    ("Stop ended", "Stop", 0, said(**{"continue": False, "stopReason": "done"}),
     {"continue": False, "stopReason": "done"}),
]


@pytest.mark.parametrize(("event", "code", "stdout", "output"), [row[1:] for row in OUTPUTS],
                         ids=[row[0] for row in OUTPUTS])
def test_what_an_answer_says(event: str, code: int, stdout: str,
                             output: dict[str, Any] | None) -> None:
    assert run(event, code, stdout).output == output
