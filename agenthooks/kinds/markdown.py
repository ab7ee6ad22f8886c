"""One Markdown hook as an in-process transform hook of the engine.

`when(ctx)` and `__call__(ctx)` are what `Hooks.on(..., kind="transform", when=...)` calls;
the engine's fold does the rest (priority order, the first block terminal, modify chaining
into the command handlers). The script is compiled on first use, once, so a run compiles
only the hooks of its own event.

The script sees `handle(event, payload)`: `event` is the file's own word (`tool.pre`), and on
tool events `payload["name"]` and `payload["args"]` (the current arguments, after earlier
modifies) beside every original field, whatever host shape the payload came in.

The Starlark kind (`kinds.starlark`, and starlark-rust with it) is imported by the calls that
run Starlark: under `agenthooks run` that is the hook's own process
(`kinds.inprocess.supervise`), and a call whose hooks' `when` all say no without Starlark
(`sources.markdown.when`) never imports it.
"""

from __future__ import annotations

import _thread  # `threading`'s own lock and thread-local types, without importing it
import time

from agenthooks._lean import jsontext
from agenthooks.kinds.inprocess.frozen import raw, thaw
from agenthooks.model.decision import Decision
from agenthooks.model.events import MARKDOWN_TOOL_WORDS
from agenthooks.model.payload import tool_args, with_args

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any, Protocol

    from agenthooks.kinds import starlark as kind
    from agenthooks.kinds.inprocess.context import Context
    from agenthooks.model.handlers import Diagnostic
    from agenthooks.sources.markdown.files import MarkdownFile
    from agenthooks.sources.markdown.frontmatter import Frontmatter

    class Registry(Protocol):
        """What Markdown hooks register into (`api.Hooks`, which loads them through
        `sources.load`): named by what it does, so that this module imports no registry."""

        def on(self, event: str, fn: Callable[..., Any], *, kind: str = ...,
               when: Callable[..., Any] | None = ..., priority: int = ...,
               name: str | None = ..., timeout: float = ..., on_error: str = ...
               ) -> Callable[..., Any]: ...

_STARLARK_TYPES = {str: "string", int: "int", float: "float", bool: "bool", list: "list",
                   dict: "dict", type(None): "None"}


