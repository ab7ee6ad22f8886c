"""In-process Python hooks: call one with its context, within its time limit, as data.

A hook that raises, times out, or returns anything but a `Decision` or None (None means
allow) is a failure, and so is an error in its `when` predicate: never a silent "did not
match". Sync hooks are called inline (a sync function cannot be interrupted, so one that
overruns its time limit is a failure once it returns); async hooks are awaited with a
timeout that cancels them.
"""

from __future__ import annotations

import time
from _collections_abc import Awaitable, Callable

from agenthooks._lean.records import NamedTuple
from agenthooks.executor import Interrupted, Terminated
from agenthooks.kinds.inprocess.context import Context
from agenthooks.kinds.inprocess.hookspec import PythonHook
from agenthooks.model.decision import DECIDE_KINDS, KINDS, Decision

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# Decisions that mean something only on some events.
_EVENT_ONLY: dict[str, frozenset[str]] = {
    "ask": frozenset(("PreToolUse",)),
    "modify": frozenset(("PreToolUse",)),
}


class Reported(NamedTuple):
    """A decision with what the hook logged and counted, for the run report.

    Records look like `{"log": "text"}` or `{"metric": "name", "op": "incr", "value": 1}`.
    """

    decision: Decision | None
    records: tuple[dict[str, Any], ...] = ()


_now = time.monotonic  # looked up once: a hook call reads the clock three times


class HookOutcome(NamedTuple):
    """What one in-process hook did: its decision, or why it failed, and what it recorded."""

    name: str
    phase: str
    decision: Decision | None
    error: str | None
    duration_ms: float
    records: tuple[dict[str, Any], ...] = ()

    @property
    def failed(self) -> bool:
        return self.error is not None

    def as_json(self) -> dict[str, Any]:
        decision = self.decision
        return {
            "hook": self.name,
            "kind": self.phase,
            "decision": None if decision is None else decision.word,
            "reason": None if decision is None else decision.reason,
            "error": self.error,
            "durationMs": round(self.duration_ms, 3),
            "records": list(self.records),
        }


class _Failure(Exception):
    pass


def _describe(exc: BaseException) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


async def _settle(value: Any, hook: PythonHook, deadline: float, looped: bool) -> Any:
    """The value itself, or what an awaitable gives within the hook's time limit."""
    if not hasattr(value, "__await__"):
        return value
    if not looped:
        close = getattr(value, "close", None)
        if close is not None:
            close()
        raise _Failure("returned an awaitable from a plain function; make it `async def`")
    import asyncio

    remaining = max(0.0, deadline - time.monotonic())
    try:
        return await asyncio.wait_for(_awaited(value), remaining)
    except asyncio.TimeoutError:
        raise _Failure(f"timed out after {hook.timeout:g} s") from None


async def _awaited(value: Awaitable[Any]) -> Any:
    return await value


async def call_hook(hook: PythonHook, ctx: Context, *, looped: bool,
                    contain: bool = False) -> HookOutcome | None:
    """Run one hook (its `when` first); None when `when` says it does not apply.

    `looped` says whether an event loop runs this coroutine (else awaitables are failures).
    `contain`: every exception is the hook's failure, KeyboardInterrupt and cancellation
    too (a process that runs this hook alone, `kinds.inprocess.supervise`: the run's own signals
    reach its parent).
    """
    start = _now()
    deadline = start + hook.timeout
    # The clock of the hook's time limit: wall time, but for a hook that only computes and
    # says so (a Markdown hook's Starlark: `limit_clock`, CPU time), which must not fail on a
    # busy machine for the time it waited for a CPU.
    clock = getattr(hook.fn, "limit_clock", None)
    limit = (clock() + hook.timeout) if clock is not None else deadline
    records: tuple[dict[str, Any], ...] = ()
    try:
        if hook.when is not None and not await _when(hook.when, hook, ctx, deadline, looped):
            return None
        value = hook.fn(ctx)
        if hasattr(value, "__await__"):  # only then a coroutine of our own: most are plain
            value = await _settle(value, hook, deadline, looped)
        if isinstance(value, Reported):
            records, value = value.records, value.decision
        if (_now() if clock is None else clock()) > limit:
            raise _Failure(f"timed out after {hook.timeout:g} s")
        decision = _as_decision(value, hook, ctx.event)
    except _Failure as exc:
        return HookOutcome(hook.name, hook.phase, None, str(exc), _ms(start), records)
    except BaseException as exc:
        # SystemExit and GeneratorExit too: a hook that exits must not end the gate with
        # "carry on". The caller's own interruption and cancellation still end the run.
        if not contain and _propagates(exc):
            raise
        return HookOutcome(hook.name, hook.phase, None, f"raised {_describe(exc)}", _ms(start),
                           records)
    return HookOutcome(hook.name, hook.phase, decision, None, _ms(start), records)


