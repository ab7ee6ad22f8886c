"""One handler's answer under the exit-code protocol, from real handler processes."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

from agenthooks.api import EventResult
from agenthooks.kinds.protocols.antigravity import parse_output, read_decision
from agenthooks.model.handlers import Answer

from .conftest import LoadFn, RunFn, on

EVENTS = ("PreToolUse", "PostToolUse", "PreInvocation", "PostInvocation", "Stop", "SessionStart")


def one(
    run_doc: RunFn, command: str, event: str = "PreToolUse", timeout: int | None = None
) -> tuple[EventResult, Answer]:
    result = run_doc({"h": on(event, command, timeout=timeout)}, event)
    [answer] = result.handlers
    return result, answer


# --- exit 0 ---------------------------------------------------------------------------------


def test_exit_0_json_object_is_the_output(run_doc: RunFn) -> None:
    result, a = one(run_doc, """echo '{"decision": "ask", "reason": "why", "x": 1}'""")
    assert a.status == "ok" and a.exit_code == 0
    assert a.output == {"decision": "ask", "reason": "why", "x": 1}
    assert (a.decision, a.reason) == ("ask", "why")
    assert result.output == {"decision": "ask", "reason": "why"}
    assert result.warnings == [] and not result.blocked and result.exit_code == 0


def test_exit_0_text_is_a_system_message_trimmed(run_doc: RunFn) -> None:
    result, a = one(run_doc, "printf '  hello\\n  world  \\n\\n'")
    assert a.output == {"systemMessage": "hello\n  world"}
    assert result.output == {"systemMessage": "hello\n  world"}


def test_exit_0_empty_stdout_is_no_output(run_doc: RunFn) -> None:
    result, a = one(run_doc, "printf '  \\n'")
    assert a.status == "ok" and a.output is None and a.decision is None
    assert result.output == {}


@pytest.mark.parametrize("text", ["[1, 2]", '"a string"', "42", "null", "not json {"])
def test_exit_0_non_object_json_is_a_system_message(run_doc: RunFn, text: str) -> None:
    result, a = one(run_doc, f"echo '{text}'")
    assert a.output == {"systemMessage": text}
    assert result.output == {"systemMessage": text}


# Output that starts like a JSON object but is not one agenthooks can take: never a message.
MALFORMED = [
    ("trailing comma", """echo '{"decision": "allow",}'""", "Expecting property name"),
    ("not json", "echo '{not json'", "Expecting property name"),
    ("NaN", """echo '{"decision": "allow", "n": NaN}'""", "NaN is not valid JSON"),
    ("Infinity", """echo '{"n": -Infinity}'""", "-Infinity is not valid JSON"),
    ("5,000 digits", """python3 -c 'print("{\\"n\\": " + "9" * 5000 + "}")'""", "digits"),
    ("nested 300 deep", """python3 -c 'print("{\\"a\\": " + "[" * 300 + "]" * 300 + "}")'""",
     "nests deeper than 200 levels"),
    ("nested 5000 deep", """python3 -c 'print("{\\"a\\": " + "[" * 5000 + "]" * 5000 + "}")'""",
     "nests deeper than 200 levels"),
    ("cut at 1 MiB", """python3 -c 'print("{\\"systemMessage\\": \\"" + "x" * 2**21 + "\\"}")'""",
     "cut at 1 MiB"),
]


@pytest.mark.parametrize(("label", "command", "error"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_output_is_a_warning_and_the_others_stand(
    run_doc: RunFn, label: str, command: str, error: str
) -> None:
    good = """echo '{"decision": "ask", "reason": "check"}'"""
    result = run_doc({"bad": on("PreToolUse", command), "good": on("PreToolUse", good)},
                     "PreToolUse", {"toolCall": {"name": "run_command", "args": {}}})
    bad = result.handlers[0]
    assert bad.status == "ok" and bad.output is None and bad.failed
    assert bad.warning is not None and bad.warning.startswith("hook 'bad' wrote malformed JSON")
    assert error in bad.warning
    assert result.output == {"decision": "ask", "reason": "check"}
    json.dumps(result.to_report(), allow_nan=False)  # strict JSON all the way through


def test_malformed_output_fails_closed(run_doc: RunFn) -> None:
    result = run_doc({"bad": on("PreToolUse", """echo '{"decision": "allow",}'""")},
                     "PreToolUse", {"toolCall": {"name": "run_command", "args": {}}},
                     fail_closed=True)
    assert result.blocked and result.output["decision"] == "deny"
    assert "fail-closed: hook 'bad' wrote malformed JSON" in result.output["reason"]


def test_output_is_decoded_as_utf8_with_replacement(run_doc: RunFn) -> None:
    _, a = one(run_doc, "printf 'caf\\303\\251 \\377\\376'; printf '\\377 err' >&2; exit 1")
    assert a.stdout == "café \ufffd\ufffd"
    assert a.stderr == "\ufffd err"
    _, a = one(run_doc, "printf '\\377 ok \\303\\251'")
    assert a.output == {"systemMessage": "\ufffd ok é"}


# --- exit 2 ---------------------------------------------------------------------------------


def test_exit_2_blocks_with_stderr_as_reason_and_ignores_stdout(run_doc: RunFn) -> None:
    result, a = one(run_doc, """echo '{"decision":"allow"}'; echo '  no way  ' >&2; exit 2""")
    assert a.status == "blocked" and a.exit_code == 2
    assert a.output is None and (a.decision, a.reason) == ("deny", "no way")
    assert result.output == {"decision": "deny", "reason": "no way"}
    assert result.blocked and result.exit_code == 2


def test_exit_2_without_stderr_names_the_hook(run_doc: RunFn) -> None:
    result, a = one(run_doc, "exit 2")
    assert a.reason == "hook h blocked (exit 2)"
    assert result.output == {"decision": "deny", "reason": "hook h blocked (exit 2)"}


@pytest.mark.parametrize(
    ("event", "decision"),
    [("PreToolUse", "deny"), ("PostToolUse", "block"), ("PreInvocation", "block"),
     ("PostInvocation", "block"), ("Stop", "continue"), ("SessionStart", "block")],
)
def test_exit_2_is_the_blocking_decision_of_each_event(
    run_doc: RunFn, event: str, decision: str
) -> None:
    result, a = one(run_doc, "echo stop >&2; exit 2", event)
    assert a.decision == decision
    assert result.output == {"decision": decision, "reason": "stop"}
    assert result.blocked and result.exit_code == 2


# --- failures: warnings, never blocks ---------------------------------------------------------


def test_other_exit_is_a_warning_and_stdout_is_ignored(run_doc: RunFn) -> None:
    command = """echo '{"decision":"deny"}'; echo 'lint failed' >&2; echo more >&2; exit 1"""
    result, a = one(run_doc, command)
    assert a.status == "warning" and a.exit_code == 1 and a.failed
    assert a.output is None and a.decision is None
    assert a.warning == "hook 'h' exited 1: lint failed"
    assert result.output == {} and not result.blocked and result.exit_code == 0
    assert result.warnings == ["hook 'h' exited 1: lint failed"]


def test_other_exit_without_stderr(run_doc: RunFn) -> None:
    _, a = one(run_doc, "exit 3")
    assert a.warning == "hook 'h' exited 3"


def test_command_not_found_is_exit_127_a_warning(run_doc: RunFn) -> None:
    result, a = one(run_doc, "./no-such-script.sh")
    assert a.status == "warning" and a.exit_code == 127
    assert a.warning is not None and a.warning.startswith("hook 'h' exited 127: ")
    assert "not found" in a.warning
    assert result.exit_code == 0


def test_death_by_signal_is_a_warning(run_doc: RunFn) -> None:
    result, a = one(run_doc, "echo dying >&2; kill -9 $$")
    assert a.status == "warning" and a.signal == 9 and a.exit_code is None
    assert a.warning == "hook 'h' killed by SIGKILL: dying"
    assert a.as_json()["signal"] == "SIGKILL"
    assert not result.blocked


def test_missing_working_directory_is_not_started(hooks_of: LoadFn, workspace: Path) -> None:
    hooks = hooks_of({"h": on("Stop", "true")})
    moved = workspace.parent / "gone"
    shutil.move(str(workspace), str(moved))  # the workspace vanished after loading
    result = hooks.run("Stop", {})
    [a] = result.handlers
    assert a.status == "not-started" and a.failed
    assert a.warning is not None and a.warning.startswith("hook 'h' cannot start: ")
    assert result.output == {} and result.exit_code == 0


def test_timeout_is_a_warning(run_doc: RunFn) -> None:
    start = time.monotonic()
    result, a = one(run_doc, "echo '{\"decision\":\"deny\"}'; sleep 30", timeout=1)
    assert time.monotonic() - start < 5
    assert a.status == "timeout" and a.timed_out and a.failed
    assert a.warning == "hook 'h' timed out after 1 s"
    assert a.output is None
    assert result.output == {} and not result.blocked
    assert a.as_json()["timedOut"] is True


# --- decision words ---------------------------------------------------------------------------

WORDS = {
    "PreToolUse": {"allow": "allow", "approve": "allow", "deny": "deny", "block": "deny",
                   "ask": "ask", "force_ask": "force_ask", "continue": None},
    "Stop": {"continue": "continue", "block": "continue", "deny": "continue", "allow": None,
             "approve": None, "ask": None, "force_ask": None},
    **{
        event: {"block": "block", "deny": "block", "allow": None, "approve": None,
                "ask": None, "force_ask": None, "continue": None}
        for event in ("PostToolUse", "PreInvocation", "PostInvocation", "SessionStart")
    },
}
KNOWN_WITHOUT_DECISION = {"allow", "approve"}  # on events other than PreToolUse


@pytest.mark.parametrize(
    ("event", "word"), [(event, word) for event in EVENTS for word in WORDS[event]]
)
def test_each_decision_word_on_each_event(run_doc: RunFn, event: str, word: str) -> None:
    answer_json = json.dumps({"decision": word, "reason": f"because {word}"})
    result, a = one(run_doc, f"echo '{answer_json}'", event)
    expected = WORDS[event][word]
    assert a.decision == expected
    if expected is not None:
        assert result.output["decision"] == expected
        assert result.output["reason"] == f"because {word}"
        assert result.warnings == []
    else:
        assert "decision" not in result.output
        unknown = word not in KNOWN_WITHOUT_DECISION or event == "PreToolUse"
        assert a.failed is unknown
        if unknown:
            assert result.warnings == [
                f"hook 'h' gave decision {word!r}, unknown for {event}; ignored"
            ]
        else:
            assert result.warnings == []


def test_unknown_decision_keeps_the_other_fields(run_doc: RunFn) -> None:
    result, a = one(run_doc, """echo '{"decision": "maybe", "systemMessage": "hi"}'""")
    assert a.status == "ok" and a.decision is None and a.failed
    assert result.output == {"systemMessage": "hi"}
    assert result.warnings == ["hook 'h' gave decision 'maybe', unknown for PreToolUse; ignored"]


def test_non_string_decision_is_unknown(run_doc: RunFn) -> None:
    result, _ = one(run_doc, """echo '{"decision": 1}'""")
    assert result.warnings == ["hook 'h' gave decision '1', unknown for PreToolUse; ignored"]


def test_empty_decision_is_no_decision(run_doc: RunFn) -> None:
    result, a = one(run_doc, """echo '{"decision": ""}'""", "Stop")
    assert a.decision is None and not a.failed and result.warnings == []


@pytest.mark.parametrize(
    ("word", "expected"), [("allow", "allow"), ("deny", "deny"), ("ask", "ask")]
)
def test_claude_permission_decision(run_doc: RunFn, word: str, expected: str) -> None:
    claude = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": word,
                                     "permissionDecisionReason": f"claude says {word}"}}
    result, a = one(run_doc, f"echo '{json.dumps(claude)}'")
    assert (a.decision, a.reason) == (expected, f"claude says {word}")
    assert result.output == {"decision": expected, "reason": f"claude says {word}"}


def test_the_more_restrictive_of_decision_and_permission_decision_wins() -> None:
    output = {"decision": "ask", "reason": "r",
              "hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "x"}}
    assert read_decision(output, "PreToolUse") == ("deny", "x", None)


def test_permission_decision_only_on_pre_tool_use() -> None:
    output = {"hookSpecificOutput": {"permissionDecision": "deny"}}
    assert read_decision(output, "PostToolUse") == (None, None, None)
    assert read_decision({"hookSpecificOutput": {"permissionDecision": "defer"}},
                         "PreToolUse") == (None, None, None)
    assert read_decision({"hookSpecificOutput": {"permissionDecision": "nope"}},
                         "PreToolUse") == (None, None, "nope")


def test_parse_output() -> None:
    assert parse_output("") is None
    assert parse_output(" \n") is None
    assert parse_output(' {"a": 1} \n') == {"a": 1}
    assert parse_output(" [1] ") == {"systemMessage": "[1]"}


# --- the report's handler object ----------------------------------------------------------------


def test_handler_report_fields(run_doc: RunFn) -> None:
    _, a = one(run_doc, """echo '{"decision":"deny","reason":"r"}'; echo note >&2""")
    report = a.as_json()
    assert list(report) == [
        "hook", "source", "command", "status", "exitCode", "signal", "durationMs", "timedOut",
        "stdout", "stderr", "stdoutTruncated", "stderrTruncated", "output", "decision",
    ]
    assert report["hook"] == "h"
    assert Path(report["source"]).name == "hooks.json"
    assert report["status"] == "ok" and report["exitCode"] == 0 and report["signal"] is None
    assert report["stdout"] == '{"decision":"deny","reason":"r"}\n'
    assert report["stderr"] == "note\n"
    assert report["stdoutTruncated"] is False and report["stderrTruncated"] is False
    assert report["output"] == {"decision": "deny", "reason": "r"}
    assert report["decision"] == "deny"
    assert isinstance(report["durationMs"], float) and report["durationMs"] >= 0
