"""One event's call and plan, as the engine's steps share them: the runner (`engine.runner`)
makes and runs them, the in-process side (`engine.inprocess`) and the command step's per-call
needs (`engine.needs`) read them. Below all three, so that none imports the runner.

    EventPlan   what may run for one (event, tool), and what its handlers need per call
    Call        one event to run: the payload as bytes and as an object, and its options
    run_jobs    the command handlers' processes, started together
"""

from __future__ import annotations

import os

from agenthooks._lean.records import NamedTuple
from agenthooks.executor import ProcessResult, ProcessSpec
from agenthooks.kinds.process import config_specs, own_words, runs_beside
from agenthooks.model.handlers import Handler
from agenthooks.model.hosts import is_neutral

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Sequence
    from typing import Any

    from agenthooks.kinds.inprocess.context import Turn
    from agenthooks.kinds.inprocess.hookspec import PythonHook, ShellHook
    from agenthooks.payload import LongStrings
    from agenthooks.sources.payloads import Translation
    Processes = Callable[[Sequence[ProcessSpec], bytes], Awaitable[list[ProcessResult]]]


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

    call_env: bool = False  # some take variables from the payload (`Handler.call_vars`)
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
        any(h.call_vars for h in handlers),
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
    long: LongStrings | None = None  # the payload's long strings (`payload.read_payload_long`)


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


def own_bytes(plan: EventPlan, caller: str) -> bool:
    """Whether every handler gets the caller's exact bytes: all are the caller's host's,
    and that host's files are not written for no one host (hooks.json's handlers get every
    host's fields, `sources.payloads.Translation.neutral`)."""
    return plan.hosts <= {caller} and not is_neutral(caller)


async def run_jobs(jobs: Sequence[ProcessSpec | ProcessResult], data: bytes,
                   processes: Processes) -> list[ProcessResult]:
    """Start the specs among `jobs` together; results in `jobs` order, where a job that is
    already a result (a handler that could not be started) stands for itself."""
    specs = [job for job in jobs if isinstance(job, ProcessSpec)]
    ran = iter(await processes(specs, data) if specs else [])
    return [next(ran) if isinstance(job, ProcessSpec) else job for job in jobs]


_isolation: list[bool] = [False]


def isolate_in_process_hooks(on: bool = True) -> None:
    """Call every in-process hook in a child process of its own from now on
    (`kinds.inprocess.supervise`): for `agenthooks run`, whose process exists to answer one
    event, so that no hook can crash, exit, hang or write over its answer. The Python API
    calls hooks inline: its caller's threads and state are theirs to share."""
    _isolation[0] = on and hasattr(os, "fork")


def isolated() -> bool:
    """Whether in-process hooks run each in a child process (`isolate_in_process_hooks`)."""
    return _isolation[0]
