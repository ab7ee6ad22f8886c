"""Mistral Vibe as a host, by tables: its writer over verdicts (always exit 0, one JSON object
whose only decision is "deny"), and a Vibe handler's process read with its own rules (PyPI
mistral-vibe 3.0.3, mistralai_vibe_local_harness/vibe/_foreign_hooks.py)."""

from __future__ import annotations

import json
from typing import Any, Literal

import pytest

from agenthooks.combine.verdict import Verdict
from agenthooks.executor import ProcessResult
from agenthooks.hosts.vibe.render import write
from agenthooks.hosts.writers import HostAnswer
from agenthooks.kinds.protocols.vibe import answer
from agenthooks.model.decision import Decision
from agenthooks.model.handlers import Answer, Handler, Source

DENY = Verdict("PreToolUse", Decision.deny("no"), word="deny", reason="no", blocked=True)


def denied(reason: str, **more: Any) -> HostAnswer:
    return HostAnswer({"decision": "deny", "reason": reason, **more}, 0)


# (name, verdict, Vibe's event, the answer)
TABLE: list[tuple[str, Verdict, str, HostAnswer]] = [
    ("nothing", Verdict("PreToolUse"), "pre_tool", HostAnswer({}, 0)),
    ("deny", DENY, "pre_tool", denied("no")),
    ("deny without a reason", Verdict("PreToolUse", word="deny", blocked=True), "pre_tool",
     denied("PreToolUse blocked (decision: deny, no reason given)")),
    # No ask in Vibe: the deny it would be, never the call let through.
    ("ask", Verdict("PreToolUse", Decision.ask("sure?"), word="ask", reason="sure?"),
     "pre_tool", denied("a hook asks a person to confirm this call, which Vibe cannot ask "
                        "from a hook: sure?")),
    ("stopped on a tool call", Verdict("PreToolUse", blocked=True, stopped=True,
                                       stop_reason="halt"), "pre_tool", denied("halt")),
    ("an allow says nothing", Verdict("PreToolUse", Decision.approve(), word="allow"),
     "pre_tool", HostAnswer({}, 0)),
    ("rewritten arguments", Verdict("PreToolUse", Decision.approve(), word="allow",
                                    updated_args={"command": "ls"}), "pre_tool",
     HostAnswer({"hook_specific_output": {"tool_input": {"command": "ls"}}}, 0)),
    ("rewritten arguments, asked", Verdict("PreToolUse", word="ask", reason="sure?",
                                           updated_args={"command": "ls"}), "pre_tool",
     denied("a hook asks a person to confirm this call, which Vibe cannot ask from a hook: "
            "sure?")),
    # pre_tool gives the model nothing but a deny's reason: context is for the user there.
    ("context before the call", Verdict("PreToolUse", context="mind the branch"), "pre_tool",
     HostAnswer({"system_message": "mind the branch"}, 0)),
    # After the tool ran a deny replaces its result with the reason.
    ("a block after the tool ran", Verdict("PostToolUse", word="block", reason="secret",
                                           blocked=True), "post_tool", denied("secret")),
    ("stopped after the tool ran", Verdict("PostToolUse", blocked=True, stopped=True,
                                           stop_reason="halt"), "post_tool", denied("halt")),
    ("context after the tool ran", Verdict("PostToolUse", context="3 lint errors"),
     "post_tool", HostAnswer({"hook_specific_output": {"additional_context": "3 lint errors"}},
                             0)),
    ("a block with context", Verdict("PostToolUse", word="block", reason="secret",
                                     blocked=True, context="redacted"), "post_tool",
     denied("secret", hook_specific_output={"additional_context": "redacted"})),
    ("injected text after the tool ran", Verdict("PostToolUse", injected=("a", "b")),
     "post_tool", HostAnswer({"hook_specific_output": {"additional_context": "a\nb"}}, 0)),
    # On post_agent a deny is a retry: the agent keeps going, the reason its feedback.
    ("keep going", Verdict("Stop", word="continue", reason="tests fail", blocked=True),
     "post_agent", denied("tests fail")),
    ("stopped on post_agent", Verdict("Stop", blocked=True, stopped=True, stop_reason="halt"),
     "post_agent", HostAnswer({}, 0)),
    ("keep going, but stopped", Verdict("Stop", word="continue", reason="tests fail",
                                        blocked=True, stopped=True), "post_agent",
     HostAnswer({}, 0)),
    ("context on post_agent", Verdict("Stop", context="done?"), "post_agent",
     HostAnswer({"system_message": "done?"}, 0)),
    ("a message", Verdict("PostToolUse", message="formatted 3 files"), "post_tool",
     HostAnswer({"system_message": "formatted 3 files"}, 0)),
    ("a deny with a message and a warning",
     DENY._replace(message="see the policy", notices=("skipped .vibe/hooks.toml",),
                   warnings=("hook 'x' timed out",)), "pre_tool",
     denied("no", system_message="see the policy\nskipped .vibe/hooks.toml\n"
                                 "agenthooks: warning: hook 'x' timed out")),
]


