"""The rules of a Goose plugin's hooks/hooks.json (`sources.dialects.goose`): Claude Code's
walker, with what Goose reads otherwise as findings (measured with goose 1.52.0; block/goose
crates/goose/src/hooks/mod.rs `RawCommandAction`, `select_action`, `from_name`).

    whole file  a value serde refuses makes goose skip every hook of the file ("Failed to load
                plugin hooks; skipping"): an `on_failure` on PreToolUse other than "allow" or
                "block" (null and "Block" too), a `timeout` that is not a whole number of
                seconds, a `type`, `command` or `matcher` that is not a string, an action that
                is not an object (`goose-file-skipped`)
    skipped     an unknown event (`unknown-event`), an action of another `type`
                (`handler-kind`) or without `command` (`command-missing`): that alone, the rest
                of the file loads (`Dialect.spared`); a `timeout` of 0, which ends the hook at
                once (`timeout-invalid`), is not run here
    matchers    one that does not compile (`*`) skips its group; on SessionStart, SessionEnd
                and Stop a matcher is tested against "" (`matcher-never-runs`)
    on_failure  read on PreToolUse alone: elsewhere it is ignored (`option-ignored`)
"""

from __future__ import annotations

from agenthooks.model.handlers import json_kind
from agenthooks.sources.dialects.check import DialectChecker
from agenthooks.sources.dialects.goose import NO_VALUE, rust_error, selection

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.model.handlers import Source

GATE = "PreToolUse"
ON_FAILURE = ("allow", "block")
SKIPPED = "goose-file-skipped"


class GooseChecker(DialectChecker):
    """Walks a Goose hooks.json as Claude Code's, with Goose's own refusals."""

    unknown_means = ("{host} skips it without a word (a DEBUG log line alone) and loads the "
                     "rest of the file, so these hooks would never run")

    def whole_file(self, message: str, pointer: str, anchor: Any = "value") -> None:
        self.add(SKIPPED, f"{message}: Goose skips this whole hooks.json, every hook of the "
                          "plugin", pointer, anchor)

    def dialect_matcher(self, event: str, group: dict[str, Any], pointer: str) -> str | None:
        matcher = group.get("matcher")
        if matcher is None:  # serde's Option<String>: null is none
            return None
        if not isinstance(matcher, str):
            self.whole_file(f"matcher must be a string, not {json_kind(matcher)}", pointer)
            return None
        self.names_or_regex_matcher(event, matcher, pointer)
        self.host_tool_words(self.dialect.name, event, matcher, pointer)
        return matcher

    def names_or_regex_matcher(self, event: str, matcher: str, pointer: str) -> None:
        if matcher == "":
            return
        if matcher == "*":
            self.add("matcher-never-runs", "Goose skips this group: `*` is not a regex; write "
                                           "`.*` or leave the matcher out", pointer,
                     fix=".*")
            return
        error = rust_error(matcher)
        if error is not None:
            self.add("matcher-never-runs", f"Goose skips this group: matcher {matcher!r} is "
                                           f"not a valid regex ({error})", pointer)
            return
        if event in NO_VALUE:
            if selection(matcher, event).form == "never":
                self.add("matcher-never-runs", f"Goose tests a {event} matcher against an "
                                               f"empty value: {matcher!r} never matches it, so "
                                               "these hooks never run", pointer, "key",
                         "remove the matcher")
            return
        if self.thorough and self.dialect.events.get(event) == "tool_name":
            self.unanchored(matcher, pointer)

    def group_hooks(self, group: dict[str, Any], pointer: str) -> list[Any] | None:
        if group.get("hooks") is None:  # absent: an empty list (`#[serde(default)]`)
            return []
        return super().group_hooks(group, pointer)

    def dialect_handler(self, event: str, matcher: str | None, sequential: bool, handler: Any,
                        pointer: str) -> None:
        if not isinstance(handler, dict):
            self.whole_file(f"an action must be an object, not {json_kind(handler)}", pointer)
            return
        kind = handler.get("type")
        if kind is not None and not isinstance(kind, str):
            self.whole_file(f"`type` must be a string, not {json_kind(kind)}", pointer + "/type")
            return
        command = handler.get("command")
        if command is not None and not isinstance(command, str):
            self.whole_file(f"`command` must be a string, not {json_kind(command)}",
                            pointer + "/command")
            return
        if "on_failure" in handler:
            value = handler["on_failure"]
            if event != GATE:
                self.add("option-ignored", f"Goose reads `on_failure` on PreToolUse alone: "
                                           f"on {event} it is ignored", pointer + "/on_failure",
                         "key")
                handler = {key: item for key, item in handler.items() if key != "on_failure"}
            elif value not in ON_FAILURE:
                self.whole_file(f"`on_failure` must be \"allow\" or \"block\", not "
                                f"{value!r}" if isinstance(value, str) else
                                f"`on_failure` must be \"allow\" or \"block\", not "
                                f"{json_kind(value)}", pointer + "/on_failure")
                return
        if kind is None:  # missing or null: a command
            handler = {**handler, "type": "command"}
        if command is None and kind in (None, "command"):
            self.add("command-missing", "an action without `command`: Goose skips it",
                     pointer)
            return
        super().dialect_handler(event, matcher, sequential, handler, pointer)

    def timeout(self, event: str, handler: dict[str, Any], pointer: str) -> float:
        default = self.dialect.default_timeout_for(event)
        if "timeout" not in handler or handler["timeout"] is None:
            return default
        value = handler["timeout"]
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**64:
            shown = json_kind(value) if not isinstance(value, (int, float)) else value
            self.whole_file(f"timeout must be a whole number of seconds, not {shown}",
                            pointer + "/timeout")
            return default
        if value == 0:
            self.add("timeout-invalid", "timeout 0 ends the hook at once: Goose counts it a "
                                        "failure every time (a deny under `on_failure: "
                                        "block`); agenthooks does not run it",
                     pointer + "/timeout")
            return default
        self.large_seconds(value, pointer + "/timeout", named="timeout", counted=self.host)
        return float(value)


def read(doc: Any, source: Source, *, thorough: bool) -> DialectChecker:
    """Every finding of a Goose hooks.json, and the handlers it would run."""
    from agenthooks.sources.dialects import dialect_spec

    checker = GooseChecker(source, dialect_spec("goose"), thorough=thorough)
    checker.document(doc)
    return checker
