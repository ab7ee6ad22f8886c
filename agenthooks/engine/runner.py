"""The path of one event, written once: `run` (and `arun`, its asyncio twin) call the stages
in this order, and `Hooks.run` and `Hooks.arun` hand them the registry and the event (`api`
registers hooks and nothing more; `engine.dryrun` reads and plans as they do, for
`--dry-run`):

    read      the Event, in the caller's words (`sources.payloads.read_event`), and what a
              closed call cannot run without: a failure here is the deny of `--fail-closed`
    plan      what may run for its (event, tool): the selected handlers (`plan.select`) and
              in-process hooks, worked out once per registration (`plan_for`)
    execute   the kinds, then combine (`execute`, below)
    result    the `EventResult`: the Verdict with the registry's warnings and notices

`execute` runs the kinds and folds their answers:

    1. decide/transform hooks, in (priority, registration) order, folded (`combine.fold`);
       a failure on PreToolUse is a deny naming the hook, elsewhere a warning
    2. unless a terminal decision was reached: the hooks.json handlers and shell hooks, in
       parallel, on the payload with the rewritten arguments (`kinds.process`)
    3. fold and merge make the event's one answer (`combine.verdict.render`)
    4. inspect hooks see `ctx.decision`; their errors and values are warnings

A coroutine, so that `arun` awaits async hooks on the caller's loop; `run` drives it by hand
when no selected hook is async (no event loop at all), else on a private loop.
"""

from __future__ import annotations

from agenthooks._lean.records import NamedTuple
from agenthooks.combine.fold import START, Folded
from agenthooks.combine.merge import TOOL_DECISIONS
from agenthooks.combine.verdict import Rendered, render
from agenthooks.drive import finish
from agenthooks.engine.call import (
    Call,
    EventPlan,
    EventResult,
    call_needs,
    in_own_words,
    isolated,
    own_bytes,
    run_jobs,
)
from agenthooks.errors import AgentHooksError, UsageError
from agenthooks.executor import ProcessResult, ProcessSpec
from agenthooks.kinds.process import answers_of, config_specs, in_background
from agenthooks.model.decision import Decision
from agenthooks.model.eventnames import check_event
from agenthooks.model.events import is_tool_event
from agenthooks.model.handlers import Answer
from agenthooks.model.payload import dump_bytes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from contextlib import AbstractContextManager
    from typing import Any, Protocol

    from agenthooks.engine.call import Processes
    from agenthooks.model.handlers import HookFile
    from agenthooks.model.payload import Payload
    from agenthooks.plan.select import Selector

# In-process hooks are imported only by a run that has some: a plain hooks.json run starts
# once per tool call and must not pay for them.
if TYPE_CHECKING:
    from agenthooks.kinds.inprocess.call import HookOutcome
    from agenthooks.kinds.inprocess.context import Context, Session, Turn
    from agenthooks.kinds.inprocess.hookspec import PythonHook, ShellHook
    from agenthooks.sources.payloads import Translation

# The registry is handed in by `api.Hooks`, a layer above: the engine names what it reads.
if TYPE_CHECKING:
    # An event's plan is kept per (event, tool, what the selection reads of the payload,
    # caller): `Selector.values`.
    PlanKey = tuple[str, str | None, Any, str]

    class Registry(Protocol):
        """What the engine reads of a registry of hooks (`api.Hooks`), which hands itself
        in: named by what it holds, so that the engine imports no registry."""

        host: str | None  # the host it answers; None: the payload's
        selector: Selector  # the handlers of its files
        python_hooks: tuple[PythonHook, ...]
        shell_hooks: tuple[ShellHook, ...]
        skipped_files: tuple[HookFile, ...]  # files with errors, of which nothing runs
        notes: tuple[str, ...]  # what discovery and trust left out, and why
        left_out: tuple[tuple[HookFile, str], ...]  # files the host's run leaves out, and why
        file_warnings: tuple[str, ...]  # one per skipped file
        notice: str | None  # what every answer says of the skipped files
        event_plans: dict[PlanKey, EventPlan]  # `plan_for`'s, emptied by registering

NO_TOOL_WARNING = (
    "no tool name (give --tool, or toolCall.name or tool_name in the payload): "
    "only handlers whose matcher matches every tool were selected"
)
NO_TOOL_DENY = "no tool name (give --tool, or toolCall.name or tool_name in the payload)"


# --- the path of one event -----------------------------------------------------------------


