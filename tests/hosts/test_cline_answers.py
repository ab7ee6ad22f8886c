"""Cline as a host, by tables: its writer over verdicts (always exit 0; a refusal `{"cancel":
true, "errorMessage"}`, context, `overrideInput`), and a Cline hook's process read with its own
rules (cline@3.0.65, @cline/core 0.0.86 `parseHookControl`; measured with cline 3.0.65, and by
tests/e2e/test_cline.py)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from agenthooks.combine.verdict import Verdict
from agenthooks.executor import ProcessResult
from agenthooks.hosts.cline.render import write
from agenthooks.hosts.writers import HostAnswer
from agenthooks.kinds.protocols.cline import CONTEXT_LIMIT, answer
from agenthooks.model.decision import Decision
from agenthooks.model.handlers import Answer, Handler, Source

DENY = Verdict("PreToolUse", Decision.deny("no"), word="deny", reason="no", blocked=True)


def cancel(reason: str) -> HostAnswer:
    return HostAnswer({"cancel": True, "errorMessage": reason}, 0)


# (name, verdict, Cline's event, the answer)
TABLE: list[tuple[str, Verdict, str, HostAnswer]] = [
    ("nothing", Verdict("PreToolUse"), "PreToolUse", HostAnswer({}, 0)),
    ("deny ends the task", DENY, "PreToolUse", cancel("no")),
    ("deny without a reason", Verdict("PreToolUse", word="deny", blocked=True), "PreToolUse",
     cancel("PreToolUse blocked (decision: deny, no reason given)")),
    ("ask", Verdict("PreToolUse", Decision.ask("sure?"), word="ask", reason="sure?"),
     "PreToolUse", cancel("a hook asks a person to confirm this call, which Cline cannot ask "
                          "from a hook: sure?")),
    ("stopped", Verdict("PreToolUse", blocked=True, stopped=True, stop_reason="halt"),
     "PreToolUse", cancel("halt")),
    ("an allow says nothing", Verdict("PreToolUse", Decision.approve(), word="allow"),
     "PreToolUse", HostAnswer({}, 0)),
    ("a rewrite", Verdict("PreToolUse", Decision.approve(), word="allow",
                          updated_args={"commands": ["ls"]}), "PreToolUse",
     HostAnswer({"overrideInput": {"commands": ["ls"]}}, 0)),
    ("context", Verdict("PreToolUse", context="mind it"), "PreToolUse",
     HostAnswer({"contextModification": "mind it"}, 0)),
    ("context after the call", Verdict("PostToolUse", context="lint: 2"), "PostToolUse",
     HostAnswer({"contextModification": "lint: 2"}, 0)),
    ("a block after the call is its reason", Verdict("PostToolUse", word="block",
                                                     reason="bad", blocked=True),
     "PostToolUse", HostAnswer({"contextModification": "bad"}, 0)),
    ("a stop after the call ends the task", Verdict("PostToolUse", blocked=True, stopped=True,
                                                    stop_reason="enough"), "PostToolUse",
     cancel("enough")),
    ("an event Cline reads nothing of", Verdict("TaskComplete", word="continue", reason="x",
                                                blocked=True), "TaskComplete",
     HostAnswer({}, 0)),
]


@pytest.mark.parametrize(("verdict", "event", "expected"), [row[1:] for row in TABLE],
                         ids=[row[0] for row in TABLE])
def test_writer(verdict: Verdict, event: str, expected: HostAnswer) -> None:
    assert write(verdict, event) == expected


SOURCE = Source(".clinerules/hooks/PreToolUse", "/w/.clinerules/hooks/PreToolUse", "/w",
                "workspace", "/w", dialect="cline")


def run(event: str, code: int | None, stdout: str = "", status: str | None = None) -> Answer:
    handler = Handler(SOURCE, "", event, None, "bash /w/.clinerules/hooks/PreToolUse", 120.0,
                      "command", True, "", dialect="cline")
    result = ProcessResult(status or ("exited" if code is not None else "timeout"), code, None,
                           stdout.encode(), b"", False, False, 1.0)
    return answer(handler, result, event)


def said(**fields: Any) -> str:
    return json.dumps(fields)


STOP = {"continue": False}
# (name, event, exit code, stdout, decision, reason, output, failed)
PROCESSES: list[tuple[str, str, int | None, str, str | None, str | None, Any, bool]] = [
    ("cancel", "PreToolUse", 0, said(cancel=True, errorMessage="no rm"), "deny", "no rm",
     {**STOP, "stopReason": "no rm"}, False),
    ("cancel on any exit", "PreToolUse", 1, said(cancel=True, errorMessage="no"), "deny", "no",
     {**STOP, "stopReason": "no"}, False),
    ("cancel, its reason the context", "PreToolUse", 0, said(cancel=True, context="c"),
     "deny", "c", {**STOP, "stopReason": "c"}, False),
    ("cancel without a reason", "PreToolUse", 0, said(cancel=True), "deny",
     "Run stopped by runtime control",
     {**STOP, "stopReason": "Run stopped by runtime control"}, False),
    ("a HOOK_CONTROL line wins", "PreToolUse", 0,
     "log line\nHOOK_CONTROL\t" + said(cancel=False) + "\n  HOOK_CONTROL\t"
     + said(cancel=True, errorMessage="last") + "\n", "deny", "last",
     {**STOP, "stopReason": "last"}, False),
    ("cancel after the call stops the run", "PostToolUse", 0, said(cancel=True,
                                                                   errorMessage="x"),
     None, "x", {**STOP, "stopReason": "x"}, False),
    ("contextModification", "PreToolUse", 0, said(contextModification="note"), None, None,
     {"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "note"}},
     False),
    ("context wins", "PostToolUse", 0, said(context="a", contextModification="b"), None, None,
     {"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "a"}},
     False),
    ("errorMessage without cancel is context", "PreToolUse", 0, said(errorMessage="e"),
     None, None,
     {"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "e"}},
     False),
    ("overrideInput", "PreToolUse", 0, said(overrideInput={"commands": ["ls"]}), None, None,
     {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                             "updatedInput": {"commands": ["ls"]}}}, False),
    ("overrideInput after the call is not read", "PostToolUse", 0,
     said(overrideInput={"x": 1}), None, None, None, False),
    ("overrideInput not an object", "PreToolUse", 0, said(overrideInput="ls"), None, None,
     None, True),
    ("nothing", "PreToolUse", 0, "", None, None, None, False),
    ("{}", "PreToolUse", 0, "{}", None, None, None, False),
    ("review does nothing", "PreToolUse", 0, said(review=True), None, None, None, False),
    ("an array says nothing", "PreToolUse", 0, "[1]", None, None, None, False),
    # No exit code is read: a silent crash lets the call through (a warning here).
    ("exit 2 alone", "PreToolUse", 2, "", None, None, None, True),
    ("not JSON", "PreToolUse", 0, "checked\n", None, None, None, True),
    ("a timeout", "PreToolUse", None, "", None, None, None, True),
    # A detached event's answer is never read.
    ("TaskStart", "TaskStart", 0, said(cancel=True), None, None, None, False),
]


@pytest.mark.parametrize(("event", "code", "stdout", "decision", "reason", "output", "failed"),
                         [row[1:] for row in PROCESSES], ids=[row[0] for row in PROCESSES])
def test_protocol(event: str, code: int | None, stdout: str, decision: str | None,
                  reason: str | None, output: Any, failed: bool) -> None:
    found = run(event, code, stdout)
    assert (found.decision, found.reason, found.output, found.failed) == (
        decision, reason, output, failed)


def test_context_is_cut_as_cline_cuts_it() -> None:
    found = run("PreToolUse", 0, said(context="x" * (CONTEXT_LIMIT + 5)))
    assert found.output is not None
    context = found.output["hookSpecificOutput"]["additionalContext"]
    assert context == "x" * CONTEXT_LIMIT + (
        f"\n[hook context truncated: exceeded {CONTEXT_LIMIT} characters]")


def test_a_signal_with_an_answer_is_read() -> None:
    found = run("PreToolUse", None, said(cancel=True, errorMessage="late"), status="signaled")
    assert (found.decision, found.reason) == ("deny", "late")


# --- the wiring, run as Cline runs it -------------------------------------------------------


@pytest.mark.program
def test_init_scripts_answer_cline(tmp_path: Path) -> None:
    """`agenthooks init --host cline` in a git work tree, then its PreToolUse script run as
    Cline runs it (`sh FILE`, the payload on stdin): the starter gate's deny is Cline's cancel,
    and an allowed call gets `{}`."""
    import sys

    from tests.support import program, program_env

    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    done = program("init", "--host", "cline", "--yes", cwd=root)
    assert done.returncode == 0, done.stderr
    script = root / ".clinerules" / "hooks" / "PreToolUse"
    # Cline needs no exec bit, and finds agenthooks on PATH.
    env = program_env({"PATH": str(Path(sys.executable).parent) + os.pathsep
                       + os.environ.get("PATH", "")})

    def cline_runs(command: str) -> subprocess.CompletedProcess[str]:
        payload = {"clineVersion": "", "hookName": "tool_call", "taskId": "t",
                   "workspaceRoots": [str(root)],
                   "tool_call": {"id": "c", "name": "run_commands",
                                 "input": {"commands": [command]}},
                   "preToolUse": {"toolName": "run_commands",
                                  "parameters": {"commands": json.dumps([command])}}}
        return subprocess.run(["sh", str(script)], input=json.dumps(payload), cwd=root,
                              env=env, capture_output=True, text=True, check=False, timeout=60)

    denied = cline_runs("rm -rf build")
    assert denied.returncode == 0
    assert json.loads(denied.stdout) == {
        "cancel": True, "errorMessage": "rm -rf needs a human (the no-rm-rf gate of "
                                        "agenthooks init)"}
    allowed = cline_runs("ls")
    assert (allowed.returncode, json.loads(allowed.stdout)) == (0, {})
