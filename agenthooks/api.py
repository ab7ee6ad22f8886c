"""The in-process API: one registry of hooks of every kind, run per event.

    hooks = load_hooks(workspaces=["."])          # the hooks.json files, or Hooks() for none

    @hooks.decide("PreToolUse", tool="run_command", args={"CommandLine": "rm -rf*"})
    def no_rm(ctx):
        return Decision.deny("rm -rf is not allowed here")

    result = hooks.run("PreToolUse", {"toolCall": {"name": "run_command", "args": {...}}})
    if result.blocked: ...

`agenthooks run` is a thin layer over this module. The per-call path stays lean, because a
harness calls it on every tool call: files are read and selections computed once per
(event, tool), and a call does no more than parse the payload, run what was selected, and
fold the answers (see `engine.runner` for the order).
"""

from __future__ import annotations

import os

from agenthooks._lean.records import NamedTuple
from agenthooks.combine.merge import TOOL_DECISIONS, block_reasons
from agenthooks.decision import Decision
from agenthooks.drive import finish
from agenthooks.engine.call import Call, EventPlan, call_needs
from agenthooks.engine.runner import Executed, execute
from agenthooks.errors import AgentHooksError, UsageError
from agenthooks.events import check_event
from agenthooks.executor import ProcessResult, ProcessSpec
from agenthooks.kinds.process import config_specs, in_background, runs_beside
from agenthooks.model.events import is_tool_event
from agenthooks.model.handlers import Answer, Handler, HookFile, prompt_warning, run_folder
from agenthooks.plan.select import Selector, for_host, left_out

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from typing import Any

    from agenthooks.payload import Payload
    from agenthooks.sources.load import Loaded

if TYPE_CHECKING:
    from agenthooks.combine.verdict import Verdict
    from agenthooks.kinds.inprocess.call import HookOutcome
    from agenthooks.kinds.inprocess.context import Session, Turn
    from agenthooks.kinds.inprocess.hookspec import PythonHook, ShellHook

__all__ = [
    "EventResult",
    "Hooks",
    "Plan",
    "arun_event",
    "load_hooks",
    "run_event",
]

NO_TOOL_WARNING = (
    "no tool name (give --tool, or toolCall.name or tool_name in the payload): "
    "only handlers whose matcher matches every tool were selected"
)
NO_TOOL_DENY = "no tool name (give --tool, or toolCall.name or tool_name in the payload)"
DEFAULT_TIMEOUT = 30.0


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


class Plan(NamedTuple):
    """What `run` would start for an event, without starting anything (`--dry-run`)."""

    event: str
    tool: str | None
    handlers: tuple[Handler, ...]  # command handlers, in the order they would run
    warnings: list[str]
    skipped_files: tuple[HookFile, ...] = ()
    hooks: tuple[PythonHook, ...] = ()  # in-process hooks that may run (before `when`)
    left_out: tuple[tuple[str, str], ...] = ()  # (file, why) the host's run leaves out

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
                    "cwd": run_folder(h),
                }
                for h in self.handlers
            ],
            "hooks": [
                {"hook": h.name, "kind": h.phase, "priority": h.priority, "tool": h.tool}
                for h in self.hooks
            ],
            "leftOut": [{"source": path, "why": why} for path, why in self.left_out],
        }


# --- pieces shared by run and plan --------------------------------------------------------


def check_default_decision(word: str | None) -> None:
    if word is not None and word not in TOOL_DECISIONS:
        raise UsageError(
            f"unknown default decision {word!r} (choose from {', '.join(TOOL_DECISIONS)})"
        )


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


def _with_notice(output: dict[str, Any], notice: str | None) -> dict[str, Any]:
    if notice is None:
        return output
    given = output.get("systemMessage")
    return {**output, "systemMessage": f"{given}\n{notice}" if given else notice}


# --- the registry -------------------------------------------------------------------------


