"""The rules of Windsurf's hooks.json (`sources.dialects.windsurf`): one walk over a parsed
document.

What Windsurf documents (docs.windsurf.com/windsurf/cascade/hooks), as findings:

    hooks              an object of its snake_case events, each a flat list of handlers (a
                       Claude Code matcher group `{"matcher", "hooks": [...]}` is not one; an
                       event name at the top level, outside `hooks`, is never read)
    handler            `command` (a shell command), `powershell` (the command on Windows),
                       `show_output` true or false (not shown on pre_user_prompt and
                       post_cascade_response), `working_directory`; nothing else: no
                       `matcher`, no `type`, no `timeout`
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence

from agenthooks.model.handlers import Handler, Source, escape, json_kind
from agenthooks.sources.dialects.check import DialectChecker, freeze, runs_as
from agenthooks.sources.dialects.windsurf import EVENTS, NO_OUTPUT_EVENTS, WINDSURF

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

TOP_KEYS = ("hooks",)
_KEYS = WINDSURF.types["command"].keys


class WindsurfChecker(DialectChecker):
    """Walks a Windsurf hooks.json."""

    items = "handlers"

    def document(self, doc: Any) -> None:
        if not isinstance(doc, dict):
            self.add("settings-type", f'a Windsurf hooks.json must be an object {{"hooks": '
                                      f"{{...}}}}, not {json_kind(doc)}", "")
            return
        for key in doc:
            if key in EVENTS:
                self.add("event-outside-hooks", f"{key} is outside `hooks`: Windsurf reads events "
                                        f'only under "hooks", so these handlers never run; '
                                        f'move it into "hooks"', "/" + escape(key),
                         "key")
        self.unknown_keys({k: v for k, v in doc.items() if k not in EVENTS}, TOP_KEYS,
                          TOP_KEYS, "a Windsurf hooks.json", "")
        self.events(doc.get("hooks", {}), self.windsurf_handler)

    def windsurf_handler(self, event: str, handler: Any, pointer: str) -> None:
        if not self.handler_object(event, handler, pointer, "Windsurf", matcher=False):
            return
        errors_before = self.errors
        self.unknown_keys(handler, _KEYS, _KEYS, "a Windsurf handler", pointer)
        text = self.required("command", "command", handler, pointer)
        self.option_values(handler, _KEYS, pointer)
        if "show_output" in handler and event in NO_OUTPUT_EVENTS and self.thorough:
            self.add("option-ignored", f"`show_output` does not apply to {event} (Windsurf's "
                                       "docs): it changes nothing here",
                     pointer + "/show_output", "key")
        if text:
            self.command_text(text, pointer + "/command")
            if self.check_scripts:
                self.dialect_script(text, False, pointer + "/command")
        if self.errors == errors_before:
            self.handlers.append(self.record(event, handler, text, pointer))

    def record(self, event: str, handler: dict[str, Any], text: str, pointer: str) -> Handler:
        """The Handler of a valid handler object, run in its `working_directory` when it
        gives one; its other keys travel in `options`."""
        options = tuple(sorted((key, freeze(value)) for key, value in handler.items()
                               if key != "command"))
        folder = handler.get("working_directory")
        if isinstance(folder, str) and folder:
            text = f"cd -- {shlex.quote(folder)} && {text}"
        return Handler(
            source=self.source, hook="", event=event, matcher=None, command=text,
            timeout=WINDSURF.default_timeout_for(event), kind="command", enabled=True,
            pointer=pointer, dialect=WINDSURF.name, options=options,
            **runs_as(WINDSURF, event, {**handler, "type": "command"}),
        )


def read(doc: Any, source: Source, *, thorough: bool) -> DialectChecker:
    """Every finding of a Windsurf hooks.json, and the handlers Windsurf would register."""
    checker = WindsurfChecker(source, WINDSURF, thorough=thorough)
    checker.document(doc)
    return checker


def document_of(entries: Sequence[Any]) -> dict[str, Any]:
    """A Windsurf hooks.json of `convert`'s entries (`features.convert.Entry`): each event's
    handlers in a flat list; a matcher has no place there (`convert` reports it)."""
    hooks: dict[str, list[dict[str, Any]]] = {}
    for entry in entries:
        handler = {key: value for key, value in dict(entry.handler).items()
                   if key in _KEYS}
        hooks.setdefault(entry.event, []).append(handler)
    return {"hooks": hooks}
