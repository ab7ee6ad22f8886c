"""What `list` shows of Claude Code and Gemini CLI files, with each host's own selection.

`--event` takes any dialect's word; each host's handlers of that row are selected by that
host's matcher semantics (`dialects.matching`) against `--tool`, which stands for the value
the event's matcher is matched against (the tool name, or a SessionStart source, a
PreCompact trigger...). Then each host's dedup: Claude Code runs identical handlers (type,
command or url, args) once; Gemini CLI runs one handler per `name:command`.
"""

from __future__ import annotations

from collections.abc import Sequence

from agenthooks.config.model import Handler, HookFile, Source
from agenthooks.dialects import matching
from agenthooks.dialects.check import DIALECT_SPECS
from agenthooks.dialects.events import DIALECTS, EventRow, row_of, word_of
from agenthooks.report.escape import printable

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NamedTuple
else:
    from agenthooks._records import NamedTuple


def event_row(word: str) -> EventRow | None:
    """The row of any dialect's event name, or of an engine word (`tool.pre`)."""
    from agenthooks.dialects.events import EVENT_TABLE

    for row in EVENT_TABLE:
        if word in (row.word, row.engine):
            return row
    for dialect in DIALECTS:
        found = row_of(dialect, word)
        if found is not None:
            return found
    return None


def dedup_key(handler: Handler) -> tuple[object, ...]:
    """The identity under which a host runs a handler once."""
    if handler.dialect == "gemini":
        return ("gemini", handler.event, handler.name or "", handler.command)
    args = dict(handler.options).get("args")
    return ("claude", handler.event, handler.kind, handler.command, args)


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


def for_some_value(handlers: Sequence[Handler], event: str) -> list[Handler]:
    """The enabled handlers of an event whose matcher can select something."""
    return [handler for handler in handlers if handler.event == event and handler.enabled
            and matching.selection(handler.dialect, handler.matcher, event).form != "never"]


class DialectListing(NamedTuple):
    files: list[HookFile]
    handlers: list[Handler]
    uses_value: bool  # whether --tool selects something on the event asked for

    @property
    def broken(self) -> list[HookFile]:
        return [hook_file for hook_file in self.files if not hook_file.ok]

    @classmethod
    def load(cls, sources: Sequence[Source], row: EventRow | None, asked: str | None,
             tool: str | None) -> DialectListing:
        if not sources:
            return cls([], [], False)
        from agenthooks.dialects.load import load_dialect_files

        files = load_dialect_files(sources)
        every = [handler for hook_file in files for handler in hook_file.handlers]
        if asked is None and tool is None:
            return cls(files, every, False)
        chosen: set[int] = set()
        uses_value = False
        for dialect, spec in DIALECT_SPECS.items():
            mine = [handler for handler in every if handler.dialect == dialect]
            if row is not None:
                events = [word_of(dialect, row)]
            else:  # --tool alone: the host's tool events
                events = [e for e, field in spec.events.items() if field == "tool_name"]
            for event in events:
                if event is None:
                    continue
                has_value = spec.events.get(event) is not None
                uses_value = uses_value or has_value
                if tool is None and has_value:
                    picked = for_some_value(mine, event)
                else:
                    picked = select(mine, event, tool if has_value else None)
                chosen.update(id(handler) for handler in picked)
        return cls(files, [h for h in every if id(h) in chosen], uses_value)


def _timeout_text(seconds: float) -> str:
    return f"{seconds:g}s"


def matcher_text(handler: Handler) -> str:
    spec = DIALECT_SPECS[handler.dialect]
    if spec.events.get(handler.event) is None:
        return "-" if handler.matcher in (None, "", "*") else f"{handler.matcher} (ignored)"
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
