"""The rules of rulesync's `.rulesync/hooks.jsonc` (`sources.dialects.rulesync`): one walk over a
parsed document, and `convert`'s writer of one.

What rulesync does with the file (dyoshikawa/rulesync@cfebcd7 src/types/hooks.ts,
src/features/hooks/tool-hooks-converter.ts, docs/reference/file-formats.md), as findings:

    text        JSON with comments and trailing commas
    version     1 (`version` is optional)
    hooks       canonical events only ("unknown hook event name(s)": the file is rejected),
                each a flat list of hook definitions
    <tool>      `claudecode`, `cursor`, `copilotcli`...: `{"hooks": {...}}` for that tool
                alone; for the events it names it replaces the shared list
                (`{...shared, ...override}`); `copilotcli` falls back to `copilot`
    definition  `command` (command hooks), `type`, `matcher` (a regex over the tool name),
                `timeout` in seconds, and the fields each tool takes (`failClosed`, `async`,
                `args`, `if`, `env`...)
    legacy      `.rulesync/hooks.json` beside a `.rulesync/hooks.jsonc` is not read

How agenthooks runs it: the shared handlers under any host (and offline); a tool's block only
when that tool's host calls (`Handler.only_under`), with that host's payload and answers
(`Handler.speaks`), its events' shared handlers then left out there (`Handler.not_under`).
"""

from __future__ import annotations

import os

