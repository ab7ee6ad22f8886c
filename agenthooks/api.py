"""The in-process API: load the hooks.json files once, then run an event per call.

    hooks = load_hooks(workspaces=["."])
    result = hooks.run("PreToolUse", {"toolCall": {"name": "run_command", "args": {...}}})
    if result.blocked: ...

`agenthooks run` is a thin layer over this module. The per-call path stays lean, because a
harness calls it on every tool call: files are read and selections computed once per `Hooks`,
and a call does no more than parse the payload, start the handlers, and merge their answers.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from agenthooks.config.discovery import discover
from agenthooks.config.loader import load
from agenthooks.config.model import Handler, HookFile, json_kind
from agenthooks.errors import AgentHooksError, PayloadError, UsageError
from agenthooks.events import EVENTS, is_tool_event, unknown_event_hint
from agenthooks.executor import ProcessSpec, run_processes
from agenthooks.merge import TOOL_DECISIONS, block_reasons, blocks, deny_for_failures, merge
from agenthooks.protocol import Answer, answer, prompt_warning, skipped
from agenthooks.selection import Selector

if TYPE_CHECKING:
    import asyncio

__all__ = [
    "EventResult",
    "Hooks",
    "Payload",
    "Plan",
    "arun_event",
    "load_hooks",
    "run_event",
]

# A dict is serialised for the handlers; bytes and str are passed on exactly as given.
Payload = Mapping[str, Any] | bytes | str

NO_TOOL_WARNING = (
    "no tool name (give --tool, or toolCall.name or tool_name in the payload): "
    "only handlers whose matcher matches every tool were selected"
)


class EventResult(NamedTuple):
    """The outcome of one event: the merged answer, whether it blocks, and every handler.

    `exit_code` is what `agenthooks run` exits with: 2 when the answer blocks, else 1 when a
    hooks.json was skipped for errors, else 0. `error` is agenthooks' own error when
    `fail_closed` turned it into a deny (otherwise such errors raise `AgentHooksError`).
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

    @property
    def reasons(self) -> list[str]:
        """Why the answer blocks (empty when it does not)."""
        return block_reasons(self.event, self.output) if self.blocked else []

    def to_report(self) -> dict[str, Any]:
        """The object `agenthooks run --report json` prints."""
        return {
            "event": self.event,
            "output": self.output,
            "blocked": self.blocked,
            "warnings": list(self.warnings),
            "handlers": [handler.as_json() for handler in self.handlers],
        }


class Plan(NamedTuple):
    """What `run` would start for an event, without starting anything (`--dry-run`)."""

    event: str
    tool: str | None
    handlers: tuple[Handler, ...]  # command handlers, in the order they would run
    warnings: list[str]
    skipped_files: tuple[HookFile, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "event": self.event,
            "tool": self.tool,
            "handlers": [
                {
                    "hook": h.hook,
                    "source": h.source.path,
                    "matcher": h.matcher,
                    "command": h.command,
                    "timeout": h.timeout,
                    "cwd": h.source.cwd,
                }
                for h in self.handlers
            ],
        }


# --- pieces shared by run and plan --------------------------------------------------------


def check_event(event: str) -> None:
    if event not in EVENTS:
        raise UsageError(f"unknown event {event!r}: {unknown_event_hint(event)}")


def check_default_decision(word: str | None) -> None:
    if word is not None and word not in TOOL_DECISIONS:
        raise UsageError(
            f"unknown default decision {word!r} (choose from {', '.join(TOOL_DECISIONS)})"
        )


def read_payload(payload: Payload) -> tuple[bytes, Mapping[str, Any]]:
    """The bytes the handlers get on stdin, and the payload as an object.

    Bytes are passed on untouched (no re-encoding, no copy); empty input means `{}`.
    """
    if isinstance(payload, Mapping):
        return json.dumps(payload, ensure_ascii=False).encode(), payload
    data = payload.encode() if isinstance(payload, str) else payload
    # Strip only a short prefix to find out whether it is blank: never copy a big payload.
    if not data or (data[:1].isspace() and not data.strip()):
        return b"{}", {}
    try:
        doc = json.loads(data)
    except ValueError as exc:  # UnicodeDecodeError included
        raise PayloadError(f"the payload is not valid JSON: {exc}") from None
    if not isinstance(doc, dict):
        raise PayloadError(f"the payload must be a JSON object, not {json_kind(doc)}")
    return data, doc




