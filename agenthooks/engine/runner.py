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

import os

from agenthooks.combine.fold import START, Folded
from agenthooks.combine.verdict import Rendered, render
from agenthooks.executor import ProcessResult, ProcessSpec
from agenthooks.kinds.process import (
    CALL_VARS,
    answers_of,
    config_specs,
    own_words,
    runs_beside,
)
from agenthooks.model.handlers import Answer, Handler
from agenthooks.model.hosts import is_neutral
from agenthooks.payload import dumps

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Sequence
    from contextlib import AbstractContextManager
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
    from agenthooks.sources.payloads import Translation


class EventPlan(NamedTuple):
    """What may run for one (event, tool): fixed until hooks are registered again."""

    handlers: tuple[Handler, ...]  # selected hooks.json handlers, in config order
    specs: list[ProcessSpec]  # the process specs of their command handlers
    chain: tuple[PythonHook, ...]  # decide and transform hooks, in order
    inspect: tuple[PythonHook, ...]
    shells: tuple[ShellHook, ...]
    looped: bool  # whether some hook or predicate is async (needs an event loop)
    # What its handlers need at each call beyond a process each (`engine.needs`).
    needs: CallNeeds | None = None
    # The dialects of `handlers`: a handler of another host than the caller's is given the
    # payload its own host would send (`sources.payloads`).
    hosts: frozenset[str] = frozenset()

    @property
    def in_process(self) -> bool:
        return bool(self.chain or self.inspect or self.shells)


class CallNeeds(NamedTuple):
    """What the selected handlers need at each call beyond a process each on the payload,
    read off the data their sources put on them (`Handler`)."""

    call_env: bool = False  # some take variables from the payload (`kinds.process.CALL_VARS`)
    # Per kind that runs beside the processes (`kinds.KINDS`), its handlers' positions.
    beside: tuple[tuple[str, tuple[int, ...]], ...] = ()
    env_file: bool = False  # some get an env file to write to (CLAUDE_ENV_FILE)
    sequential: bool = False  # some group says `sequential: true`
    conditions: bool = False  # some have a per-call condition (Claude Code's `if`)
    # Handlers started per call and never waited for (Claude Code's `async`), with specs.
    background: tuple[tuple[Handler, ProcessSpec], ...] = ()


def beside_by_kind(handlers: Sequence[Handler]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The positions of the handlers of each kind that runs beside the processes."""
    kinds: dict[str, list[int]] = {}
    for index, handler in enumerate(handlers):
        if runs_beside(handler):
            kinds.setdefault(handler.kind, []).append(index)
    return tuple((kind, tuple(found)) for kind, found in kinds.items())


def call_needs(handlers: Sequence[Handler], background: Sequence[Handler] = (),
               event: str = "", tool: str | None = None) -> CallNeeds | None:
    """What the selected handlers need at each call; None when nothing (a plain run)."""
    every = (*handlers, *background)
    needs = CallNeeds(
        any(h.dialect in CALL_VARS for h in handlers),
        beside_by_kind(handlers),
        any(h.env_file for h in handlers),
        any(h.sequential for h in handlers),
        any(h.condition is not None for h in every),
        tuple(zip(background, config_specs(background, event, tool), strict=True)),
    )
    return needs if any(needs) else None


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
    caller: str  # the host whose words the payload is in
    args: dict[str, Any]  # the tool's arguments, in the caller's names


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
                      failures=failures, args_back=words.args_back if words else None)
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
                           args if plan.in_process else call.args)
    from agenthooks.sources.payloads import with_args

    doc = with_args(call.doc, folded.args, call.caller)
    return Translation(call.caller, doc, dumps(doc).encode("utf-8"), call.tool, folded.args)


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


def own_bytes(plan: EventPlan, caller: str) -> bool:
    """Whether every handler gets the caller's exact bytes: all are the caller's host's,
    and that host's files are not written for no one host (hooks.json's handlers get every
    host's fields, `sources.payloads.Translation.neutral`)."""
    return plan.hosts <= {caller} and not is_neutral(caller)


def in_own_words(handlers: Sequence[Handler], jobs: Sequence[ProcessSpec | ProcessResult],
                 words: Translation) -> list[ProcessSpec | ProcessResult]:
    """Each command handler's job with the payload its own host would send on stdin."""
    out = list(jobs)
    pending = iter(range(len(out)))
    for handler in handlers:
        if handler.kind != "command":
            continue
        index = next(pending)
        job = out[index]
        host, word = own_words(handler)
        if isinstance(job, ProcessSpec) and (host != words.caller or is_neutral(host)):
            out[index] = job._replace(stdin=words.payload(host, word))
    return out


async def run_jobs(jobs: Sequence[ProcessSpec | ProcessResult], data: bytes,
                   processes: Processes) -> list[ProcessResult]:
    """Start the specs among `jobs` together; results in `jobs` order, where a job that is
    already a result (a handler that could not be started) stands for itself."""
    specs = [job for job in jobs if isinstance(job, ProcessSpec)]
    ran = iter(await processes(specs, data) if specs else [])
    return [next(ran) if isinstance(job, ProcessSpec) else job for job in jobs]


_loaded: list[Any] = []
_isolation: list[bool] = [False]


def isolate_in_process_hooks(on: bool = True) -> None:
    """Call every in-process hook in a child process of its own from now on
    (`engine.supervise`): for `agenthooks run`, whose process exists to answer one event, so
    that no hook can crash, exit, hang or write over its answer. The Python API calls hooks
    inline: its caller's threads and state are theirs to share."""
    _isolation[0] = on and hasattr(os, "fork")


def isolated() -> bool:
    """Whether in-process hooks run each in a child process (`isolate_in_process_hooks`)."""
    return _isolation[0]


def _sharing(chain: Sequence[PythonHook]) -> AbstractContextManager[None]:
    """Under isolation, one child for the chain's Markdown hooks (`engine.supervise`)."""
    if not isolated():
        import contextlib  # not at the top: the API's import does without it

        return contextlib.nullcontext()
    from agenthooks.engine.supervise import one_child_for

    return one_child_for(chain)


def _inprocess() -> Any:
    """`engine.inprocess`, imported by the first run that has in-process hooks."""
    if not _loaded:
        from agenthooks.engine import inprocess

        _loaded.append(inprocess)
    return _loaded[0]
