"""One event through the engine: the in-process chain, then the command handlers, then the
host's answer, then the inspect hooks.

    1. decide/transform hooks, in (priority, registration) order, folded (`combine.fold`);
       a failure on PreToolUse is a deny naming the hook, elsewhere a warning
    2. unless a terminal decision was reached: the hooks.json handlers and shell hooks, in
       parallel, on the payload with the rewritten arguments (`kinds.process`)
    3. fold and merge make the event's one answer (`combine.verdict.render`)
    4. inspect hooks see `ctx.decision`; their errors and values are warnings

A coroutine, so that `Hooks.arun` awaits async hooks on the caller's loop; `Hooks.run` drives
it by hand when no selected hook is async (no event loop at all), else on a private loop.
"""

from __future__ import annotations

from agenthooks._lean.records import NamedTuple
from agenthooks.combine.fold import START, Folded
from agenthooks.combine.verdict import Rendered, render
from agenthooks.engine.call import Call, EventPlan, in_own_words, isolated, own_bytes, run_jobs
from agenthooks.executor import ProcessResult, ProcessSpec
from agenthooks.kinds.process import answers_of
from agenthooks.model.handlers import Answer
from agenthooks.payload import dump_bytes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from contextlib import AbstractContextManager
    from typing import Any

    from agenthooks.engine.call import Processes

# In-process hooks are imported only by a run that has some: a plain hooks.json run starts
# once per tool call and must not pay for them.
if TYPE_CHECKING:
    from agenthooks.kinds.inprocess.call import HookOutcome
    from agenthooks.kinds.inprocess.context import Context
    from agenthooks.kinds.inprocess.hookspec import PythonHook
    from agenthooks.sources.payloads import Translation


class Executed(NamedTuple):
    rendered: Rendered
    answers: tuple[Answer, ...]
    outcomes: tuple[HookOutcome, ...]
    warnings: list[str]


async def execute(plan: EventPlan, call: Call, processes: Processes, *, looped: bool) -> Executed:
    warnings: list[str] = []
    outcomes: list[HookOutcome] = []
    folded = START
    ctx = None
    args: dict[str, Any] = {}
    if plan.in_process:
        inprocess = _inprocess()
        args = call.args
        ctx = inprocess.context_for(plan, call, args)
        if ctx is not None:
            with _sharing(plan.chain):
                folded = await inprocess.chain(plan.chain, ctx, call, looped, outcomes,
                                               warnings)
    answers: list[Answer] = []
    words = None
    if folded.terminal is None:
        words = _translation(plan, call, folded, args)
        answers = await _commands(plan, call, words, args, ctx, processes)
    warnings.extend(a.warning for a in answers if a.warning)
    failures = list(call.file_failures) if call.closed else []
    if call.closed:
        failures.extend(a.warning for a in answers if a.failed and a.warning)
    rendered = render(call.event, folded, answers, default_decision=call.default_decision,
                      failures=failures, args_back=words.args_back if words else None,
                      base_args=words.args if words else call.args)
    warnings.extend(rendered.warnings)
    if ctx is not None and plan.inspect:
        inprocess = _inprocess()
        ctx.decision = rendered.decision
        warnings.extend(await inprocess.inspect(plan.inspect, ctx, call, looped, outcomes))
    return Executed(rendered, tuple(answers), tuple(outcomes), warnings)


def _translation(plan: EventPlan, call: Call, folded: Folded, args: dict[str, Any]
                 ) -> Translation | None:
    """The call in every handler's own words, when some handler is not the caller's host
    or is a Claude Code or Gemini CLI one; None for a plain run (nothing to translate)."""
    if folded.args is None and plan.needs is None and own_bytes(plan, call.caller):
        return None
    from agenthooks.sources.payloads import Translation

    if folded.args is None:
        return Translation(call.caller, call.doc, call.data, call.tool,
                           args if plan.in_process else call.args, call.long)
    from agenthooks.sources.payloads import with_args

    doc = with_args(call.doc, folded.args, call.caller)
    return Translation(call.caller, doc, dump_bytes(doc, call.long), call.tool, folded.args,
                       call.long)


async def _commands(
    plan: EventPlan, call: Call, words: Translation | None, args: dict[str, Any],
    ctx: Context | None, processes: Processes,
) -> list[Answer]:
    data = call.data if words is None else words.data
    args = args if words is None else words.args
    handlers = list(plan.handlers)
    jobs: list[ProcessSpec | ProcessResult] = list(plan.specs)
    if words is not None and not own_bytes(plan, call.caller):
        jobs = in_own_words(handlers, jobs, words)
    if plan.shells:
        inprocess = _inprocess()
        inprocess.add_shells(plan, call, args, ctx, handlers, jobs, data)
    if plan.needs is not None and words is not None:
        from agenthooks.engine import needs

        plan, handlers, jobs = needs.narrow(plan, call, handlers, jobs, words)
        if plan.needs is not None:
            # Environment per call, http handlers beside the processes, an env file,
            # background handlers, handlers in sequence.
            return await needs.run(plan, call, handlers, jobs, words, processes)
    return answers_of(handlers, await run_jobs(jobs, data, processes), call.event)


_loaded: list[Any] = []


def _sharing(chain: Sequence[PythonHook]) -> AbstractContextManager[None]:
    """Under isolation, one child for the chain's Markdown hooks (`kinds.inprocess.supervise`)."""
    if not isolated():
        import contextlib  # not at the top: the API's import does without it

        return contextlib.nullcontext()
    from agenthooks.kinds.inprocess.supervise import one_child_for

    return one_child_for(chain)


def _inprocess() -> Any:
    """`engine.inprocess`, imported by the first run that has in-process hooks."""
    if not _loaded:
        from agenthooks.engine import inprocess

        _loaded.append(inprocess)
    return _loaded[0]
