"""The merged answer of an event, from real handlers run in config order."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from agenthooks.api import load_hooks
from agenthooks.combine.failclosed import deny_for_failures
from agenthooks.combine.merge import block_reasons, blocks, valid_step

from .conftest import RunFn, on, write_hooks


def echo(answer: dict[str, Any] | str) -> str:
    """A handler command printing `answer` (JSON-encoded unless already a string)."""
    text = answer if isinstance(answer, str) else json.dumps(answer)
    return "printf '%s\\n' '" + text.replace("'", "'\\''") + "'"


def exit2(reason: str = "") -> str:
    return (f"echo '{reason}' >&2; " if reason else "") + "exit 2"


def run_answers(run_doc: RunFn, event: str, *commands: str, **options: Any) -> Any:
    """Run one hook per command (h1, h2, ...) in that order; return the EventResult."""
    doc = {f"h{i}": on(event, command) for i, command in enumerate(commands, start=1)}
    return run_doc(doc, event, **options)


# --- PreToolUse ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("decisions", "winner"),
    [
        (["allow", "ask"], "ask"),
        (["ask", "force_ask", "allow"], "force_ask"),
        (["force_ask", "deny", "ask"], "deny"),
        (["allow", "allow"], "allow"),
        (["approve", "ask"], "ask"),
        (["block", "force_ask"], "deny"),
    ],
)
def test_most_restrictive_decision_wins(
    run_doc: RunFn, decisions: list[str], winner: str
) -> None:
    commands = [echo({"decision": d, "reason": f"r{i}"}) for i, d in enumerate(decisions)]
    result = run_answers(run_doc, "PreToolUse", *commands)
    assert result.output["decision"] == winner
    words = {"approve": "allow", "block": "deny"}
    expected = [f"r{i}" for i, d in enumerate(decisions) if words.get(d, d) == winner]
    assert result.output["reason"] == "\n".join(expected)
    assert result.blocked is (winner == "deny")


def test_exit_2_counts_as_deny_and_reasons_of_the_winners_are_joined(run_doc: RunFn) -> None:
    result = run_answers(
        run_doc, "PreToolUse",
        echo({"decision": "ask", "reason": "asking"}),
        exit2("first"),
        echo({"decision": "deny", "reason": "second"}),
        echo({"decision": "deny"}),
    )
    assert result.output == {"decision": "deny", "reason": "first\nsecond"}
    assert result.blocked and result.exit_code == 2
    assert result.reasons == ["first\nsecond"]


def test_no_decision_is_never_an_invented_allow(run_doc: RunFn) -> None:
    result = run_answers(run_doc, "PreToolUse", "true", echo({"systemMessage": "hi"}), "exit 1")
    assert "decision" not in result.output
    assert result.output == {"systemMessage": "hi"}
    assert not result.blocked and result.exit_code == 0


def test_no_handler_gives_an_empty_answer(run_doc: RunFn) -> None:
    result = run_doc({"h": on("PreToolUse", "true", matcher="view_file")}, "PreToolUse")
    assert result.handlers == () and result.output == {} and result.exit_code == 0


@pytest.mark.parametrize("word", ["allow", "ask", "force_ask", "deny"])
def test_default_decision_fills_in_only_when_none_was_given(run_doc: RunFn, word: str) -> None:
    result = run_answers(run_doc, "PreToolUse", "true", default_decision=word)
    assert result.output == {"decision": word}
    assert result.blocked is (word == "deny")
    given = run_answers(run_doc, "PreToolUse", echo({"decision": "ask"}), default_decision=word)
    assert given.output == {"decision": "ask"}


def test_default_decision_does_not_apply_to_other_events(run_doc: RunFn) -> None:
    result = run_answers(run_doc, "Stop", "true", default_decision="deny")
    assert result.output == {} and not result.blocked


def test_permission_overrides_union_in_order_without_duplicates(run_doc: RunFn) -> None:
    result = run_answers(
        run_doc, "PreToolUse",
        echo({"decision": "allow", "permissionOverrides": ["command(ls)", "read_file(/a)"]}),
        echo({"decision": "deny", "permissionOverrides": ["read_file(/b)", "command(ls)"]}),
        echo({"permissionOverrides": ["read_file(/a)", "command(make)"]}),
    )
    assert result.output["permissionOverrides"] == [
        "command(ls)", "read_file(/a)", "read_file(/b)", "command(make)",
    ]
    # The decision (deny wins; no handler gave a reason) comes first, the other fields after.
    assert list(result.output) == ["decision", "permissionOverrides"]
    assert result.output["decision"] == "deny"


def test_bad_permission_overrides_are_a_warning(run_doc: RunFn) -> None:
    result = run_answers(run_doc, "PreToolUse", echo({"permissionOverrides": "command(ls)"}))
    assert "permissionOverrides" not in result.output
    assert result.warnings == ["hook 'h1': permissionOverrides must be a list of strings; ignored"]


# --- merge order --------------------------------------------------------------------------------


def test_config_order_not_completion_order(run_doc: RunFn) -> None:
    start = time.monotonic()
    result = run_answers(
        run_doc, "PreToolUse",
        "sleep 0.4; " + echo({"decision": "deny", "reason": "slow", "systemMessage": "first"}),
        echo({"decision": "deny", "reason": "fast", "systemMessage": "second"}),
    )
    assert time.monotonic() - start < 5
    assert result.output["reason"] == "slow\nfast"
    assert result.output["systemMessage"] == "first\nsecond"
    assert [a.hook for a in result.handlers] == ["h1", "h2"]


def test_handlers_run_in_parallel(run_doc: RunFn) -> None:
    start = time.monotonic()
    result = run_answers(run_doc, "Stop", *(f"sleep 0.6; echo {i}" for i in range(4)))
    elapsed = time.monotonic() - start
    assert [a.status for a in result.handlers] == ["ok"] * 4
    assert elapsed < 2.0, elapsed  # one after the other would take 2.4 s


def test_user_file_comes_before_the_workspace(home: Path, workspace: Path) -> None:
    write_hooks(home / ".gemini", {"user": on("Stop", echo({"systemMessage": "user"}))}, "config")
    write_hooks(workspace, {"ws": on("Stop", echo({"systemMessage": "workspace"}))})
    result = load_hooks(workspaces=[str(workspace)]).run("Stop", {})
    assert result.output == {"systemMessage": "user\nworkspace"}
    assert [a.hook for a in result.handlers] == ["user", "ws"]


# --- flat events --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "event", ["PostToolUse", "PreInvocation", "PostInvocation", "SessionStart"]
)
def test_block_on_other_events(run_doc: RunFn, event: str) -> None:
    result = run_answers(
        run_doc, event,
        echo({"decision": "block", "reason": "lint failed"}),
        exit2("also"),
        echo({"decision": "allow", "reason": "ignored"}),
    )
    assert result.output == {"decision": "block", "reason": "lint failed\nalso"}
    assert result.blocked and result.exit_code == 2


def test_post_tool_use_without_block_is_empty(run_doc: RunFn) -> None:
    result = run_answers(run_doc, "PostToolUse", echo({}), "true")
    assert result.output == {} and not result.blocked


def test_inject_steps_concatenated_in_order(run_doc: RunFn) -> None:
    result = run_answers(
        run_doc, "PreInvocation",
        "sleep 0.2; " + echo({"injectSteps": [{"ephemeralMessage": "a"}, {"userMessage": "b"}]}),
        echo({"injectSteps": [{"toolCall": {"name": "view_file", "args": {}}}]}),
        echo({"injectSteps": []}),
    )
    assert result.output == {"injectSteps": [
        {"ephemeralMessage": "a"}, {"userMessage": "b"},
        {"toolCall": {"name": "view_file", "args": {}}},
    ]}
    assert result.warnings == []


def test_invalid_inject_steps_are_dropped_with_a_warning(run_doc: RunFn) -> None:
    steps = [
        {"ephemeralMessage": "kept"},
        {"userMessage": "two", "ephemeralMessage": "kinds"},
        {"toolCall": "not an object"},
        {"userMessage": 3},
        {},
        "a string",
    ]
    result = run_answers(run_doc, "PostInvocation", echo({"injectSteps": steps}))
    assert result.output == {"injectSteps": [{"ephemeralMessage": "kept"}]}
    assert result.warnings == [
        f"hook 'h1': injectSteps[{i}] must hold exactly one of toolCall (an object), "
        f"userMessage or ephemeralMessage (a string); dropped"
        for i in range(1, 6)
    ]
    assert not result.blocked


def test_inject_steps_key_absent_when_empty(run_doc: RunFn) -> None:
    result = run_answers(run_doc, "PreInvocation", echo({"injectSteps": [{"bad": 1}]}))
    assert "injectSteps" not in result.output


def test_inject_steps_not_a_list(run_doc: RunFn) -> None:
    result = run_answers(run_doc, "PreInvocation", echo({"injectSteps": {"userMessage": "x"}}))
    assert result.output == {}
    assert result.warnings == ["hook 'h1': injectSteps must be a list; ignored"]


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        (["force_continue", "terminate", ""], "terminate"),
        (["", "force_continue"], "force_continue"),
        (["", ""], None),
        ([None, "force_continue", None], "force_continue"),
    ],
)
def test_termination_behavior(
    run_doc: RunFn, said: list[str | None], expected: str | None
) -> None:
    commands = [echo({} if s is None else {"terminationBehavior": s}) for s in said]
    result = run_answers(run_doc, "PostInvocation", *commands)
    assert result.output.get("terminationBehavior") == expected
    assert not result.blocked


def test_unknown_termination_behavior_is_a_warning(run_doc: RunFn) -> None:
    result = run_answers(run_doc, "PostInvocation", echo({"terminationBehavior": "stop"}))
    assert result.output == {}
    assert result.warnings == [
        "hook 'h1': terminationBehavior 'stop' is not one of terminate, force_continue; ignored"
    ]


def test_stop_continue_by_decision_or_exit_2(run_doc: RunFn) -> None:
    result = run_answers(
        run_doc, "Stop",
        echo({"decision": "continue", "reason": "tests fail"}),
        echo({}),
        exit2("lint fails"),
        echo({"decision": "block", "reason": "claude style"}),
    )
    assert result.output == {
        "decision": "continue", "reason": "tests fail\nlint fails\nclaude style"
    }
    assert result.blocked and result.exit_code == 2


def test_stop_without_continue_has_no_decision(run_doc: RunFn) -> None:
    result = run_answers(run_doc, "Stop", echo({"decision": "allow"}), "true")
    assert result.output == {} and not result.blocked


# --- common fields ------------------------------------------------------------------------------


def test_common_fields(run_doc: RunFn) -> None:
    result = run_answers(
        run_doc, "SessionStart",
        echo({"systemMessage": "one", "suppressOutput": False,
              "hookSpecificOutput": {"additionalContext": "ctx1"}}),
        echo({"systemMessage": "two", "continue": False, "stopReason": "halt",
              "hookSpecificOutput": {"additionalContext": "ctx2", "other": 1}}),
        echo({"continue": True, "suppressOutput": True, "stopReason": "not stopping"}),
        echo({"continue": False}),
        "echo '{\"systemMessage\": \"from a failing hook\"}'; exit 1",
    )
    assert result.output == {
        "systemMessage": "one\ntwo",
        "continue": False,
        "stopReason": "halt",
        "suppressOutput": True,
        "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "ctx1\nctx2"},
    }
    assert result.blocked and result.exit_code == 2
    assert result.reasons == ["halt"]


def test_common_fields_come_from_exit_0_only(run_doc: RunFn) -> None:
    result = run_answers(
        run_doc, "PostToolUse",
        "echo '{\"systemMessage\": \"x\", \"continue\": false}'; echo r >&2; exit 2",
        echo({"systemMessage": "y"}),
    )
    assert result.output == {"decision": "block", "reason": "r", "systemMessage": "y"}


def test_text_output_is_a_system_message_in_the_merge(run_doc: RunFn) -> None:
    result = run_answers(run_doc, "PreInvocation", "echo plain text", echo({"systemMessage": "j"}))
    assert result.output == {"systemMessage": "plain text\nj"}


# --- selection ------------------------------------------------------------------------------------


def test_same_command_runs_once_as_its_first_occurrence(run_doc: RunFn) -> None:
    doc = {
        "first": on("Stop", echo({"systemMessage": "once"})),
        "second": on("Stop", echo({"systemMessage": "once"}), "true"),
    }
    result = run_doc(doc, "Stop", {})
    assert [(a.hook, a.command) for a in result.handlers] == [
        ("first", echo({"systemMessage": "once"})), ("second", "true"),
    ]
    assert result.output == {"systemMessage": "once"}


def test_identical_handlers_run_once_named_by_the_first_hook(run_doc: RunFn) -> None:
    command = 'echo "$AGENTHOOKS_HOOK_NAME"'
    doc = {
        "first": on("Stop", command),
        "second": on("Stop", command),
        "slower": on("Stop", {"type": "command", "command": command, "timeout": 7}),
    }
    result = run_doc(doc, "Stop", {})
    # Same command, folder and timeout: one run, named by the first hook. Another timeout is
    # another handler.
    assert [a.hook for a in result.handlers] == ["first", "slower"]
    assert result.output == {"systemMessage": "first\nslower"}


@pytest.mark.parametrize(
    ("matcher", "tool", "selected"),
    [
        ("run_command", "run_command", True),
        ("run_command", "mcp_run_command_x", False),
        ("run_command", "run_command_x", False),
        ("run_command|view_file", "view_file", True),
        ("browser_.*", "browser_click", True),
        ("browser_.*", "x_browser_click", False),
        ("", "anything", True),
        ("*", "anything", True),
        (None, "anything", True),
    ],
)
def test_matchers_match_the_whole_tool_name(
    run_doc: RunFn, matcher: str | None, tool: str, selected: bool
) -> None:
    result = run_doc({"h": on("PreToolUse", "true", matcher=matcher)}, "PreToolUse", {}, tool=tool)
    assert bool(result.handlers) is selected


def test_tool_name_sources(run_doc: RunFn) -> None:
    doc = {"h": on("PreToolUse", echo({"systemMessage": "ran"}), matcher="run_command")}
    antigravity = {"toolCall": {"name": "run_command"}}
    claude = {"tool_name": "run_command", "tool_input": {}}
    assert run_doc(doc, "PreToolUse", antigravity).handlers
    assert run_doc(doc, "PreToolUse", claude).handlers
    assert run_doc(doc, "PreToolUse", {"toolCall": {"name": "view_file"}},
                   tool="run_command").handlers
    assert not run_doc(doc, "PreToolUse", antigravity, tool="view_file").handlers
    both = {"toolCall": {"name": "run_command"}, "tool_name": "view_file"}
    assert run_doc(doc, "PreToolUse", both).tool == "run_command"


def test_no_tool_name_selects_only_match_all(run_doc: RunFn) -> None:
    doc = {
        "all": on("PreToolUse", echo({"systemMessage": "all"}), matcher="*"),
        "some": on("PreToolUse", echo({"systemMessage": "some"}), matcher="run_command"),
    }
    result = run_doc(doc, "PreToolUse", {})
    assert [a.hook for a in result.handlers] == ["all"]
    assert result.tool is None
    assert len(result.warnings) == 1 and "only handlers whose matcher matches every tool" in (
        result.warnings[0]
    )


def test_flat_events_ignore_the_tool(run_doc: RunFn) -> None:
    result = run_doc({"h": on("Stop", "true")}, "Stop", {})
    assert len(result.handlers) == 1 and result.warnings == []


def test_disabled_hooks_do_not_run(run_doc: RunFn) -> None:
    doc = {"off": {"enabled": False, **on("Stop", "exit 2")}, "on": on("Stop", "true")}
    result = run_doc(doc, "Stop", {})
    assert [a.hook for a in result.handlers] == ["on"] and not result.blocked


def test_prompt_handlers_are_skipped_with_a_warning(run_doc: RunFn) -> None:
    doc = {"ask-model": on("Stop", {"type": "prompt", "prompt": "Is the work done?"}, "true")}
    result = run_doc(doc, "Stop", {})
    assert [a.status for a in result.handlers] == ["skipped", "ok"]
    assert result.warnings == [
        "hook 'ask-model': prompt handlers need the agent's model; skipped"
    ]
    assert result.exit_code == 0


# --- pure helpers -------------------------------------------------------------------------------


def test_blocks_table() -> None:
    assert blocks("PreToolUse", {"decision": "deny"})
    assert not blocks("PreToolUse", {"decision": "ask"})
    assert blocks("Stop", {"decision": "continue"})
    assert not blocks("PostToolUse", {"decision": "continue"})
    assert blocks("PostToolUse", {"decision": "block"})
    assert blocks("PreInvocation", {"continue": False})
    assert not blocks("PreInvocation", {"continue": True})
    assert block_reasons("PreToolUse", {"decision": "deny"}) == [
        "PreToolUse blocked (decision: deny, no reason given)"
    ]


def test_valid_step() -> None:
    assert valid_step({"userMessage": "x"})
    assert valid_step({"toolCall": {}})
    assert not valid_step({"userMessage": "x", "toolCall": {}})
    assert not valid_step({"ephemeralMessage": None})
    assert not valid_step(["userMessage"])


def test_deny_for_failures_keeps_own_deny_reasons_first() -> None:
    merged = {"decision": "deny", "reason": "rm -rf", "systemMessage": "m"}
    assert deny_for_failures(merged, ["hook 'x' exited 1"]) == {
        "decision": "deny",
        "reason": "rm -rf\nfail-closed: hook 'x' exited 1",
        "systemMessage": "m",
    }
    assert deny_for_failures({"decision": "allow", "reason": "ok"}, ["f"]) == {
        "decision": "deny", "reason": "fail-closed: f",
    }