class MarkdownHook:
    """The callable registered for one file; thread-safe (the module is frozen once built)."""

    __slots__ = ("_compiled", "_error", "_lock", "_when_module", "front", "name", "path")
    # Its time limits count the CPU time of the thread running it (`kinds.inprocess.call.call_hook`,
    # `script.deadline_check`): Starlark only computes, and a busy machine's waits are not its.
    limit_clock = staticmethod(time.thread_time)

    def __init__(self, name: str, path: str, front: Frontmatter) -> None:
        self.name = name
        self.path = path
        self.front = front
        self._compiled: kind.Compiled | None = None
        self._error: kind.CompileError | None = None
        self._when_module: Any = None
        self._lock = _thread.allocate_lock()

    def compiled(self) -> kind.Compiled:
        """The frozen module; a `CompileError` (the same one every call) if it does not build."""
        from agenthooks.kinds import starlark as kind

        found = self._compiled
        if found is not None:
            return found
        with self._lock:
            if self._compiled is None and self._error is None:
                try:
                    self._compiled = kind.Compiler(self.front, self.path).compile()
                except kind.CompileError as exc:
                    self._error = exc
            if self._error is not None:
                raise self._error
            assert self._compiled is not None
            return self._compiled

    # --- what the engine calls ---

    def when(self, ctx: Context) -> bool:
        from agenthooks.kinds import starlark as kind

        known = self.known_when(ctx)
        if known is not None:
            return known
        _, text = view(ctx, self.front.event)
        return bool(self._call(kind.WHEN_FUNCTION, "when", text, None))

    def known_when(self, ctx: Context) -> bool | None:
        """What `when` answers, when it is known without Starlark (`sources.markdown.when`): also
        asked by `kinds.inprocess.supervise`, which starts no process for a hook that does not
        apply."""
        test = self.front.when_test
        if test is None:
            return None
        from agenthooks.sources.markdown.when import answer

        return answer(test, self.front.event, view(ctx, self.front.event)[1])

    def __call__(self, ctx: Context) -> Any:
        """The decision; with what log() and metrics recorded when the engine takes them."""
        from agenthooks.kinds import starlark as kind

        records: list[dict[str, Any]] = []
        payload, text = view(ctx, self.front.event)
        value = self._call(kind.HANDLE_FUNCTION, "handle", text, records)
        decision = self.decision(value, payload, ctx)
        if records:
            from agenthooks.kinds.inprocess.call import Reported

            return Reported(decision, tuple(records))
        return decision

    def _call(self, function: str, what: str, payload: str,
              records: list[dict[str, Any]] | None) -> Any:
        from agenthooks.kinds import starlark as kind

        module = self._module_with(function)
        sl, _, _ = kind._engine()
        previous = getattr(kind._calls, "records", None)
        kind._calls.records = records if records is not None else []
        try:
            options = kind.deadline_check(self.front.timeout_ms)
            with kind.LentJson():
                return module.call_with(options, function, self.front.event, payload).value
        except sl.StarlarkError as exc:
            raise kind.StarlarkError(self._failure(what, str(exc))) from None
        except BaseException as exc:  # a panic inside starlark-rust, e.g. a huge allocation
            if isinstance(exc, (KeyboardInterrupt, SystemExit, GeneratorExit)):
                raise
            raise kind.StarlarkError(f"{what} failed inside Starlark: {exc}") from None
        finally:
            kind._calls.records = previous

    def _module_with(self, function: str) -> Any:
        """The frozen module that holds `function`: the script's, or for an analysed `when`
        (`sources.markdown.when`) whose test left the answer to Starlark, the `when` alone."""
        from agenthooks.kinds import starlark as kind

        compiled = self.compiled()
        if function != kind.WHEN_FUNCTION or compiled.has_when:
            return compiled.module
        with self._lock:
            if self._when_module is None:
                self._when_module = kind.Compiler(self.front, self.path).when_only()
            return self._when_module

    def _failure(self, what: str, text: str) -> str:
        from agenthooks.kinds import starlark as kind

        message = kind.message_of(text)
        if message == kind._CANCELLED:
            message = f"timed out after {self.front.timeout_ms} ms (timeout_ms)"
        found = kind.where(text)
        if found is None:
            return f"{what}: {message}"
        compiler = kind.Compiler(self.front, self.path)
        line, column = compiler.place(*found)
        return f"{what}: {message} at {self.path}:{line}:{column}"

    # --- the value handle returned, as a decision ---

    def decision(self, value: Any, payload: dict[str, Any], ctx: Context) -> Decision | None:
        from agenthooks.kinds import starlark as kind

        if value is None:
            return None
        if not isinstance(value, dict) or not isinstance(value.get("action"), str):
            raise kind.StarlarkError(
                f"handle returned {_type(value)}, not allow(), block(reason), "
                "modify(payload) or None"
            )
        action = value["action"]
        if action == "allow":
            return Decision.allow()
        if action == "block":
            reason = value.get("reason")
            text = reason if isinstance(reason, str) else "" if reason is None else str(reason)
            return Decision.deny(f'blocked by hook "{self.name}": {text or "no reason given"}')
        if action == "modify":
            return self._modified(value.get("payload"), payload, ctx)
        raise kind.StarlarkError(
            f"handle returned action {action!r}; the actions are allow, block and modify"
        )

    def _modified(self, given: Any, payload: dict[str, Any], ctx: Context) -> Decision | None:
        """The keys given replace those keys; only new arguments can be passed on."""
        from agenthooks.kinds import starlark as kind

        if not isinstance(given, dict):
            raise kind.StarlarkError(f"modify() takes a dict, not {_type(given)}")
        changed = sorted(k for k, v in given.items() if k != "args" and payload.get(k) != v)
        if changed:
            raise kind.StarlarkError(
                "modify() can only rewrite payload[\"args\"] (the tool arguments); it also "
                f"changed {', '.join(repr(k) for k in changed)}"
            )
        if "args" not in given or given["args"] == payload.get("args"):
            return None
        args = given["args"]
        if not isinstance(args, dict):
            raise kind.StarlarkError(f"modify() needs payload[\"args\"] to be a dict, "
                                     f"not {_type(args)}")
        return Decision.modify(args)


