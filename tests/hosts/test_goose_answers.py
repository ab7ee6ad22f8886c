"""Goose as a host, by tables: its writer over verdicts (always exit 0, `{"decision": "block"}`
on PreToolUse and Stop), and a Goose handler's process read with its own rules (block/goose
crates/goose/src/hooks/mod.rs `classify_output`; measured with goose 1.52.0, and by
tests/e2e/test_goose.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agenthooks.combine.verdict import Verdict
from agenthooks.executor import ProcessResult
from agenthooks.hosts.goose.render import write
from agenthooks.hosts.writers import HostAnswer
from agenthooks.kinds.protocols.goose import answer
from agenthooks.model.decision import Decision
from agenthooks.model.handlers import Answer, Handler, Source

DENY = Verdict("PreToolUse", Decision.deny("no"), word="deny", reason="no", blocked=True)


def blocked(reason: str) -> HostAnswer:
    return HostAnswer({"decision": "block", "reason": reason}, 0)


# (name, verdict, Goose's event, the answer)
TABLE: list[tuple[str, Verdict, str, HostAnswer]] = [
    ("nothing", Verdict("PreToolUse"), "PreToolUse", HostAnswer({}, 0)),
    ("deny", DENY, "PreToolUse", blocked("no")),
    ("deny without a reason", Verdict("PreToolUse", word="deny", blocked=True), "PreToolUse",
     blocked("PreToolUse blocked (decision: deny, no reason given)")),
    # No ask from a Goose hook: the block it would be, never the call let through.
    ("ask", Verdict("PreToolUse", Decision.ask("sure?"), word="ask", reason="sure?"),
     "PreToolUse", blocked("a hook asks a person to confirm this call, which Goose cannot ask "
                           "from a hook: sure?")),
    ("stopped on a tool call", Verdict("PreToolUse", blocked=True, stopped=True,
                                       stop_reason="halt"), "PreToolUse", blocked("halt")),
    ("an allow says nothing", Verdict("PreToolUse", Decision.approve(), word="allow"),
     "PreToolUse", HostAnswer({}, 0)),
    ("a rewrite Goose cannot take", Verdict("PreToolUse", Decision.approve(), word="allow",
                                            updated_args={"command": "ls"}), "PreToolUse",
     HostAnswer({}, 0)),
    ("context is not read", Verdict("PreToolUse", context="mind it"), "PreToolUse",
     HostAnswer({}, 0)),
    ("keep going", Verdict("Stop", word="continue", reason="tests fail", blocked=True), "Stop",
     blocked("tests fail")),
    ("a stop let be", Verdict("Stop"), "Stop", HostAnswer({}, 0)),
    ("an event Goose reads nothing of", Verdict("PostToolUse", word="block", reason="x",
                                                blocked=True), "PostToolUse", HostAnswer({}, 0)),
    ("nor of a prompt", Verdict("UserPromptSubmit", word="block", reason="x", blocked=True),
     "UserPromptSubmit", HostAnswer({}, 0)),
]


@pytest.mark.parametrize(("verdict", "event", "expected"), [row[1:] for row in TABLE],
                         ids=[row[0] for row in TABLE])
def test_writer(verdict: Verdict, event: str, expected: HostAnswer) -> None:
    assert write(verdict, event) == expected


SOURCE = Source(".agents/plugins/p/hooks/hooks.json", "/w/.agents/plugins/p/hooks/hooks.json",
                "/w", "workspace", "/w", dialect="goose", plugin_root="/w/.agents/plugins/p")


def run(event: str, code: int | None, stdout: str = "", stderr: str = "",
        on_failure: str | None = None, status: str | None = None) -> Answer:
    options = (("on_failure", on_failure),) if on_failure else ()
    handler = Handler(SOURCE, "", event, None, "./gate.sh", 30.0, "command", True,
                      "/hooks/x/0/hooks/0", dialect="goose", options=options)
    result = ProcessResult(status or ("exited" if code is not None else "timeout"), code, None,
                           stdout.encode(), stderr.encode(), False, False, 1.0)
    return answer(handler, result, event)


def said(**fields: Any) -> str:
    return json.dumps(fields)


NOT_RUN = "the hook command failed to run"
# (name, event, exit code, stdout, stderr, on_failure, decision, reason, failed)
PROCESSES: list[tuple[str, str, int | None, str, str, str | None, str | None, str | None,
                      bool]] = [
    ("exit 2", "PreToolUse", 2, "", " EXIT2 reason\nsecond \n", None, "deny",
     "EXIT2 reason\nsecond", False),
    ("exit 2, silent", "PreToolUse", 2, "", "", None, "deny", "denied by plugin hook", False),
    ("block JSON", "PreToolUse", 0, said(decision="block", reason="no rm"), "", None, "deny",
     "no rm", False),
    ("block JSON on any exit", "PreToolUse", 1, said(decision="block", reason="no"), "", None,
     "deny", "no", False),
    ("block JSON without a reason", "PreToolUse", 0, said(decision="block"), "", None, "deny",
     "denied by plugin hook", False),
    ("exit 2 wins over allow JSON", "PreToolUse", 2, said(decision="allow"), "why", None,
     "deny", "why", False),
    ("empty stdout allows", "PreToolUse", 0, "  \n", "", None, None, None, False),
    ("allow JSON allows", "PreToolUse", 0, said(decision="allow"), "", None, None, None, False),
    # Anything else is a failure: allowed, denied under on_failure "block".
    ("a log line", "PreToolUse", 0, "checked\n", "", None, None, None, True),
    ("{}", "PreToolUse", 0, "{}", "", None, None, None, True),
    ("another word", "PreToolUse", 0, said(decision="deny"), "", None, None, None, True),
    ("allow JSON on exit 1", "PreToolUse", 1, said(decision="allow"), "", None, None, None,
     True),
    ("exit 1", "PreToolUse", 1, "", "crash", None, None, None, True),
    ("a timeout", "PreToolUse", None, "", "", None, None, None, True),
    ("on_failure allow", "PreToolUse", 1, "", "crash", "allow", None, None, True),
    ("on_failure block: a log line", "PreToolUse", 0, "checked", "", "block", "deny",
     "hook './gate.sh' wrote stdout that is neither empty nor a decision", False),
    ("on_failure block: exit 1", "PreToolUse", 1, "", "", "block", "deny",
     "hook './gate.sh' exited 1", False),
    ("on_failure block: a timeout", "PreToolUse", None, "", "", "block", "deny", NOT_RUN,
     False),
    ("on_failure block: an allow still allows", "PreToolUse", 0, "", "", "block", None, None,
     False),
    ("Stop exit 2 keeps going", "Stop", 2, "", "run the tests", None, "continue",
     "run the tests", False),
    ("Stop block JSON keeps going", "Stop", 0, said(decision="block", reason="again"), "",
     None, "continue", "again", False),
    ("Stop exit 1", "Stop", 1, "", "crash", None, None, None, True),
    # on_failure is read on PreToolUse alone
    ("Stop on_failure block is ignored", "Stop", 1, "", "", "block", None, None, True),
    ("PostToolUse exit 2 is dropped", "PostToolUse", 2, "", "no", None, None, None, False),
    ("UserPromptSubmit block JSON is dropped", "UserPromptSubmit", 0,
     said(decision="block", reason="no"), "", None, None, None, False),
    ("PreToolUseResult is observe only", "PreToolUseResult", 2, "", "no", None, None, None,
     False),
]


@pytest.mark.parametrize(("event", "code", "stdout", "stderr", "on_failure", "decision",
                          "reason", "failed"),
                         [row[1:] for row in PROCESSES], ids=[row[0] for row in PROCESSES])
def test_protocol(event: str, code: int | None, stdout: str, stderr: str,
                  on_failure: str | None, decision: str | None, reason: str | None,
                  failed: bool) -> None:
    found = run(event, code, stdout, stderr, on_failure)
    assert (found.decision, found.reason, found.failed) == (decision, reason, failed)
    assert found.output is None  # no context, no rewrite


def test_a_signal_with_block_json_still_blocks() -> None:
    found = run("PreToolUse", None, said(decision="block", reason="late"), status="signaled")
    assert (found.decision, found.reason) == ("deny", "late")
