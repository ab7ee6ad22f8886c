"""The rules of a Kiro hooks file (`sources.dialects.kiro`): its `{"version": "v1", "hooks":
[...]}`, each hook a trigger and an action, read as kiro.dev/docs/cli/v3/hooks describes it,
each finding at its line.

    version     a file without `"version": "v1"` is not of the schema Kiro reads
                (`kiro-version`)
    triggers    one Kiro does not know, its CLI 2.x names among them (`agentSpawn`,
                `preToolUse`, `fileEdited`), or Claude Code's that it has not (SessionEnd):
                the hook never fires (`unknown-event`, the new name as its fix)
    matchers    one on a trigger that takes none (SessionStart, Stop, UserPromptSubmit, the
                spec and Manual triggers: `flat-matcher`); one that is not a regex
                (`matcher-regex`)
    actions     `command` runs; `agent` needs Kiro itself (`handler-host-only`), listed and
                never run here; another `type`, no `command` or `prompt`: never runs
    timeout     seconds: one of 1000 or more is most likely milliseconds (`timeout-seconds`),
                and CLI 2.x's `timeout_ms` is not read (`unknown-key`)
    enabled     `false`: listed as disabled, never run (`kiro-hook-disabled`)
    place       a file in a folder below `.kiro/hooks/`, which Kiro does not read
                (`kiro-file-unread`)
"""

from __future__ import annotations

import os

from agenthooks.model.eventnames import did_you_mean
from agenthooks.model.handlers import escape, json_kind
from agenthooks.sources.dialects.check import DialectChecker
from agenthooks.sources.dialects.kiro import VERSION

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.model.handlers import Handler, Source

# The keys of a file and of an action (kiro.dev/docs/cli/v3/hooks, "The new format").
FILE_KEYS = ("version", "hooks")
ACTION_KEYS = {"command": ("type", "command"), "agent": ("type", "prompt")}
# CLI 2.x's trigger names, and the IDE 0.x ones, by the v3 name Kiro reads now
# (kiro.dev/docs/cli/v3/hooks, "Old trigger" -> "New trigger"; the IDE's from its hook types).
OLD_TRIGGERS = {"agentSpawn": "SessionStart", "userPromptSubmit": "UserPromptSubmit",
                "preToolUse": "PreToolUse", "postToolUse": "PostToolUse",
                "fileEdited": "PostFileSave", "fileCreated": "PostFileCreate",
                "fileDeleted": "PostFileDelete", "stop": "Stop", "agentStop": "Stop",
                "promptSubmit": "UserPromptSubmit", "userTriggered": "Manual"}
HOOKS_FOLDER = (".kiro", "hooks")


