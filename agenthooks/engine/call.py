"""The records of one event, as the engine's steps share them: what goes in (`Call`), what may
run (`EventPlan`), what comes out (`EventResult`). The runner
(`engine.runner`) makes and runs them, the in-process side (`engine.inprocess`) and the
command step's per-call needs (`engine.needs`) read them, the Python API (`api`) and the
command line return and print them. Below all three, so that none imports the runner.

    EventPlan    what may run for one (event, tool), and what its handlers need per call
    Call         one event to run: the payload as bytes and as an object, and its options
    EventResult  the outcome of one event: the answer, whether it blocks, every hook and handler
    run_jobs     the command handlers' processes, started together
"""

from __future__ import annotations

import os

from agenthooks._lean.records import NamedTuple
from agenthooks.combine.merge import block_reasons
from agenthooks.executor import ProcessResult, ProcessSpec
from agenthooks.kinds.process import config_specs, own_words, runs_beside
from agenthooks.model.decision import Decision
from agenthooks.model.handlers import Answer, Handler, HookFile
from agenthooks.model.hosts import is_neutral

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Sequence
    from typing import Any

    from agenthooks.combine.verdict import Verdict
    from agenthooks.kinds.inprocess.call import HookOutcome
    from agenthooks.kinds.inprocess.context import Turn
    from agenthooks.kinds.inprocess.hookspec import PythonHook, ShellHook
    from agenthooks.model.payload import LongStrings
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


class EventResult(NamedTuple):
    """The outcome of one event: the answer, whether it blocks, and every hook and handler.

    `exit_code` is what `agenthooks run` exits with: 2 when the answer blocks, else 0 (a
    skipped file is a warning in the answer, never a changed exit status). `error` is
    agenthooks' own error when `fail_closed` turned it into a deny.
    """

    event: str
    output: dict[str, Any]
    blocked: bool
    exit_code: int
    warnings: list[str]
    handlers: tuple[Answer, ...]
    skipped_files: tuple[HookFile, ...] = ()
    tool: str | None = None
    error: str | None = None
    decision: Decision = Decision.allow()
    updated_args: dict[str, Any] | None = None
    hooks: tuple[HookOutcome, ...] = ()  # the in-process hooks that ran, in order
    injected: tuple[str, ...] = ()  # messages in-process hooks injected, in order
    # The answer field by field, which every host's writer renders (`hosts.writers`); None on a
    # result made without running the event (`failed_closed`), whose `decision` says it all.
    verdict: Verdict | None = None

    def as_verdict(self) -> Verdict:
        """The verdict a host's writer renders: the run's, or for a result made without running
        the event (agenthooks' own error under --fail-closed) its decision and the warnings that
        name no skipped file."""
        from agenthooks.combine.verdict import decided

        if self.verdict is not None:
            return self.verdict
        skipped = {skip_warning(f) for f in self.skipped_files}
        return decided(self.event, self.decision, [w for w in self.warnings if w not in skipped])

    @property
    def reasons(self) -> list[str]:
        """Why the answer blocks (empty when it does not)."""
        return block_reasons(self.event, self.output) if self.blocked else []

    @property
    def reason(self) -> str | None:
        return self.decision.reason

    @property
    def replacement(self) -> Any:
        return self.decision.output if self.decision.kind == "replace" else None

    def to_report(self) -> dict[str, Any]:
        """The object `agenthooks run --report json` prints."""
        return {
            "event": self.event,
            "output": self.output,
            "blocked": self.blocked,
            "decision": self.decision.word,
            "warnings": list(self.warnings),
            "handlers": [handler.as_json() for handler in self.handlers],
            "hooks": [hook.as_json() for hook in self.hooks],
        }


def skip_warning(hook_file: HookFile) -> str:
    """One line about a hooks.json skipped for errors, with its first error."""
    errors = hook_file.errors
    count = f"{len(errors)} error" + ("s" if len(errors) != 1 else "")
    first = f": {errors[0]}" if errors else ""
    return f"skipped {hook_file.source.path} ({count}; its hooks do not run){first}"


def skip_notice(skipped_files: Sequence[HookFile], named: bool = False) -> str | None:
    """The line every host shows the user when files were skipped (the answer's systemMessage).
    `named`: the files were named with --config, which `validate` alone does not look at, so
    the command names them."""
    if not skipped_files:
        return None
    if named:  # each file once, in the command
        errors = sum(len(f.errors) for f in skipped_files)
        files = len(skipped_files)
        paths = " ".join(_quoted(f.source.path) for f in skipped_files)
        return (f"agenthooks skipped {files} file{'s' if files != 1 else ''} named with --config "
                f"({errors} error{'s' if errors != 1 else ''}): run `agenthooks validate {paths}`")
    parts = []
    for f in skipped_files:
        count = len(f.errors)
        parts.append(f"{f.source.path} ({count} error{'s' if count != 1 else ''})")
    return f"agenthooks skipped {', '.join(parts)}: run `agenthooks validate`"


def _quoted(path: str) -> str:
    """A path as a shell word (without shlex, which the run path does not import)."""
    plain = path and all(char.isalnum() or char in "@%+=:,./-_" for char in path)
    return path if plain else "'" + path.replace("'", "'\\''") + "'"


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