_views = _thread._local()


def view(ctx: Context, word: str) -> tuple[dict[str, Any], str]:
    """The payload as the script sees it, and as the JSON text that crosses into Starlark
    (so the script gets its own copy): `name` and `args` added on tool events.

    Made once per call and arguments: `when` and then `handle` of every Markdown hook of the
    event share it until a modify changes the arguments.
    """
    key = (ctx, ctx.tool_args, word in MARKDOWN_TOOL_WORDS)
    found = getattr(_views, "last", None)
    if found is not None and all(a is b for a, b in zip(found[0], key, strict=True)):
        shared: tuple[dict[str, Any], str] = found[1]
        return shared
    payload = _raw(ctx.payload)
    if key[2]:
        args = _raw(ctx.tool_args)
        if args != tool_args(payload):  # rewritten by an earlier hook: show it in its shape
            payload = with_args(payload, args)
        payload = {**payload, "name": ctx.tool_name, "args": args}
    made = (payload, jsontext.dumps(payload, ensure_ascii=False, allow_nan=False))
    _views.last = (key, made)
    return made


def _raw(value: Any) -> Any:
    """The dict behind a read-only view, never changed here (json copies it for Starlark)."""
    data = raw(value)
    return data if isinstance(data, dict) else thaw(value)


def _type(value: Any) -> str:
    return _STARLARK_TYPES.get(type(value), type(value).__name__)


def register_markdown(hooks: Registry, files: Sequence[MarkdownFile]) -> None:
    """Register every good file on its event, as a transform hook named by its stem.

    Files register in file-name order (stable across workspaces), so equal priorities run in
    file-name order: the engine breaks ties by registration. `custom.<name>` events register
    as they are: they run through the Python API only.
    """
    import os

    from agenthooks.sources.markdown.events import engine_event

    for md in sorted(files, key=lambda f: os.path.basename(f.source.file)):
        front = md.front
        if front is None or not md.ok:
            continue
        event = engine_event(front.event) or front.event
        hook = MarkdownHook(md.name, md.source.path, front)
        # The engine's deadline is a backstop: the script's own (per call, cancelling) is
        # timeout_ms each for its top level (compiled on first use), `when` and `handle`.
        # Under `agenthooks run` the hook's process is killed at it (`kinds.inprocess.supervise`),
        # which bounds one builtin or `re` call that never returns to Starlark.
        # Its slack leaves room for a machine that is busy: the kill is for a call that would
        # otherwise run for minutes, and a wall clock counts the time a process waits for a CPU.
        backstop = 3 * front.timeout_ms / 1000.0 + 1.0
        hooks.on(
            event, hook, kind="transform", when=hook.when if front.when is not None else None,
            priority=front.priority, name=md.name, timeout=backstop,
            on_error="allow" if front.on_error == "allow" else "deny",
        )


def script_findings(md: MarkdownFile) -> list[Diagnostic]:
    """What compiling a Markdown hook's Starlark finds, as `validate` reports it: none for a
    file whose frontmatter did not read (its findings say why)."""
    if md.front is None:
        return []
    from agenthooks.kinds.starlark import CompileError, Compiler
    from agenthooks.sources.markdown.frontmatter import diagnostic

    try:
        Compiler(md.front, md.source.path).compile()
    except CompileError as exc:
        return [diagnostic(md.source, p.rule, p.message, p.line, p.column) for p in exc.problems]
    return []