class KiroChecker(DialectChecker):
    """Walks a Kiro hooks file."""

    def document(self, doc: Any) -> None:
        if self.thorough:
            self.place()
        if not isinstance(doc, dict):
            self.add("settings-type", f"a Kiro hooks file must be an object, not "
                                      f"{json_kind(doc)}", "")
            return
        self.version(doc)
        for key in doc:
            if key not in FILE_KEYS:
                self.add("unknown-key", f"unknown key {key!r} (a Kiro hooks file takes "
                                        f"{', '.join(FILE_KEYS)}): Kiro ignores it",
                         "/" + escape(key), "key")
        if "hooks" not in doc:
            return
        hooks = doc["hooks"]
        if not isinstance(hooks, list):
            self.add("settings-type", f"`hooks` must be a list of hooks, not "
                                      f"{json_kind(hooks)}", "/hooks")
            return
        for index, entry in enumerate(hooks):
            self.entry(entry, f"/hooks/{index}")

    def version(self, doc: dict[str, Any]) -> None:
        if doc.get("version") == VERSION:
            return
        if "version" not in doc:
            self.add("kiro-version", f'no "version": a Kiro hooks file says "version": '
                                     f'"{VERSION}", the schema Kiro reads', "", fix=VERSION)
            return
        self.add("kiro-version", f'"version" is {doc["version"]!r}: Kiro reads hooks files of '
                                 f'version "{VERSION}"', "/version", fix=VERSION)

    def place(self) -> None:
        """A file in a folder below `.kiro/hooks/`, which Kiro does not read; the folders
        below this file's, when it is in `.kiro/hooks/`, with JSON files Kiro does not read."""
        folder = os.path.dirname(os.path.abspath(self.source.file))
        parts = folder.split(os.sep)
        for depth in range(1, len(parts) - 1):
            if tuple(parts[-depth - 2:-depth]) == HOOKS_FOLDER:
                where = "/".join(parts[-depth - 2:])
                self.add("kiro-file-unread", f"this file is in {where}/, a folder below "
                                             ".kiro/hooks/: Kiro reads only the *.json files "
                                             "directly in .kiro/hooks/, so none of its hooks "
                                             "runs; move it up", "", "value")
                return
        if tuple(parts[-2:]) != HOOKS_FOLDER:
            return
        below = sorted(f"{entry.name}/" for entry in _entries(folder)
                       if entry.is_dir() and _has_json(entry.path))
        if below:
            self.add("kiro-file-unread", f"{', '.join(below)} in .kiro/hooks/ holds JSON "
                                         "files Kiro does not read (it reads only the *.json "
                                         "files directly in .kiro/hooks/): move them up to "
                                         "have them run", "", "value")

    def entry(self, entry: Any, pointer: str) -> None:
        if not isinstance(entry, dict):
            self.add("handler-type", f"a hook must be an object {{\"name\", \"trigger\", "
                                     f"\"action\"}}, not {json_kind(entry)}", pointer)
            return
        errors = self.errors
        for key in entry:
            if key not in self.keys:
                self.unknown(key, pointer)
        label = entry.get("name")
        if label is not None and not isinstance(label, str):
            self.add("option-type", f"`name` must be a string, not {json_kind(label)}",
                     pointer + "/name")
        self.option_values(entry, self.keys, pointer)
        event = self.trigger(entry, pointer)
        matcher = self.hook_matcher(entry, event, pointer + "/matcher")
        action = self.action(entry.get("action"), "action" in entry, pointer)
        timeout = self.seconds(entry, "timeout", self.dialect.default_timeout, pointer,
                               named="timeout", counted="Kiro")
        enabled = self.enabled(entry, pointer)
        if self.errors == errors and event is not None and action is not None:
            kind, text = action
            self.handlers.append(self.record(
                event, label if isinstance(label, str) else "", matcher, kind, text, timeout,
                enabled, entry, pointer))

    @property
    def keys(self) -> tuple[str, ...]:
        return self.dialect.types["command"].keys

    def unknown(self, key: str, pointer: str) -> None:
        at = f"{pointer}/{escape(key)}"
        if key == "timeout_ms":
            self.add("unknown-key", "`timeout_ms` is Kiro CLI 2.x's key: a v1 hooks file "
                                    "takes `timeout`, in seconds; Kiro ignores this one", at,
                     "key", "timeout")
            return
        guess = did_you_mean(key, self.keys)
        hint = f"did you mean {guess!r}?" if guess else f"a hook takes {', '.join(self.keys)}"
        self.add("unknown-key", f"unknown key {key!r} ({hint}): Kiro ignores it", at, "key",
                 guess)

    def trigger(self, entry: dict[str, Any], pointer: str) -> str | None:
        value = entry.get("trigger")
        at = pointer + "/trigger"
        if value is None:
            self.add("unknown-event", "a hook without `trigger` never fires (one of "
                                      f"{', '.join(self.dialect.events)})", pointer)
            return None
        if not isinstance(value, str):
            self.add("unknown-event", f"`trigger` must be a string, not {json_kind(value)}",
                     at)
            return None
        if value in self.dialect.events:
            return value
        new = OLD_TRIGGERS.get(value)
        if new is not None:
            self.add("unknown-event", f"{value!r} is a Kiro CLI 2.x (agent config) or IDE 0.x "
                                      f"trigger name: a v1 hooks file says {new!r}, so this "
                                      "hook never fires", at, fix=new)
            return None
        self.add("unknown-event", f"{self.unknown_event(value)}", at,
                 fix=self.event_meant(value))
        return None

    def hook_matcher(self, entry: dict[str, Any], event: str | None,
                     pointer: str) -> str | None:
        if "matcher" not in entry:
            return None
        matcher = entry["matcher"]
        if not isinstance(matcher, str):
            self.add("matcher-type", f"`matcher` must be a string, not {json_kind(matcher)}",
                     pointer)
            return None
        if event is None:
            return matcher
        if self.dialect.events.get(event) is None:
            self.add("flat-matcher", f"{event} takes no matcher in Kiro (it matches a tool's "
                                     "name on PreToolUse and PostToolUse, a file's path on "
                                     "the PostFile* triggers): this one selects nothing",
                     pointer, "key", "remove the matcher")
            return None
        from agenthooks.sources.dialects.matching import regex_error

        if matcher in ("", "*"):
            return matcher
        error = regex_error(matcher, True)
        if error is not None:
            self.add("matcher-regex", f"matcher {matcher!r} is not a valid regex ({error})",
                     pointer)
            return matcher
        if self.dialect.events[event] == "tool_name":
            self.host_tool_words(self.dialect.name, event, matcher, pointer)
        return matcher

    def action(self, action: Any, given: bool, pointer: str) -> tuple[str, str] | None:
        at = pointer + "/action"
        if not given:
            self.add("command-missing", 'a hook without `action` runs nothing: give {"type": '
                                        '"command", "command": ...}', pointer)
            return None
        if not isinstance(action, dict):
            self.add("handler-type", f"`action` must be an object {{\"type\", \"command\"}}, "
                                     f"not {json_kind(action)}", at)
            return None
        kind = action.get("type")
        keys = ACTION_KEYS.get(kind) if isinstance(kind, str) else None
        if keys is None:
            self.add("handler-kind", self.kind_message(kind, "type" in action),
                     at + ("/type" if "type" in action else ""))
            return None
        assert isinstance(kind, str)
        for key in action:
            if key not in keys:
                self.add("unknown-key", f"unknown key {key!r} (a {kind} action takes "
                                        f"{', '.join(keys)}): Kiro ignores it",
                         f"{at}/{escape(key)}", "key")
        field = keys[1]
        text = self.required(kind, field, action, at)
        if kind == "command" and text:
            self.command_text(text, at + "/command")
            if self.check_scripts:
                self.dialect_script(text, False, at + "/command")
        if kind == "agent" and self.thorough:
            self.add("handler-host-only", "an agent action appends its prompt to Kiro's "
                                          "model context, no process: agenthooks lists it but "
                                          "skips it when it runs hooks", at + "/type")
        return (kind, text) if text else None

    def enabled(self, entry: dict[str, Any], pointer: str) -> bool:
        value: Any = entry.get("enabled", True)
        if not isinstance(value, bool):
            self.add("enabled-type", f"`enabled` must be true or false, not "
                                     f"{json_kind(value)}", pointer + "/enabled")
            return True
        if not value and self.thorough:
            self.add("kiro-hook-disabled", "`enabled: false`: Kiro skips this hook; listed as "
                                           "disabled, never run", pointer + "/enabled")
        return bool(value)

    def record(self, event: str, name: str, matcher: str | None, kind: str, text: str,
               timeout: float, enabled: bool, entry: dict[str, Any], pointer: str) -> Handler:
        from agenthooks.model.handlers import Handler
        from agenthooks.sources.dialects.check import freeze, runs_as

        options = tuple(sorted((key, freeze(value)) for key, value in entry.items()
                               if key in ("description", "confirm")))
        return Handler(source=self.source, hook=name, event=event, matcher=matcher,
                       command=text, timeout=timeout, kind=kind, enabled=enabled,
                       pointer=pointer, dialect=self.dialect.name, name=name or None,
                       options=options, **runs_as(self.dialect, event, {"type": kind}))


def _entries(folder: str) -> list[os.DirEntry[str]]:
    try:
        return list(os.scandir(folder))
    except OSError:
        return []


def _has_json(folder: str) -> bool:
    """Whether a folder or one below it holds a `.json` file."""
    return any(any(name.endswith(".json") for name in files) for _, _, files in os.walk(folder))


def read(doc: Any, source: Source, *, thorough: bool) -> DialectChecker:
    """Every finding of a Kiro hooks file, and the hooks Kiro would run."""
    from agenthooks.sources.dialects import dialect_spec

    checker = KiroChecker(source, dialect_spec("kiro"), thorough=thorough)
    checker.document(doc)
    return checker
