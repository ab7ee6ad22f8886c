"""Command handlers as a kind: hooks.json handlers and shell hooks, run as processes.

All of an event's command handlers start together on the executor's one selector loop; each
answer is read under the exit-code protocol of the host (`hosts.antigravity.protocol`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from agenthooks.config.model import Handler, Source
from agenthooks.executor import ProcessResult, ProcessSpec
from agenthooks.hosts.antigravity.protocol import Answer, answer, skipped

TYPE_CHECKING = False
if TYPE_CHECKING:
    import asyncio
    from typing import Any

    from agenthooks.engine.hookspec import ShellHook


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


def config_specs(
    selected: Sequence[Handler], event: str, tool: str | None
) -> list[ProcessSpec]:
    """The process specs of the selected hooks.json command handlers, in order."""
    envs: dict[tuple[str, str], dict[str, str]] = {}
    specs = []
    for h in selected:
        if h.kind != "command":
            continue
        key = (h.hook, h.source.file)
        env = envs.get(key)
        if env is None:
            env = envs[key] = handler_env(h, event, tool)
        specs.append(ProcessSpec(h.command, h.source.cwd, float(h.timeout), env))
    return specs


def answers_of(
    selected: Sequence[Handler], results: Sequence[ProcessResult], event: str
) -> list[Answer]:
    """One answer per selected handler, in config order (prompt handlers are skipped)."""
    found = iter(results)
    return [
        answer(h, next(found), event) if h.kind == "command" else skipped(h) for h in selected
    ]


_PYTHON_SOURCE = "<python>"


def shell_handler(hook: ShellHook, command: str) -> Handler:
    """A shell hook as a handler record, so its answer reads like any other's."""
    source = Source(_PYTHON_SOURCE, _PYTHON_SOURCE, hook.cwd, "workspace", hook.cwd)
    return Handler(source, hook.name, hook.event, hook.tool, command, hook.timeout, "command",
                   True, "")


def shell_command(
    hook: ShellHook, event: str, tool: str | None, session_id: str | None,
    tool_args: Mapping[str, Any],
) -> tuple[Handler, ProcessSpec | ProcessResult]:
    """A shell hook's command with its placeholders filled, as a handler and its spec; or,
    when a value cannot be placed safely, the result of a handler that did not start."""
    from agenthooks.engine.template import render_command

    try:
        command = render_command(hook.command, event=event, tool_name=tool,
                                 session_id=session_id, tool_input=tool_args)
    except ValueError as exc:
        error = f"cannot fill the placeholders of {hook.command!r}: {exc}"
        return shell_handler(hook, hook.command), ProcessResult(
            "not-started", None, None, b"", b"", False, False, 0.0, error)
    handler = shell_handler(hook, command)
    env = handler_env(handler, event, tool)
    env["AGENTHOOKS_CONFIG"] = ""
    return handler, ProcessSpec(command, hook.cwd, hook.timeout, env)


def start_background(specs: Sequence[ProcessSpec], data: bytes) -> None:
    """Fire-and-forget shell hooks: run in a thread, reaped when they end, killed at timeout."""
    if not specs:
        return
    import contextlib
    import threading

    from agenthooks.executor import run_processes

    def run() -> None:
        # Nothing to report a failure to: the event has its answer already.
        with contextlib.suppress(BaseException):
            run_processes(specs, data)

    threading.Thread(target=run, name="agenthooks-background", daemon=False).start()


async def run_in_thread(
    specs: Sequence[ProcessSpec], data: bytes
) -> list[ProcessResult]:
    """`run_processes` in a worker thread, cancelled (handlers killed) with the awaiting task."""
    import asyncio
    import contextvars
    import functools

    from agenthooks.executor.process import run_processes

    if not specs:
        return []
    read_fd, write_fd = os.pipe()
    future: asyncio.Future[list[ProcessResult]] | None = None
    try:
        # What asyncio.to_thread does, but with the executor's own future: unlike a task,
        # nothing else (such as asyncio.run's final cancel_all) can cancel it, so it is
        # done exactly when the thread no longer uses read_fd.
        call = functools.partial(
            contextvars.copy_context().run, run_processes, specs, data, cancel_fd=read_fd
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


async def _wait_out(future: asyncio.Future[list[ProcessResult]]) -> None:
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