from agenthooks.model.handlers import Diagnostic, Handler, Source, escape, json_kind
from agenthooks.sources.dialects.check import DialectChecker, freeze, runs_as
from agenthooks.sources.dialects.rulesync import (
    FALLBACK,
    OTHER_TOOLS,
    RULESYNC,
    TARGETS,
    VERSION,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

TOP_KEYS = ("version", "hooks", *TARGETS, *OTHER_TOOLS)
JSONC = "hooks.jsonc"


class RulesyncChecker(DialectChecker):
    """Walks a `.rulesync/hooks.jsonc`."""

    items = "hook definitions"

    def __init__(self, source: Source, *, thorough: bool) -> None:
        super().__init__(source, RULESYNC, thorough=thorough)
        self.replaced: dict[str, set[str]] = {}  # event -> hosts whose block replaces it

    def document(self, doc: Any) -> None:
        if not isinstance(doc, dict):
            self.add("settings-type", f"a rulesync hooks file must be an object "
                                      f'{{"version": 1, "hooks": {{...}}}}, not '
                                      f"{json_kind(doc)}", "")
            return
        if self.shadowed():
            return
        self.unknown_keys(doc, TOP_KEYS, TOP_KEYS, "a rulesync hooks file", "")
        if "version" in doc:
            self.version_given(doc, VERSION, "", lambda value: f'"version" must be {VERSION}, '
                                                               "the one schema version rulesync "
                                                               f"has, not {value!r}")
        for tool, host, hooks in self.blocks(doc):
            self.walk(hooks, f"/{escape(tool)}/hooks", host)
        if "hooks" not in doc:
            self.add("settings-type", 'a rulesync hooks file needs `hooks`, the shared '
                                      "canonical events (rulesync rejects a file without it)",
                     "")
        else:
            self.walk(doc["hooks"], "/hooks", None)
        self.handlers = [h._replace(not_under=tuple(sorted(self.replaced.get(h.event, ()))))
                         if h.only_under is None else h for h in self.handlers]

    def shadowed(self) -> bool:
        """A legacy `.rulesync/hooks.json` beside a `.rulesync/hooks.jsonc`: rulesync reads
        the JSONC file alone, so this one runs nothing."""
        folder = os.path.dirname(self.source.file)
        if os.path.basename(self.source.file) == JSONC or not os.path.isfile(
                os.path.join(folder, JSONC)):
            return False
        self.add("rulesync-shadowed", "rulesync reads .rulesync/hooks.jsonc, which is beside "
                                      "this file, and ignores this one: nothing here runs; "
                                      "move its hooks into hooks.jsonc and delete it", "",
                 "value")
        return True

    def blocks(self, doc: dict[str, Any]) -> list[tuple[str, str, Any]]:
        """(tool, host, its `hooks`) of each tool block agenthooks answers for, in the order
        rulesync lets them win; the blocks of other tools said once each."""
        found: list[tuple[str, str, Any]] = []
        for tool in (*FALLBACK.values(), *TARGETS):
            block = doc.get(tool)
            if block is None:
                continue
            if not isinstance(block, dict):
                self.add("settings-type", f"`{tool}` must be an object {{\"hooks\": {{...}}}}, "
                                          f"not {json_kind(block)}", f"/{escape(tool)}")
                continue
            host = TARGETS.get(tool) or next(
                (TARGETS[cli] for cli, base in FALLBACK.items() if base == tool), tool)
            if "hooks" in block:
                found.append((tool, host, block["hooks"]))
        for tool in sorted(OTHER_TOOLS - set(FALLBACK.values())):
            if isinstance(doc.get(tool), dict) and doc[tool].get("hooks") and self.thorough:
                self.add("rulesync-tool-unknown", f"rulesync writes `{tool}.hooks` for "
                                                  f"{tool} alone, a tool agenthooks does not "
                                                  "answer for: listed here, never run",
                         f"/{escape(tool)}", "key")
        return found

    def walk(self, hooks: Any, at: str, host: str | None) -> None:
        """One `hooks` object (the shared one at `/hooks`, a tool's at `/<tool>/hooks`): each
        known event's definitions; an unknown event is an error, as rulesync rejects it."""
        self.events(hooks, lambda event, item, pointer: self.hook(event, item, pointer, host),
                    at)

    # --- one hook definition -----------------------------------------------------------------

    def hook(self, event: str, item: Any, pointer: str, host: str | None) -> None:
        if not self.handler_object(event, item, pointer, "rulesync", "hook definition"):
            return
        errors_before = self.errors
        found = self.flat_type(item, pointer)
        if found is None:
            return
        kind, spec = found
        text = self.required(kind, spec.field, item, pointer) if spec.field else kind
        self.option_values(item, spec.keys, pointer)
        matcher = item.get("matcher") if isinstance(item.get("matcher"), str) else None
        if matcher is not None:
            self.rulesync_matcher(event, matcher, pointer + "/matcher")
        timeout = self.seconds(item, "timeout", RULESYNC.default_timeout_for(event), pointer,
                               named="timeout", counted="rulesync")
        if kind == "command" and text:
            self.command_text(text, pointer + "/command")
            if self.check_scripts:
                self.dialect_script(text, isinstance(item.get("args"), list),
                                    pointer + "/command")
        if not spec.runs_offline and self.thorough:
            self.add("handler-host-only", f"a {kind} handler needs the tool rulesync writes it "
                                          "for: agenthooks lists it but skips it when it runs "
                                          "hooks", pointer + ("/type" if "type" in item else ""))
        if self.errors == errors_before:
            self.handlers.append(self.record(event, matcher, item, text, timeout, pointer,
                                             host))

    def rulesync_matcher(self, event: str, matcher: str, pointer: str) -> None:
        from agenthooks.sources.dialects.matching import regex_error

        if RULESYNC.events.get(event) is None and matcher not in ("", "*"):
            if self.thorough:
                self.add("flat-matcher", f"{event} has no matcher target: {matcher!r} is "
                                         f"ignored and these hooks run on every {event}",
                         pointer, "key")
        elif matcher not in ("", "*") and regex_error(matcher) is not None:
            self.add("matcher-regex", f"matcher {matcher!r} is not a valid regex "
                                      f"({regex_error(matcher)}): agenthooks never runs this "
                                      "hook", pointer)
        elif RULESYNC.events.get(event) == "tool_name":
            self.host_tool_words("rulesync", event, matcher, pointer)

    def record(self, event: str, matcher: str | None, item: dict[str, Any], text: str,
               timeout: float, pointer: str, host: str | None) -> Handler:
        """The Handler of a valid definition; a tool block's runs for that tool's host alone,
        with its payload and answers, and replaces the shared hooks of its event there."""
        if host is not None:
            self.replaced.setdefault(event, set()).add(host)
        name = item.get("name") if isinstance(item.get("name"), str) else None
        options = tuple(sorted((key, freeze(value)) for key, value in item.items()
                               if key not in ("type", "timeout", "matcher", "command")))
        return Handler(
            source=self.source, hook=name or "", event=event, matcher=matcher, command=text,
            timeout=timeout, kind=item.get("type", "command"),
            enabled=item.get("enabled") is not False, pointer=pointer,
            dialect=RULESYNC.name, name=name, options=options,
            **runs_as(RULESYNC, event, {"type": "command", **item}),
            speaks=host, only_under=host,
        )


def read(doc: Any, source: Source, *, thorough: bool) -> DialectChecker:
    """Every finding of a rulesync hooks file, and the handlers it stands for."""
    checker = RulesyncChecker(source, thorough=thorough)
    checker.document(doc)
    return checker


def handler_variables(handler: Handler) -> dict[str, str]:
    """A command hook's `env` (rulesync forwards it to Qwen Code, Copilot CLI and Grok CLI,
    which merge it into the hook's environment), over every other variable."""
    env = dict(handler.options).get("env")
    if not isinstance(env, tuple):
        return {}
    return {str(key): str(value) for key, value in env if isinstance(value, str)}


# --- JSON with comments and trailing commas ----------------------------------------------------


def without_trailing_commas(text: str) -> str:
    """A comma before a closing `}` or `]` (past whitespace) replaced by a space; strings
    left alone, so every position stays where it was (comments already blanked)."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        char = text[i]
        if char == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            continue
        if char == ",":
            j = i + 1
            while j < n and text[j] in " \t\r\n":
                j += 1
            if j < n and text[j] in "}]":
                out[i] = " "
        i += 1
    return "".join(out)


def parse(source: Source, text: str) -> tuple[Any, Any, list[Diagnostic], str]:
    """rulesync's JSONC (jsonc-parser: comments and trailing commas), read as JSON once both
    are blanked out, every line and column kept."""
    from agenthooks.sources.dialects.load import parse_json_text, strip_comments

    return parse_json_text(source, without_trailing_commas(strip_comments(text)))