@pytest.mark.parametrize(("verdict", "event", "expected"), [row[1:] for row in TABLE],
                         ids=[row[0] for row in TABLE])
def test_writer(verdict: Verdict, event: str, expected: HostAnswer) -> None:
    assert write(verdict, event) == expected


SOURCE = Source(".vibe/hooks.toml", "/w/.vibe/hooks.toml", "/w", "workspace", "/w",
                dialect="vibe")
ENGINE_EVENTS = {"pre_tool": "PreToolUse", "post_tool": "PostToolUse", "post_agent": "Stop"}


def run(event: str, code: int | None, stdout: str = "", stderr: str = "", *,
        strict: bool = False, status: Literal["exited", "timeout"] = "exited") -> Answer:
    handler = Handler(SOURCE, "gate", event, None, "./gate.sh", 60.0, "command", True,
                      "/hooks/0", dialect="vibe", options=(("strict", True),) if strict else ())
    result = ProcessResult(status, code, None, stdout.encode(), stderr.encode(), False, False,
                           1.0)
    return answer(handler, result, ENGINE_EVENTS[event])


def said(**fields: Any) -> str:
    return json.dumps(fields)


# (name, event, exit code, stdout, stderr, strict, decision, reason, failed)
PROCESSES: list[tuple[str, str, int, str, str, bool, str | None, str | None, bool]] = [
    ("deny", "pre_tool", 0, said(decision="deny", reason="no rm"), "", False, "deny", "no rm",
     False),
    ("deny without a reason", "pre_tool", 0, said(decision="deny"), "", False, "deny",
     "Blocked by a pre_tool hook.", False),
    ("deny with an empty reason", "pre_tool", 0, said(decision="deny", reason=""), "", False,
     "deny", "Blocked by a pre_tool hook.", False),
    ("a reason that is no text", "pre_tool", 0, said(decision="deny", reason=7), "", False,
     "deny", "7", False),
    # Only the exact word "deny" counts; any other is the call let through.
    ("DENY", "pre_tool", 0, said(decision="DENY", reason="x"), "", False, None, None, False),
    ("block", "pre_tool", 0, said(decision="block", reason="x"), "", False, None, None, False),
    ("allow", "pre_tool", 0, said(decision="allow"), "", False, None, None, False),
    ("Claude Code's answer", "pre_tool", 0, said(hookSpecificOutput={
        "permissionDecision": "deny"}), "", False, None, None, False),
    ("empty stdout", "pre_tool", 0, " \n", "", False, None, None, False),
    ("stdout that is not JSON", "pre_tool", 0, "hello", "", False, None, None, True),
    ("JSON that is no object", "pre_tool", 0, "[]", "", False, None, None, True),
    # Nested past what any answer may be (`jsonlimits`): a failure, never a crash later.
    ("JSON nested too deeply", "pre_tool", 0,
     '{"hook_specific_output": {"tool_input": ' + '{"a": ' * 300 + "1" + "}" * 302, "",
     False, None, None, True),
    ("not JSON, strict", "pre_tool", 0, "hello", "", True, "deny",
     "stdout did not match the hook response schema: Expecting value: line 1 column 1 "
     "(char 0)", True),
    # Only exit 0 is read: exit 2 is a failure, its JSON unread.
    ("exit 2 with a deny", "pre_tool", 2, said(decision="deny", reason="no"), "", False, None,
     None, True),
    ("exit 1", "pre_tool", 1, "", "crash\nat line 3", False, None, None, True),
    ("exit 1, strict", "pre_tool", 1, "", " crash\nat line 3\n", True, "deny",
     "crash\nat line 3", True),
    ("exit 1, strict, stdout only", "pre_tool", 1, "out\n", "", True, "deny", "out", True),
    ("exit 1, strict, silent", "pre_tool", 1, "", "", True, "deny", "exited with code 1",
     True),
    ("post_tool deny", "post_tool", 0, said(decision="deny", reason="secret"), "", False,
     "block", "secret", False),
    ("post_tool deny without a reason", "post_tool", 0, said(decision="deny"), "", False,
     "block", "The tool result was blocked by a post_tool hook.", False),
    ("post_tool exit 1", "post_tool", 1, "", "crash", False, None, None, True),
    ("post_tool exit 1, strict", "post_tool", 1, "", "crash\nmore", True, "block",
     "The tool result was cleared: strict post_tool hook 'gate' failed: crash", True),
    ("post_agent deny", "post_agent", 0, said(decision="deny", reason="tests fail"), "",
     False, "continue", "tests fail", False),
    ("post_agent deny without a reason", "post_agent", 0, said(decision="deny"), "", False,
     "continue", "A post_agent hook asked the agent to revise its response.", False),
    ("post_agent exit 1", "post_agent", 1, "", "crash", False, None, None, True),
    # Vibe refuses `strict` on post_agent; were it there, a failure still accepts the turn.
    ("post_agent exit 1, strict", "post_agent", 1, "", "crash", True, None, None, True),
]