class Hooks:
    """Every hook of a harness: hooks.json files, Python hooks, shell hooks; run per event.

    Files with errors are kept in `skipped_files` (with their diagnostics) and run nothing,
    as Antigravity does, but every result says so. Register before running; `run`/`arun` may
    then be called concurrently from threads and event loops.
    """

    def __init__(
        self,
        files: Sequence[HookFile] = (),
        *,
        workspaces: Sequence[str] = (),
        notes: Sequence[str] = (),
        host: str | None = None,
        other_hosts: bool = False,
        named: bool = False,
    ) -> None:
        """`host`: the host this registry answers (`--host`); its own files are left out,
        and other hosts' settings files too unless `other_hosts`. `named`: the files were
        named by the user (`--config`), so every one of them runs."""
        self.files = tuple(f for f in files if f.ok)
        self.host = host
        self.other_hosts = other_hosts
        self.named = named
        judged = [(f, None if named else left_out(f.source, host, other_hosts))
                  for f in self.files]
        # Files the host's run leaves out, with why: `list`, `--dry-run` and `explain` say so.
        self.left_out: tuple[tuple[HookFile, str], ...] = tuple(
            (f, why) for f, why in judged if why is not None)
        # What discovery left out and why (e.g. a workspace others can write to): warnings.
        self.notes = tuple(notes)
        self.skipped_files = tuple(f for f in files if not f.ok)
        self.workspaces = tuple(os.path.abspath(w) for w in workspaces)
        self.selector = Selector(tuple(for_host(f, host) for f, why in judged if why is None))
        self.python_hooks: tuple[PythonHook, ...] = ()
        self.shell_hooks: tuple[ShellHook, ...] = ()
        self._file_warnings = tuple(skip_warning(f) for f in self.skipped_files)
        self._notice = skip_notice(self.skipped_files, named)
        self._plans: dict[tuple[str, str | None, Any, str], EventPlan] = {}

    @classmethod
    def from_loaded(cls, loaded: Loaded, *, host: str | None = None,
                    other_hosts: bool = False) -> Hooks:
        """The registry of what `load_all` read: its files (those with errors skipped), what
        discovery and trust left out as notes, its Markdown hooks registered."""
        hooks = cls(loaded.handler_files, workspaces=loaded.workspaces,
                    notes=[*(str(d) for d in loaded.notes), *loaded.untrusted], host=host,
                    other_hosts=other_hosts, named=loaded.named)
        if loaded.markdown:  # imported only then: a run without Markdown hooks pays nothing
            from agenthooks.kinds.markdown import register_markdown

            register_markdown(hooks, loaded.markdown)
        return hooks

    # --- registration ---

    def on(
        self,
        event: str,
        fn: Callable[..., Any],
        *,
        kind: str = "decide",
        tool: str | None = None,
        args: Mapping[str, str] | None = None,
        when: Callable[..., Any] | None = None,
        priority: int = 0,
        name: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        on_error: str = "deny",
    ) -> Callable[..., Any]:
        """Register `fn(ctx)` on an event; returns `fn`. Raises ValueError for a bad matcher.

        `on_error="allow"` makes a failure on PreToolUse a warning instead of a deny, unless
        the run fails closed.
        """
        from agenthooks.kinds.inprocess.hookspec import (
            PHASES,
            PythonHook,
            arg_globs,
            is_async,
            tool_matcher,
        )

        event = check_event(event)
        if kind not in PHASES:
            raise ValueError(f"kind must be one of {', '.join(PHASES)}, not {kind!r}")
        if not callable(fn):
            raise ValueError(f"a hook must be callable, not {type(fn).__name__}")
        only = getattr(fn, "agenthooks_events", None)
        if only is not None and event not in only:
            raise ValueError(f"{_name_of(fn)} can only be registered on {', '.join(only)}")
        if when is not None and not callable(when):
            raise ValueError("when must be a callable taking the context")
        if on_error not in ("deny", "allow"):
            raise ValueError(f"on_error must be 'deny' or 'allow', not {on_error!r}")
        hook = PythonHook(
            name or _name_of(fn), event, kind, fn, tool, tool_matcher(event, tool),
            arg_globs(args), when, int(priority), self._next_order(), _timeout(timeout),
            is_async(fn) or (when is not None and is_async(when)), on_error == "allow",
        )
        self.python_hooks = (*self.python_hooks, hook)
        self._plans = {}
        return fn

    def decide(self, event: str, **options: Any) -> Callable[[Callable[..., Any]], Any]:
        """`@hooks.decide(event, tool=..., ...)`: allow, approve, deny, ask or inject."""
        return self._decorator(event, "decide", options)

    def transform(self, event: str, **options: Any) -> Callable[[Callable[..., Any]], Any]:
        """`@hooks.transform(event, ...)`: any decision, modify and replace included."""
        return self._decorator(event, "transform", options)

    def inspect(self, event: str, **options: Any) -> Callable[[Callable[..., Any]], Any]:
        """`@hooks.inspect(event, ...)`: sees `ctx.decision` after the event; cannot change it."""
        return self._decorator(event, "inspect", options)

    def _decorator(
        self, event: str, kind: str, options: dict[str, Any]
    ) -> Callable[[Callable[..., Any]], Any]:
        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            return self.on(event, fn, kind=kind, **options)

        return register

    def shell(
        self,
        event: str,
        command: str,
        *,
        tool: str | None = None,
        args: Mapping[str, str] | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        background: bool = False,
        name: str | None = None,
    ) -> None:
        """A command handler with `{event}`, `{tool_name}`, `{session_id}`, `{tool_input[k]}`
        and `{k}` placeholders, each filled once and shell-quoted (see
        `kinds.inprocess.template`)."""
        from agenthooks.kinds.inprocess.hookspec import ShellHook, arg_globs, tool_matcher

        event = check_event(event)
        if not isinstance(command, str) or not command.strip():
            raise ValueError("a shell hook needs a non-empty command")
        if "\0" in command:
            raise ValueError("a shell hook's command cannot hold a NUL byte")
        from agenthooks.kinds.inprocess.template import check_command

        check_command(command)
        cwd = self.workspaces[0] if self.workspaces else os.getcwd()
        hook = ShellHook(name or command.split(maxsplit=1)[0], event, command, tool,
                         tool_matcher(event, tool), arg_globs(args), _timeout(timeout),
                         bool(background), cwd, self._next_order())
        self.shell_hooks = (*self.shell_hooks, hook)
        self._plans = {}

    def merge(self, other: Hooks) -> Hooks:
        """A new registry with this one's files and hooks, then `other`'s."""
        merged = Hooks((*self.files, *self.skipped_files, *other.files, *other.skipped_files),
                       workspaces=self.workspaces or other.workspaces,
                       notes=(*self.notes, *other.notes), host=self.host or other.host,
                       other_hosts=self.other_hosts or other.other_hosts,
                       named=self.named and other.named)
        for hook in (*self.python_hooks, *other.python_hooks):
            merged.python_hooks = (*merged.python_hooks, hook._replace(order=merged._next_order()))
        for shell in (*self.shell_hooks, *other.shell_hooks):
            merged.shell_hooks = (*merged.shell_hooks, shell._replace(order=merged._next_order()))
        return merged

    def session(self, session_id: str | None = None) -> Session:
        """A session whose turns give hook calls shared, scoped state (`ctx.state`)."""
        from agenthooks.kinds.inprocess.context import Session

        return Session(session_id)

    def _next_order(self) -> int:
        return len(self.python_hooks) + len(self.shell_hooks)

    # --- selection ---

    def select(self, event: str, tool: str | None,
               doc: Mapping[str, Any] | None = None, caller: str | None = None
               ) -> tuple[Handler, ...]:
        """The handlers that run for `event` and `tool`, in config order: the hooks.json ones,
        then the Claude Code and Gemini CLI ones (whose matchers may read `doc`, the
        payload: SessionStart's `source`...). Each matches the tool's name in its own
        dialect's words; `caller` says whose words `tool` is in (default: `caller_of`)."""
        return self.selector(event, tool, doc, caller or self.caller_of(doc or {}, event))

    def caller_of(self, doc: Mapping[str, Any], event: str | None = None) -> str:
        """The host whose words a payload is in: this registry's host, else the payload's."""
        if self.host is not None:
            return self.host
        from agenthooks.sources.payloads import detect

        return detect(doc, event)

    def _plan(self, event: str, tool: str | None,
              doc: Mapping[str, Any] | None, caller: str) -> EventPlan:
        values = self.selector.values(event, tool, doc, caller)
        key = (event, tool, values, caller)
        found = self._plans.get(key)
        if found is None:
            selected = self.select(event, tool, doc, caller)
            handlers = tuple(h for h in selected if not in_background(h))
            background = tuple(h for h in selected if in_background(h))
            specs = config_specs(handlers, event, tool)
            chain, inspect, shells, looped = self._in_process(event, tool, caller)
            needs = call_needs(handlers, background, event, tool) \
                if self.selector.dialect_files else None
            found = self._plans[key] = EventPlan(
                handlers, specs, chain, inspect, shells, looped, needs,
                frozenset(h.speaks or h.dialect for h in handlers))
        return found

    def _in_process(self, event: str, tool: str | None, caller: str) -> tuple[
        tuple[PythonHook, ...], tuple[PythonHook, ...], tuple[ShellHook, ...], bool
    ]:
        """The decide/transform chain, inspect hooks and shell hooks of an event and tool,
        and whether any needs an event loop (the hook records load only when registered)."""
        if not (self.python_hooks or self.shell_hooks):
            return (), (), (), False
        from agenthooks.kinds.inprocess.hookspec import selects_tool

        names = tool_names(tool, caller)
        hooks = sorted(
            (h for h in self.python_hooks if h.event == event and selects_tool(h, names)),
            key=lambda h: (h.priority, h.order),
        )
        chain = tuple(h for h in hooks if h.phase != "inspect")
        inspect = tuple(h for h in hooks if h.phase == "inspect")
        shells = tuple(h for h in self.shell_hooks
                       if h.event == event and selects_tool(h, names))
        return chain, inspect, shells, any(h.is_async for h in hooks)

    def plan(self, event: str, payload: Payload = b"", *, tool: str | None = None) -> Plan:
        """What `run` would start for this event and payload; starts nothing."""
        from agenthooks.sources.payloads import read_event

        called = read_event(event, payload, host=self.host, tool=tool)
        event, tool, doc, caller = called.name, called.tool, called.doc, called.caller
        warnings = self._warnings(event, tool)
        selected = self.select(event, tool, doc, caller)
        warnings.extend(prompt_warning(h) for h in selected
                        if h.kind != "command" and not runs_beside(h))
        commands = tuple(h for h in selected if h.kind == "command" or runs_beside(h))
        plan = self._plan(event, tool, doc, caller)
        return Plan(event, tool, commands, warnings, self.skipped_files,
                    plan.chain + plan.inspect,
                    tuple((f.source.path, why) for f, why in self.left_out))

    # --- running ---

    def run(
        self,
        event: str,
        payload: Payload,
        *,
        tool: str | None = None,
        fail_closed: bool = False,
        default_decision: str | None = None,
        context: Session | Turn | None = None,
        cancel_fd: int | None = None,
    ) -> EventResult:
        """Run every hook of `event` (see `engine.runner` for the order) and fold the answers.

        `tool` overrides the payload's tool name. `fail_closed` (PreToolUse only) turns every
        failure (a skipped file, a handler that timed out, crashed, exited other than 0 or 2
        or answered nonsense, a bad payload, a bad option) into a deny. `default_decision`
        (PreToolUse only) is the decision when nothing gave one. `context` (a session or a
        turn from `hooks.session()`) scopes `ctx.state`. `cancel_fd`: see `run_processes`.
        Raises `UsageError` (an unknown event, a bad option) and `PayloadError` unless failing
        closed; `executor.Interrupted` on SIGINT/SIGTERM/SIGHUP/SIGQUIT; `executor.Cancelled`.
        """
        prepared = self._prepare(event, payload, tool, fail_closed, default_decision, context)
        if isinstance(prepared, EventResult):
            return prepared
        plan, call = prepared

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
        return self._result(call, executed)

    async def arun(
        self,
        event: str,
        payload: Payload,
        *,
        tool: str | None = None,
        fail_closed: bool = False,
        default_decision: str | None = None,
        context: Session | Turn | None = None,
    ) -> EventResult:
        """`run` for asyncio harnesses: async hooks are awaited on the running loop, command
        handlers run in a worker thread.

        Cancelling the awaiting task kills the handlers it started, as an interruption does
        (SIGTERM to each handler's process group, SIGKILL after `executor.KILL_GRACE`), and
        waits for that before `CancelledError` propagates.
        """
        prepared = self._prepare(event, payload, tool, fail_closed, default_decision, context)
        if isinstance(prepared, EventResult):
            return prepared
        plan, call = prepared
        from agenthooks.kinds.process import run_in_thread

        executed = await execute(plan, call, run_in_thread, looped=True)
        return self._result(call, executed)

    def _prepare(
        self,
        event: str,
        payload: Payload,
        tool: str | None,
        fail_closed: bool,
        default_decision: str | None,
        context: Session | Turn | None,
    ) -> tuple[EventPlan, Call] | EventResult:
        """The plan and call of one event, or the deny of a closed call that cannot run."""
        from agenthooks.sources.payloads import read_event

        closed = fail_closed and _is_pre_tool_use(event)
        try:
            called = read_event(event, payload, host=self.host, tool=tool)
            check_default_decision(default_decision)
            turn = None
            if context is not None:
                from agenthooks.kinds.inprocess.context import turn_for

                turn = turn_for(context)
        except (AgentHooksError, ValueError, TypeError) as exc:
            if not closed:
                raise
            return failed_closed("PreToolUse", str(exc), self.skipped_files)
        event = called.name
        if closed and called.tool is None:
            return failed_closed(event, NO_TOOL_DENY, self.skipped_files)
        call = Call(event=event, tool=called.tool, data=called.data, doc=called.doc, turn=turn,
                    default_decision=default_decision if event == "PreToolUse" else None,
                    closed=closed, file_failures=self._file_warnings, caller=called.caller,
                    args=called.args, long=called.long)
        return self._plan(event, called.tool, called.doc, called.caller), call

    def _result(self, call: Call, executed: Executed) -> EventResult:
        from agenthooks.combine.verdict import engine_answer

        rendered = executed.rendered
        warnings = self._warnings(call.event, call.tool)
        warnings.extend(executed.warnings)
        assert rendered.verdict is not None
        # The skipped files are named in the notice: their warnings would say it twice.
        verdict = rendered.verdict._replace(
            notices=() if self._notice is None else (self._notice,),
            warnings=tuple(w for w in warnings if w not in self._file_warnings))
        return EventResult(
            event=call.event, output=engine_answer(verdict), blocked=rendered.blocked,
            exit_code=exit_status(rendered.blocked), warnings=warnings,
            handlers=executed.answers, skipped_files=self.skipped_files, tool=call.tool,
            decision=rendered.decision, updated_args=rendered.updated_args,
            hooks=executed.outcomes, injected=rendered.injected, verdict=verdict,
        )

    def _warnings(self, event: str, tool: str | None) -> list[str]:
        warnings = [*self.notes, *self._file_warnings]
        if tool is None and is_tool_event(event):
            warnings.append(NO_TOOL_WARNING)
        return warnings


