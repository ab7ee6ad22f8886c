"""One event through the engine: the in-process chain in order, failures, matchers, then the
command handlers (real processes) on the rewritten arguments, the host's answer, the inspect
hooks, the result's typed fields, sync and async hooks, and scoped state."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from proctools import pids_with_argv, stat, wait_for

from agenthooks import Decision, Hooks, load_hooks
from agenthooks.errors import AgentHooksError

from .conftest import LoadFn, answer, on, q, read_json, stdin_to, tool_call

RUN_LS = tool_call(CommandLine="ls")


def recorder(seen: list[str], name: str, decision: Decision | None = None) -> Any:
    def hook(ctx: Any) -> Decision | None:
        seen.append(name)
        return decision

    hook.__name__ = name
    return hook


# --- order ----------------------------------------------------------------------------------


def test_priority_lower_first_then_registration_order() -> None:
    seen: list[str] = []
    hooks = Hooks()
    for name, priority in [("p5", 5), ("m1a", -1), ("z0a", 0), ("z0b", 0), ("m1b", -1),
                           ("p5b", 5)]:
        hooks.on("PreToolUse", recorder(seen, name), priority=priority,
                 kind="transform" if name.endswith("b") else "decide")
    result = hooks.run("PreToolUse", RUN_LS)
    assert seen == ["m1a", "m1b", "z0a", "z0b", "p5", "p5b"]
    assert [h.name for h in result.hooks] == seen


def test_a_terminal_stops_the_chain_but_not_the_inspect_hooks() -> None:
    seen: list[str] = []
    hooks = Hooks()
    hooks.on("PreToolUse", recorder(seen, "first"))
    hooks.on("PreToolUse", recorder(seen, "gate", Decision.deny("stop")))
    hooks.on("PreToolUse", recorder(seen, "after"), kind="transform")
    hooks.on("PreToolUse", recorder(seen, "audit"), kind="inspect")
    result = hooks.run("PreToolUse", RUN_LS)
    assert seen == ["first", "gate", "audit"]
    assert result.decision == Decision.deny("stop")


# --- failures: fail-closed on PreToolUse, warnings elsewhere --------------------------------


def _raises(ctx: Any) -> None:
    raise RuntimeError("boom")


def _sleeps(ctx: Any) -> None:
    time.sleep(0.3)


def _returns_text(ctx: Any) -> str:
    return "deny"


def _returns_dict(ctx: Any) -> dict[str, str]:
    return {"decision": "deny"}


def _returns_true(ctx: Any) -> bool:
    return True


def _decide_modifies(ctx: Any) -> Decision:
    return Decision.modify({"CommandLine": "other"})


def _decide_replaces(ctx: Any) -> Decision:
    return Decision.replace("stub")


def _bad_when(ctx: Any) -> bool:
    raise LookupError("no such flag")


def _fine(ctx: Any) -> None:
    return None


# (hook, options, what the failure says)
FAILURES: list[tuple[Any, dict[str, Any], str]] = [
    (_raises, {}, "raised RuntimeError: boom"),
    (_sleeps, {"timeout": 0.05}, "timed out after 0.05 s"),
    (_returns_text, {}, "returned str, not a Decision or None"),
    (_returns_dict, {}, "returned dict, not a Decision or None"),
    (_returns_true, {}, "returned bool, not a Decision or None"),
    (_decide_modifies, {}, "a decide hook cannot return modify"),
    (_decide_replaces, {}, "a decide hook cannot return replace"),
    (_fine, {"when": _bad_when}, "`when` predicate raised LookupError: no such flag"),
]


@pytest.mark.parametrize(("fn", "options", "error"), FAILURES)
def test_a_failure_on_pre_tool_use_is_a_deny_naming_the_hook(
    fn: Any, options: dict[str, Any], error: str, workspace: Path, hooks_of: LoadFn,
    tmp_path: Path,
) -> None:
    marker = tmp_path / "handler-ran"
    hooks = hooks_of(on("PreToolUse", f"touch {q(marker)}"))
    seen: list[str] = []
    hooks.on("PreToolUse", fn, name="guard", **options)
    hooks.on("PreToolUse", recorder(seen, "later"))
    result = hooks.run("PreToolUse", RUN_LS)
    assert result.blocked and result.exit_code == 2
    assert result.decision.kind == "deny"
    assert "'guard'" in (result.reason or "") and error in (result.reason or "")
    assert result.output == {"decision": "deny", "reason": result.reason}
    assert seen == [] and not marker.exists()
    (outcome,) = result.hooks
    assert (outcome.name, outcome.decision, outcome.failed) == ("guard", None, True)
    assert error in (outcome.error or "")


@pytest.mark.parametrize(("fn", "options", "error"), FAILURES)
@pytest.mark.parametrize("event", ["Stop", "PostToolUse", "PreInvocation", "SessionStart"])
def test_a_failure_elsewhere_is_a_warning(
    fn: Any, options: dict[str, Any], error: str, event: str
) -> None:
    seen: list[str] = []
    hooks = Hooks()
    hooks.on(event, fn, name="guard", **options)
    hooks.on(event, recorder(seen, "later"))
    result = hooks.run(event, RUN_LS)
    assert not result.blocked and result.exit_code == 0
    assert result.decision == Decision.allow()
    assert seen == ["later"]  # the chain goes on
    assert any("'guard'" in w and error in w for w in result.warnings), result.warnings


def test_a_slow_sync_hook_is_a_failure_once_it_returns() -> None:
    hooks = Hooks()
    hooks.on("PreToolUse", _sleeps, timeout=0.05)
    start = time.monotonic()
    result = hooks.run("PreToolUse", RUN_LS)
    assert time.monotonic() - start >= 0.3
    assert "timed out" in (result.reason or "")


def test_an_async_hook_past_its_timeout_is_cancelled() -> None:
    cancelled = threading.Event()

    async def slow(ctx: Any) -> Decision:
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            cancelled.set()
            raise
        return Decision.approve()

    hooks = Hooks()
    hooks.on("PreToolUse", slow, timeout=0.05)
    start = time.monotonic()
    result = hooks.run("PreToolUse", RUN_LS)
    assert time.monotonic() - start < 10
    assert cancelled.is_set()
    assert result.decision.kind == "deny"
    assert "'slow'" in (result.reason or "") and "timed out after 0.05 s" in (result.reason or "")


def test_an_async_when_past_the_timeout_is_a_failure() -> None:
    async def waits(ctx: Any) -> bool:
        await asyncio.sleep(30)
        return True

    hooks = Hooks()
    hooks.on("PreToolUse", _fine, when=waits, name="gate", timeout=0.05)
    result = hooks.run("PreToolUse", RUN_LS)
    assert result.blocked and "'gate'" in (result.reason or "")


@pytest.mark.parametrize("when", [lambda ctx: False, lambda ctx: None, lambda ctx: 0])
def test_a_when_that_says_no_skips_the_hook(when: Any) -> None:
    seen: list[str] = []
    hooks = Hooks()
    hooks.on("PreToolUse", recorder(seen, "gate", Decision.deny("no")), when=when)
    result = hooks.run("PreToolUse", RUN_LS)
    assert (seen, result.decision, result.hooks) == ([], Decision.allow(), ())


def test_when_sees_the_context() -> None:
    hooks = Hooks()
    hooks.on("PreToolUse", lambda ctx: Decision.deny("rm"),
             when=lambda ctx: ctx.tool_name == "run_command"
             and ctx.tool_args["CommandLine"].startswith("rm"))
    assert hooks.run("PreToolUse", tool_call(CommandLine="rm -r x")).blocked
    assert not hooks.run("PreToolUse", tool_call(CommandLine="ls")).blocked
    assert not hooks.run("PreToolUse", tool_call("view_file", CommandLine="rm")).blocked


def test_none_is_allow() -> None:
    hooks = Hooks()
    hooks.on("PreToolUse", _fine)
    result = hooks.run("PreToolUse", RUN_LS)
    assert result.decision == Decision.allow() and result.output == {}
    assert result.hooks[0].decision == Decision.allow()


@pytest.mark.parametrize("event", ["Stop", "PostToolUse", "PreInvocation"])
@pytest.mark.parametrize("decision", [Decision.ask("sure?"),
                                      Decision.modify({"CommandLine": "x"})])
def test_ask_and_modify_mean_nothing_off_pre_tool_use(event: str, decision: Decision) -> None:
    hooks = Hooks()
    hooks.on(event, lambda ctx: decision, kind="transform", name="odd")
    result = hooks.run(event, RUN_LS)
    assert not result.blocked
    assert any("'odd'" in w and decision.kind in w for w in result.warnings)


# --- argument globs -------------------------------------------------------------------------

GLOBS: list[tuple[dict[str, str], dict[str, Any], bool]] = [
    ({"CommandLine": "rm *"}, {"CommandLine": "rm -rf /"}, True),
    ({"CommandLine": "rm *"}, {"CommandLine": "ls; rm -rf /"}, False),
    ({"CommandLine": "*"}, {"CommandLine": ""}, True),
    ({"CommandLine": "*"}, {}, False),  # a missing argument never matches
    ({"CommandLine": "*"}, {"other": "x"}, False),
    ({"path": "*.py"}, {"path": "src/a.py"}, True),
    ({"path": "*.py"}, {"path": "src/a.PY"}, False),
    ({"count": "4?"}, {"count": 42}, True),  # other values as JSON
    ({"count": "42"}, {"count": "42"}, True),
    ({"flag": "true"}, {"flag": True}, True),
    ({"flag": "True"}, {"flag": True}, False),
    ({"value": "null"}, {"value": None}, True),
    ({"opts": '*"force": true*'}, {"opts": {"force": True}}, True),
    ({"paths": '["a", *'}, {"paths": ["a", "b"]}, True),
    ({"label": "*日本*"}, {"label": "x日本y"}, True),
    ({"a": "1", "b": "2"}, {"a": "1", "b": "2"}, True),  # all of them: an AND
    ({"a": "1", "b": "2"}, {"a": "1", "b": "3"}, False),
    ({"a": "1", "b": "2"}, {"a": "1"}, False),
]


@pytest.mark.parametrize(("globs", "args", "matches"), GLOBS)
def test_argument_globs(globs: dict[str, str], args: dict[str, Any], matches: bool) -> None:
    seen: list[str] = []
    hooks = Hooks()
    hooks.on("PreToolUse", recorder(seen, "decide"), args=globs)
    hooks.on("PreToolUse", recorder(seen, "inspect"), args=globs, kind="inspect")
    hooks.run("PreToolUse", tool_call(**args))
    assert seen == (["decide", "inspect"] if matches else [])


def test_argument_globs_in_a_tool_name_tool_input_payload() -> None:
    hooks = Hooks()
    hooks.on("PreToolUse", lambda ctx: Decision.deny("py"), args={"file_path": "*.py"})
    payload = {"tool_name": "Edit", "tool_input": {"file_path": "a.py"}}
    assert hooks.run("PreToolUse", payload).blocked
    payload["tool_input"] = {"file_path": "a.md"}
    assert not hooks.run("PreToolUse", payload).blocked


def test_argument_globs_are_checked_against_the_rewritten_arguments() -> None:
    seen: list[str] = []
    hooks = Hooks()
    hooks.on("PreToolUse", lambda ctx: Decision.modify({"CommandLine": "echo safe"}),
             kind="transform", name="rewrite")
    hooks.on("PreToolUse", recorder(seen, "sees-old"), args={"CommandLine": "rm *"})
    hooks.on("PreToolUse", recorder(seen, "sees-new"), args={"CommandLine": "echo *"})
    hooks.on("PreToolUse", recorder(seen, "audit-old"), args={"CommandLine": "rm *"},
             kind="inspect")
    hooks.on("PreToolUse", recorder(seen, "audit-new"), args={"CommandLine": "echo *"},
             kind="inspect")
    result = hooks.run("PreToolUse", tool_call(CommandLine="rm -rf /"))
    assert seen == ["sees-new", "audit-new"]
    assert result.updated_args == {"CommandLine": "echo safe"}


def test_modify_chains_so_later_hooks_see_the_new_arguments() -> None:
    seen: list[dict[str, Any]] = []

    def add(key: str, value: Any) -> Any:
        def hook(ctx: Any) -> Decision:
            seen.append(dict(ctx.tool_args))
            return Decision.modify({**ctx.tool_args, key: value})

        hook.__name__ = f"add_{key}"
        return hook

    hooks = Hooks()
    hooks.on("PreToolUse", add("a", 1), kind="transform")
    hooks.on("PreToolUse", add("b", 2), kind="transform")
    hooks.on("PreToolUse", lambda ctx: seen.append(dict(ctx.tool_args)), name="last")
    hooks.on("PreToolUse", lambda ctx: seen.append(dict(ctx.tool_args)), kind="inspect")
    result = hooks.run("PreToolUse", RUN_LS)
    assert seen == [{"CommandLine": "ls"}, {"CommandLine": "ls", "a": 1},
                    {"CommandLine": "ls", "a": 1, "b": 2}, {"CommandLine": "ls", "a": 1, "b": 2}]
    assert result.updated_args == {"CommandLine": "ls", "a": 1, "b": 2}
    assert result.decision == Decision.modify({"CommandLine": "ls", "a": 1, "b": 2})
    assert result.output == {"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "updatedInput": {"CommandLine": "ls", "a": 1, "b": 2}}}


def test_a_modify_that_is_not_json_is_a_failure() -> None:
    hooks = Hooks()
    hooks.on("PreToolUse", lambda ctx: Decision.modify({"when": object()}), kind="transform",
             name="odd")
    result = hooks.run("PreToolUse", RUN_LS)
    assert result.blocked and "'odd'" in (result.reason or "") and "JSON" in (result.reason or "")


# --- the in-process chain and the command handlers ------------------------------------------


@pytest.mark.parametrize("decision", [Decision.deny("no"), Decision.ask("sure?"),
                                      Decision.replace({"stub": True})])
def test_a_terminal_decision_runs_no_command_handler(
    decision: Decision, hooks_of: LoadFn, tmp_path: Path
) -> None:
    marker = tmp_path / "handler-ran"
    shell_marker = tmp_path / "shell-ran"
    hooks = hooks_of(on("PreToolUse", f"touch {q(marker)}"))
    hooks.shell("PreToolUse", f"touch {q(shell_marker)}")
    hooks.on("PreToolUse", lambda ctx: decision, kind="transform")
    result = hooks.run("PreToolUse", RUN_LS)
    assert result.decision == decision
    assert result.handlers == ()
    assert not marker.exists() and not shell_marker.exists()


def test_without_a_terminal_the_handlers_run(hooks_of: LoadFn, tmp_path: Path) -> None:
    marker = tmp_path / "handler-ran"
    hooks = hooks_of(on("PreToolUse", f"touch {q(marker)}"))
    hooks.on("PreToolUse", lambda ctx: Decision.approve())
    hooks.on("PreToolUse", lambda ctx: Decision.inject("note"))
    hooks.run("PreToolUse", RUN_LS)
    assert marker.exists()


def _redact(ctx: Any) -> Decision:
    return Decision.modify({**ctx.tool_args, "CommandLine": "curl -H 'token: ***' x"})


def test_a_python_modify_reaches_a_real_handlers_stdin(hooks_of: LoadFn, tmp_path: Path) -> None:
    seen = tmp_path / "seen.json"
    hooks = hooks_of(on("PreToolUse", stdin_to(seen)))
    hooks.on("PreToolUse", _redact, kind="transform")
    payload = {"toolCall": {"name": "run_command", "id": "c1",
                            "args": {"CommandLine": "curl -H 'token: s3cret' x", "Cwd": "/w"}},
               "conversationId": "conv-1"}
    result = hooks.run("PreToolUse", payload)
    got = read_json(seen)
    assert got["toolCall"] == {"name": "run_command", "id": "c1",
                               "args": {"CommandLine": "curl -H 'token: ***' x", "Cwd": "/w"}}
    assert got["conversationId"] == "conv-1"
    assert "s3cret" not in seen.read_text()
    assert result.updated_args == got["toolCall"]["args"]
    assert payload["toolCall"]["args"]["CommandLine"] == "curl -H 'token: s3cret' x"


def test_a_python_modify_reaches_tool_input(hooks_of: LoadFn, tmp_path: Path) -> None:
    seen = tmp_path / "seen.json"
    hooks = hooks_of(on("PreToolUse", stdin_to(seen)))
    hooks.on("PreToolUse", _redact, kind="transform")
    payload = {"tool_name": "Bash", "session_id": "s",
               "tool_input": {"CommandLine": "curl -H 'token: s3cret' x"}}
    hooks.run("PreToolUse", payload)
    got = read_json(seen)
    # A hooks.json handler reads the call as Antigravity would send it and as the caller
    # sent it, rewritten arguments included (an argument Claude Code's Bash does not have
    # keeps its name).
    redacted = {"CommandLine": "curl -H 'token: ***' x"}
    assert got == {"conversationId": "s", "toolCall": {"name": "run_command", "args": redacted},
                   "session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash",
                   "tool_input": redacted}


def test_the_payload_is_passed_untouched_when_nothing_modifies(
    hooks_of: LoadFn, tmp_path: Path
) -> None:
    seen = tmp_path / "seen.json"
    hooks = hooks_of(on("PreToolUse", stdin_to(seen)))
    hooks.on("PreToolUse", lambda ctx: Decision.approve())
    data = b'{"toolCall": {"name": "run_command",   "args": {"CommandLine": "ls"}}, "x": 1.50}'
    hooks.run("PreToolUse", data)
    # The caller's bytes as they came, with Claude Code's fields that scripts from its docs
    # read added after them (a hooks.json handler's payload).
    got = seen.read_bytes()
    assert got.startswith(data[:-1] + b", ")
    assert read_json(seen)["tool_input"] == {"command": "ls"}


def _updated(args: dict[str, Any], key: str = "updatedInput", delay: float = 0) -> str:
    text = answer({"hookSpecificOutput": {"hookEventName": "PreToolUse", key: args}})
    return f"sleep {delay}; {text}" if delay else text


def test_a_handlers_updated_input_is_a_modify(hooks_of: LoadFn) -> None:
    hooks = hooks_of(on("PreToolUse", _updated({"CommandLine": "ls -l"})))
    result = hooks.run("PreToolUse", RUN_LS)
    assert result.updated_args == {"CommandLine": "ls -l"}
    assert result.decision == Decision.modify({"CommandLine": "ls -l"})
    assert result.output["hookSpecificOutput"]["updatedInput"] == {"CommandLine": "ls -l"}
    assert not result.blocked


def test_geminis_tool_input_is_a_modify_too(hooks_of: LoadFn) -> None:
    hooks = hooks_of(on("PreToolUse", _updated({"CommandLine": "ls -a"}, key="tool_input")))
    result = hooks.run("PreToolUse", RUN_LS)
    assert result.updated_args == {"CommandLine": "ls -a"}


def test_the_last_rewrite_in_config_order_wins(hooks_of: LoadFn) -> None:
    # the first handler ends last: config order, not completion order, decides
    hooks = hooks_of({
        **on("PreToolUse", _updated({"CommandLine": "first"}, delay=0.5), name="a"),
        **on("PreToolUse", _updated({"CommandLine": "second"}), name="b"),
    })
    result = hooks.run("PreToolUse", RUN_LS)
    assert result.updated_args == {"CommandLine": "second"}


def test_a_handlers_rewrite_replaces_a_python_modify_whole(hooks_of: LoadFn,
                                                           tmp_path: Path) -> None:
    seen = tmp_path / "seen.json"
    hooks = hooks_of({**on("PreToolUse", stdin_to(seen), name="a"),
                      **on("PreToolUse", _updated({"Other": 1}), name="b")})
    hooks.on("PreToolUse", _redact, kind="transform")
    result = hooks.run("PreToolUse", RUN_LS)
    assert read_json(seen)["toolCall"]["args"] == {"CommandLine": "curl -H 'token: ***' x"}
    assert result.updated_args == {"Other": 1}


@pytest.mark.parametrize("deny", ["echo no >&2; exit 2", answer({"decision": "deny",
                                                                  "reason": "no"})])
def test_a_rewrite_is_dropped_when_the_answer_denies(hooks_of: LoadFn, deny: str) -> None:
    hooks = hooks_of({**on("PreToolUse", _updated({"CommandLine": "x"}), name="a"),
                      **on("PreToolUse", deny, name="b")})
    hooks.on("PreToolUse", _redact, kind="transform")
    result = hooks.run("PreToolUse", RUN_LS)
    assert result.blocked and result.decision.kind == "deny"
    assert result.updated_args is None
    assert "hookSpecificOutput" not in result.output


def test_an_in_process_approve_counts_as_a_handler_allow(hooks_of: LoadFn) -> None:
    hooks = Hooks()
    hooks.on("PreToolUse", lambda ctx: Decision.approve("trusted tool"))
    result = hooks.run("PreToolUse", RUN_LS)
    assert result.output == {"decision": "allow", "reason": "trusted tool"}
    assert result.decision == Decision.approve("trusted tool")
    # ...where nothing at all says allow by itself
    assert Hooks().run("PreToolUse", RUN_LS).output == {}


@pytest.mark.parametrize(("handler", "word"), [
    (answer({"decision": "ask", "reason": "check"}), "ask"),
    (answer({"decision": "force_ask", "reason": "check"}), "force_ask"),
    (answer({"decision": "deny", "reason": "check"}), "deny"),
    ("echo check >&2; exit 2", "deny"),
])
def test_a_handler_that_says_more_beats_an_approve(hooks_of: LoadFn, handler: str,
                                                   word: str) -> None:
    hooks = hooks_of(on("PreToolUse", handler))
    hooks.on("PreToolUse", lambda ctx: Decision.approve("fine by me"))
    result = hooks.run("PreToolUse", RUN_LS)
    assert result.output["decision"] == word
    assert "check" in result.output["reason"]
    assert result.decision.kind == ("deny" if word == "deny" else "ask")
    assert result.decision.force is (word == "force_ask")


def test_an_approve_and_a_handler_allow_keep_both_reasons(hooks_of: LoadFn) -> None:
    hooks = hooks_of(on("PreToolUse", answer({"decision": "allow", "reason": "handler"})))
    hooks.on("PreToolUse", lambda ctx: Decision.approve("python"))
    result = hooks.run("PreToolUse", RUN_LS)
    assert result.output["decision"] == "allow"
    assert set(result.output["reason"].split("\n")) == {"python", "handler"}


@pytest.mark.parametrize("default", ["deny", "ask"])
def test_an_approve_is_a_decision_so_the_default_does_not_apply(default: str) -> None:
    hooks = Hooks()
    assert hooks.run("PreToolUse", RUN_LS, default_decision=default).output["decision"] == default
    hooks.on("PreToolUse", lambda ctx: Decision.approve())
    assert hooks.run("PreToolUse", RUN_LS, default_decision=default).output == {
        "decision": "allow"}


# --- injects ---------------------------------------------------------------------------------


def _inject(text: str) -> Any:
    return lambda ctx: Decision.inject(text)


@pytest.mark.parametrize("event", ["PreInvocation", "PostInvocation", "pre_model", "post_model"])
def test_injects_are_steps_on_the_model_events(event: str) -> None:
    hooks = Hooks()
    hooks.on(event, _inject("one"))
    hooks.on(event, _inject("two"))
    result = hooks.run(event, {})
    assert result.output == {"injectSteps": [{"ephemeralMessage": "one"},
                                             {"ephemeralMessage": "two"}]}
    assert result.injected == ("one", "two")
    assert result.decision == Decision.inject("one\ntwo")


@pytest.mark.parametrize("event", ["PreToolUse", "PostToolUse", "Stop", "SessionStart"])
def test_injects_are_a_system_message_elsewhere(event: str) -> None:
    hooks = Hooks()
    hooks.on(event, _inject("one"))
    hooks.on(event, _inject("two"))
    result = hooks.run(event, RUN_LS)
    assert result.output == {"systemMessage": "one\ntwo"}
    assert result.injected == ("one", "two")


def test_injects_join_the_handlers_messages(hooks_of: LoadFn) -> None:
    hooks = hooks_of({**on("PreInvocation", answer(
        {"injectSteps": [{"ephemeralMessage": "from handler"}]}), name="a"),
        **on("Stop", answer({"systemMessage": "handler says"}), name="b")})
    hooks.on("PreInvocation", _inject("from python"))
    hooks.on("Stop", _inject("python says"))
    steps = hooks.run("PreInvocation", {}).output["injectSteps"]
    assert steps == [{"ephemeralMessage": "from python"}, {"ephemeralMessage": "from handler"}]
    assert hooks.run("Stop", {}).output["systemMessage"] == "python says\nhandler says"


def test_injects_come_back_with_a_terminal() -> None:
    hooks = Hooks()
    hooks.on("PreToolUse", _inject("heads up"))
    hooks.on("PreToolUse", lambda ctx: Decision.deny("no"))
    hooks.on("PreToolUse", _inject("never"))
    result = hooks.run("PreToolUse", RUN_LS)
    assert result.output == {"decision": "deny", "reason": "no", "systemMessage": "heads up"}
    assert result.injected == ("heads up",)
    assert result.decision == Decision.deny("no")


# --- inspect hooks ---------------------------------------------------------------------------


def _audit(seen: list[Any]) -> Any:
    def audit(ctx: Any) -> None:
        seen.append(ctx.decision)

    return audit


def test_inspect_hooks_see_a_python_deny() -> None:
    seen: list[Any] = []
    hooks = Hooks()
    hooks.on("PreToolUse", _audit(seen), kind="inspect", priority=-100)
    hooks.on("PreToolUse", lambda ctx: Decision.deny("no"))
    hooks.run("PreToolUse", RUN_LS)
    assert seen == [Decision.deny("no")]


def test_inspect_hooks_see_a_handlers_deny(hooks_of: LoadFn) -> None:
    seen: list[Any] = []
    hooks = hooks_of(on("PreToolUse", "echo refused >&2; exit 2"))
    hooks.on("PreToolUse", _audit(seen), kind="inspect")
    result = hooks.run("PreToolUse", RUN_LS)
    assert seen == [result.decision] and seen[0].kind == "deny"
    assert "refused" in seen[0].reason


def test_inspect_hooks_see_a_failures_deny() -> None:
    seen: list[Any] = []
    hooks = Hooks()
    hooks.on("PreToolUse", _audit(seen), kind="inspect")
    hooks.on("PreToolUse", _raises, name="broken")
    hooks.run("PreToolUse", RUN_LS)
    assert seen[0].kind == "deny" and "'broken'" in seen[0].reason


def test_inspect_hooks_see_allow_on_every_event() -> None:
    seen: list[Any] = []
    hooks = Hooks()
    for event in ("PreToolUse", "PostToolUse", "Stop", "PreInvocation", "PostInvocation",
                  "SessionStart"):
        hooks.on(event, _audit(seen), kind="inspect")
        hooks.run(event, RUN_LS)
    assert seen == [Decision.allow()] * 6


def _inspect_denies(ctx: Any) -> Decision:
    return Decision.deny("inspect wants to deny")


def _inspect_overwrites(ctx: Any) -> None:
    ctx.decision = Decision.deny("overwritten")


def _inspect_raises(ctx: Any) -> None:
    raise ValueError("audit log full")


def _inspect_sleeps(ctx: Any) -> None:
    time.sleep(0.3)


@pytest.mark.parametrize(("fn", "options", "warning"), [
    (_inspect_denies, {}, "inspect hooks cannot decide"),
    (lambda ctx: 42, {}, "returned int"),
    (_inspect_raises, {}, "raised ValueError: audit log full"),
    (_inspect_sleeps, {"timeout": 0.05}, "timed out"),
    (_inspect_overwrites, {}, None),
])
def test_inspect_hooks_cannot_change_the_decision(fn: Any, options: dict[str, Any],
                                                  warning: str | None) -> None:
    hooks = Hooks()
    hooks.on("PreToolUse", lambda ctx: Decision.approve("ok"))
    hooks.on("PreToolUse", fn, kind="inspect", name="audit", **options)
    result = hooks.run("PreToolUse", RUN_LS)
    assert result.decision == Decision.approve("ok")
    assert result.output == {"decision": "allow", "reason": "ok"}
    assert not result.blocked
    found = [w for w in result.warnings if "'audit'" in w]
    if warning is None:
        assert found == []
    else:
        assert len(found) == 1 and warning in found[0], result.warnings


def test_inspect_hooks_run_concurrently() -> None:
    # Each waits for the other to have started: run one after the other, both would time out.
    started: dict[str, asyncio.Event] = {}

    def waiter(me: str, other: str) -> Any:
        async def hook(ctx: Any) -> None:
            started.setdefault(me, asyncio.Event()).set()
            await started.setdefault(other, asyncio.Event()).wait()

        hook.__name__ = me
        return hook

    hooks = Hooks()
    hooks.on("PostToolUse", waiter("a", "b"), kind="inspect", timeout=5)
    hooks.on("PostToolUse", waiter("b", "a"), kind="inspect", timeout=5)
    result = asyncio.run(hooks.arun("PostToolUse", RUN_LS))
    assert result.warnings == []
    assert sorted(h.name for h in result.hooks) == ["a", "b"]
    assert all(not h.failed for h in result.hooks)


# --- the result -----------------------------------------------------------------------------


def test_result_fields_for_a_replace_on_tool_error() -> None:
    hooks = Hooks()

    @hooks.transform("ToolError", tool="web_search")
    def recover(ctx: Any) -> Decision:
        return Decision.replace({"results": [], "recovered_from": ctx.payload["error"]})

    result = hooks.run("tool_error", {"toolCall": {"name": "web_search", "args": {}},
                                      "error": "HTTP 503"})
    assert result.decision.kind == "replace"
    assert result.replacement == {"results": [], "recovered_from": "HTTP 503"}
    assert (result.updated_args, result.injected) == (None, ())
    (outcome,) = result.hooks
    assert (outcome.name, outcome.phase, outcome.error) == ("recover", "transform", None)
    assert outcome.decision == result.decision and outcome.duration_ms >= 0


def test_result_fields_for_everything_at_once(hooks_of: LoadFn) -> None:
    hooks = hooks_of(on("PreToolUse", "true"))
    hooks.on("PreToolUse", lambda ctx: Decision.approve("known tool"), name="approve")
    hooks.on("PreToolUse", lambda ctx: Decision.modify({"CommandLine": "ls -1"}),
             kind="transform", name="rewrite")
    hooks.on("PreToolUse", _inject("be brief"), name="nudge")
    hooks.on("PreToolUse", lambda ctx: None, kind="inspect", name="audit")
    result = hooks.run("PreToolUse", RUN_LS)
    assert result.decision == Decision.approve("known tool")  # approve > modify > inject
    assert result.reason == "known tool"
    assert result.updated_args == {"CommandLine": "ls -1"}
    assert result.injected == ("be brief",)
    assert result.replacement is None
    assert [(h.name, h.phase, h.decision.kind if h.decision else None) for h in result.hooks] == [
        ("approve", "decide", "approve"), ("rewrite", "transform", "modify"),
        ("nudge", "decide", "inject"), ("audit", "inspect", "allow")]
    assert [a.hook for a in result.handlers] == ["hook"]
    report = result.to_report()
    assert report["decision"] == "allow"  # the report says the answer's words
    assert [h["hook"] for h in report["hooks"]] == ["approve", "rewrite", "nudge", "audit"]
    assert [h["decision"] for h in report["hooks"]] == ["allow", "modify", "inject", None]
    assert set(report["hooks"][0]) == {"hook", "kind", "decision", "reason", "error",
                                       "durationMs", "records"}


def test_the_result_reports_a_handlers_deny_as_a_decision(hooks_of: LoadFn) -> None:
    hooks = hooks_of(on("PreToolUse", "echo 'not here' >&2; exit 2"))
    result = hooks.run("PreToolUse", RUN_LS)
    assert result.decision.kind == "deny" and "not here" in (result.reason or "")


@pytest.fixture
def kill_sleep() -> Any:
    """Kill a left-over `sleep 37.4` should a test fail before its handler was killed."""
    yield
    for pid in pids_with_argv(["sleep", "37.4"]):
        os.kill(pid, 9)


# --- sync and async hooks -------------------------------------------------------------------


async def _async_deny(ctx: Any) -> Decision:
    await asyncio.sleep(0)
    return Decision.deny("async says no")


async def _async_when(ctx: Any) -> bool:
    await asyncio.sleep(0)
    return True


def test_run_drives_async_hooks_on_its_own_loop() -> None:
    hooks = Hooks()
    hooks.on("PreToolUse", _async_deny)
    result = hooks.run("PreToolUse", RUN_LS)
    assert result.decision == Decision.deny("async says no")


def test_run_drives_an_async_when() -> None:
    hooks = Hooks()
    hooks.on("PreToolUse", lambda ctx: Decision.deny("matched"), when=_async_when)
    assert hooks.run("PreToolUse", RUN_LS).blocked


def test_arun_awaits_sync_and_async_hooks_alike(hooks_of: LoadFn, tmp_path: Path) -> None:
    seen = tmp_path / "seen.json"
    hooks = hooks_of(on("PreToolUse", stdin_to(seen)))
    hooks.on("PreToolUse", _redact, kind="transform")

    async def approve(ctx: Any) -> Decision:
        await asyncio.sleep(0)
        return Decision.approve(ctx.tool_args["CommandLine"])

    hooks.on("PreToolUse", approve)
    result = asyncio.run(hooks.arun("pre_tool_use", RUN_LS))
    assert result.decision == Decision.approve("curl -H 'token: ***' x")
    assert read_json(seen)["toolCall"]["args"]["CommandLine"] == "curl -H 'token: ***' x"


def test_run_inside_a_running_loop_with_an_async_hook_says_use_arun() -> None:
    hooks = Hooks()
    hooks.on("PreToolUse", _async_deny)

    async def main() -> None:
        with pytest.raises(AgentHooksError, match="arun"):
            hooks.run("PreToolUse", RUN_LS)

    asyncio.run(main())


def test_run_inside_a_running_loop_with_only_sync_hooks_works() -> None:
    hooks = Hooks()
    hooks.on("PreToolUse", lambda ctx: Decision.deny("sync"))

    async def main() -> Any:
        return hooks.run("PreToolUse", RUN_LS)

    assert asyncio.run(main()).decision == Decision.deny("sync")


def test_a_plain_function_returning_a_coroutine_is_a_failure() -> None:
    hooks = Hooks()
    def sneaky(ctx: Any) -> Any:  # a plain function that hands back a coroutine
        return _async_deny(ctx)

    hooks.on("PreToolUse", sneaky)
    result = hooks.run("PreToolUse", RUN_LS)
    assert result.blocked and "'sneaky'" in (result.reason or "")
    assert "async def" in (result.reason or "")


def test_run_from_many_threads_at_once() -> None:
    hooks = Hooks()
    hooks.on("PreToolUse", lambda ctx: Decision.deny(ctx.tool_args["n"]),
             args={"n": "*[13579]"})
    hooks.on("PreToolUse", lambda ctx: Decision.approve(ctx.tool_args["n"]))
    results: dict[int, Any] = {}

    def work(n: int) -> None:
        results[n] = hooks.run("PreToolUse", tool_call(n=str(n)))

    threads = [threading.Thread(target=work, args=(n,)) for n in range(40)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for n, result in results.items():
        assert result.decision.kind == ("deny" if n % 2 else "approve")
        assert result.reason == str(n)
    assert len(results) == 40


def test_arun_from_many_tasks_at_once() -> None:
    hooks = Hooks()

    async def gate(ctx: Any) -> Decision:
        await asyncio.sleep(0.01)
        return Decision.approve(ctx.tool_args["n"])

    hooks.on("PreToolUse", gate)

    async def main() -> list[Any]:
        return await asyncio.gather(*(hooks.arun("PreToolUse", tool_call(n=str(n)))
                                      for n in range(30)))

    assert [r.reason for r in asyncio.run(main())] == [str(n) for n in range(30)]


# --- contexts and state ---------------------------------------------------------------------


def test_state_falls_back_operation_turn_session_and_writes_stay_in_scope() -> None:
    hooks = Hooks()
    reads: list[tuple[Any, ...]] = []

    @hooks.decide("PreToolUse")
    def look(ctx: Any) -> None:
        reads.append((ctx.state.get("user"), ctx.state.get("correlation_id"),
                      ctx.state.get("scratch", "unset"), ctx.state["user"]))
        ctx.state["scratch"] = "operation only"
        ctx.state.set("correlation_id", "overridden in the operation")

    session = hooks.session(session_id="s-1")
    session.state.set("user", "ada")
    turn = session.turn()
    turn.state["correlation_id"] = "turn-1"
    hooks.run("PreToolUse", RUN_LS, context=turn)
    hooks.run("PreToolUse", RUN_LS, context=turn)
    assert reads == [("ada", "turn-1", "unset", "ada")] * 2
    assert turn.state.own() == {"correlation_id": "turn-1"}
    assert session.state.own() == {"user": "ada"}
    assert "scratch" not in turn.state and "user" in turn.state
    with pytest.raises(KeyError):
        turn.state["scratch"]


def test_two_turns_do_not_share_state() -> None:
    hooks = Hooks()
    seen: list[Any] = []

    @hooks.decide("PreInvocation")
    def start_turn(ctx: Any) -> None:
        seen.append(("start", ctx.turn.state.get("correlation_id")))
        ctx.turn.state["correlation_id"] = f"cid-{len(seen)}"
        ctx.session.state["turns"] = ctx.session.state.get("turns", 0) + 1

    @hooks.inspect("PreToolUse")
    def tool(ctx: Any) -> None:
        seen.append(("tool", ctx.state.get("correlation_id"), ctx.state.get("turns")))

    session = hooks.session()
    first, second = session.turn(), session.turn()
    hooks.run("PreInvocation", {}, context=first)
    hooks.run("PreToolUse", RUN_LS, context=first)
    hooks.run("PreInvocation", {}, context=second)
    hooks.run("PreToolUse", RUN_LS, context=second)
    hooks.run("PreToolUse", RUN_LS, context=first)
    assert seen == [("start", None), ("tool", "cid-1", 1), ("start", None), ("tool", "cid-3", 2),
                    ("tool", "cid-1", 2)]


def test_a_session_as_context_starts_a_new_turn_each_call() -> None:
    hooks = Hooks()
    turns: list[Any] = []

    @hooks.decide("PreToolUse")
    def look(ctx: Any) -> None:
        turns.append((ctx.turn, ctx.session, ctx.turn.state.get("mark")))
        ctx.turn.state["mark"] = "set"

    session = hooks.session(session_id="abc")
    hooks.run("PreToolUse", RUN_LS, context=session)
    hooks.run("PreToolUse", RUN_LS, context=session)
    assert turns[0][0] is not turns[1][0]
    assert turns[0][1] is turns[1][1] is session and session.session_id == "abc"
    assert [t[2] for t in turns] == [None, None]


def test_without_a_context_each_call_is_fresh_and_takes_the_payloads_session_id() -> None:
    hooks = Hooks()
    seen: list[Any] = []

    @hooks.decide("PreToolUse")
    def look(ctx: Any) -> None:
        seen.append((ctx.session.session_id, ctx.session.state.get("n")))
        ctx.session.state["n"] = 1

    hooks.run("PreToolUse", {**RUN_LS, "conversationId": "conv-9"})
    hooks.run("PreToolUse", {**RUN_LS, "session_id": "sess-7"})
    hooks.run("PreToolUse", RUN_LS)
    assert seen[:2] == [("conv-9", None), ("sess-7", None)]
    assert seen[2][1] is None and seen[2][0] not in ("conv-9", "sess-7", "")


def test_the_context_carries_the_call() -> None:
    hooks = Hooks()
    seen: dict[str, Any] = {}

    @hooks.decide("PreToolUse")
    def look(ctx: Any) -> None:
        seen.update(event=ctx.event, tool=ctx.tool_name, args=dict(ctx.tool_args),
                    payload=ctx.payload["conversationId"], decision=ctx.decision)

    hooks.run("pre_tool_use", {**tool_call("view_file", path="a"), "conversationId": "c"})
    assert seen == {"event": "PreToolUse", "tool": "view_file", "args": {"path": "a"},
                    "payload": "c", "decision": None}


def test_bad_context_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="Session or a Turn"):
        Hooks().run("PreToolUse", RUN_LS, context="s-1")  # type: ignore[arg-type]


def test_state_is_thread_safe_per_scope() -> None:
    hooks = Hooks()
    session = hooks.session()
    lock = threading.Lock()

    @hooks.inspect("PostToolUse")
    def count(ctx: Any) -> None:
        with lock:  # the store is safe; a read-modify-write needs the caller's own lock
            ctx.session.state["calls"] = ctx.session.state.get("calls", 0) + 1

    threads = [threading.Thread(target=hooks.run, args=("PostToolUse", RUN_LS),
                                kwargs={"context": session}) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert session.state["calls"] == 20


# --- read-only views for decide hooks -------------------------------------------------------


def _set_arg(ctx: Any) -> None:
    ctx.tool_args["CommandLine"] = "rm -rf /"


def _del_arg(ctx: Any) -> None:
    del ctx.tool_args["CommandLine"]


def _set_nested(ctx: Any) -> None:
    ctx.tool_args["opts"]["force"] = False


def _set_in_list(ctx: Any) -> None:
    ctx.tool_args["opts"]["paths"][0] = "/etc"


def _set_payload(ctx: Any) -> None:
    ctx.payload["extra"] = 1


def _set_payload_args(ctx: Any) -> None:
    ctx.payload["toolCall"]["args"]["CommandLine"] = "x"


MUTATIONS = [_set_arg, _del_arg, _set_nested, _set_in_list, _set_payload, _set_payload_args]


def test_decide_hooks_get_a_deep_read_only_view(hooks_of: LoadFn, tmp_path: Path) -> None:
    seen = tmp_path / "seen.json"
    hooks = hooks_of(on("PreToolUse", stdin_to(seen)))
    errors: list[Any] = []

    @hooks.decide("PreToolUse")
    def meddle(ctx: Any) -> None:
        for mutate in MUTATIONS:
            try:
                mutate(ctx)
            except TypeError as exc:
                errors.append(type(exc))
            else:
                errors.append("changed")

    args = {"CommandLine": "ls", "opts": {"force": True, "paths": ["/tmp"]}}
    payload = tool_call(**args)
    hooks.run("PreToolUse", payload)
    assert errors == [TypeError] * 6
    assert payload == tool_call(CommandLine="ls", opts={"force": True, "paths": ["/tmp"]})
    got = read_json(seen)
    assert {key: got[key] for key in payload} == payload


def test_a_mutation_left_uncaught_is_a_failure() -> None:
    hooks = Hooks()
    hooks.on("PreToolUse", _set_nested, name="meddler")
    result = hooks.run("PreToolUse", tool_call(opts={"force": True}))
    assert result.blocked and "'meddler'" in (result.reason or "")
    assert "TypeError" in (result.reason or "")


# --- shell hooks ----------------------------------------------------------------------------


def test_shell_placeholders_through_a_real_command(workspace: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    hooks = load_hooks(workspaces=[str(workspace)], no_user=True)
    hooks.shell("PreToolUse",
                "printf '%s|' {event} {tool_name} {session_id} {tool_input[path]} {path} {count}"
                f" {{tool_input[missing]}} {{unknown}} > {q(out)}")
    payload = {**tool_call("edit_file", path="src/a b.py", count=3), "conversationId": "c-1"}
    result = hooks.run("PreToolUse", payload)
    assert not result.blocked and result.handlers[0].status == "ok"
    assert out.read_text() == "PreToolUse|edit_file|c-1|src/a b.py|src/a b.py|3||{unknown}|"


def test_shell_session_id_comes_from_the_context_first(tmp_path: Path) -> None:
    out = tmp_path / "out"
    hooks = Hooks()
    hooks.shell("Stop", f"printf '%s' {{session_id}} > {q(out)}")
    hooks.run("Stop", {"session_id": "from-payload"}, context=hooks.session("from-context"))
    assert out.read_text() == "from-context"
    hooks.run("Stop", {"session_id": "from-payload"})
    assert out.read_text() == "from-payload"


def test_shell_builtin_names_win_a_clash_and_other_braces_survive(tmp_path: Path) -> None:
    out = tmp_path / "out"
    hooks = Hooks()
    hooks.shell("PreToolUse",
                f"{{ printf '%s ' {{event}} {{tool_input[event]}}; echo 'x y' | awk '{{print $2}}';"
                f" }} > {q(out)}")
    hooks.run("PreToolUse", tool_call(event="argument"))
    assert out.read_text() == "PreToolUse argument y\n"


@pytest.mark.parametrize("value", ["x{event}y", "$(touch pwned)", "'; touch pwned; '",
                                   '"; touch pwned; "', "a\nb", "`touch pwned`",
                                   "\ntouch pwned\n", "{tool_input[CommandLine]}"])
def test_shell_payload_values_reach_the_command_as_data(value: str, workspace: Path,
                                                        tmp_path: Path) -> None:
    plain, quoted, named = (tmp_path / n for n in ("plain", "quoted", "named"))
    hooks = load_hooks(workspaces=[str(workspace)], no_user=True)
    hooks.shell("PreToolUse", f"printf '%s' {{CommandLine}} > {q(plain)}")
    hooks.shell("PreToolUse", f"printf '%s' \"<{{tool_input[CommandLine]}}>\" > {q(quoted)}")
    hooks.shell("PreToolUse", f"printf '%s' {{tool_input[CommandLine]}} > {q(named)}")
    result = hooks.run("PreToolUse", tool_call(CommandLine=value))
    assert [a.status for a in result.handlers] == ["ok"] * 3
    assert plain.read_text() == value
    assert quoted.read_text() == f"<{value}>"
    assert named.read_text() == value
    for where in (workspace, tmp_path, Path.cwd()):
        assert not (where / "pwned").exists()


def test_shell_runs_in_the_first_workspace_else_the_current_directory(
    workspace: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    hooks = load_hooks(workspaces=[str(workspace)], no_user=True)
    hooks.shell("Stop", f"pwd -P > {q(out)}")
    hooks.run("Stop", {})
    assert out.read_text().strip() == str(workspace.resolve())
    bare = Hooks()
    bare.shell("Stop", f"pwd -P > {q(out)}")
    bare.run("Stop", {})
    assert out.read_text().strip() == str(Path.cwd().resolve())


def test_shell_hooks_answer_after_the_hooks_json_handlers(hooks_of: LoadFn) -> None:
    hooks = Hooks()
    hooks.shell("Stop", answer({"systemMessage": "from shell"}), name="shell-hook")
    loaded = hooks_of({**on("Stop", "sleep 0.3; " + answer({"systemMessage": "from file a"}),
                            name="a"),
                       **on("Stop", answer({"systemMessage": "from file b"}), name="b")})
    merged = hooks.merge(loaded)  # registered first, still after the files
    result = merged.run("Stop", {})
    assert [a.hook for a in result.handlers] == ["a", "b", "shell-hook"]
    assert result.output["systemMessage"] == "from file a\nfrom file b\nfrom shell"


def test_shell_exit_2_blocks() -> None:
    hooks = Hooks()
    hooks.shell("PreToolUse", "echo 'not on main' >&2; exit 2", name="branch-guard")
    result = hooks.run("PreToolUse", RUN_LS)
    assert result.blocked and result.exit_code == 2
    assert result.decision.kind == "deny" and "not on main" in (result.reason or "")


def test_shell_gets_the_rewritten_payload_and_globs_on_the_new_arguments(tmp_path: Path) -> None:
    seen, skipped = tmp_path / "seen.json", tmp_path / "skipped"
    hooks = Hooks()
    hooks.on("PreToolUse", _redact, kind="transform")
    hooks.shell("PreToolUse", stdin_to(seen), args={"CommandLine": "*'token: ***'*"})
    hooks.shell("PreToolUse", f"touch {q(skipped)}", args={"CommandLine": "*s3cret*"})
    hooks.run("PreToolUse", tool_call(CommandLine="curl -H 'token: s3cret' x"))
    assert read_json(seen)["toolCall"]["args"] == {"CommandLine": "curl -H 'token: ***' x"}
    assert not skipped.exists()


def test_shell_tool_matcher(tmp_path: Path) -> None:
    out = tmp_path / "out"
    hooks = Hooks()
    hooks.shell("PostToolUse", f"echo {{tool_name}} >> {q(out)}", tool="edit_file|view_file")
    for tool in ("edit_file", "run_command", "view_file", "edit_files"):
        hooks.run("PostToolUse", tool_call(tool))
    assert out.read_text().split() == ["edit_file", "view_file"]


def test_a_shell_hook_past_its_timeout_is_killed_and_named(kill_sleep: None) -> None:
    hooks = Hooks()
    hooks.shell("PreToolUse", "exec sleep 37.4", timeout=0.3, name="slow-lint")
    start = time.monotonic()
    result = hooks.run("PreToolUse", RUN_LS)
    assert time.monotonic() - start < 10
    assert not result.blocked
    assert any("'slow-lint'" in w and "timed out after 0.3 s" in w for w in result.warnings), \
        result.warnings
    closed = hooks.run("PreToolUse", RUN_LS, fail_closed=True)
    assert closed.blocked and "'slow-lint'" in (closed.reason or "")


def test_a_background_shell_has_no_say_and_is_reaped(tmp_path: Path) -> None:
    pid_file, go, done = tmp_path / "pid", tmp_path / "go", tmp_path / "done"
    hooks = Hooks()
    hooks.shell(
        "PreToolUse",
        f"echo $$ > {q(pid_file)}; while [ ! -e {q(go)} ]; do sleep 0.05; done; "
        f"touch {q(done)}; echo refused >&2; exit 2",
        background=True, timeout=20,
    )
    result = hooks.run("PreToolUse", RUN_LS)
    # the answer came while the background command still waits
    assert not result.blocked and result.output == {} and result.handlers == ()
    assert not done.exists()
    assert wait_for(pid_file.exists)
    pid = int(wait_for(lambda: pid_file.read_text().strip()))
    assert stat(pid) is not None
    go.touch()
    assert wait_for(done.exists)
    assert wait_for(lambda: stat(pid) is None), stat(pid)  # reaped: not even a zombie


def test_a_background_shell_is_killed_at_its_timeout(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    hooks = Hooks()
    hooks.shell("Stop", f"echo $$ > {q(pid_file)}; exec sleep 37.3", background=True,
                timeout=0.5)
    start = time.monotonic()
    result = hooks.run("Stop", {})
    assert time.monotonic() - start < 5 and not result.blocked
    pid = int(wait_for(lambda: pid_file.exists() and pid_file.read_text().strip()))
    try:
        assert wait_for(lambda: stat(pid) is None, timeout=15), stat(pid)
    finally:
        if stat(pid) is not None:
            os.kill(pid, 9)


# --- how a decision is rendered (the README's table) ----------------------------------------


@pytest.mark.parametrize(("event", "word"), [
    ("PreToolUse", "deny"), ("PostToolUse", "block"), ("Stop", "continue"),
    ("PreInvocation", "block"), ("PostInvocation", "block"), ("SessionStart", "block"),
    ("ToolError", "block"), ("SessionEnd", "block"),
])
def test_a_python_deny_is_each_events_blocking_word(event: str, word: str) -> None:
    hooks = Hooks()
    hooks.on(event, lambda ctx: Decision.deny("no"))
    result = hooks.run(event, RUN_LS)
    assert result.output == {"decision": word, "reason": "no"}
    assert (result.blocked, result.exit_code) == (True, 2)


@pytest.mark.parametrize(("decision", "output"), [
    (Decision.ask("check first"), {"decision": "ask", "reason": "check first"}),
    (Decision.ask("check first", force=True), {"decision": "force_ask",
                                               "reason": "check first"}),
    (Decision.replace({"a": 1}), {"decision": "deny",
                                  "reason": "hook 'stub' supplied the result: {\"a\": 1}"}),
    (Decision.replace("text"), {"decision": "deny",
                                "reason": "hook 'stub' supplied the result: text"}),
])
def test_terminal_decisions_on_pre_tool_use(decision: Decision, output: dict[str, Any]) -> None:
    hooks = Hooks()
    hooks.on("PreToolUse", lambda ctx: decision, kind="transform", name="stub")
    result = hooks.run("PreToolUse", RUN_LS)
    assert result.output == output
    assert result.blocked is (decision.kind == "replace")
    assert result.decision == decision


# --- on_error: a hook that fails open -------------------------------------------------------


def test_on_error_allow_makes_a_failure_on_pre_tool_use_a_warning(hooks_of: LoadFn,
                                                                  tmp_path: Path) -> None:
    marker = tmp_path / "handler-ran"
    hooks = hooks_of(on("PreToolUse", f"touch {q(marker)}"))
    seen: list[str] = []
    hooks.on("PreToolUse", _raises, name="optional", on_error="allow")
    hooks.on("PreToolUse", recorder(seen, "later"))
    result = hooks.run("PreToolUse", RUN_LS)
    assert not result.blocked and result.decision == Decision.allow()
    assert seen == ["later"] and marker.exists()
    assert any("'optional'" in w and "boom" in w for w in result.warnings)


def test_fail_closed_overrides_on_error_allow() -> None:
    hooks = Hooks()
    hooks.on("PreToolUse", _raises, name="optional", on_error="allow")
    result = hooks.run("PreToolUse", RUN_LS, fail_closed=True)
    assert result.blocked and "'optional'" in (result.reason or "")


def test_on_error_deny_is_the_default_and_other_words_are_refused() -> None:
    hooks = Hooks()
    hooks.on("PreToolUse", _raises, on_error="deny")
    assert hooks.run("PreToolUse", RUN_LS).blocked
    with pytest.raises(ValueError, match="on_error"):
        hooks.on("PreToolUse", _fine, on_error="ignore")


# --- malformed decisions and hooks that try to end the process -------------------------------


def _bogus(ctx: Any) -> Decision:
    return Decision("bogus")


def _inject_number(ctx: Any) -> Decision:
    return Decision.inject(5)  # type: ignore[arg-type]


def _deny_number(ctx: Any) -> Decision:
    return Decision.deny(5)  # type: ignore[arg-type]


def _exits(ctx: Any) -> None:
    raise SystemExit(0)


@pytest.mark.parametrize("fn", [_bogus, _inject_number, _exits])
def test_a_malformed_decision_or_an_exit_is_a_failure_on_pre_tool_use(fn: Any) -> None:
    hooks = Hooks()
    hooks.on("PreToolUse", fn, kind="transform", name="odd")
    result = hooks.run("PreToolUse", RUN_LS)
    assert result.blocked and result.decision.kind == "deny"
    assert isinstance(result.reason, str) and "'odd'" in result.reason
    assert result.output == {"decision": "deny", "reason": result.reason}


@pytest.mark.parametrize("fn", [_bogus, _inject_number, _exits])
def test_a_malformed_decision_or_an_exit_is_a_warning_on_stop(fn: Any) -> None:
    hooks = Hooks()
    hooks.on("Stop", fn, kind="transform", name="odd")
    result = hooks.run("Stop", {})
    assert not result.blocked and result.output == {}
    assert any("'odd'" in w for w in result.warnings)


def test_the_answers_reason_is_always_text() -> None:
    hooks = Hooks()
    hooks.on("PreToolUse", _deny_number, name="odd")
    result = hooks.run("PreToolUse", RUN_LS)
    assert result.blocked and isinstance(result.output["reason"], str)
    assert isinstance(result.reason, str)