def tool_from_payload(doc: Mapping[str, Any]) -> str | None:
    """The tool name: Antigravity's toolCall.name, else tool_name (Gemini CLI, Claude Code)."""
    call = doc.get("toolCall")
    if isinstance(call, dict):
        name = call.get("name")
        if isinstance(name, str) and name:
            return name
    name = doc.get("tool_name")
    return name if isinstance(name, str) and name else None


def skip_warning(hook_file: HookFile) -> str:
    """One line about a hooks.json skipped for errors, with its first error."""
    errors = hook_file.errors
    count = f"{len(errors)} error" + ("s" if len(errors) != 1 else "")
    first = f": {errors[0]}" if errors else ""
    return f"skipped {hook_file.source.path} ({count}; its hooks do not run){first}"


def exit_status(blocked: bool, skipped_files: Sequence[HookFile]) -> int:
    if blocked:
        return 2
    return 1 if skipped_files else 0


def failed_closed(
    event: str, error: str, skipped_files: tuple[HookFile, ...] = ()
) -> EventResult:
    """`--fail-closed` on PreToolUse when agenthooks itself failed: deny, naming the error."""
    output = {"decision": "deny", "reason": f"fail-closed: agenthooks: {error}"}
    return EventResult(event, output, True, 2, [], (), skipped_files, None, error)


# --- the loaded hooks -----------------------------------------------------------------------


