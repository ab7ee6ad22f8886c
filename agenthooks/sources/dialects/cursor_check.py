"""The rules of Cursor's hooks.json (`sources.dialects.cursor`): one walk over a parsed document.

What Cursor documents (cursor.com/docs/hooks; mirror mehmetbaykar/cursor-docs-skill@1cc1c99
skills/cursor-docs/references/hooks.md) and what its users ran into, as findings:

    version            `version` missing: the file runs, but Cursor's Customize view does not
                       show it (vectorize-io/hindsight PR #4531); not 1: a schema Cursor does
                       not document
    hooks              an object of events, each a flat list of handlers (a Claude Code
                       matcher group `{"matcher", "hooks": [...]}` is not one)
    handler            `type` command (default) or prompt; `command` / `prompt`; `timeout` in
                       seconds; `matcher` a string, a regex searched in the event's value;
                       `loop_limit` (stop, subagentStop) a whole number or null; `failClosed`
                       (events that can block) true or false
    Claude Code files  Cursor also runs `.claude/settings.json` hooks (its third-party import
                       setting): a project with both runs both, in Cursor
"""

from __future__ import annotations

import json
import os

from agenthooks.model.handlers import Handler, Source, json_kind
from agenthooks.sources.dialects.check import DialectChecker, freeze, has_hooks, runs_as
from agenthooks.sources.dialects.cursor import (
    BLOCKING_EVENTS,
    CURSOR,
    EVENTS,
    LOOP_EVENTS,
    VERSION,
    selection,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.sources.dialects.spec import HandlerType

TOP_KEYS = ("version", "hooks")
# The Claude Code files Cursor reads too (cursor.com/docs/reference/third-party-hooks,
# mirror @58b218a: "Include Third-Party Plugins, Skills, and Other Configs", on by default).
CLAUDE_FILES = (os.path.join(".claude", "settings.local.json"),
                os.path.join(".claude", "settings.json"))


class CursorChecker(DialectChecker):
    """Walks a Cursor hooks.json."""

    items = "handlers"

    def document(self, doc: Any) -> None:
        if not isinstance(doc, dict):
            self.add("settings-type", f"a Cursor hooks.json must be an object "
                                      f'{{"version": 1, "hooks": {{...}}}}, not {json_kind(doc)}',
                     "")
            return
        self.unknown_keys(doc, TOP_KEYS, TOP_KEYS, "a Cursor hooks.json", "")
        self.version(doc)
        hooks = doc.get("hooks", {})
        self.events(hooks, self.cursor_handler)
        if isinstance(hooks, dict) and self.thorough:
            self.claude_files_too()

    def version(self, doc: dict[str, Any]) -> None:
        self.version_given(doc, VERSION, 'no "version": Cursor runs this file, but its '
                                         "Customize view does not list it; write "
                                         f'"version": {VERSION}',
                           lambda value: f'"version" must be {VERSION}, the one schema '
                                         f"version Cursor documents, not {json.dumps(value)}")

    # --- one handler ---------------------------------------------------------------------------

    def cursor_handler(self, event: str, handler: Any, pointer: str) -> None:
        if not self.handler_object(event, handler, pointer, "Cursor"):
            return
        errors_before = self.errors
        found = self.flat_type(handler, pointer)
        if found is None:
            return
        kind, spec = found
        text = self.required(kind, spec.field or "command", handler, pointer)
        self.option_values(handler, spec.keys, pointer)
        matcher = self.cursor_matcher(event, handler, pointer)
        timeout = self.cursor_timeout(event, handler, pointer)
        self.loop_limit(event, handler, pointer)
        self.fail_closed(event, handler, pointer)
        if kind == "command" and text:
            self.command_text(text, pointer + "/command")
            if self.check_scripts:
                self.dialect_script(text, False, pointer + "/command")
        if not spec.runs_offline and self.thorough:
            self.add("handler-host-only", f"a {kind} handler needs Cursor itself: agenthooks "
                                          "lists it but skips it when it runs hooks",
                     pointer + ("/type" if "type" in handler else ""))
        if self.errors == errors_before:
            self.handlers.append(self.record(event, matcher, handler, spec, text, timeout,
                                             pointer))

    def cursor_matcher(self, event: str, handler: dict[str, Any], pointer: str) -> str | None:
        if "matcher" not in handler:
            return None
        matcher = handler["matcher"]
        if not isinstance(matcher, str):
            return None  # option-type says so
        where = pointer + "/matcher"
        chosen = selection(matcher, event)
        if EVENTS[event] is None and matcher not in ("", "*"):
            if self.thorough:
                self.add("flat-matcher", f"Cursor's docs give {event} no matcher target: "
                                         f"{matcher!r} is ignored and these handlers run on "
                                         f"every {event}", where, "key")
        elif chosen.form == "never":
            from agenthooks.sources.dialects.matching import regex_error

            self.add("matcher-regex", f"matcher {matcher!r} is not a valid regex "
                                      f"({regex_error(matcher)}): agenthooks never runs this "
                                      "handler, and what Cursor does with it is not "
                                      "documented", where)
        else:
            self.host_tool_words("cursor", event, matcher, where)
        return matcher

    def cursor_timeout(self, event: str, handler: dict[str, Any], pointer: str) -> float:
        return self.seconds(handler, "timeout", CURSOR.default_timeout_for(event), pointer,
                            named="timeout", counted="Cursor (it counts seconds, Gemini CLI "
                                                     "milliseconds)")

    def loop_limit(self, event: str, handler: dict[str, Any], pointer: str) -> None:
        if "loop_limit" not in handler:
            return
        value = handler["loop_limit"]
        where = pointer + "/loop_limit"
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or value < 0):
            self.add("option-type", f"`loop_limit` must be a whole number or null, not "
                                    f"{json.dumps(value)}", where)
        elif event not in LOOP_EVENTS and self.thorough:
            self.add("option-ignored", f"`loop_limit` caps the follow-ups of stop and "
                                       f"subagentStop: Cursor ignores it on {event}", where,
                     "key")

    def fail_closed(self, event: str, handler: dict[str, Any], pointer: str) -> None:
        if handler.get("failClosed") is True and event not in BLOCKING_EVENTS \
                and self.thorough:
            self.add("option-ignored", f"`failClosed` blocks the action when the hook fails, "
                                       f"and {event} has no action to block: it changes "
                                       "nothing here", pointer + "/failClosed", "key")

    def record(self, event: str, matcher: str | None, handler: dict[str, Any],
               spec: HandlerType, text: str, timeout: float, pointer: str) -> Handler:
        """The Handler a valid handler object stands for; its `failClosed` and `loop_limit`
        travel in `options`, which the Cursor protocol reads."""
        options = tuple(sorted((key, freeze(value)) for key, value in handler.items()
                               if key not in ("type", "timeout", "matcher", spec.field)))
        return Handler(
            source=self.source, hook="", event=event, matcher=matcher, command=text,
            timeout=timeout, kind=handler.get("type", "command"), enabled=True,
            pointer=pointer, dialect=CURSOR.name, options=options,
            **runs_as(CURSOR, event, handler),
        )

    # --- across files ---------------------------------------------------------------------------

    def claude_files_too(self) -> None:
        """A project whose Claude Code settings have hooks: Cursor runs those too."""
        if self.source.level != "workspace":
            return
        found = [rel for rel in CLAUDE_FILES
                 if has_hooks(os.path.join(self.source.workspace, rel))]
        if found:
            self.add("cursor-reads-claude", f"Cursor also runs the hooks of {found[0]} (its "
                                            "third-party import, on by default): each gate "
                                            "written in both files runs twice in Cursor, "
                                            "and an `agenthooks run` entry in both runs "
                                            "agenthooks twice; keep the hooks in one of them, "
                                            "or turn off Cursor's \"Include Third-Party "
                                            'Plugins, Skills, and Other Configs"', "", "value")


def read(doc: Any, source: Source, *, thorough: bool) -> DialectChecker:
    """Every finding of a Cursor hooks.json, and the handlers Cursor would register."""
    checker = CursorChecker(source, CURSOR, thorough=thorough)
    checker.document(doc)
    return checker
