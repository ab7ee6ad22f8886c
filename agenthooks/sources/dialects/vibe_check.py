"""The rules of Mistral Vibe's hooks.toml (`sources.dialects.vibe`): its `[[hooks]]` entries,
read as Vibe reads them (mistral-vibe 3.0.3 `vibe/core/hooks/models.py` `HookConfig`,
`vibe/core/hooks/config.py` `load_hooks_file`), each finding at its line.

    the file    TOML whose `hooks` is a list of tables; else Vibe drops the whole file
                (`toml-syntax`, `vibe-hooks-ignored`)
    an entry    that fails `HookConfig` is skipped alone (`vibe-hook-skipped`): a missing or
                unknown `type`, a missing `name`, a missing or blank `command` or `match`,
                `strict` on post_agent, the second entry of a name; another key is ignored
                (`unknown-key`)
    a match     `re:` and a regex Python cannot compile selects nothing (`matcher-never-runs`)
    a timeout   of 0 or less times the hook out at once, every time (`timeout-invalid`)
    trust       a project's file in a folder Vibe does not trust is skipped without a word
                (`vibe-untrusted-folder`)
"""

from __future__ import annotations

import os

from agenthooks.model.handlers import escape, json_kind
from agenthooks.sources.dialects.check import DialectChecker, closest_decision
from agenthooks.sources.dialects.vibe import REGEX_PREFIX, selection

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.model.handlers import Diagnostic, Handler, Source

# A `match` without them is one name (`fnmatch`).
GLOB_CHARACTERS = frozenset("*?[")
DROPPED = "Vibe drops the whole file, so none of its hooks runs"
SKIPPED = "Vibe skips this hook"


def parse(source: Source, text: str) -> tuple[Any, Any, list[Diagnostic], str]:
    """(document, positions, findings, text) of a hooks.toml: `{"hooks": [entry, ...]}`."""
    from agenthooks.sources.reading import toml

    config, found = toml.load_toml(source, text, "Vibe cannot read this hooks.toml: " + DROPPED)
    if config is None:
        return None, None, found, text
    return {"hooks": config["hooks"]} if "hooks" in config else {}, toml.positions(text), [], text


