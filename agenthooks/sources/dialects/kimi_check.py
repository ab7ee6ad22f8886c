"""The rules of Kimi Code's config.toml (`sources.dialects.kimi`): its `[[hooks]]` entries,
read as Kimi Code reads them, each finding at its line."""

from __future__ import annotations

from agenthooks.model.handlers import escape, json_kind
from agenthooks.sources.dialects.check import DialectChecker
from agenthooks.sources.dialects.kimi import selection
from agenthooks.sources.dialects.matching import regex_error

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.model.handlers import Diagnostic, Handler, Source

KEYS = ("event", "matcher", "command", "timeout")
TIMEOUT_LIMIT = 600
DROPPED = "Kimi Code drops the whole `hooks` section for it, so no hook of this file runs"


def parse(source: Source, text: str) -> tuple[Any, Any, list[Diagnostic], str]:
    """(document, positions, findings, text) of a config.toml: `{"hooks": [entry, ...]}`; no
    document for one that holds no hooks (its models and providers are not read)."""
    from agenthooks.sources.reading import toml

    if not toml.may_hold_hooks(text):
        return None, None, [], text
    config, found = toml.load_toml(source, text, "Kimi Code cannot read this config.toml")
    if config is None:
        return None, None, found, text
    document = {"hooks": config["hooks"]} if "hooks" in config else {}
    return document, toml.positions(text), [], text


class KimiChecker(DialectChecker):
    """Walks the `[[hooks]]` entries of a Kimi Code config.toml."""

    unknown_means = DROPPED

    def document(self, doc: Any) -> None:
        if not isinstance(doc, dict) or "hooks" not in doc:
            return
        hooks = doc["hooks"]
        if not isinstance(hooks, list):
            self.add("kimi-hooks-ignored", f"`hooks` must be [[hooks]] entries, not "
                                           f"{json_kind(hooks)}: {DROPPED}", "/hooks")
            return
        for index, entry in enumerate(hooks):
            self.entry(entry, f"/hooks/{index}")
        if any(f.rule == "kimi-hooks-ignored" for f in self.findings):
            self.handlers = []  # the section is dropped whole: none of its entries runs

    def entry(self, entry: Any, pointer: str) -> None:
        if not isinstance(entry, dict):
            self.add("kimi-hooks-ignored", f"a [[hooks]] entry must be a table, not "
                                           f"{json_kind(entry)}: {DROPPED}", pointer)
            return
        errors = self.errors
        for key in entry:
            if key not in KEYS:
                self.add("kimi-hooks-ignored", f"unknown key {key!r} (an entry takes "
                                               f"{', '.join(KEYS)}): {DROPPED}",
                         f"{pointer}/{escape(key)}", "key")
        event = self.entry_event(entry.get("event"), pointer)
        command = self.entry_command(entry.get("command"), pointer + "/command")
        matcher = self.entry_matcher(entry, event, pointer + "/matcher")
        timeout = self.entry_timeout(entry.get("timeout", 30), pointer + "/timeout")
        if self.errors == errors and event is not None and command:
            self.handlers.append(self.record(event, matcher, command, timeout, pointer))

    def entry_event(self, event: Any, pointer: str) -> str | None:
        if isinstance(event, str) and event in self.dialect.events:
            return event
        if event is None:
            self.add("kimi-hooks-ignored", f"an entry needs `event`: {DROPPED}", pointer)
        elif not isinstance(event, str):
            self.add("kimi-hooks-ignored", f"`event` must be text, not {json_kind(event)}: "
                                           f"{DROPPED}", pointer + "/event")
        else:
            self.add("kimi-hooks-ignored", self.unknown_event(event), pointer + "/event",
                     fix=self.event_meant(event))
        return None

    def entry_command(self, command: Any, pointer: str) -> str:
        if not isinstance(command, str) or not command:
            shown = "empty" if command == "" else (
                "missing" if command is None else f"not text but {json_kind(command)}")
            self.add("kimi-hooks-ignored", f"`command` is {shown}: {DROPPED}",
                     pointer.rsplit("/", 1)[0] if command is None else pointer)
            return ""
        if not command.strip():
            self.add("command-missing", "`command` is blank: Kimi Code runs `sh -c` on it, "
                                        "which does nothing and lets every call through",
                     pointer)
            return ""
        self.command_text(command, pointer)
        if self.check_scripts:
            self.dialect_script(command, False, pointer)
        return command

    def entry_matcher(self, entry: dict[str, Any], event: str | None,
                      pointer: str) -> str | None:
        matcher = entry.get("matcher")
        if matcher is None:
            return None
        if not isinstance(matcher, str):
            self.add("kimi-hooks-ignored", f"`matcher` must be text, not {json_kind(matcher)}: "
                                           f"{DROPPED}", pointer)
            return None
        if event is None or not matcher:
            return matcher
        error = regex_error(matcher)
        if error is not None:
            self.add("matcher-regex", f"matcher {matcher!r} is not a valid regex ({error}): "
                                      "Kimi Code selects nothing with it, so this hook never "
                                      "runs", pointer)
        elif selection(matcher, event).form == "never":
            self.add("matcher-never-runs", f"Kimi Code tests a {event} matcher against an "
                                           f"empty value: {matcher!r} never matches it, so "
                                           "this hook never runs", pointer)
        elif self.dialect.events[event] == "tool_name":
            self.host_tool_words("kimi", event, matcher, pointer)
        return matcher

    def entry_timeout(self, value: Any, pointer: str) -> float:
        whole = isinstance(value, int) or (isinstance(value, float) and value.is_integer())
        if isinstance(value, bool) or not whole or not 1 <= value <= TIMEOUT_LIMIT:
            self.add("kimi-hooks-ignored", f"`timeout` must be whole seconds from 1 to "
                                           f"{TIMEOUT_LIMIT}, not {value!r}: {DROPPED}", pointer)
            return 30.0
        return float(value)

    def record(self, event: str, matcher: str | None, command: str, timeout: float,
               pointer: str) -> Handler:
        from agenthooks.model.handlers import Handler
        from agenthooks.sources.dialects.check import runs_as

        return Handler(source=self.source, hook="", event=event, matcher=matcher,
                       command=command, timeout=timeout, kind="command", enabled=True,
                       pointer=pointer, dialect=self.dialect.name,
                       **runs_as(self.dialect, event, {"type": "command"}))


def read(doc: Any, source: Source, *, thorough: bool) -> DialectChecker:
    """Every finding of a Kimi Code config.toml, and the handlers Kimi Code would run."""
    from agenthooks.sources.dialects import dialect_spec

    checker = KimiChecker(source, dialect_spec("kimi"), thorough=thorough)
    checker.document(doc)
    return checker