class Hooks:
    """The hooks.json files of a workspace, loaded once; `run` runs one event per call.

    Files with errors are kept in `skipped_files` (with their diagnostics) and run nothing,
    as Antigravity does, but every result says so.
    """

    def __init__(self, files: Sequence[HookFile]) -> None:
        self.files = tuple(f for f in files if f.ok)
        self.skipped_files = tuple(f for f in files if not f.ok)
        self.selector = Selector(self.files)
        self._file_warnings = [skip_warning(f) for f in self.skipped_files]
        # (event, tool) -> the selected handlers and the specs of the command handlers among
        # them: everything in a spec is fixed for a given event and tool.
        self._specs: dict[tuple[str, str | None], tuple[tuple[Handler, ...], list[ProcessSpec]]]
        self._specs = {}

    def select(self, event: str, tool: str | None) -> tuple[Handler, ...]:
        """The handlers that run for `event` and `tool`, in config order, de-duplicated."""
        return self.selector(event, tool)

    def plan(self, event: str, payload: Payload = b"", *, tool: str | None = None) -> Plan:
        """What `run` would start for this event and payload; starts nothing."""
        check_event(event)
        _, doc = read_payload(payload)
        tool = tool or tool_from_payload(doc)
        warnings = self._warnings(event, tool)
        selected = self.select(event, tool)
        warnings.extend(prompt_warning(h) for h in selected if h.kind != "command")
        commands = tuple(h for h in selected if h.kind == "command")
        return Plan(event, tool, commands, warnings, self.skipped_files)

    def run(
        self,
        event: str,
        payload: Payload,
        *,
        tool: str | None = None,
        fail_closed: bool = False,
        default_decision: str | None = None,
        cancel_fd: int | None = None,
    ) -> EventResult:
        """Run the handlers of `event` concurrently and merge their answers in config order.

        `tool` overrides the tool name of the payload. `fail_closed` (PreToolUse only) turns
        every failure (a skipped file, a handler that timed out, crashed, exited other than
        0 or 2, or gave an unknown decision, a bad payload) into a deny. `default_decision`
        (PreToolUse only) is the decision when no handler gave one. `cancel_fd` is for
        `arun`: the read end of a pipe that, once readable, kills the handlers (see
        `executor.run_processes`).
        Raises `UsageError` for an unknown event, `PayloadError` for a payload that is not
        a JSON object (unless failing closed), `executor.Interrupted` on SIGINT/SIGTERM, and
        `executor.Cancelled` when `cancel_fd` cancelled the run.
        """
        check_event(event)
        check_default_decision(default_decision)
        closed = fail_closed and event == "PreToolUse"
        try:
            data, doc = read_payload(payload)
        except PayloadError as exc:
            if not closed:
                raise
            return failed_closed(event, str(exc), self.skipped_files)
        tool = tool or tool_from_payload(doc)
        selected, specs = self._prepare(event, tool)
        results = iter(run_processes(specs, data, cancel_fd=cancel_fd) if specs else ())
        answers = tuple(
            answer(h, next(results), event) if h.kind == "command" else skipped(h)
            for h in selected
        )
        output, merge_warnings = merge(event, answers, default_decision=default_decision)
        warnings = self._warnings(event, tool)
        warnings.extend(a.warning for a in answers if a.warning)
        warnings.extend(merge_warnings)
        if closed:
            failures = [*self._file_warnings]
            failures.extend(a.warning for a in answers if a.failed and a.warning)
            if failures:
                output = deny_for_failures(output, failures)
        blocked = blocks(event, output)
        return EventResult(
            event, output, blocked, exit_status(blocked, self.skipped_files), warnings,
            answers, self.skipped_files, tool,
        )

    async def arun(
        self,
        event: str,
        payload: Payload,
        *,
        tool: str | None = None,
        fail_closed: bool = False,
        default_decision: str | None = None,
    ) -> EventResult:
        """`run` in a worker thread, for asyncio harnesses.

        Cancelling the awaiting task kills the handlers it started, as an interruption does
        (SIGTERM to each handler's process group, SIGKILL after `executor.KILL_GRACE`), and
        waits for that before `CancelledError` propagates.
        """
        import asyncio
        import contextvars
        import functools

        read_fd, write_fd = os.pipe()
        future: asyncio.Future[EventResult] | None = None
        try:
            # What asyncio.to_thread does, but with the executor's own future: unlike a task,
            # nothing else (such as asyncio.run's final cancel_all) can cancel it, so it is
            # done exactly when the thread no longer uses read_fd.
            call = functools.partial(
                contextvars.copy_context().run, self.run, event, payload, tool=tool,
                fail_closed=fail_closed, default_decision=default_decision, cancel_fd=read_fd,
            )
            future = asyncio.get_running_loop().run_in_executor(None, call)
            try:
                return await asyncio.shield(future)
            except asyncio.CancelledError:
                os.write(write_fd, b"c")
                await _wait_out(future)
                raise
        finally:
            # Closing the write end cancels the run too, in case the thread is still going.
            os.close(write_fd)
            if future is None or future.done():
                os.close(read_fd)
            else:  # only when this coroutine was closed without being cancelled first
                future.add_done_callback(lambda _: os.close(read_fd))

    def _warnings(self, event: str, tool: str | None) -> list[str]:
        warnings = list(self._file_warnings)
        if tool is None and is_tool_event(event):
            warnings.append(NO_TOOL_WARNING)
        return warnings

    def _prepare(
        self, event: str, tool: str | None
    ) -> tuple[tuple[Handler, ...], list[ProcessSpec]]:
        key = (event, tool)
        found = self._specs.get(key)
        if found is None:
            selected = self.select(event, tool)
            envs: dict[tuple[str, str], dict[str, str]] = {}
            specs = []
            for h in selected:
                if h.kind != "command":
                    continue
                env_key = (h.hook, h.source.file)
                env = envs.get(env_key)
                if env is None:
                    env = envs[env_key] = handler_env(h, event, tool)
                specs.append(ProcessSpec(h.command, h.source.cwd, float(h.timeout), env))
            found = self._specs[key] = (selected, specs)
        return found