def _is_pre_tool_use(event: str) -> bool:
    try:
        return check_event(event) == "PreToolUse"
    except ValueError:
        return False


def _name_of(fn: Callable[..., Any]) -> str:
    return str(getattr(fn, "__name__", None) or type(fn).__name__)


def _timeout(value: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise ValueError(f"timeout must be a positive number of seconds, not {value!r}")
    return float(value)


def _refuse_running_loop() -> None:
    import asyncio

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return
    raise AgentHooksError(
        "Hooks.run was called inside a running event loop with async hooks selected: "
        "await hooks.arun(...) instead"
    )


# --- module-level entry points --------------------------------------------------------------


def load_hooks(
    *,
    configs: Sequence[str] = (),
    workspaces: Sequence[str] = (),
    no_user: bool = False,
    cwd: str | None = None,
    require_trust: bool = False,
    host: str | None = None,
    other_hosts: bool = False,
) -> Hooks:
    """Find and load the hooks.json files and Markdown hooks as `agenthooks run` does.

    `configs` names files (hooks.json, `.md`, or a `.harness/hooks` folder) and turns
    discovery off; else the user file (unless `no_user`) and the hooks.json files and
    `.harness/hooks/*.md` of each workspace root (default: the nearest one upward from `cwd`).
    `require_trust`: the hooks of a workspace that was never trusted (`agenthooks trust`) or
    has changed since are left out, each such workspace named in `notes`. `host`: the host
    the registry answers, whose own files it leaves out (and other hosts' settings files,
    unless `other_hosts`); see `Hooks`.
    """
    return load_checked(configs=configs, workspaces=workspaces, no_user=no_user, cwd=cwd,
                        require_trust=require_trust, host=host, other_hosts=other_hosts)[0]


def load_checked(
    *,
    configs: Sequence[str] = (),
    workspaces: Sequence[str] = (),
    no_user: bool = False,
    cwd: str | None = None,
    require_trust: bool = False,
    host: str | None = None,
    other_hosts: bool = False,
) -> tuple[Hooks, tuple[str, ...]]:
    """`load_hooks`, and one warning per workspace it left out as untrusted or changed."""
    # The file sources load only here: a registry built in code reads no file.
    from agenthooks.sources.load import load_all

    loaded = load_all(configs=configs, workspaces=workspaces, no_user=no_user, cwd=cwd,
                      require_trust=require_trust)
    return Hooks.from_loaded(loaded, host=host, other_hosts=other_hosts), loaded.untrusted


def untrusted_result(result: EventResult, untrusted: Sequence[str]) -> EventResult:
    """A result with the untrusted workspaces (`load_checked`) named in its systemMessage."""
    if not untrusted:
        return result
    notice = "\n".join(f"agenthooks {line}" for line in untrusted)
    verdict = result.verdict
    if verdict is not None:  # what every host's writer says it from
        verdict = verdict._replace(notices=(*verdict.notices, notice))
    return result._replace(output=_with_notice(result.output, notice), verdict=verdict)


def untrusted_deny(event: str, hooks: Hooks, untrusted: Sequence[str]) -> EventResult | None:
    """Under fail-closed on PreToolUse, the deny of a run that would skip untrusted
    workspaces (nothing runs); None when the run goes ahead."""
    if not untrusted or not _is_pre_tool_use(event):
        return None
    denied = failed_closed("PreToolUse", "\n".join(untrusted), hooks.skipped_files)
    return denied._replace(warnings=[*hooks.notes])


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
    require_trust: bool = False,
) -> EventResult:
    """Load the hooks.json files, then run one event (see `Hooks.run`).

    A harness that runs many events should call `load_hooks` once and `Hooks.run` per event.
    `require_trust`: see `load_hooks`; the answer names each workspace left out in its
    systemMessage, and under `fail_closed` a PreToolUse is denied instead.
    """
    loaded = _load_for(event, fail_closed, configs, workspaces, no_user, cwd, require_trust)
    if isinstance(loaded, EventResult):
        return loaded
    hooks, untrusted = loaded
    denied = untrusted_deny(event, hooks, untrusted) if fail_closed else None
    if denied is not None:
        return denied
    result = hooks.run(
        event, payload, tool=tool, fail_closed=fail_closed, default_decision=default_decision
    )
    return untrusted_result(result, untrusted)


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
    require_trust: bool = False,
) -> EventResult:
    """`run_event` for asyncio harnesses: `load_hooks` in a worker thread, then `Hooks.arun`.

    Cancelling the awaiting task kills the handlers it started (see `Hooks.arun`).
    """
    import asyncio

    loaded = await asyncio.to_thread(
        _load_for, event, fail_closed, configs, workspaces, no_user, cwd, require_trust
    )
    if isinstance(loaded, EventResult):
        return loaded
    hooks, untrusted = loaded
    denied = untrusted_deny(event, hooks, untrusted) if fail_closed else None
    if denied is not None:
        return denied
    result = await hooks.arun(
        event, payload, tool=tool, fail_closed=fail_closed, default_decision=default_decision
    )
    return untrusted_result(result, untrusted)


def _load_for(
    event: str,
    fail_closed: bool,
    configs: Sequence[str],
    workspaces: Sequence[str],
    no_user: bool,
    cwd: str | None,
    require_trust: bool = False,
) -> tuple[Hooks, tuple[str, ...]] | EventResult:
    """`load_checked`, or the deny result when it fails and `fail_closed` applies."""
    try:
        return load_checked(configs=configs, workspaces=workspaces, no_user=no_user, cwd=cwd,
                            require_trust=require_trust)
    except AgentHooksError as exc:
        if fail_closed and _is_pre_tool_use(event):
            return failed_closed("PreToolUse", str(exc))
        raise


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
