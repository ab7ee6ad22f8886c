"""The rules of Charm Crush's crush.json (`sources.dialects.crush`): its `hooks` object, read as
Crush reads it (charmbracelet/crush internal/config/load.go@37f36e9 `ValidateHooks`,
`normalizeHookEvent`; internal/config/config.go@37f36e9 `HookConfig`), each finding at its
line. Only `hooks` is read: a crush.json's providers, models and options are Crush's alone.

    will not start  what makes `crush` refuse the whole configuration (`crush-will-not-start`):
                    `hooks` or an event's value of the wrong type, a hook that is not an
                    object or has no `command` (a Claude Code matcher group among them), a
                    `matcher` RE2 does not compile (`*`), a `timeout` that is not a whole
                    number, a `name` that is not text; so no hook of any file runs
    never fires     an event key other than PreToolUse once lowercased without `_`
                    (`crush-event-never-fires`): Crush keeps it and never runs it
    ignored         another key of a hook (`unknown-key`)
    tool names      a matcher naming a tool as Claude Code does (`Bash`, `mcp__srv__tool`),
                    which Crush's case-sensitive regex never finds in its names (`bash`,
                    `mcp_srv_tool`): `matcher-wrong-host`, `matcher-misspelt`
    crushrc         a `crushrc` or `.crushrc` with `hook` lines beside the file, which
                    agenthooks does not read (`crush-rc-unread`)
"""

from __future__ import annotations

import os
import re

from agenthooks.model.handlers import escape, json_kind
from agenthooks.sources.dialects.check import DialectChecker
from agenthooks.sources.dialects.crush import EVENT, re2_error

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.model.handlers import Handler, Source

NOT_STARTED = "Crush refuses this configuration and does not start, so none of its hooks runs"
# `crushrc`'s hook commands (internal/shellconfig/hook.go@37f36e9).
_RC_FILES = ("crushrc", ".crushrc")
_RC_HOOK = re.compile(r"^\s*hook\s+(?:add|remove|rm)\b", re.M)
_CLAUDE_MCP = re.compile(r"mcp__([A-Za-z0-9_-]+?)__([A-Za-z0-9_-]+)")


