"""Command handlers as a kind: hooks.json handlers, Claude Code and Gemini CLI command
handlers, and shell hooks, run as processes.

All of an event's command handlers start together on the executor's one selector loop; each
answer is read under the exit-code protocol of its dialect's host (`PROTOCOLS`): hooks.json
and Gemini CLI handlers under seed 001, Claude Code handlers under Claude Code's rules.
Claude Code's `http` handlers run beside them (`kinds.http`); the types that need the host
(`mcp_tool`, `prompt`, `agent`, Gemini's `plugin` and `runtime`) are skipped with a warning.
"""

from __future__ import annotations

import os

from agenthooks._lean.memo import memo
from agenthooks.executor import ProcessResult, ProcessSpec
from agenthooks.kinds import runs_beside as kind_runs_beside  # the package, loaded already
from agenthooks.model.handlers import Answer, Handler, Source, run_folder, skipped
from agenthooks.model.hosts import HOOKS_JSON_DIALECT, HOST_TABLE, implementation

TYPE_CHECKING = False
if TYPE_CHECKING:
    import asyncio
    from collections.abc import Callable, Mapping, Sequence
    from typing import Any

    from agenthooks.kinds.inprocess.hookspec import ShellHook


# dialect -> "module:function" reading one finished process as that host does; imported
# only when a handler of that dialect ran, so a kind names no host.
# From each host's row (`model.hosts`).
_MODULE = "agenthooks.kinds.protocols.{}"  # each host's, by the word its row names
PROTOCOLS: dict[str, str] = {row.id: implementation(row.protocol, _MODULE, "answer")
                             for row in HOST_TABLE}
# "file's dialect>handler's dialect" -> the protocol of another host's handlers in a host's own
# files (`HostRow.guest_protocols`: a function of the host's protocol module), read instead
# of that host's.
PROTOCOLS.update({f"{row.id}>{guest}": PROTOCOLS[row.id].partition(":")[0] + ":" + function
                  for row in HOST_TABLE for guest, function in row.guest_protocols})
# The hosts that read a hook's output until its pipes close (`HostRow.reads_until_closed`):
# their handlers are read so, those of the others for a grace after they exit.
UNTIL_CLOSED = frozenset(row.id for row in HOST_TABLE if row.reads_until_closed)
# Each host's variable for the project root (`model.hosts`), set for every handler.
PROJECT_VARS = tuple(row.project_var for row in HOST_TABLE if row.project_var is not None)
ENV_FILE_VAR = "CLAUDE_ENV_FILE"
_protocols: dict[str, Callable[[Handler, ProcessResult, str], Answer]] = {}


def protocol_of(dialect: str) -> Callable[[Handler, ProcessResult, str], Answer]:
    found = _protocols.get(dialect)
    if found is None:
        module, _, name = PROTOCOLS[dialect].partition(":")
        # __import__, not importlib: importing `importlib` costs a cold run about 1 ms.
        found = _protocols[dialect] = getattr(__import__(module, fromlist=(name,)), name)
    return found


def protocol_key(handler: Handler) -> str:
    """The `PROTOCOLS` key of a handler: its file's host's reading of it where that host has
    one, else its own dialect's (the host it was written for, `Handler.speaks`). A hooks.json
    handler whose matcher alone names its host keeps hooks.json's reading, which reads every
    host's answer words and takes the most restrictive."""
    own = handler.speaks or handler.dialect
    guest = f"{handler.source.dialect}>{own}"
    return guest if guest in PROTOCOLS else own


def own_words(handler: Handler) -> tuple[str, str]:
    """The host whose payload a handler reads, and that host's word for its event."""
    speaks = speaks_for(handler)
    if speaks is None:
        return handler.dialect, handler.event
    from agenthooks.model.events import counterpart

    word = counterpart(handler.event, handler.dialect, speaks)
    return speaks, word or handler.event


