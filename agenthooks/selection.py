"""Which handlers run for an event: enabled, of that event, with a matcher that selects the tool.

Order is config order (files in discovery order, then hook names, groups and handlers in file
order), and identical handlers (same command, working directory and timeout) run once, as
their first occurrence, as Claude Code does: `AGENTHOOKS_HOOK_NAME` then names the first hook.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from agenthooks.config.model import Handler, HookFile
from agenthooks.events import is_tool_event
from agenthooks.matcher import handler_matches


def event_handlers(files: Iterable[HookFile], event: str) -> list[Handler]:
    """The enabled handlers of an event in config order, before matching and de-duplication."""
    return [
        handler
        for hook_file in files
        for handler in hook_file.handlers
        if handler.event == event and handler.enabled
    ]


def select(handlers: Sequence[Handler], event: str, tool: str | None) -> list[Handler]:
    """The handlers of `event` (already filtered by `event_handlers`) that run for `tool`."""
    tool_event = is_tool_event(event)
    chosen: list[Handler] = []
    seen: set[tuple[str, str, float]] = set()
    for handler in handlers:
        if not handler_matches(handler.matcher, tool_event, tool):
            continue
        key = (handler.command, handler.source.cwd, handler.timeout)
        if key in seen:
            continue
        seen.add(key)
        chosen.append(handler)
    return chosen


class Selector:
    """Selection for many events over the same files, remembered per (event, tool).

    A harness that calls the API per tool call pays for matching once per distinct tool.
    """

    def __init__(self, files: Sequence[HookFile]) -> None:
        self.files = tuple(files)
        self._by_event: dict[str, list[Handler]] = {}
        self._memo: dict[tuple[str, str | None], tuple[Handler, ...]] = {}

    def __call__(self, event: str, tool: str | None) -> tuple[Handler, ...]:
        key = (event, tool)
        found = self._memo.get(key)
        if found is None:
            handlers = self._by_event.get(event)
            if handlers is None:
                handlers = self._by_event[event] = event_handlers(self.files, event)
            found = self._memo[key] = tuple(select(handlers, event, tool))
        return found