def run(
    registry: Registry,
    event: str,
    payload: Payload,
    *,
    tool: str | None = None,
    fail_closed: bool = False,
    default_decision: str | None = None,
    context: Session | Turn | None = None,
    cancel_fd: int | None = None,
) -> EventResult:
    """One event, start to end (`Hooks.run`, whose docstring says what each option does)."""
    call = read(registry, event, payload, tool=tool, fail_closed=fail_closed,
                default_decision=default_decision, context=context)
    if isinstance(call, EventResult):  # a closed call that cannot run: its deny
        return call
    plan = plan_for(registry, call.event, call.tool, call.doc, call.caller)

    async def processes(specs: Sequence[ProcessSpec], data: bytes) -> list[ProcessResult]:
        from agenthooks.executor.process import run_processes

        return run_processes(specs, data, cancel_fd=cancel_fd)

    if plan.looped:
        _refuse_running_loop()
        import asyncio

        executed = asyncio.run(execute(plan, call, processes, looped=True))
    else:
        # No async hook was selected: the run completes without an event loop.
        executed = finish(execute(plan, call, processes, looped=False), "an in-process hook")
    return result(registry, call, executed)


async def arun(
    registry: Registry,
    event: str,
    payload: Payload,
    *,
    tool: str | None = None,
    fail_closed: bool = False,
    default_decision: str | None = None,
    context: Session | Turn | None = None,
) -> EventResult:
    """`run` for asyncio harnesses (`Hooks.arun`): async hooks are awaited on the running
    loop, command handlers run in a worker thread."""
    call = read(registry, event, payload, tool=tool, fail_closed=fail_closed,
                default_decision=default_decision, context=context)
    if isinstance(call, EventResult):  # a closed call that cannot run: its deny
        return call
    plan = plan_for(registry, call.event, call.tool, call.doc, call.caller)
    from agenthooks.kinds.process import run_in_thread

    executed = await execute(plan, call, run_in_thread, looped=True)
    return result(registry, call, executed)


def _refuse_running_loop() -> None:
    """A loop cannot be started inside a running one: say what the caller should do instead."""
    import asyncio

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return
    raise AgentHooksError(
        "Hooks.run was called inside a running event loop with async hooks selected: "
        "await hooks.arun(...) instead"
    )


# --- read: the event, once ----------------------------------------------------------------


def read(
    registry: Registry,
    event: str,
    payload: Payload,
    *,
    tool: str | None,
    fail_closed: bool,
    default_decision: str | None,
    context: Session | Turn | None,
) -> Call | EventResult:
    """The call of one event, read once in the caller's words; or the deny of a closed call
    that cannot run (a bad payload or option, no tool name)."""
    from agenthooks.sources.payloads import read_event

    closed = fails_closed(event, fail_closed)
    try:
        called = read_event(event, payload, host=registry.host, tool=tool)
        check_default_decision(default_decision)
        turn = None
        if context is not None:
            from agenthooks.kinds.inprocess.context import turn_for

            turn = turn_for(context)
    except (AgentHooksError, ValueError, TypeError) as exc:
        if not closed:
            raise
        return failed_closed("PreToolUse", str(exc), registry.skipped_files)
    event = called.name
    if closed and called.tool is None:
        return failed_closed(event, NO_TOOL_DENY, registry.skipped_files)
    return Call(event=event, tool=called.tool, data=called.data, doc=called.doc, turn=turn,
                default_decision=default_decision if event == "PreToolUse" else None,
                closed=closed, file_failures=registry.file_warnings, caller=called.caller,
                args=called.args, long=called.long)


def check_default_decision(word: str | None) -> None:
    if word is not None and word not in TOOL_DECISIONS:
        raise UsageError(
            f"unknown default decision {word!r} (choose from {', '.join(TOOL_DECISIONS)})"
        )


def fails_closed(event: str, fail_closed: bool) -> bool:
    """Whether a failure of this call is a deny: `fail_closed` on PreToolUse (under any of
    its names; an unknown event never is)."""
    if not fail_closed:
        return False
    try:
        return check_event(event) == "PreToolUse"
    except ValueError:
        return False


# --- plan: what may run, once per (event, tool) -------------------------------------------


def plan_for(registry: Registry, event: str, tool: str | None,
             doc: Mapping[str, Any] | None, caller: str) -> EventPlan:
    """What may run for this event, tool and caller: kept until hooks are registered again."""
    selector = registry.selector
    values = selector.values(event, tool, doc, caller)
    key = (event, tool, values, caller)
    found = registry.event_plans.get(key)
    if found is None:
        selected = selector(event, tool, doc, caller)
        handlers = tuple(h for h in selected if not in_background(h))
        background = tuple(h for h in selected if in_background(h))
        specs = config_specs(handlers, event, tool)
        chain, inspect, shells, looped = in_process(registry, event, tool, caller)
        needs = call_needs(handlers, background, event, tool) if selector.dialect_files else None
        found = registry.event_plans[key] = EventPlan(
            handlers, specs, chain, inspect, shells, looped, needs,
            frozenset(h.speaks or h.dialect for h in handlers))
    return found


