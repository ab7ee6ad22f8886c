"""The in-process side of one event: the context, the decide/transform chain, shell hooks
and inspect hooks.

Imported by `engine.runner` only for a run that has in-process hooks, so that a plain
hooks.json run (once per tool call) never pays for contexts, views or the python kind.
"""

from __future__ import annotations

from _collections_abc import Iterator, Mapping, Sequence  # collections.abc's, unimported

from agenthooks._lean import jsontext
from agenthooks.combine.fold import START, Folded, step
from agenthooks.engine.call import Call, EventPlan, isolated
from agenthooks.executor import ProcessResult, ProcessSpec
from agenthooks.jsonlimits import MAX_DEPTH, depth_exceeds
from agenthooks.kinds.inprocess.call import HookOutcome, call_hook
from agenthooks.kinds.inprocess.context import Context
from agenthooks.kinds.inprocess.frozen import FrozenDict, freeze
from agenthooks.kinds.inprocess.hookspec import PythonHook, args_match
from agenthooks.kinds.process import shell_command, start_background
from agenthooks.model.decision import Decision
from agenthooks.model.handlers import Handler
from agenthooks.model.payload import session_id_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any
else:
    Any = object  # only subscripted at run time (Mapping[str, Any]): no `typing` import


class AnyHostArgs(Mapping[str, Any]):
    """The tool's arguments in the caller's names, found under any host's name for each:
    an in-process hook is written in no one host's words, so `args={"CommandLine": "rm*"}`
    also reads Claude Code's `command` (`kinds.inprocess.hookspec.args_match` only asks `in` and
    `[]`)."""

    def __init__(self, args: Mapping[str, Any], call: Call) -> None:
        self.args = args
        self.call = call

    def _name(self, key: str) -> str | None:
        if key in self.args:
            return key
        from agenthooks.plan.select import tool_in
        from agenthooks.sources.payloads import HOSTS, Translation

        words = Translation(self.call.caller, {}, b"", self.call.tool, self.args)
        for host in HOSTS:
            if tool_in(self.call.tool, self.call.caller, host) is None:
                continue
            [name] = words.args_back(host, {key: None})
            if name in self.args:
                return name
        return None

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self._name(key) is not None

    def __getitem__(self, key: str) -> Any:
        name = self._name(key)
        if name is None:
            raise KeyError(key)
        return self.args[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.args)

    def __len__(self) -> int:
        return len(self.args)


def context_for(plan: EventPlan, call: Call, args: dict[str, Any]) -> Context | None:
    """The context the in-process hooks of this call share, if there are any."""
    if not (plan.chain or plan.inspect):
        return None
    # Both are dicts, so their views are made directly (this runs once per call).
    return Context(call.event, FrozenDict(call.doc), call.tool, FrozenDict(args), call.turn,
                   call.doc)


async def chain(
    hooks: Sequence[PythonHook], ctx: Context, call: Call, looped: bool,
    outcomes: list[HookOutcome], warnings: list[str],
) -> Folded:
    """The decide and transform hooks in order, folded; failures per the event (see runner)."""
    folded = START
    args = ctx.tool_args
    for hook in hooks:
        if hook.args and not args_match(hook.args, AnyHostArgs(args, call)):
            continue
        outcome = await call_one(hook, ctx, looped=looped)
        if outcome is None:
            continue
        if outcome.decision is not None and outcome.decision.kind == "modify":
            outcome = checked(outcome)
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


async def call_one(hook: PythonHook, ctx: Context, *, looped: bool) -> HookOutcome | None:
    """One hook's outcome: in a child process of its own under `agenthooks run`
    (`kinds.inprocess.supervise`), else inline."""
    if isolated():
        from agenthooks.kinds.inprocess.supervise import call_isolated

        return call_isolated(hook, ctx, looped=looped)
    return await call_hook(hook, ctx, looped=looped)


def checked(outcome: HookOutcome) -> HookOutcome:
    """A modify whose arguments cannot be sent to the handlers as JSON (NaN, infinity, nesting
    past the JSON limit every reader keeps, `jsonlimits`) is a failure."""
    decision = outcome.decision
    if decision is None or decision.kind != "modify":
        return outcome
    if depth_exceeds(decision.args):
        return outcome._replace(decision=None, error="returned arguments nested deeper than "
                                f"{MAX_DEPTH} levels")
    try:
        jsontext.dumps(decision.args, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as exc:
        return outcome._replace(decision=None,
                                error=f"returned arguments that are not JSON: {exc}")
    return outcome


def add_shells(
    plan: EventPlan, call: Call, args: dict[str, Any], ctx: Context | None,
    handlers: list[Handler], jobs: list[ProcessSpec | ProcessResult], data: bytes,
) -> None:
    """The shell hooks that match, after the hooks.json handlers; background ones started.

    A command whose placeholders cannot be filled safely is a handler that did not start.
    """
    background = []
    turn = ctx.turn if ctx is not None else call.turn
    session_id = turn.session.session_id if turn is not None else session_id_of(call.doc)
    for shell in plan.shells:
        if shell.args and not args_match(shell.args, AnyHostArgs(args, call)):
            continue
        handler, job = shell_command(shell, call.event, call.tool, session_id, args)
        if shell.background and isinstance(job, ProcessSpec):
            background.append(job)
        elif not shell.background:
            handlers.append(handler)
            jobs.append(job)
    start_background(background, data)


async def inspect(
    hooks: Sequence[PythonHook], ctx: Context, call: Call, looped: bool,
    outcomes: list[HookOutcome],
) -> list[str]:
    """Inspect hooks, concurrently when a loop runs; what went wrong comes back as warnings."""
    view = AnyHostArgs(ctx.tool_args, call)
    selected = [h for h in hooks if not h.args or args_match(h.args, view)]
    if looped:
        import asyncio

        found = await asyncio.gather(*(call_one(h, ctx, looped=True) for h in selected))
    else:
        found = [await call_one(h, ctx, looped=False) for h in selected]
    warnings = []
    for outcome in found:
        if outcome is None:
            continue
        outcomes.append(outcome)
        if outcome.error is not None:
            warnings.append(f"inspect hook {outcome.name!r} failed: {outcome.error}")
    return warnings