@pytest.mark.parametrize(("event", "code", "stdout", "stderr", "strict", "decision", "reason",
                          "failed"), [row[1:] for row in PROCESSES],
                         ids=[row[0] for row in PROCESSES])
def test_protocol(event: str, code: int, stdout: str, stderr: str, strict: bool,
                  decision: str | None, reason: str | None, failed: bool) -> None:
    found = run(event, code, stdout, stderr, strict=strict)
    assert (found.decision, found.reason, found.failed) == (decision, reason, failed)
    assert (found.warning is not None) == failed


def test_a_failure_is_a_warning_naming_the_hook() -> None:
    found = run("pre_tool", 1, "", "crash")
    assert (found.status, found.warning) == ("warning", "hook 'gate' exited 1: crash")
    found = run("pre_tool", 0, "hello")
    assert found.status == "ok"
    assert found.warning is not None and found.warning.startswith(
        "hook 'gate': stdout did not match the hook response schema")


@pytest.mark.parametrize(("strict", "decision", "reason"), [
    (False, None, None),
    (True, "deny", "timed out"),
])
def test_a_timeout(strict: bool, decision: str | None, reason: str | None) -> None:
    found = run("pre_tool", None, status="timeout", strict=strict)
    assert (found.status, found.decision, found.reason, found.failed) == (
        "timeout", decision, reason, True)


def test_a_timeout_of_a_strict_post_tool_hook_clears_the_result() -> None:
    found = run("post_tool", None, status="timeout", strict=True)
    assert (found.decision, found.reason) == (
        "block", "The tool result was cleared: strict post_tool hook 'gate' failed: timed out")


def specific(event: str, **fields: Any) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": event, **fields}}


# (name, event, stdout, the answer's output in the engine's words)
OUTPUTS: list[tuple[str, str, str, dict[str, Any] | None]] = [
    ("rewrite", "pre_tool", said(hook_specific_output={"tool_input": {"command": "ls"}}),
     specific("PreToolUse", updatedInput={"command": "ls"})),
    ("rewrite to nothing", "pre_tool", said(hook_specific_output={"tool_input": {}}),
     specific("PreToolUse", updatedInput={})),
    ("a rewrite that is no object", "pre_tool",
     said(hook_specific_output={"tool_input": "ls"}), None),
    # Vibe checks the deny first: the rewrite beside it is never applied.
    ("a rewrite beside a deny", "pre_tool",
     said(decision="deny", hook_specific_output={"tool_input": {"command": "ls"}}), None),
    ("a rewrite after the tool ran", "post_tool",
     said(hook_specific_output={"tool_input": {"command": "ls"}}), None),
    ("Claude Code's rewrite", "pre_tool",
     said(hookSpecificOutput={"updatedInput": {"command": "ls"}}), None),
    ("context after the tool ran", "post_tool",
     said(hook_specific_output={"additional_context": "3 lint errors"}),
     specific("PostToolUse", additionalContext="3 lint errors")),
    ("context with a deny", "post_tool",
     said(decision="deny", reason="secret", hook_specific_output={"additional_context": "x"}),
     specific("PostToolUse", additionalContext="x")),
    ("empty context", "post_tool", said(hook_specific_output={"additional_context": ""}),
     None),
    ("context before the call", "pre_tool",
     said(hook_specific_output={"additional_context": "x"}), None),
    ("context on post_agent", "post_agent",
     said(hook_specific_output={"additional_context": "x"}), None),
    ("a message", "pre_tool", said(system_message="formatted"), {"systemMessage": "formatted"}),
    ("a message on post_agent", "post_agent", said(system_message="reviewed"),
     {"systemMessage": "reviewed"}),
    ("a message with a post_tool deny", "post_tool",
     said(decision="deny", system_message="redacted"), {"systemMessage": "redacted"}),
    # A pre_tool deny's notice is Vibe's own ("Denied tool 'bash'").
    ("a message with a pre_tool deny", "pre_tool",
     said(decision="deny", system_message="no"), None),
    ("Claude Code's message", "pre_tool", said(systemMessage="formatted"), None),
    ("an empty message", "pre_tool", said(system_message=""), None),
    ("a rewrite and a message", "pre_tool",
     said(system_message="pinned", hook_specific_output={"tool_input": {"command": "ls"}}),
     {"systemMessage": "pinned", **specific("PreToolUse", updatedInput={"command": "ls"})}),
]


@pytest.mark.parametrize(("event", "stdout", "output"), [row[1:] for row in OUTPUTS],
                         ids=[row[0] for row in OUTPUTS])
def test_what_an_answer_says(event: str, stdout: str, output: dict[str, Any] | None) -> None:
    found = run(event, 0, stdout)
    assert (found.output, found.failed) == (output, False)


def test_exit_1_reads_no_rewrite() -> None:
    stdout = said(hook_specific_output={"tool_input": {"command": "ls"}}, system_message="x")
    assert run("pre_tool", 1, stdout).output is None
