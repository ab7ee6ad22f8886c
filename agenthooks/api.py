"""The in-process API: one registry of hooks of every kind, which hands each event to the engine.

    hooks = load_hooks(workspaces=["."])          # the hooks.json files, or Hooks() for none

    @hooks.decide("PreToolUse", tool="run_command", args={"CommandLine": "rm -rf*"})
    def no_rm(ctx):
        return Decision.deny("rm -rf is not allowed here")

    result = hooks.run("PreToolUse", {"toolCall": {"name": "run_command", "args": {...}}})
    if result.blocked: ...

This module registers hooks: `Hooks` keeps the files `load_all` read and the hooks added in
code, and `run`, `arun` and `plan` hand it and the event to the engine (`engine.runner`),
where the path of one event is written once. The per-call path stays lean, because a
harness calls it on every tool call: files are read and selections computed once per
(event, tool), and a call does no more than parse the payload, run what was selected, and
fold the answers. `EventResult` and `Plan` are the engine's records (`engine.call`,
`engine.dryrun`), named here too.
"""

from __future__ import annotations

import os

from agenthooks.engine import runner
from agenthooks.engine.call import EventPlan, EventResult, skip_notice, skip_warning
from agenthooks.errors import AgentHooksError
from agenthooks.model.eventnames import check_event
from agenthooks.model.handlers import Handler, HookFile
from agenthooks.plan.select import Selector, for_host, left_out

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from typing import Any

    from agenthooks.engine.dryrun import Plan
    from agenthooks.model.payload import Payload
    from agenthooks.sources.load import Loaded

if TYPE_CHECKING:
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

DEFAULT_TIMEOUT = 30.0


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
        # What the engine reads at each event (`engine.runner.Registry`): a warning per
        # skipped file, the notice every answer gives of them, and each event's plan, kept
        # until hooks are registered again.
        self.file_warnings = tuple(skip_warning(f) for f in self.skipped_files)
        self.notice = skip_notice(self.skipped_files, named)
        self.event_plans: dict[tuple[str, str | None, Any, str], EventPlan] = {}

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
        self.event_plans = {}
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
        self.event_plans = {}

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

    def plan(self, event: str, payload: Payload = b"", *, tool: str | None = None) -> Plan:
        """What `run` would start for this event and payload; starts nothing."""
        from agenthooks.engine.dryrun import dry_run  # a run never plans without running

        return dry_run(self, event, payload, tool=tool)

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
        return runner.run(self, event, payload, tool=tool, fail_closed=fail_closed,
                          default_decision=default_decision, context=context,
                          cancel_fd=cancel_fd)

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
        return await runner.arun(self, event, payload, tool=tool, fail_closed=fail_closed,
                                 default_decision=default_decision, context=context)


def _name_of(fn: Callable[..., Any]) -> str:
    return str(getattr(fn, "__name__", None) or type(fn).__name__)


def _timeout(value: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise ValueError(f"timeout must be a positive number of seconds, not {value!r}")
    return float(value)


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
    denied = runner.untrusted_deny(event, hooks, untrusted) if fail_closed else None
    if denied is not None:
        return denied
    result = hooks.run(
        event, payload, tool=tool, fail_closed=fail_closed, default_decision=default_decision
    )
    return runner.untrusted_result(result, untrusted)


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
    denied = runner.untrusted_deny(event, hooks, untrusted) if fail_closed else None
    if denied is not None:
        return denied
    result = await hooks.arun(
        event, payload, tool=tool, fail_closed=fail_closed, default_decision=default_decision
    )
    return runner.untrusted_result(result, untrusted)


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
        if runner.fails_closed(event, fail_closed):
            return runner.failed_closed("PreToolUse", str(exc))
        raise


def __getattr__(name: str) -> Any:
    # `Plan` is `--dry-run`'s record, which a run never makes: loaded when asked for.
    if name == "Plan":
        from agenthooks.engine.dryrun import Plan

        return Plan
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