async def _wait_out(future: asyncio.Future[EventResult]) -> None:
    """Wait for the cancelled run's thread to end, even if cancelled again meanwhile.

    The outcome (normally `executor.Cancelled`) is retrieved and dropped: the caller raises
    CancelledError.
    """
    import asyncio

    while not future.done():
        try:
            await asyncio.wait((future,))
        except asyncio.CancelledError:
            continue
    if not future.cancelled():
        future.exception()


def handler_env(handler: Handler, event: str, tool: str | None) -> dict[str, str]:
    """What a handler finds in its environment on top of agenthooks' own.

    GEMINI_PROJECT_DIR and CLAUDE_PROJECT_DIR let hooks written for those hosts run unchanged.
    """
    workspace = handler.source.workspace
    env = {
        "AGENTHOOKS_EVENT": event,
        "AGENTHOOKS_HOOK_NAME": handler.hook,
        "AGENTHOOKS_CONFIG": handler.source.file,
        "AGENTHOOKS_WORKSPACE": workspace,
        "GEMINI_PROJECT_DIR": workspace,
        "CLAUDE_PROJECT_DIR": workspace,
    }
    if tool is not None:
        env["AGENTHOOKS_TOOL_NAME"] = tool
    return env


# --- module-level entry points --------------------------------------------------------------


def load_hooks(
    *,
    configs: Sequence[str] = (),
    workspaces: Sequence[str] = (),
    no_user: bool = False,
    cwd: str | None = None,
) -> Hooks:
    """Find and load the hooks.json files as `agenthooks run` does.

    `configs` names files and turns discovery off; else the user file (unless `no_user`) and
    the hooks.json files of each workspace root (default: the nearest one upward from `cwd`).
    """
    sources = discover(configs=configs, workspaces=workspaces, no_user=no_user, cwd=cwd)
    return Hooks([load(source) for source in sources])


def run_event(
    event: str,
    payload: Payload,
    *,
    configs: Sequence[str] = (),
    workspaces: Sequence[str] = (),
    no_user: bool = False,
    cwd: str | None = None,
    tool: str | None = None,
    fail_closed: bool = False,
    default_decision: str | None = None,
) -> EventResult:
    """Load the hooks.json files, then run one event (see `Hooks.run`).

    A harness that runs many events should call `load_hooks` once and `Hooks.run` per event.
    """
    loaded = _load_for(event, fail_closed, configs, workspaces, no_user, cwd)
    if isinstance(loaded, EventResult):
        return loaded
    return loaded.run(
        event, payload, tool=tool, fail_closed=fail_closed, default_decision=default_decision
    )


async def arun_event(
    event: str,
    payload: Payload,
    *,
    configs: Sequence[str] = (),
    workspaces: Sequence[str] = (),
    no_user: bool = False,
    cwd: str | None = None,
    tool: str | None = None,
    fail_closed: bool = False,
    default_decision: str | None = None,
) -> EventResult:
    """`run_event` for asyncio harnesses: `load_hooks` in a worker thread, then `Hooks.arun`.

    Cancelling the awaiting task kills the handlers it started (see `Hooks.arun`).
    """
    import asyncio

    loaded = await asyncio.to_thread(
        _load_for, event, fail_closed, configs, workspaces, no_user, cwd
    )
    if isinstance(loaded, EventResult):
        return loaded
    return await loaded.arun(
        event, payload, tool=tool, fail_closed=fail_closed, default_decision=default_decision
    )


def _load_for(
    event: str,
    fail_closed: bool,
    configs: Sequence[str],
    workspaces: Sequence[str],
    no_user: bool,
    cwd: str | None,
) -> Hooks | EventResult:
    """`load_hooks`, or the deny result when it fails and `fail_closed` applies."""
    try:
        return load_hooks(configs=configs, workspaces=workspaces, no_user=no_user, cwd=cwd)
    except AgentHooksError as exc:
        if fail_closed and event == "PreToolUse":
            return failed_closed(event, str(exc))
        raise