class CrushChecker(DialectChecker):
    """Walks the `hooks` object of a Charm Crush crush.json."""

    @property
    def keys(self) -> tuple[str, ...]:
        """The keys of a hook (its one handler type's, `model.hosts`)."""
        return self.dialect.types["command"].keys

    def document(self, doc: Any) -> None:
        if not isinstance(doc, dict):
            self.add("crush-will-not-start", f"a crush.json must be an object, not "
                                             f"{json_kind(doc)}: {NOT_STARTED}", "")
            return
        if self.thorough:
            self.crushrc()
        if "hooks" not in doc:
            return
        hooks = doc["hooks"]
        if not isinstance(hooks, dict):
            self.add("crush-will-not-start", f"`hooks` must be an object of events, not "
                                             f"{json_kind(hooks)}: {NOT_STARTED}", "/hooks")
            return
        read_key = self.event_key()
        for key, listed in hooks.items():
            pointer = "/hooks/" + escape(key)
            event = EVENT if read_key(key) == EVENT else None
            if event is None:
                meant = EVENT if re.sub(r"[\W_]", "", key).lower() == EVENT.lower() else None
                self.add("crush-event-never-fires", f"Crush runs only {EVENT} hooks: {key} "
                                                    "never fires", pointer, "key", meant)
            if not isinstance(listed, list):
                self.add("crush-will-not-start", f"{key} must be a list of hooks, not "
                                                 f"{json_kind(listed)}: {NOT_STARTED}", pointer)
                continue
            for index, entry in enumerate(listed):
                self.entry(event, key, entry, f"{pointer}/{index}")

    def crushrc(self) -> None:
        """A `crushrc` beside the file whose `hook` lines define hooks Crush runs and
        agenthooks does not read (neither validated nor left to Crush under --host)."""
        folder = os.path.dirname(self.source.file)
        for name in _RC_FILES:
            try:
                with open(os.path.join(folder, name), encoding="utf-8",
                          errors="replace") as stream:
                    text = stream.read(1 << 20)
            except OSError:
                continue
            if _RC_HOOK.search(text):
                self.add("crush-rc-unread", f"{name} beside this file defines hooks with "
                                            "`hook add` lines, which Crush runs and agenthooks "
                                            "does not read: move them into crush.json's "
                                            f'"hooks" to have them checked', "", "value")

    def entry(self, event: str | None, key: str, entry: Any, pointer: str) -> None:
        if not isinstance(entry, dict):
            self.add("crush-will-not-start", f"a hook must be an object "
                                             f'{{"command": ..., "matcher": ...}}, not '
                                             f"{json_kind(entry)}: {NOT_STARTED}", pointer)
            return
        if "hooks" in entry and "command" not in entry:
            self.add("crush-will-not-start", f"Crush takes a flat list of hooks under {key}, "
                                             "each with its own `matcher`: this Claude Code "
                                             'matcher group has no `command` ("command is '
                                             f'required"): {NOT_STARTED}; write '
                                             '{"matcher": ..., "command": ...} items', pointer)
            return
        errors = self.errors
        for name in entry:
            if name not in self.keys:
                self.add("unknown-key", f"unknown key {name!r} (a hook takes "
                                        f"{', '.join(self.keys)}): Crush ignores it",
                         f"{pointer}/{escape(name)}", "key")
        label = entry.get("name")
        if label is not None and not isinstance(label, str):
            self.add("crush-will-not-start", f"`name` must be text, not {json_kind(label)}: "
                                             f"{NOT_STARTED}", pointer + "/name")
        command = self.command(entry, pointer)
        matcher = self.hook_matcher(entry, event, pointer + "/matcher")
        timeout = self.hook_timeout(entry.get("timeout"), pointer + "/timeout")
        if self.errors == errors and event is not None and command:
            self.handlers.append(self.record(event, label if isinstance(label, str) else "",
                                             matcher, command, timeout, pointer))

    def command(self, entry: dict[str, Any], pointer: str) -> str:
        value = entry.get("command")
        if isinstance(value, str) and value:
            self.command_text(value, pointer + "/command")
            if self.check_scripts:
                self.dialect_script(value, False, pointer + "/command")
            return value
        what = ("missing" if value is None else "empty" if value == ""
                else f"not text but {json_kind(value)}")
        self.add("crush-will-not-start", f"`command` is {what} (\"command is required\"): "
                                         f"{NOT_STARTED}",
                 pointer if value is None else pointer + "/command")
        return ""

    def hook_matcher(self, entry: dict[str, Any], event: str | None,
                     pointer: str) -> str | None:
        matcher = entry.get("matcher")
        if matcher is None:
            return None
        if not isinstance(matcher, str):
            self.add("crush-will-not-start", f"`matcher` must be text, not "
                                             f"{json_kind(matcher)}: {NOT_STARTED}", pointer)
            return None
        if not matcher:
            return None
        error = re2_error(matcher)
        if error is not None:
            every = "; write '.*' or leave `matcher` out for every tool" if "*" in matcher \
                else ""
            self.add("crush-will-not-start", f"matcher {matcher!r} is not a regex Go's RE2 "
                                             f"compiles ({error}): {NOT_STARTED}{every}",
                     pointer)
            return matcher
        if event is not None and self.thorough:
            self.claude_mcp(matcher, pointer)
            self.host_tool_words(self.dialect.name, event, matcher, pointer)
        return matcher

    def claude_mcp(self, matcher: str, pointer: str) -> None:
        """Claude Code's `mcp__<server>__<tool>`, which no name of Crush's holds: it names an
        MCP tool `mcp_<server>_<tool>`."""
        found = _CLAUDE_MCP.search(matcher)
        if found is None:
            return
        mine = f"mcp_{found.group(1)}_{found.group(2)}"
        self.add("matcher-wrong-host", f"{found.group(0)!r} is Claude Code's name for an MCP "
                                       f"tool; Crush calls it {mine!r}, so this matcher never "
                                       f"selects it: write {mine!r}", pointer,
                 fix=_CLAUDE_MCP.sub(r"mcp_\1_\2", matcher))

    def hook_timeout(self, value: Any, pointer: str) -> float:
        default = self.dialect.default_timeout
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            self.add("crush-will-not-start", f"`timeout` must be whole seconds, not "
                                             f"{value!r}: {NOT_STARTED}", pointer)
            return default
        if value <= 0:
            return default  # `TimeoutDuration`: 30 s
        self.large_seconds(value, pointer, named="timeout", counted="Crush")
        return float(value)

    def record(self, event: str, name: str, matcher: str | None, command: str,
               timeout: float, pointer: str) -> Handler:
        from agenthooks.model.handlers import Handler
        from agenthooks.sources.dialects.check import runs_as

        return Handler(source=self.source, hook=name, event=event, matcher=matcher,
                       command=command, timeout=timeout, kind="command", enabled=True,
                       pointer=pointer, dialect=self.dialect.name, name=name or None,
                       **runs_as(self.dialect, event, {"type": "command"}))


def read(doc: Any, source: Source, *, thorough: bool) -> DialectChecker:
    """Every finding of a Charm Crush crush.json, and the hooks Crush would run."""
    from agenthooks.sources.dialects import dialect_spec

    checker = CrushChecker(source, dialect_spec("crush"), thorough=thorough)
    checker.document(doc)
    return checker