class VibeChecker(DialectChecker):
    """Walks the `[[hooks]]` entries of a Mistral Vibe hooks.toml."""

    unknown_means = "Vibe reads `type` case-sensitively and skips this hook"

    @property
    def keys(self) -> tuple[str, ...]:
        """The keys of an entry (its one handler type's, `model.hosts`)."""
        return self.dialect.types["command"].keys

    def document(self, doc: Any) -> None:
        if not isinstance(doc, dict) or "hooks" not in doc:
            return
        if self.thorough and self.source.level == "workspace":
            self.trusted_folder()
        hooks = doc["hooks"]
        if not isinstance(hooks, list):
            self.add("vibe-hooks-ignored", f"`hooks` must be [[hooks]] entries, not "
                                           f"{json_kind(hooks)}: {DROPPED}", "/hooks", "key",
                     "write each hook as a [[hooks]] table")
            return
        seen: set[str] = set()
        for index, entry in enumerate(hooks):
            self.entry(entry, f"/hooks/{index}", seen)

    def trusted_folder(self) -> None:
        """A project's hooks.toml runs only in a folder Vibe trusts: the closest of its
        ancestors that `$VIBE_HOME/trusted_folders.toml` decides on is in `trusted`
        (`vibe/core/trusted_folders.py` `_closest_decision`); `vibe -p` asks no one and skips
        the file without a word (`--trust` trusts the folder for one run)."""
        root = os.path.realpath(self.source.workspace)
        decision = vibe_trusts(root)
        if decision is True:
            return
        why = ("its $VIBE_HOME/trusted_folders.toml marks it, or the closest folder above it, "
               "untrusted" if decision is False else "no entry of its $VIBE_HOME/"
               "trusted_folders.toml trusts it or a folder above it")
        self.add("vibe-untrusted-folder", f"Vibe does not trust {root} ({why}), so it skips "
                                          "these hooks without a word: trust the folder in "
                                          "Vibe once, or run `vibe --trust`", "", "value")

    def entry(self, entry: Any, pointer: str, seen: set[str]) -> None:
        if not isinstance(entry, dict):
            self.add("vibe-hook-skipped", f"a [[hooks]] entry must be a table, not "
                                          f"{json_kind(entry)}: {SKIPPED}", pointer)
            return
        for key in entry:
            if key not in self.keys:
                self.add("unknown-key", f"unknown key {key!r} (an entry takes "
                                        f"{', '.join(self.keys)}): Vibe ignores it",
                         f"{pointer}/{escape(key)}", "key")
        errors = self.errors
        name = self.name(entry.get("name"), pointer, seen)
        event = self.event(entry.get("type"), pointer)
        command = self.text(entry, "command", pointer)
        matcher = self.entry_matcher(entry, event, pointer)
        timeout = self.entry_timeout(entry.get("timeout", self.dialect.default_timeout),
                                     pointer + "/timeout")
        strict = self.strict(entry.get("strict", False), event, pointer + "/strict")
        if self.errors == errors and name is not None and event is not None and command:
            self.handlers.append(self.record(name, event, matcher, command, timeout, strict,
                                             pointer))

    def name(self, name: Any, pointer: str, seen: set[str]) -> str | None:
        if not isinstance(name, str):
            what = "missing" if name is None else f"not text but {json_kind(name)}"
            self.add("vibe-hook-skipped", f"`name` is {what}: {SKIPPED}",
                     pointer if name is None else pointer + "/name")
            return None
        if name in seen:
            self.add("vibe-hook-skipped", f"a hook named {name!r} comes before this one: Vibe "
                                          f"keeps the first and {SKIPPED.lower()[5:]}",
                     pointer + "/name")
            return None
        seen.add(name)
        return name

    def event(self, kind: Any, pointer: str) -> str | None:
        if isinstance(kind, str) and kind in self.dialect.events:
            return kind
        if kind is None:
            kinds = ", ".join(self.dialect.events)
            self.add("vibe-hook-skipped", f"an entry needs `type` ({kinds}): {SKIPPED}",
                     pointer)
            return None
        if not isinstance(kind, str):
            self.add("vibe-hook-skipped", f"`type` must be text, not {json_kind(kind)}: "
                                          f"{SKIPPED}", pointer + "/type")
            return None
        self.add("vibe-hook-skipped", self.unknown_event(kind).replace("event", "`type`", 1),
                 pointer + "/type", fix=self.event_meant(kind))
        return None

    def text(self, entry: dict[str, Any], key: str, pointer: str) -> str:
        value = entry.get(key)
        if isinstance(value, str) and value.strip():
            if key == "command":
                self.command_text(value, f"{pointer}/{key}")
                if self.check_scripts:
                    self.dialect_script(value, False, f"{pointer}/{key}")
            return value
        what = ("missing" if value is None else "blank" if isinstance(value, str)
                else f"not text but {json_kind(value)}")
        self.add("vibe-hook-skipped", f"`{key}` is {what}: {SKIPPED}",
                 pointer if value is None else f"{pointer}/{key}")
        return ""

    def entry_matcher(self, entry: dict[str, Any], event: str | None,
                      pointer: str) -> str | None:
        if "match" not in entry:
            return None
        matcher = self.text(entry, "match", pointer)
        if not matcher or event is None:
            return None
        if selection(matcher, event).form == "never":
            self.add("matcher-never-runs", f"{matcher[len(REGEX_PREFIX):]!r} is not a regex "
                                           "Python compiles: Vibe's hook matches nothing with "
                                           "it, so it never runs", pointer + "/match")
        elif self.dialect.events[event] == "tool_name" and self.thorough:
            self.tool_name(matcher, pointer + "/match")
        return matcher

    def tool_name(self, matcher: str, pointer: str) -> None:
        """A `match` that is one name, of no tool of Vibe's in any case: another host's, or
        misspelt (`model.toolwords`)."""
        if matcher.startswith(REGEX_PREFIX) or GLOB_CHARACTERS & set(matcher):
            return
        from agenthooks.model.toolwords import own_names, words

        own = {name.lower() for name in (*own_names(self.dialect.name),
                                         *self.dialect.matcher_aliases)}
        if matcher.lower() in own:
            return
        for word in words(self.dialect.name, [matcher], also=self.dialect.matcher_aliases):
            self.add(word.rule, word.message, pointer, fix=word.fixed(matcher))

    def entry_timeout(self, value: Any, pointer: str) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.add("vibe-hook-skipped", f"`timeout` must be a number of seconds, not "
                                          f"{json_kind(value)}: {SKIPPED}", pointer)
            return self.dialect.default_timeout
        if value <= 0:
            self.add("timeout-invalid", f"timeout {value!r} times the hook out at once: every "
                                        "run of it fails (and lets the call through, unless "
                                        "`strict`)", pointer)
            return self.dialect.default_timeout
        self.large_seconds(value, pointer, named="timeout", counted="Vibe")
        return float(value)

    def strict(self, value: Any, event: str | None, pointer: str) -> bool:
        if not isinstance(value, bool):
            self.add("vibe-hook-skipped", f"`strict` must be true or false, not "
                                          f"{json_kind(value)}: {SKIPPED}", pointer)
            return False
        if value and event == "post_agent":
            self.add("vibe-hook-skipped", f"`strict` is for pre_tool and post_tool hooks: "
                                          f"{SKIPPED}", pointer, "key")
            return False
        return value

    def record(self, name: str, event: str, matcher: str | None, command: str, timeout: float,
               strict: bool, pointer: str) -> Handler:
        from agenthooks.model.handlers import Handler
        from agenthooks.sources.dialects.check import runs_as

        return Handler(source=self.source, hook=name, event=event, matcher=matcher,
                       command=command, timeout=timeout, kind="command", enabled=True,
                       pointer=pointer, dialect=self.dialect.name, name=name,
                       options=(("strict", True),) if strict else (),
                       **runs_as(self.dialect, event, {"type": "command"}))


def vibe_trusts(folder: str) -> bool | None:
    """Vibe's decision on a folder, by its closest decided ancestor; None where none is."""
    home = os.environ.get("VIBE_HOME") or os.path.join(os.path.expanduser("~"), ".vibe")
    from agenthooks.sources.reading import toml

    try:
        with open(os.path.join(os.path.expanduser(home), "trusted_folders.toml"),
                  encoding="utf-8") as stream:
            stored = toml.values(stream.read(1 << 20)) or {}
    except (OSError, UnicodeDecodeError):
        return None
    decided = {os.path.realpath(os.path.expanduser(path)): verdict
               for key, verdict in (("untrusted", False), ("trusted", True))
               for path in _strings(stored.get(key)) if isinstance(path, str)}
    return closest_decision(folder, decided)


def _strings(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def read(doc: Any, source: Source, *, thorough: bool) -> DialectChecker:
    """Every finding of a Mistral Vibe hooks.toml, and the hooks Vibe would run."""
    from agenthooks.sources.dialects import dialect_spec

    checker = VibeChecker(source, dialect_spec("vibe"), thorough=thorough)
    checker.document(doc)
    return checker