async def _when(
    when: Callable[..., Any], hook: PythonHook, ctx: Context, deadline: float, looped: bool
) -> object:
    """What the hook's `when` predicate answers; its errors are the hook's failure."""
    try:
        applies = when(ctx)
        if hasattr(applies, "__await__"):
            applies = await _settle(applies, hook, deadline, looped)
    except _Failure:
        raise
    except Exception as exc:
        raise _Failure(f"its `when` predicate raised {_describe(exc)}") from None
    return applies


def _propagates(exc: BaseException) -> bool:
    """KeyboardInterrupt, a signal turned exception, a cancellation of the awaiting task: not
    failures. A CancelledError the hook raised itself, its task not being cancelled, is."""
    if isinstance(exc, (KeyboardInterrupt, Interrupted, Terminated)):
        return True
    if type(exc).__name__ == "CancelledError":
        return _cancelling()
    return False  # SystemExit, GeneratorExit, any other BaseException: the hook's own


def _cancelling() -> bool:
    """Whether the task running this hook is being cancelled by its caller."""
    import asyncio

    try:
        task = asyncio.current_task()
    except RuntimeError:  # no loop: nobody can be cancelling it
        return False
    # Task.cancelling() is 3.11's; before it, any CancelledError is taken as the caller's.
    cancelling = getattr(task, "cancelling", None)
    return task is not None and (cancelling is None or cancelling() > 0)


def _as_decision(value: Any, hook: PythonHook, event: str) -> Decision:
    if value is None:
        return Decision.allow()
    if hook.phase == "inspect":
        raise _Failure(f"returned {type(value).__name__}; inspect hooks cannot decide, ignored")
    if not isinstance(value, Decision):
        raise _Failure(f"returned {type(value).__name__}, not a Decision or None")
    problem = _malformed(value)
    if problem is not None:
        raise _Failure(f"returned a malformed decision: {problem}")
    if hook.phase == "decide" and value.kind not in DECIDE_KINDS:
        raise _Failure(f"a decide hook cannot return {value.kind} (register it as a transform)")
    allowed = _EVENT_ONLY.get(value.kind)
    if allowed is not None and event not in allowed:
        raise _Failure(f"returned {value.kind}, which means nothing on {event}")
    return value


# Which fields each kind needs, and of what type; anything else is not a decision.
def _malformed(value: Decision) -> str | None:
    if value.kind not in KINDS:
        return f"unknown kind {value.kind!r}"
    if value.reason is not None and not isinstance(value.reason, str):
        return f"its reason is {type(value.reason).__name__}, not text"
    if value.kind == "inject" and not isinstance(value.message, str):
        return f"its message is {type(value.message).__name__}, not text"
    if value.kind == "modify" and not isinstance(value.args, dict):
        return "modify needs a dict of arguments"
    if value.kind == "deny" and not value.reason:
        return None  # a deny without a reason is named after its hook when rendered
    return None


def _ms(start: float) -> float:
    return (_now() - start) * 1000.0