def speaks_for(handler: Handler) -> str | None:
    """The host a handler was written for, when not its file's: a hooks.json handler's
    `dialect` (`Handler.speaks`), else the one host whose tool names its matcher is written
    in (`Bash|Write`: Claude Code's), which gets it that host's payload whoever calls; it
    still runs where its file's handlers run, and is read as hooks.json reads every handler
    (`protocol_key`)."""
    if handler.speaks is not None or handler.dialect != HOOKS_JSON_DIALECT or not handler.matcher:
        return handler.speaks
    return _host_named(handler.matcher)


@memo(64)
def _host_named(matcher: str) -> str | None:
    from agenthooks.model.matcher import named_alternatives
    from agenthooks.model.tools import host_named

    return host_named(named_alternatives(matcher))


def runs_as_process(handler: Handler) -> bool:
    return handler.kind == "command"


def in_background(handler: Handler) -> bool:
    """Handlers started and never waited for, with no answer (Claude Code's `async`)."""
    return handler.background


def runs_beside(handler: Handler) -> bool:
    """A handler of a kind that runs beside the processes (`kinds.KINDS`: http...)."""
    return kind_runs_beside(handler.kind)


def plugin_data_dir(plugin_root: str, name: str | None = None) -> str:
    """CLAUDE_PLUGIN_DATA: a folder of the plugin's own under the user's data directory,
    named by the plugin's name (an installed plugin's `name@marketplace`, else its folder's
    name) and a hash of its real path (made on first use)."""
    from hashlib import blake2b

    real = os.path.realpath(plugin_root)
    base = os.environ.get("XDG_DATA_HOME") or ""
    if not os.path.isabs(base):
        base = os.path.join(os.environ.get("HOME") or os.path.expanduser("~"), ".local",
                            "share")
    tag = blake2b(real.encode(), digest_size=6).hexdigest()
    label = name.replace("@", "-").replace(os.sep, "-") if name else os.path.basename(real)
    path = os.path.join(base, "agenthooks", "plugin-data", f"{label}-{tag}")
    os.makedirs(path, exist_ok=True)
    return path


def handler_env(handler: Handler, event: str, tool: str | None) -> dict[str, str]:
    """What a handler finds in its environment on top of agenthooks' own.

    Every host's project variable (`PROJECT_VARS`: CLAUDE_PROJECT_DIR, GEMINI_PROJECT_DIR...)
    lets hooks written for those hosts run unchanged;
    a Claude Code plugin's hooks also get CLAUDE_PLUGIN_ROOT and CLAUDE_PLUGIN_DATA. What
    comes from the payload (GEMINI_SESSION_ID, GEMINI_CWD, CLAUDE_ENV_FILE) is added per call
    (`call_env`).
    """
    workspace = handler.source.workspace
    env = {
        "AGENTHOOKS_EVENT": event,
        "AGENTHOOKS_HOOK_NAME": handler.hook,
        "AGENTHOOKS_CONFIG": handler.source.file,
        "AGENTHOOKS_WORKSPACE": workspace,
        **dict.fromkeys(PROJECT_VARS, workspace),
    }
    if tool is not None:
        env["AGENTHOOKS_TOOL_NAME"] = tool
    plugin_vars = handler.plugin_vars
    if handler.source.plugin_root is not None and plugin_vars is not None:
        env[plugin_vars[0]] = handler.source.plugin_root
        if plugin_vars[1]:  # a host that names no data folder (Cursor) gets none
            env[plugin_vars[1]] = plugin_data_dir(handler.source.plugin_root,
                                                  handler.source.plugin)
    return env


def own_vars(handler: Handler) -> dict[str, str]:
    """The variables a handler sets itself (`Handler.own_vars`), over every other one."""
    reader = handler.own_vars
    if reader is None:
        return {}
    module, _, name = reader.partition(":")
    found: dict[str, str] = getattr(__import__(module, fromlist=(name,)), name)(handler)
    return found


def call_env(handler: Handler, doc: Mapping[str, Any], env_file: str | None) -> dict[str, str]:
    """What a handler's environment takes from this call: Gemini CLI's GEMINI_SESSION_ID and
    GEMINI_CWD (from the payload's `session_id` and `cwd`), Charm Crush's
    CRUSH_TOOL_INPUT_COMMAND (`tool_input.command`: a dotted key reads into an object),
    Claude Code's CLAUDE_ENV_FILE on SessionStart."""
    env: dict[str, str] = {}
    own = own_vars(handler)
    for name, key in handler.call_vars:
        value: Any = dict(doc)
        for part in key.split("."):  # `tool_input.command`: a field of an object (Crush's)
            value = value.get(part) if isinstance(value, dict) else None
        if isinstance(value, str) and "\0" not in value and name not in own:
            env[name] = value
    if env_file is not None and handler.env_file:
        env[ENV_FILE_VAR] = env_file
    return env