def in_process(registry: Registry, event: str, tool: str | None, caller: str) -> tuple[
    tuple[PythonHook, ...], tuple[PythonHook, ...], tuple[ShellHook, ...], bool
]:
    """The decide/transform chain, inspect hooks and shell hooks of an event and tool,
    and whether any needs an event loop (the hook records load only when registered)."""
    if not (registry.python_hooks or registry.shell_hooks):
        return (), (), (), False
    from agenthooks.kinds.inprocess.hookspec import selects_tool

    names = tool_names(tool, caller)
    hooks = sorted(
        (h for h in registry.python_hooks if h.event == event and selects_tool(h, names)),
        key=lambda h: (h.priority, h.order),
    )
    chain = tuple(h for h in hooks if h.phase != "inspect")
    inspect = tuple(h for h in hooks if h.phase == "inspect")
    shells = tuple(h for h in registry.shell_hooks
                   if h.event == event and selects_tool(h, names))
    return chain, inspect, shells, any(h.is_async for h in hooks)


def tool_names(tool: str | None, caller: str) -> tuple[str, ...] | None:
    """The tool's name in the caller's words, then in every other host's (once each)."""
    if tool is None:
        return None
    from agenthooks.plan.select import tool_in
    from agenthooks.sources.payloads import HOSTS

    names = [tool]
    for host in HOSTS:
        name = tool_in(tool, caller, host)
        if name is not None and name not in names:
            names.append(name)
    return tuple(names)


# --- result: the EventResult of the Verdict -----------------------------------------------


def result(registry: Registry, call: Call, executed: Executed) -> EventResult:
    """The outcome of one event: the Verdict with the registry's warnings and notice."""
    from agenthooks.combine.verdict import engine_answer

    rendered = executed.rendered
    warnings = warnings_of(registry, call.event, call.tool)
    warnings.extend(executed.warnings)
    assert rendered.verdict is not None
    # The skipped files are named in the notice: their warnings would say it twice.
    notice = registry.notice
    verdict = rendered.verdict._replace(
        notices=() if notice is None else (notice,),
        warnings=tuple(w for w in warnings if w not in registry.file_warnings))
    return EventResult(
        event=call.event, output=engine_answer(verdict), blocked=rendered.blocked,
        exit_code=exit_status(rendered.blocked), warnings=warnings,
        handlers=executed.answers, skipped_files=registry.skipped_files, tool=call.tool,
        decision=rendered.decision, updated_args=rendered.updated_args,
        hooks=executed.outcomes, injected=rendered.injected, verdict=verdict,
    )


def warnings_of(registry: Registry, event: str, tool: str | None) -> list[str]:
    """The warnings every result and plan of this event starts with."""
    warnings = [*registry.notes, *registry.file_warnings]
    if tool is None and is_tool_event(event):
        warnings.append(NO_TOOL_WARNING)
    return warnings


def exit_status(blocked: bool) -> int:
    """2 when the answer blocks, else 0: a run that produced an answer never exits 1."""
    return 2 if blocked else 0


def failed_closed(
    event: str, error: str, skipped_files: tuple[HookFile, ...] = ()
) -> EventResult:
    """`--fail-closed` on PreToolUse when agenthooks itself failed: deny, naming the error."""
    from agenthooks.combine.failclosed import own_error_deny

    output = own_error_deny(error)
    return EventResult(event=event, output=output, blocked=True, exit_code=2, warnings=[],
                       handlers=(), skipped_files=skipped_files, error=error,
                       decision=Decision.deny(output["reason"]))


def untrusted_result(ran: EventResult, untrusted: Sequence[str]) -> EventResult:
    """A result with the untrusted workspaces (`api.load_checked`) named in its systemMessage."""
    if not untrusted:
        return ran
    notice = "\n".join(f"agenthooks {line}" for line in untrusted)
    verdict = ran.verdict
    if verdict is not None:  # what every host's writer says it from
        verdict = verdict._replace(notices=(*verdict.notices, notice))
    return ran._replace(output=_with_notice(ran.output, notice), verdict=verdict)


def untrusted_deny(event: str, registry: Registry, untrusted: Sequence[str]
                   ) -> EventResult | None:
    """Under fail-closed on PreToolUse, the deny of a run that would skip untrusted
    workspaces (nothing runs); None when the run goes ahead."""
    if not untrusted or not fails_closed(event, True):
        return None
    denied = failed_closed("PreToolUse", "\n".join(untrusted), registry.skipped_files)
    return denied._replace(warnings=[*registry.notes])


def _with_notice(output: dict[str, Any], notice: str | None) -> dict[str, Any]:
    if notice is None:
        return output
    given = output.get("systemMessage")
    return {**output, "systemMessage": f"{given}\n{notice}" if given else notice}


# --- execute: the kinds, then combine -----------------------------------------------------


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
