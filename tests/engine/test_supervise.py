"""In-process hooks each in a forked child (`kinds.inprocess.supervise`), as `agenthooks run`
calls them: what crosses back is the same outcome the hook gives inline, and nothing else."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from agenthooks import Decision, Hooks
from agenthooks.engine.call import isolate_in_process_hooks, isolated
from agenthooks.kinds.inprocess.call import Reported

from .conftest import tool_call

RUN_LS = tool_call(CommandLine="ls")


@pytest.fixture
def isolation() -> Iterator[None]:
    isolate_in_process_hooks()
    assert isolated()
    try:
        yield
    finally:
        isolate_in_process_hooks(False)


# (kind of hook, what it returns, the decision the run reports)
ROUND_TRIPS: list[tuple[str, Any, Decision]] = [
    ("decide", None, Decision.allow()),
    ("decide", Decision.approve("fine"), Decision.approve("fine")),
    ("decide", Decision.deny("no"), Decision.deny("no")),
    ("decide", Decision.ask("sure?", force=True), Decision.ask("sure?", force=True)),
    ("decide", Decision.inject("remember"), Decision.inject("remember")),
    ("transform", Decision.modify({"CommandLine": "ls -l", "n": [1.5, {"x": None}]}),
     Decision.modify({"CommandLine": "ls -l", "n": [1.5, {"x": None}]})),
    ("transform", Decision.replace({"output": ["a", 2]}), Decision.replace({"output": ["a", 2]})),
]


@pytest.mark.parametrize(("phase", "value", "expected"), ROUND_TRIPS)
def test_an_isolated_hook_decides_as_it_does_inline(
    isolation: None, phase: str, value: Any, expected: Decision
) -> None:
    parent = os.getpid()
    pids: list[int] = []

    def hook(ctx: Any) -> Any:
        pids.append(os.getpid())
        return value

    hooks = Hooks()
    hooks.on("PreToolUse", hook, kind=phase)
    result = hooks.run("PreToolUse", RUN_LS)
    [outcome] = result.hooks
    assert outcome.error is None
    assert outcome.decision == expected
    assert pids == []  # it ran in another process: nothing it changed here is seen
    assert os.getpid() == parent


def test_records_and_state_come_back(isolation: None) -> None:
    hooks = Hooks()

    @hooks.decide("PreToolUse", priority=1)
    def first(ctx: Any) -> Reported:
        ctx.state["seen"] = "first"
        ctx.turn.state["turn"] = [1, 2]
        return Reported(None, ({"log": "hello"}, {"metric": "m", "op": "incr", "value": 1}))

    @hooks.decide("PreToolUse", priority=2)
    def second(ctx: Any) -> Decision:
        return Decision.deny(f"{ctx.state['seen']} {ctx.state['turn']}")

    result = hooks.run("PreToolUse", RUN_LS)
    assert result.decision == Decision.deny("first [1, 2]")
    assert result.hooks[0].records == ({"log": "hello"},
                                          {"metric": "m", "op": "incr", "value": 1})


def test_a_value_that_is_not_plain_data_is_a_failure(isolation: None) -> None:
    hooks = Hooks()
    hooks.on("PreToolUse", lambda ctx: Decision.replace(object()), kind="transform",
             name="opaque")
    result = hooks.run("PreToolUse", RUN_LS)
    assert result.blocked
    assert "hook 'opaque' failed: returned a value that is not plain data" in result.reason


def test_an_outcome_past_the_message_limit_is_a_failure(isolation: None) -> None:
    hooks = Hooks()
    hooks.on("PreToolUse", lambda ctx: Decision.replace("x" * (17 << 20)), kind="transform",
             name="huge")
    result = hooks.run("PreToolUse", RUN_LS)
    assert "hook 'huge' failed: sent an outcome that cannot be read" in result.reason


def test_an_async_hook_runs_on_a_loop_of_its_own(isolation: None) -> None:
    hooks = Hooks()

    async def later(ctx: Any) -> Decision:
        import asyncio

        await asyncio.sleep(0)
        return Decision.deny("awaited")

    hooks.on("PreToolUse", later)
    assert hooks.run("PreToolUse", RUN_LS).decision == Decision.deny("awaited")


def test_inspect_hooks_see_the_decision(isolation: None) -> None:
    hooks = Hooks()
    hooks.on("PreToolUse", lambda ctx: Decision.deny("no"), name="gate")
    hooks.on("PreToolUse", lambda ctx: Reported(None, ({"log": ctx.decision.kind},)),
             kind="inspect", name="watch")
    result = hooks.run("PreToolUse", RUN_LS)
    assert [o.records for o in result.hooks if o.name == "watch"] == [({"log": "deny"},)]


def test_the_api_calls_hooks_inline() -> None:
    assert not isolated()
    pids: list[int] = []
    hooks = Hooks()
    hooks.on("PreToolUse", lambda ctx: pids.append(os.getpid()))
    hooks.run("PreToolUse", RUN_LS)
    assert pids == [os.getpid()]


# --- inline (the Python API): which exceptions are the hook's failure ------------------------


def _raiser(exc: BaseException) -> Any:
    def hook(ctx: Any) -> None:
        raise exc

    return hook


@pytest.mark.parametrize("exc", [GeneratorExit(), SystemExit(0), BaseException("odd")])
def test_inline_every_exception_of_the_hook_is_its_failure(exc: BaseException) -> None:
    hooks = Hooks()
    hooks.on("PreToolUse", _raiser(exc), name="raiser")
    result = hooks.run("PreToolUse", RUN_LS)
    assert result.blocked
    assert f"hook 'raiser' failed: raised {type(exc).__name__}" in result.reason


def test_inline_a_cancellation_the_hook_raises_itself_is_its_failure() -> None:
    import asyncio

    async def cancels(ctx: Any) -> None:
        raise asyncio.CancelledError

    hooks = Hooks()
    hooks.on("PreToolUse", cancels)
    result = asyncio.run(hooks.arun("PreToolUse", RUN_LS))
    assert result.blocked and "raised CancelledError" in result.reason


def test_inline_keyboard_interrupt_still_ends_the_callers_run() -> None:
    hooks = Hooks()
    hooks.on("PreToolUse", _raiser(KeyboardInterrupt()))
    with pytest.raises(KeyboardInterrupt):
        hooks.run("PreToolUse", RUN_LS)


def test_isolated_keyboard_interrupt_is_the_hooks_failure(isolation: None) -> None:
    hooks = Hooks()
    hooks.on("PreToolUse", _raiser(KeyboardInterrupt()), name="ctrl_c")
    result = hooks.run("PreToolUse", RUN_LS)
    assert "hook 'ctrl_c' failed: raised KeyboardInterrupt" in result.reason
