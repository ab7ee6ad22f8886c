"""In-process hooks as records: what a registration says, checked once, matched per call.

A matcher is the AND of the event, `tool` (a regex over the tool name, anchored at both ends
as in hooks.json), `args` (argument name → fnmatch glob over the value: strings as they are,
other values as JSON; a missing argument never matches) and `when` (a predicate on the
context, sync or async; checked by the python kind, where its errors are failures).
"""

from __future__ import annotations

from _collections_abc import Callable, Mapping  # collections.abc's, unimported

from agenthooks._lean.records import NamedTuple
from agenthooks.model.events import TOOL_CALL_EVENTS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

PHASES: tuple[str, ...] = ("decide", "transform", "inspect")
_CO_COROUTINE = 0x80


class PythonHook(NamedTuple):
    """One function registered on one event."""

    name: str
    event: str
    phase: str  # decide | transform | inspect
    fn: Callable[..., Any]
    tool: str | None  # the pattern as given
    tool_match: Callable[[str], bool] | None
    args: tuple[tuple[str, str], ...]
    when: Callable[..., Any] | None
    priority: int
    order: int  # registration order, the tie-break after priority
    timeout: float
    is_async: bool
    # A failure on PreToolUse is a warning instead of a deny (Markdown hooks' `on_error:
    # allow`); `--fail-closed` overrides it: the operator's switch beats the author's.
    fail_open: bool = False


class ShellHook(NamedTuple):
    """A command registered from Python; placeholders are filled per call (engine.template)."""

    name: str
    event: str
    command: str
    tool: str | None
    tool_match: Callable[[str], bool] | None
    args: tuple[tuple[str, str], ...]
    timeout: float
    background: bool
    cwd: str
    order: int


def is_async(fn: Callable[..., Any]) -> bool:
    """Whether calling `fn` gives a coroutine, without importing inspect or asyncio."""
    code = getattr(fn, "__code__", None)
    if code is None:
        code = getattr(type(fn).__call__, "__code__", None)
    return bool(code is not None and code.co_flags & _CO_COROUTINE)


def tool_matcher(event: str, tool: str | None) -> Callable[[str], bool] | None:
    """The compiled tool pattern, or None for "every tool"; ValueError for a bad regex."""
    if tool is None:
        return None
    if event not in TOOL_CALL_EVENTS:
        raise ValueError(f"tool={tool!r} is given, but {event} is not a tool event")
    import re

    from agenthooks.model.matcher import compile_matcher

    try:
        return compile_matcher(tool)
    except re.error as exc:
        raise ValueError(f"tool pattern {tool!r} is not a valid regex: {exc}") from None


def arg_globs(args: Mapping[str, str] | None) -> tuple[tuple[str, str], ...]:
    if not args:
        return ()
    for key, glob in args.items():
        if not isinstance(key, str) or not isinstance(glob, str):
            raise ValueError(f"args must map argument names to glob strings: {key!r}: {glob!r}")
    return tuple(args.items())


def _as_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    from agenthooks._lean import jsontext
    from agenthooks.model.decision import plain

    return jsontext.dumps(plain(value), ensure_ascii=False, sort_keys=True)


def args_match(globs: tuple[tuple[str, str], ...], tool_args: Mapping[str, Any]) -> bool:
    """Whether every argument glob matches its argument (a missing argument never does)."""
    if not globs:
        return True
    from fnmatch import fnmatchcase

    for key, glob in globs:
        if key not in tool_args or not fnmatchcase(_as_text(tool_args[key]), glob):
            return False
    return True


def selects_tool(hook: PythonHook | ShellHook, names: str | tuple[str, ...] | None) -> bool:
    """The tool part of the matcher: no pattern matches all; a pattern needs a tool name.

    An in-process hook is written in no one host's words, so `names` may hold the tool's
    name in every host's (`api.tool_names`): `tool="run_command"` also selects `Bash`.
    """
    if hook.tool_match is None:
        return True
    if isinstance(names, str):
        return hook.tool_match(names)
    return names is not None and any(hook.tool_match(name) for name in names)
