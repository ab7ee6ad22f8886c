"""Claude Code and Gemini CLI handlers as `list` shows them, and each host's own selection.

`select` is the host's rule `agenthooks.plan.select` applies to its files: the handlers of one
event selected by that host's matcher semantics (`sources.dialects.matching`) against the value the
event's matcher is matched against (the tool name, or a SessionStart source, a PreCompact
trigger...), then the host's dedup: Claude Code runs identical handlers (type, command or
url, args) once; Gemini CLI runs one handler per `name:command`.
"""

from __future__ import annotations

from agenthooks.escape import printable
from agenthooks.model.handlers import Handler
from agenthooks.sources.dialects import dialect_spec, matching

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence


def dedup_key(handler: Handler) -> tuple[object, ...]:
    """The identity under which a host runs a handler once."""
    if dialect_spec(handler.dialect).dedup_by_name:
        return (handler.dialect, handler.event, handler.name or "", handler.command)
    return (handler.dialect, handler.event, handler.kind, handler.command, handler.args)


def select(handlers: Sequence[Handler], event: str, value: str | None) -> list[Handler]:
    """The enabled handlers of one host's event that run for a value, deduplicated."""
    chosen: list[Handler] = []
    seen: set[tuple[object, ...]] = set()
    for handler in handlers:
        if handler.event != event or not handler.enabled:
            continue
        if not matching.matches(handler.dialect, handler.matcher, event, value):
            continue
        key = dedup_key(handler)
        if key not in seen:
            seen.add(key)
            chosen.append(handler)
    return chosen


def _timeout_text(seconds: float) -> str:
    return f"{seconds:g}s"


def matcher_text(handler: Handler) -> str:
    spec = dialect_spec(handler.dialect)
    if spec.events.get(handler.event) is None:
        if handler.matcher in (None, "", "*"):
            return "-"
        # Most hosts ignore a matcher where the event has no value; Kimi Code tests it
        # against "", which may select nothing.
        never = matching.selection(handler.dialect, handler.matcher, handler.event)
        return f"{handler.matcher} ({'never runs' if never.form == 'never' else 'ignored'})"
    if handler.matcher is None:
        return "(all)"
    return handler.matcher if handler.matcher else '""'


def dialect_cells(handler: Handler) -> tuple[str, ...]:
    command = handler.command if handler.kind == "command" else f"{handler.kind}: " \
        f"{handler.command}"
    cells = (handler.source.path, handler.hook or "-", handler.event, matcher_text(handler),
             command, _timeout_text(handler.timeout), "yes" if handler.enabled else "no")
    return tuple(printable(cell) for cell in cells)


def dialect_json(handler: Handler) -> dict[str, object]:
    chosen = matching.simplify(matching.selection(handler.dialect, handler.matcher,
                                                  handler.event))
    return {
        "source": handler.source.path,
        "hook": handler.hook,
        "event": handler.event,
        "matcher": handler.matcher,
        "command": handler.command,
        "timeout": handler.timeout,
        "enabled": handler.enabled,
        "type": handler.kind,
        "dialect": handler.dialect,
        "name": handler.name,
        "sequential": handler.sequential,
        "matches": matching.describe(chosen),
    }
