"""One event through the engine: the in-process chain, then the command handlers, then the
host's answer, then the inspect hooks.

    1. decide/transform hooks, in (priority, registration) order, folded (`engine.fold`);
       a failure on PreToolUse is a deny naming the hook, elsewhere a warning
    2. unless a terminal decision was reached: the hooks.json handlers and shell hooks, in
       parallel, on the payload with the rewritten arguments (`kinds.process`)
    3. the host renders the final answer (`hosts.antigravity.render`)
    4. inspect hooks see `ctx.decision`; their errors and values are warnings

A coroutine, so that `Hooks.arun` awaits async hooks on the caller's loop; `Hooks.run` drives
it by hand when no selected hook is async (no event loop at all), else on a private loop.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence

from agenthooks.config.model import Handler
from agenthooks.engine.fold import Folded, step
from agenthooks.executor import ProcessResult, ProcessSpec
from agenthooks.hosts.antigravity import Rendered, render
from agenthooks.hosts.antigravity.protocol import Answer
from agenthooks.kinds.process import answers_of
from agenthooks.payload import dumps, tool_args, with_args

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, NamedTuple
    Processes = Callable[[Sequence[ProcessSpec], bytes], Awaitable[list[ProcessResult]]]
else:
    from agenthooks._records import NamedTuple

# In-process hooks are imported only by a run that has some: a plain hooks.json run starts
# once per tool call and must not pay for them.
if TYPE_CHECKING:
    from agenthooks.engine.context import Context, Turn
    from agenthooks.engine.hookspec import PythonHook, ShellHook
    from agenthooks.kinds.python import HookOutcome


class EventPlan(NamedTuple):
    """What may run for one (event, tool): fixed until hooks are registered again."""

    handlers: tuple[Handler, ...]  # selected hooks.json handlers, in config order
    specs: list[ProcessSpec]  # the process specs of their command handlers
    chain: tuple[PythonHook, ...]  # decide and transform hooks, in order
    inspect: tuple[PythonHook, ...]
    shells: tuple[ShellHook, ...]
    looped: bool  # whether some hook or predicate is async (needs an event loop)

    @property
    def in_process(self) -> bool:
        return bool(self.chain or self.inspect or self.shells)


class Call(NamedTuple):
    """One event to run: the payload as bytes and as an object, and its options."""

    event: str
    tool: str | None
    data: bytes
    doc: dict[str, Any]
    turn: Turn | None
    default_decision: str | None
    closed: bool  # fail-closed on PreToolUse
    file_failures: tuple[str, ...]  # skipped files, which fail a closed call


class Executed(NamedTuple):
    rendered: Rendered
    answers: tuple[Answer, ...]
    outcomes: tuple[HookOutcome, ...]
    warnings: list[str]


async def execute(plan: EventPlan, call: Call, processes: Processes, *, looped: bool) -> Executed:
    warnings: list[str] = []
    outcomes: list[HookOutcome] = []
    args = tool_args(call.doc) if plan.in_process else {}
    ctx = _context(plan, call, args)
    folded = Folded()
    if ctx is not None:
        folded = await _chain(plan.chain, ctx, call, looped, outcomes, warnings)
    answers: list[Answer] = []
    if folded.terminal is None:
        answers = await _commands(plan, call, folded, args, ctx, processes)
    warnings.extend(a.warning for a in answers if a.warning)
    failures = list(call.file_failures) if call.closed else []
    if call.closed:
        failures.extend(a.warning for a in answers if a.failed and a.warning)
    rendered = render(call.event, folded, answers, default_decision=call.default_decision,
                      failures=failures)
    warnings.extend(rendered.warnings)
    if ctx is not None and plan.inspect:
        ctx.decision = rendered.decision
        warnings.extend(await _inspect(plan.inspect, ctx, looped, outcomes))
    return Executed(rendered, tuple(answers), tuple(outcomes), warnings)


def _context(plan: EventPlan, call: Call, args: dict[str, Any]) -> Context | None:
    if not (plan.chain or plan.inspect):
        return None
    from agenthooks.engine.context import Context, turn_for
    from agenthooks.engine.frozen import freeze

    turn = call.turn if call.turn is not None else turn_for(None, _session_id(call.doc))
    return Context(call.event, freeze(call.doc), call.tool, freeze(args), turn)


async def _chain(
    chain: Sequence[PythonHook], ctx: Context, call: Call, looped: bool,
    outcomes: list[HookOutcome], warnings: list[str],
) -> Folded:
    from agenthooks.decision import Decision
    from agenthooks.engine.frozen import freeze
    from agenthooks.engine.hookspec import args_match
    from agenthooks.kinds.python import call_hook

    folded = Folded()
    args = ctx.tool_args
    for hook in chain:
        if hook.args and not args_match(hook.args, args):
            continue
        outcome = await call_hook(hook, ctx, looped=looped)
        if outcome is None:
            continue
        outcome = _checked(outcome)
        outcomes.append(outcome)
        if outcome.decision is None:
            message = f"hook {hook.name!r} failed: {outcome.error}"
            if call.event != "PreToolUse" or (hook.fail_open and not call.closed):
                warnings.append(message)
                continue
            decision = Decision.deny(message)
        else:
            decision = outcome.decision
        folded = step(folded, hook.name, decision)
        if folded.terminal is not None:
            break
        if decision.kind == "modify":
            args = ctx.tool_args = freeze(folded.args)
    return folded


def _checked(outcome: HookOutcome) -> HookOutcome:
    """A modify whose arguments cannot be sent to the handlers as JSON is a failure."""
    decision = outcome.decision
    if decision is None or decision.kind != "modify":
        return outcome
    try:
        json.dumps(decision.args, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as exc:
        return outcome._replace(decision=None,
                                error=f"returned arguments that are not JSON: {exc}")
    return outcome


async def _commands(
    plan: EventPlan, call: Call, folded: Folded, args: dict[str, Any], ctx: Context | None,
    processes: Processes,
) -> list[Answer]:
    data = call.data
    if folded.args is not None:
        args = folded.args
        data = dumps(with_args(call.doc, args)).encode("utf-8")
    handlers = list(plan.handlers)
    jobs: list[ProcessSpec | ProcessResult] = list(plan.specs)
    if plan.shells:
        _add_shells(plan, call, args, ctx, handlers, jobs, data)
    specs = [job for job in jobs if isinstance(job, ProcessSpec)]
    ran = iter(await processes(specs, data) if specs else [])
    results = [next(ran) if isinstance(job, ProcessSpec) else job for job in jobs]
    return answers_of(handlers, results, call.event)


def _add_shells(
    plan: EventPlan, call: Call, args: dict[str, Any], ctx: Context | None,
    handlers: list[Handler], jobs: list[ProcessSpec | ProcessResult], data: bytes,
) -> None:
    """The shell hooks that match, after the hooks.json handlers; background ones started.

    A command whose placeholders cannot be filled safely is a handler that did not start.
    """
    from agenthooks.engine.hookspec import args_match
    from agenthooks.kinds.process import shell_command, start_background

    background = []
    turn = ctx.turn if ctx is not None else call.turn
    session_id = turn.session.session_id if turn is not None else _session_id(call.doc)
    for shell in plan.shells:
        if shell.args and not args_match(shell.args, args):
            continue
        handler, job = shell_command(shell, call.event, call.tool, session_id, args)
        if shell.background and isinstance(job, ProcessSpec):
            background.append(job)
        elif not shell.background:
            handlers.append(handler)
            jobs.append(job)
    start_background(background, data)


async def _inspect(
    hooks: Sequence[PythonHook], ctx: Context, looped: bool, outcomes: list[HookOutcome]
) -> list[str]:
    from agenthooks.engine.hookspec import args_match
    from agenthooks.kinds.python import call_hook

    selected = [h for h in hooks if not h.args or args_match(h.args, ctx.tool_args)]
    if looped:
        import asyncio

        found = await asyncio.gather(*(call_hook(h, ctx, looped=True) for h in selected))
    else:
        found = [await call_hook(h, ctx, looped=False) for h in selected]
    warnings = []
    for outcome in found:
        if outcome is None:
            continue
        outcomes.append(outcome)
        if outcome.error is not None:
            warnings.append(f"inspect hook {outcome.name!r} failed: {outcome.error}")
    return warnings


def _session_id(doc: dict[str, Any]) -> str | None:
    for key in ("session_id", "sessionId", "conversationId"):
        value = doc.get(key)
        if isinstance(value, str) and value:
            return value
    return None
