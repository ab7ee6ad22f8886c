"""Kimi Code as a host, by tables: its writer over verdicts (exit 2 for what Kimi Code is to
block, a message only where it reads one), and a Kimi Code handler's process read with its
own rules (@moonshot-ai/kimi-code 2.1.0, externalHooks `runHook.ts`, `userPrompt.ts`)."""

from __future__ import annotations

from typing import Any

import pytest

from agenthooks.combine.verdict import Verdict
from agenthooks.executor import ProcessResult
from agenthooks.hosts.kimi.render import write
from agenthooks.hosts.writers import HostAnswer
from agenthooks.kinds.protocols.kimi import answer
from agenthooks.model.decision import Decision
from agenthooks.model.handlers import Handler, Source

DENY = Verdict("PreToolUse", Decision.deny("no"), word="deny", reason="no", blocked=True)

# (name, verdict, Kimi Code's event, the answer)
TABLE: list[tuple[str, Verdict, str, HostAnswer]] = [
    ("nothing", Verdict("PreToolUse"), "PreToolUse", HostAnswer({}, 0)),
    ("deny", DENY, "PreToolUse", HostAnswer({}, 2)),
    # No ask in Kimi Code: the block it would be, never the call let through.
    ("ask", Verdict("PreToolUse", Decision.ask("sure?"), word="ask", reason="sure?"),
     "PreToolUse", HostAnswer({}, 2)),
    ("stopped on a tool call", Verdict("PreToolUse", blocked=True, stopped=True,
                                       stop_reason="halt"), "PreToolUse", HostAnswer({}, 2)),
    # On Stop a block keeps the agent going; a stop is what Stop does anyway.
    ("keep going", Verdict("Stop", word="continue", reason="tests fail", blocked=True), "Stop",
     HostAnswer({}, 2)),
    ("stopped on Stop", Verdict("Stop", blocked=True, stopped=True, stop_reason="halt"), "Stop",
     HostAnswer({}, 0)),
    ("a prompt refused", Verdict("UserPromptSubmit", word="block", reason="secret",
                                 blocked=True), "UserPromptSubmit", HostAnswer({}, 2)),
    ("context on a prompt", Verdict("UserPromptSubmit", context="mind the branch"),
     "UserPromptSubmit", HostAnswer({"message": "mind the branch"}, 0)),
    # Kimi Code reads no answer of the events it does not wait on.
    ("a block after the tool ran", Verdict("PostToolUse", word="block", reason="lint",
                                           blocked=True), "PostToolUse", HostAnswer({}, 0)),
    ("context after the tool ran", Verdict("PostToolUse", context="x"), "PostToolUse",
     HostAnswer({}, 0)),
    ("rewritten arguments", Verdict("PreToolUse", Decision.approve(), word="allow",
                                    updated_args={"command": "ls"}), "PreToolUse",
     HostAnswer({}, 0)),
]


@pytest.mark.parametrize(("verdict", "event", "expected"), [row[1:] for row in TABLE],
                         ids=[row[0] for row in TABLE])
def test_writer(verdict: Verdict, event: str, expected: HostAnswer) -> None:
    assert write(verdict, event) == expected


SOURCE = Source(".kimi-code/config.toml", "/h/.kimi-code/config.toml", "/w", "user", "/w",
                dialect="kimi")


def run(event: str, code: int, stdout: str = "", stderr: str = "",
        status: str = "exited") -> Any:
    handler = Handler(SOURCE, "", event, None, "gate", 30.0, "command", True, "/hooks/0",
                      dialect="kimi")
    result = ProcessResult(status, code, None, stdout.encode(), stderr.encode(), False, False,
                           1.0)
    return answer(handler, result, event)


DENIED = '{"hookSpecificOutput": {"permissionDecision": "deny", ' \
         '"permissionDecisionReason": "nope"}}'

# (event, exit code, stdout, stderr, decision, reason, failed)
PROCESSES = [
    ("PreToolUse", 2, "", "no deletes", "deny", "no deletes", False),
    ("PreToolUse", 2, "", "", "deny", "Blocked by PreToolUse hook", False),
    ("PreToolUse", 0, DENIED, "", "deny", "nope", False),
    ("PreToolUse", 0, DENIED.replace(', "permissionDecisionReason": "nope"', ""), "",
     "deny", "Blocked by PreToolUse hook", False),
    # What Kimi Code reads no block from: the call goes on.
    ("PreToolUse", 0, '{"decision": "block", "reason": "legacy"}', "", None, None, False),
    ("PreToolUse", 0, '{"hookSpecificOutput": {"permissionDecision": "ask"}}', "", None, None,
     False),
    ("PreToolUse", 0, '{"continue": false}', "", None, None, False),
    ("PreToolUse", 1, DENIED, "crash", None, None, True),
    ("PreToolUse", 0, '{"hookSpecificOutput": ', "", None, None, True),
    ("Stop", 2, "", "tests fail", "continue", "tests fail", False),
    ("Stop", 0, DENIED, "", "continue", "nope", False),
    # An event Kimi Code does not wait on: a block there changes nothing.
    ("PostToolUse", 2, "", "lint", None, None, False),
    ("PostToolUse", 0, DENIED, "", None, None, False),
    ("UserPromptSubmit", 2, "", "secret", "block", "secret", False),
]


@pytest.mark.parametrize(("event", "code", "stdout", "stderr", "decision", "reason", "failed"),
                         PROCESSES)
def test_protocol(event: str, code: int, stdout: str, stderr: str, decision: str | None,
                  reason: str | None, failed: bool) -> None:
    found = run(event, code, stdout, stderr)
    assert (found.decision, found.reason, found.failed) == (decision, reason, failed)


@pytest.mark.parametrize(("stdout", "context"), [
    ("remember the style guide\n", "remember the style guide"),
    ('{"message": "from the message"}', "from the message"),
    ('{"hookSpecificOutput": {"message": 1.0}}', "1"),
    # JSON without a message: Kimi Code adds the whole of stdout.
    ('{"other": true}', '{"other": true}'),
])
def test_what_a_prompt_hook_adds_for_the_model(stdout: str, context: str) -> None:
    found = run("UserPromptSubmit", 0, stdout)
    assert found.output == {"hookSpecificOutput": {
        "hookEventName": "UserPromptSubmit", "additionalContext": context}}


def test_a_message_of_another_event_is_for_the_user() -> None:
    found = run("PostToolUse", 0, '{"message": "formatted 3 files"}')
    assert found.output == {"systemMessage": "formatted 3 files"}
    assert run("PostToolUse", 0, "plain text").output is None