def command_line(handler: Handler, env: Mapping[str, str]) -> str:
    """The shell command of a handler. Claude Code's exec form (`args`) runs the command with
    those arguments and no shell expansion: quoted word by word and `exec`ed, with
    `${CLAUDE_PLUGIN_ROOT}`-style references to agenthooks' variables filled in first, as
    no shell will do it."""
    args = handler.args
    if args is None:
        return handler.command
    import re
    import shlex

    def fill(word: str) -> str:
        return re.sub(r"\$\{(\w+)\}|\$(\w+)",
                      lambda m: env.get(m.group(1) or m.group(2), m.group(0)), word)

    return "exec " + shlex.join([fill(handler.command), *(fill(str(a)) for a in args)])


def config_specs(
    selected: Sequence[Handler], event: str, tool: str | None
) -> list[ProcessSpec]:
    """The process specs of the selected command handlers (every dialect's), in order."""
    envs: dict[tuple[str, str], dict[str, str]] = {}
    specs = []
    for h in selected:
        if not runs_as_process(h):
            continue
        key = (h.hook, h.source.file)
        env = envs.get(key)
        if env is None:
            env = envs[key] = handler_env(h, event, tool)
        if h.own_vars is not None:
            env = {**env, **own_vars(h)}
        specs.append(ProcessSpec(command_line(h, env), run_folder(h), float(h.timeout), env,
                                 host_shell(h), until_closed=h.speaks in UNTIL_CLOSED
                                 or (h.speaks is None and h.source.dialect in UNTIL_CLOSED)))
    return specs


_shells: dict[str, str | None] = {}


def host_shell(handler: Handler) -> str | None:
    """The shell a handler's host runs its command with (None: /bin/sh, as hooks.json runs
    them): Claude Code's and Gemini CLI's bash, so bash syntax in their hooks works here
    too; bash when the named shell is missing; /bin/sh without bash."""
    name = handler.shell
    if name is None:
        return None
    if name not in _shells:
        from agenthooks.executor.command import which

        _shells[name] = which(name) or which("bash")
    return _shells[name]


def answers_of(
    selected: Sequence[Handler], results: Sequence[ProcessResult], event: str,
    beside: Mapping[int, Answer] | None = None,
) -> list[Answer]:
    """One answer per selected handler, in config order: processes read by their dialect's
    protocol, the kinds that ran `beside` them by position, the others skipped with a
    warning."""
    found = iter(results)
    answers = []
    for index, h in enumerate(selected):
        if runs_as_process(h):
            answers.append(protocol_of(protocol_key(h))(h, next(found), event))
        elif beside is not None and index in beside:
            answers.append(beside[index])
        else:
            answers.append(skipped(h))
    return answers


_PYTHON_SOURCE = "<python>"


def shell_handler(hook: ShellHook, command: str) -> Handler:
    """A shell hook as a handler record, so its answer reads like any other's."""
    # Read as a hooks.json handler is: in every host's answer words.
    source = Source(_PYTHON_SOURCE, _PYTHON_SOURCE, hook.cwd, "workspace", hook.cwd,
                    HOOKS_JSON_DIALECT)
    return Handler(source, hook.name, hook.event, hook.tool, command, hook.timeout, "command",
                   True, "", source.dialect)


def shell_command(
    hook: ShellHook, event: str, tool: str | None, session_id: str | None,
    tool_args: Mapping[str, Any],
) -> tuple[Handler, ProcessSpec | ProcessResult]:
    """A shell hook's command with its placeholders filled, as a handler and its spec; or,
    when a value cannot be placed safely, the result of a handler that did not start."""
    from agenthooks.kinds.inprocess.template import render_command

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
