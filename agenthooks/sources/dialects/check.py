"""The rules of Claude Code and Gemini CLI settings files: one walk over a parsed document.

The walk reuses hooks.json's `Checker` for what the formats share (findings, command text,
control characters) and reads every host-specific rule from the `Dialect` tables. It yields
the handlers each host would register, with the host's timeout unit turned into seconds.
"""

from __future__ import annotations

import os
import re

from agenthooks.model.eventnames import INT32_MAX, did_you_mean
from agenthooks.model.events import HOST_NAMES, other_host_hint, other_host_word
from agenthooks.model.handlers import Handler, Source, breaks_file, escape, json_kind
from agenthooks.model.hosts import host_row, imported
from agenthooks.model.matcher import is_plain_name
from agenthooks.model.rules import ALL_RULES
from agenthooks.sources.dialects import every_dialect_spec, matching
from agenthooks.sources.dialects.gemini import HOOKS_CONFIG
from agenthooks.sources.dialects.spec import Dialect, HandlerType
from agenthooks.sources.reading.check import (
    Checker,
    Finding,
    _interpreter,
    _relative_path,
    _unknown_key_message,
    _words,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

    from agenthooks.sources.reading.check import Anchor

# Every host with files of its own (`model.hosts`: its row's `dialect`). What needs one host's
# alone asks `dialects.dialect_spec`, which imports no other host's module.
DIALECT_SPECS: dict[str, Dialect] = every_dialect_spec()

# The walker's methods checking what a dialect's `settings_switch` and `matchers` say (by name:
# a host's checker may refine one).
SWITCHES = {"disableAllHooks": "disable_all_hooks", "hooksConfig": "hooks_config"}
MATCHER_CHECKS = {"names-or-regex": "names_or_regex_matcher",
                  "regex-or-text": "regex_or_text_matcher"}
_VARIABLE = re.compile(r"\$(?:\{(\w+)\}|(\w+))(/.*)?\Z", re.S)


def freeze(value: Any) -> object:
    """A JSON value as nested tuples, so that handlers stay hashable."""
    if isinstance(value, dict):
        return tuple(sorted((key, freeze(item)) for key, item in value.items()))
    if isinstance(value, list):
        return tuple(freeze(item) for item in value)
    return value


def _type_ok(kind: str, value: Any) -> bool:
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "string":
        return isinstance(value, str)
    if kind == "strings":
        return isinstance(value, list) and all(isinstance(item, str) for item in value)
    if kind == "object":
        return isinstance(value, dict)
    if kind == "string-map":
        return isinstance(value, dict) and all(isinstance(v, str) for v in value.values())
    return True


_TYPE_WORDS = {"boolean": "true or false", "string": "a string", "strings": "a list of strings",
               "object": "an object", "string-map": "an object of strings"}


class DialectChecker(Checker):
    """Walks a Claude Code or Gemini CLI settings document."""

    def __init__(self, source: Source, dialect: Dialect, *, thorough: bool) -> None:
        super().__init__(source, thorough=thorough)
        self.dialect = dialect
        self.host = dialect.host
        self.all_off = False  # disableAllHooks: true, or hooksConfig.enabled: false
        self.switch_given: bool | None = None  # that setting, when the file gives it
        self.disabled: tuple[str, ...] = ()  # Gemini hooksConfig.disabled

    def add(self, rule: str, message: str, pointer: str, anchor: Anchor = "value",
            fix: str | None = None) -> None:
        """As `Checker.add`, with severities from the table of every format's rules."""
        self.findings.append(Finding(rule, message, pointer, anchor, fix))
        if breaks_file(ALL_RULES[rule].severity, rule):
            self.errors += 1

    # --- the settings object ------------------------------------------------------------------

    def document(self, doc: Any) -> None:
        bare = self.dialect.bare_rule(self.source.file)
        if bare is not None:
            self.bare_document(doc, bare)
            return
        if not isinstance(doc, dict):
            self.add("settings-type", f"a {self.host} settings file must be an object, "
                                      f"not {json_kind(doc)}", "")
            return
        getattr(self, SWITCHES[self.dialect.settings_switch])(doc)
        if "hooks" in doc:
            self.events(doc["hooks"], self.dialect_group)

    def bare_document(self, doc: Any, wrapper_rule: str) -> None:
        """A file keyed by event name with no `hooks` wrapper (`Dialect.bare_files`): a
        `hooks` key there is no event, and its host runs none of what it holds."""
        name = os.path.basename(self.source.file)
        if not isinstance(doc, dict):
            self.add("settings-type", f"a {self.host} {name} must be an object of events, "
                                      f"not {json_kind(doc)}", "")
            return
        if "hooks" in doc:
            self.add(wrapper_rule,
                     f"{self.host}'s {name} is keyed by event name: under this `hooks` "
                     f"wrapper (which only its settings files take) it finds no event and "
                     f"runs none of these hooks", "/hooks", "key",
                     'move the events to the top level: {"PreToolUse": [...]}')
        self.events({event: listed for event, listed in doc.items() if event != "hooks"},
                    self.dialect_group, at="")

    # --- the `hooks` object, {"<event>": [item, ...]}: every host's files -------------------

    unknown_rule = "unknown-event"  # an event the host does not know
    # What the host does with it.
    unknown_means = "{host} skips it without a word, so these hooks would never run"
    items = "matcher groups"  # what each event lists

    def events(self, hooks: Any, each: Callable[[str, Any, str], None],
               at: str = "/hooks") -> None:
        """Walks a file's `hooks` object (at the pointer `at`): `each` reads every item of a
        known event's list."""
        if not isinstance(hooks, dict):
            self.add("settings-type", f"`hooks` must be an object of events, not "
                                      f"{json_kind(hooks)}", at)
            return
        read_key = self.event_key()
        for key, listed in hooks.items():
            pointer = f"{at}/{escape(key)}"
            event = read_key(key)
            if not self.known_event(event, pointer):
                continue
            if not isinstance(listed, list):
                self.not_a_list(event, listed, pointer)
                continue
            for index, item in enumerate(listed):
                each(event, item, f"{pointer}/{index}")

    def event_key(self) -> Callable[[str], str]:
        """How the host reads a key of its `hooks` object (`Dialect.event_key`)."""
        if self.dialect.event_key is None:
            return str
        read: Callable[[str], str] = imported(self.dialect.event_key)
        return read

    def handler_object(self, event: str, item: Any, pointer: str, host: str,
                       noun: str = "handler", matcher: bool = True) -> bool:
        """Whether an item of a flat list (Cursor's, Windsurf's, rulesync's: each item is a
        handler, not a matcher group) is an object to read on; the error when it is not, or
        is a Claude Code matcher group."""
        if not isinstance(item, dict):
            self.add("handler-type", f"a {noun} must be an object, not {json_kind(item)}",
                     pointer)
            return False
        if "hooks" in item and "command" not in item:
            each = ("each with its own `matcher`: this is" if matcher
                    else "with no matcher: this is a")
            write = '{"command": ..., "matcher": ...}' if matcher else '{"command": ...}'
            self.add("group-in-flat-event", f"{host} takes a flat list of {noun}s under "
                                            f"{event}, {each} a Claude Code matcher group; "
                                            f"write {write} items", pointer)
            return False
        return True

    def known_event(self, event: str, pointer: str) -> bool:
        """Whether an event's list is read; an unknown event is said (`unknown_rule`)."""
        if event in self.dialect.events:
            return True
        if event not in self.dialect.ignored_events:
            self.add(self.unknown_rule, self.unknown_event(event), pointer, "key",
                     self.event_meant(event))
        return False

    def not_a_list(self, event: str, listed: Any, pointer: str) -> None:
        self.add("event-type", f"{event} must be a list of {self.items}, not "
                               f"{json_kind(listed)}", pointer)

    def event_meant(self, event: str) -> str | None:
        """The host's event that `unknown_event` names as meant, if any (a quick fix)."""
        if other_host_hint(event, self.dialect.name) is not None:
            return other_host_word(event, self.dialect.name)
        return did_you_mean(event, list(self.dialect.events))

    def unknown_event(self, event: str) -> str:
        hint = other_host_hint(event, self.dialect.name)
        if hint is None:
            guess = did_you_mean(event, list(self.dialect.events))
            hint = (f"did you mean {guess!r}?" if guess
                    else "known events: " + ", ".join(self.dialect.events))
        return f"unknown event {event!r}: {hint} ({self.unknown_means.format(host=self.host)})"

    def disable_all_hooks(self, doc: dict[str, Any]) -> None:
        if "disableAllHooks" not in doc:
            return
        value = doc["disableAllHooks"]
        if not isinstance(value, bool):
            self.add("hooks-config-invalid", f"`disableAllHooks` must be true or false, not "
                                             f"{json_kind(value)}", "/disableAllHooks")
            return
        self.switch_given = not value
        if value:
            self.all_off = True
            self.add("hooks-disabled", "`disableAllHooks` is true: Claude Code runs none of "
                                       "the hooks of any settings file", "/disableAllHooks")

    def hooks_config(self, doc: dict[str, Any]) -> None:
        if "hooksConfig" not in doc:
            return
        config = doc["hooksConfig"]
        if not isinstance(config, dict):
            self.add("hooks-config-invalid", f"`hooksConfig` must be an object, not "
                                             f"{json_kind(config)}", "/hooksConfig")
            return
        for key, value in config.items():
            pointer = "/hooksConfig/" + escape(key)
            kind = HOOKS_CONFIG.get(key)
            if kind is None:
                self.add("unknown-key", _unknown_key_message(key, tuple(HOOKS_CONFIG),
                                                             "hooksConfig"), pointer, "key")
            elif not _type_ok(kind, value):
                self.add("hooks-config-invalid", f"hooksConfig.{key} must be "
                                                 f"{_TYPE_WORDS[kind]}, not {json_kind(value)}",
                         pointer)
            elif key == "enabled":
                self.switch_given = value
                if not value:
                    self.all_off = True
                    self.add("hooks-disabled", "hooksConfig.enabled is false: Gemini CLI runs "
                                               "no hook at all", pointer)
            elif key == "disabled":
                self.disabled = tuple(value)

    # --- groups and matchers -------------------------------------------------------------------

    def dialect_group(self, event: str, group: Any, pointer: str) -> None:
        if not isinstance(group, dict):
            self.add("group-type", f"items of {event} must be matcher groups "
                                   f'{{"matcher": ..., "hooks": [...]}}, not {json_kind(group)}',
                     pointer)
            return
        if "hooks" not in group and ("command" in group or "type" in group):
            self.add("handler-needs-group", f"{self.host} takes matcher groups under every "
                                            f'event: wrap this handler as {{"hooks": [...]}}',
                     pointer)
            return
        keys = self.dialect.group_keys
        self.unknown_keys(group, keys, keys, "a matcher group", pointer)
        matcher = self.dialect_matcher(event, group, pointer + "/matcher")
        # Only a host whose groups take `sequential` (Gemini CLI) runs a group's handlers one
        # after another.
        sequential = self.sequential(group, pointer) and "sequential" in self.dialect.group_keys
        for index, handler in enumerate(self.group_hooks(group, pointer) or ()):
            self.dialect_handler(event, matcher, sequential, handler, f"{pointer}/hooks/{index}")

    def dialect_matcher(self, event: str, group: dict[str, Any], pointer: str) -> str | None:
        """The group's matcher text, checked by the host's rules; None when absent or not text.

        A matcher the host cannot compile is kept: the finding says what the host does."""
        if "matcher" not in group:
            return None
        matcher = group["matcher"]
        if not isinstance(matcher, str):
            self.add("matcher-type", f"matcher must be a string, not {json_kind(matcher)}",
                     pointer)
            return None
        self.matcher(event, matcher, pointer)
        self.host_tool_words(self.dialect.name, event, matcher, pointer)
        return matcher

    def host_tool_words(self, dialect: str, event: str, matcher: str, pointer: str) -> None:
        """A tool matcher's literal names that its host never calls a tool
        (`model.toolwords`): another host's name, or a misspelt one."""
        if not self.thorough:
            return
        words = matching.tool_words(dialect, matcher, event)
        if words:  # the name is wrong: how to anchor it is no advice
            self.findings = [f for f in self.findings
                             if not (f.rule == "matcher-unanchored" and f.pointer == pointer)]
        for word in words:
            self.add(word.rule, word.message, pointer, fix=word.fixed(matcher))

    def sequential(self, group: dict[str, Any], pointer: str) -> bool:
        sequential = group.get("sequential", False)
        if isinstance(sequential, bool):
            return sequential
        self.add("option-type", f"`sequential` must be true or false, not "
                                f"{json_kind(sequential)}", pointer + "/sequential")
        return False

    def matcher(self, event: str, matcher: str, pointer: str) -> None:
        getattr(self, MATCHER_CHECKS[self.dialect.matchers])(event, matcher, pointer)

    def names_or_regex_matcher(self, event: str, matcher: str, pointer: str) -> None:
        # `*` is every tool to Claude Code, and a broken regex to a host derived from it that
        # reads matchers otherwise (Augment)
        if matcher == "" or (matcher == "*" and matching.selection(
                self.dialect.name, matcher, event).form == "all"):
            return
        if self.dialect.events[event] is None:
            if self.thorough:
                self.add("flat-matcher", f"{event} ignores matchers: {self.host} silently "
                                         f"ignores {matcher!r} and runs these handlers on every "
                                         f"{event}", pointer, "key")
            return
        chosen = matching.selection(self.dialect.name, matcher, event)
        if chosen.form == "never":
            error = matching.regex_error(matcher)
            self.add("matcher-regex", f"matcher {matcher!r} is not a valid regex ({error}): "
                                      f"{self.host} never runs this group", pointer)
            return
        if not self.thorough:
            return
        if chosen.form == "names":
            self.mcp_server_only(chosen.names, pointer)
        elif self.dialect.events[event] == "tool_name":
            self.unanchored(matcher, pointer)

    def mcp_server_only(self, names: tuple[str, ...], pointer: str) -> None:
        for name in names:
            if name.startswith("mcp__") and "__" not in name[len("mcp__"):]:
                self.add("matcher-mcp-server", f"{name!r} is an exact tool name, and no tool "
                                               f"is named so: MCP tools are named mcp__<server>"
                                               f"__<tool>; write '^{name}__.*' for every tool "
                                               "of that server", pointer)
                return

    def unanchored(self, pattern: str, pointer: str) -> None:
        """A tool regex that is not anchored at the start also matches longer names."""
        if pattern.startswith(("^", ".*")):
            return
        chosen = matching.Selection("search", pattern=pattern)
        known = self.dialect.known_tools
        hits = [tool for tool in known if matching.selects(chosen, tool)]
        longer = [tool for tool in hits
                  if not matching.selects(matching.Selection("search", pattern="^" + pattern),
                                          tool)]
        example = longer[0] if longer else ("mcp_x_" + hits[0] + "_v2" if hits else None)
        also = f", so it also matches {example}" if example else ""
        exact = "|".join(tool for tool in hits if tool not in longer) or None
        plain = re.fullmatch(r"[A-Za-z0-9_\-]+(?:\|[A-Za-z0-9_\-]+)*", pattern)
        # a list Augment searches for is plain
        if self.dialect.matchers == "names-or-regex" and not plain:
            fix = f"write '^{pattern}$' to match from the start"
            fix += f", or the exact list '{exact}'" if exact else ""
        else:
            body = pattern if is_plain_name(pattern) else f"(?:{pattern})"
            if plain:
                body = f"({pattern})" if "|" in pattern else pattern
            fix = f"write '^{body}$' to match whole names"
        self.add("matcher-unanchored", f"{self.host} matches {pattern!r} anywhere in the tool "
                                       f"name (an unanchored regex){also}: {fix}", pointer)

    def regex_or_text_matcher(self, event: str, matcher: str, pointer: str) -> None:
        text = matcher.strip()
        if text in ("", "*"):
            return
        if self.dialect.events[event] is None:
            if self.thorough:
                self.add("flat-matcher", f"{event} ignores matchers: Gemini CLI runs these "
                                         f"handlers on every {event}, whatever {matcher!r} says",
                         pointer, "key")
            return
        if event in self.dialect.exact_events:
            if "|" in text and self.thorough:
                self.add("matcher-exact-text", f"Gemini CLI compares {event} matchers as exact "
                                               f"text, so {matcher!r} never matches: write one "
                                               "group per value", pointer)
            return
        error = matching.regex_error(text)
        if error is not None:
            if self.thorough:
                self.add("matcher-regex-fallback", f"matcher {matcher!r} is not a valid regex "
                                                   f"({error}): Gemini CLI falls back to "
                                                   "comparing it as exact text", pointer)
            return
        if self.thorough:
            plain = re.fullmatch(r"[A-Za-z0-9_\-]+(?:\|[A-Za-z0-9_\-]+)*", text)
            if plain or not text.startswith(("^", ".*")):
                self.unanchored(text, pointer)

    # --- handlers ------------------------------------------------------------------------------

    def dialect_handler(self, event: str, matcher: str | None, sequential: bool, handler: Any,
                        pointer: str) -> None:
        if not isinstance(handler, dict):
            self.add("handler-type", f"a handler must be an object, not {json_kind(handler)}",
                     pointer)
            return
        errors_before = self.errors
        kind = handler.get("type")
        spec = self.dialect.types.get(kind) if isinstance(kind, str) else None
        if spec is None:
            self.add("handler-kind", self.kind_message(kind, "type" in handler),
                     pointer + ("/type" if "type" in handler else ""))
            return
        assert isinstance(kind, str)
        self.unknown_keys(handler, spec.keys, spec.keys, f"a {kind} handler", pointer)
        texts = [self.required(kind, field, handler, pointer) for field in spec.required]
        self.option_values(handler, spec.keys, pointer)
        timeout = self.timeout(event, handler, pointer)
        text = " ".join(t for t in texts if t)
        if kind == "command" and text:
            self.command_text(text, pointer + "/command")
            if self.check_scripts:
                self.dialect_script(text, "args" in handler, pointer + "/command")
        if kind == "http" and text:
            self.url_scheme(text, pointer + "/url")
        if not spec.runs_offline and self.thorough:
            self.add("handler-host-only", f"a {kind} handler needs {self.host} itself: "
                                          "agenthooks lists it but skips it when it runs hooks",
                     pointer + "/type")
        if self.errors == errors_before:  # a handler with an error never runs
            self.handlers.append(self.dialect_record(
                event, matcher, sequential, handler, spec, text, timeout, pointer))

    def url_scheme(self, url: str, pointer: str) -> None:
        """An http handler POSTs: a `file:` or `data:` URL (or none at all) never reaches a
        hook server, and agenthooks refuses it at run time (`kinds.http.parse_url`)."""
        found = re.match(r"\s*([A-Za-z][A-Za-z0-9+.-]*):", url)
        scheme = found.group(1).lower() if found else None
        if scheme not in ("http", "https"):
            what = f"a {scheme}: URL" if scheme else "not a URL with a scheme"
            self.add("url-scheme", f"url {url!r} is {what}: an http handler POSTs only to "
                                   "http and https URLs", pointer)

    def option_values(self, handler: dict[str, Any], keys: tuple[str, ...], pointer: str) -> None:
        """The type of each known option the table types (`async`, `env`, ...)."""
        for key, value in handler.items():
            expected = self.dialect.option_types.get(key)
            if expected is not None and key in keys and not _type_ok(expected, value):
                self.add("option-type", f"`{key}` must be {_TYPE_WORDS[expected]}, not "
                                        f"{json_kind(value)}", f"{pointer}/{escape(key)}")

    def dialect_record(self, event: str, matcher: str | None, sequential: bool,
                       handler: dict[str, Any], spec: HandlerType, text: str, timeout: float,
                       pointer: str) -> Handler:
        """The Handler a valid handler object stands for."""
        name = handler.get("name") if isinstance(handler.get("name"), str) else None
        # Gemini's hooksConfig.disabled names a handler by its `name`, else by its command.
        disabled = name if name is not None else text
        options = tuple(sorted((key, freeze(value)) for key, value in handler.items()
                               if key not in ("type", "timeout", "name", spec.field)))
        return Handler(
            source=self.source, hook=name or "", event=event, matcher=matcher, command=text,
            timeout=timeout, kind=handler["type"], enabled=disabled not in self.disabled,
            pointer=pointer, dialect=self.dialect.name, name=name, sequential=sequential,
            options=options, **runs_as(self.dialect, event, handler),
        )

    def kind_message(self, kind: Any, given: bool) -> str:
        names = tuple(self.dialect.types)
        if not given:
            return f"handler has no `type` ({', '.join(names)}); {self.host} drops it"
        guess = did_you_mean(kind, names) if isinstance(kind, str) else None
        hint = f"did you mean {guess!r}?" if guess else f"one of {', '.join(names)}"
        return (f"unknown handler type {kind!r}: {hint} ({self.host} reads `type` "
                "case-sensitively and silently drops this handler)")

    def required(self, kind: str, field: str, handler: dict[str, Any], pointer: str) -> str:
        rule = {"command": "command-missing", "prompt": "prompt-missing"}.get(
            field, "field-missing")
        value = handler.get(field)
        if isinstance(value, str) and value.strip():
            return value
        if field not in handler:
            self.add(rule, f"a {kind} handler needs `{field}`", pointer)
        elif not isinstance(value, str):
            self.add(rule, f"`{field}` must be a string, not {json_kind(value)}",
                     f"{pointer}/{escape(field)}")
        else:
            self.add(rule, f"`{field}` is empty", f"{pointer}/{escape(field)}")
        return ""

    def timeout(self, event: str, handler: dict[str, Any], pointer: str) -> float:
        default = self.dialect.default_timeout_for(event)
        if "timeout" not in handler:
            return default
        value = handler["timeout"]
        unit = "seconds" if self.dialect.timeout_unit == 1 else "milliseconds"
        limit = self.dialect.timeout_limit
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= limit:
            shown = json_kind(value) if not isinstance(value, (int, float)) else value
            self.add("timeout-invalid", f"timeout must be a positive number of {unit}, not "
                                        f"{shown}", pointer + "/timeout")
            return default
        if self.dialect.timeout_unit < 1 and value < 1000 and self.thorough:
            self.add("timeout-milliseconds", f"timeout {value} is {value} ms in Gemini CLI "
                                             f"(it counts milliseconds); if you meant "
                                             f"{value:g} seconds, write {value * 1000:g}",
                     pointer + "/timeout", fix=f"{value * 1000:g}")
        if self.dialect.timeout_unit == 1:
            self.large_seconds(value, pointer + "/timeout", named="timeout",
                               counted=self.host)
        return float(value) * self.dialect.timeout_unit

    def version_given(self, doc: dict[str, Any], version: int, missing: str,
                      invalid: Callable[[Any], str]) -> bool:
        """Whether a file's `version` is given as something other than `version`, which is
        said (`version-invalid`, `invalid` of the value); one missing is said as `missing`
        (`version-missing`) when the check is thorough."""
        if "version" not in doc:
            if self.thorough:
                self.add("version-missing", missing, "", "value")
            return False
        value = doc["version"]
        if isinstance(value, bool) or value != version:
            self.add("version-invalid", invalid(value), "/version")
            return True
        return False

    def flat_type(self, handler: dict[str, Any],
                  pointer: str) -> tuple[str, HandlerType] | None:
        """The type of an item of a flat list of handlers (`type`, "command" when absent) and
        its table, its unknown keys said; None for a type the host does not have."""
        kind = handler.get("type", "command")
        spec = self.dialect.types.get(kind) if isinstance(kind, str) else None
        if spec is None:
            self.add("handler-kind", self.kind_message(kind, True), pointer + "/type")
            return None
        self.unknown_keys(handler, spec.keys, spec.keys, f"a {kind} handler", pointer)
        return kind, spec

    def seconds(self, handler: dict[str, Any], key: str, default: float, pointer: str, *,
                named: str, counted: str) -> float:
        """A timeout in seconds under `key` (`default` when absent or invalid); one of 1000
        or more is most likely milliseconds. `named`: how messages name the key; `counted`:
        the host that counts it in seconds."""
        if key not in handler:
            return default
        value = handler[key]
        if isinstance(value, bool) or not isinstance(value, (int, float)) \
                or not 0 < value <= INT32_MAX // 1000:
            shown = json_kind(value) if not isinstance(value, (int, float)) else value
            self.add("timeout-invalid", f"{named} must be a positive number of seconds, not "
                                        f"{shown}", f"{pointer}/{key}")
            return default
        self.large_seconds(value, f"{pointer}/{key}", named=named, counted=counted)
        return float(value)

    def dialect_script(self, command: str, exec_form: bool, pointer: str) -> None:
        """A script path that is relative or starts with the project (or plugin) variable and
        is missing or not executable: the host's gate would be silently off."""
        words = [command] if exec_form else _words(command)
        if not words:
            return
        interpreter = None if exec_form else _interpreter(words)
        path = interpreter[1] if interpreter else words[0]
        resolved = self.resolve(path)
        if resolved is None:
            return
        if not os.path.isfile(resolved):
            from agenthooks.sources.reading.missing import consequence, missing_exit

            code = missing_exit(interpreter[0] if interpreter else None)
            self.add("script-missing", f"{path} does not exist (looked for {resolved}): the "
                                       f"handler would exit {code}; "
                                       f"{consequence(self.dialect.name, self.host, code)}",
                                       pointer)
        elif interpreter is None and not os.access(resolved, os.X_OK):
            self.add("script-missing", f"{path} is not executable (chmod +x); the handler "
                                       f"would fail with exit 126 and {self.host} would go on "
                                       "as if it had allowed", pointer)

    def resolve(self, path: str) -> str | None:
        """The file a script path names, or None when it cannot be known offline."""
        found = _VARIABLE.match(path)
        if found is not None:
            name = found.group(1) or found.group(2)
            rest = (found.group(3) or "").lstrip("/")
            if name not in self.dialect.path_variables or not rest:
                return None
            if name in ("CLAUDE_PLUGIN_ROOT", "extensionPath", "CURSOR_PLUGIN_ROOT") or (
                    self.dialect.plugin_vars is not None
                    and name == self.dialect.plugin_vars[0]):  # Goose's PLUGIN_ROOT
                base = self.source.plugin_root
                return None if base is None else os.path.join(base, rest)
            return os.path.join(self.source.workspace, rest)
        if not _relative_path(path) or "/" not in path:
            return None
        return os.path.join(self.source.cwd, path)


def check_document(doc: Any, source: Source, *, thorough: bool) -> DialectChecker:
    """Every finding of a parsed document, and its handlers, by its dialect's own reader."""
    spec = DIALECT_SPECS[source.dialect]
    checker: DialectChecker
    if spec.reader is not None:
        checker = imported(spec.reader)(doc, source, thorough=thorough)
    else:
        checker = DialectChecker(source, spec, thorough=thorough)
        checker.document(doc)
    if thorough:
        beside_agenthooks(checker)
        if checker.dialect.vscode_reads:
            vscode_ignores_matchers(checker)
        if checker.dialect.reads_rule is not None:
            runs_other_files_too(checker, checker.dialect.reads_rule)
    return checker


def runs_other_files_too(checker: DialectChecker, rule: str) -> None:
    """In a project's file of a host, `rule` when the project's files of another host that it
    runs too (`HostRow.runs_files_of`) have hooks: said once, of the first such file."""
    source = checker.source
    row = host_row(checker.dialect.name)
    if source.level != "workspace" or row is None:
        return
    for other, project, _ in row.runs_files_of:
        found = next((rel for rel in project
                      if has_hooks(os.path.join(source.workspace, *rel.split("/")))), None)
        if found is not None:
            whose = HOST_NAMES.get(other, other)
            checker.add(rule, f"{checker.host} also runs the hooks of {found} ({whose}'s): a "
                              f"gate written in both runs twice in {checker.host}, and an "
                              "`agenthooks run` entry in both runs agenthooks twice; keep the "
                              "hooks in one of them", "", "value")
            return


def has_hooks(path: str) -> bool:
    """Whether a settings file has a non-empty `hooks` object (a host's file that another
    host runs too: Cursor, Copilot CLI and Devin CLI run Claude Code's)."""
    import json

    try:
        with open(path, "rb") as stream:
            doc = json.loads(stream.read(1 << 20))
    except (OSError, ValueError, RecursionError):
        return False
    return isinstance(doc, dict) and isinstance(doc.get("hooks"), dict) and bool(doc["hooks"])


# What shows a project is opened in VS Code or run with Copilot: VS Code's agent then runs the
# hooks of its Claude Code settings too, parsing their matchers and ignoring them
# (microsoft/vscode-docs docs/agent-customization/hooks.md@00a75e3).
VSCODE_SIGNS = (".vscode", os.path.join(".github", "hooks"))


def vscode_ignores_matchers(checker: DialectChecker) -> None:
    """Warn about each tool matcher of a project's Claude Code settings that VS Code would
    ignore, when the project shows signs of VS Code or Copilot."""
    source = checker.source
    if source.level != "workspace" or not any(
            os.path.isdir(os.path.join(source.workspace, sign)) for sign in VSCODE_SIGNS):
        return
    seen: set[str] = set()
    for handler in checker.handlers:
        if handler.matcher in (None, "", "*") \
                or checker.dialect.events.get(handler.event) != "tool_name":
            continue
        pointer = handler.pointer.rsplit("/hooks/", 1)[0] + "/matcher"
        if pointer in seen:
            continue
        seen.add(pointer)
        checker.add("vscode-ignores-matcher",
                    f"VS Code's agent also runs the hooks of this file and ignores their "
                    f"matchers: this {handler.event} group ({handler.matcher!r}) runs on every "
                    "tool there, under VS Code's tool names; check the tool in the hook itself",
                    pointer)


def beside_agenthooks(checker: DialectChecker) -> None:
    """Warn about each command a settings file runs beside its `agenthooks run` entry: the
    host runs it itself, under its own rules (Claude Code lets the call through when such a
    hook times out or crashes), and agenthooks leaves the host's own files out under
    `--host`, so `--fail-closed` never covers it."""
    from agenthooks.model.itself import fans_out

    entries = [h for h in checker.handlers if fans_out(h)]
    if not entries:
        return
    for handler in checker.handlers:
        if handler.kind != "command" or fans_out(handler):
            continue
        checker.add("beside-agenthooks",
                    f"{checker.host} runs this hook itself, beside `agenthooks run`, under its "
                    f"own rules (a timeout or a crash lets the call through) and agenthooks "
                    f"leaves it out under --host: move a gate that must fail closed into "
                    f".agents/hooks.json", handler.pointer + "/command")


def host_name(dialect: str) -> str:
    return HOST_NAMES[dialect]


def closest_decision(folder: str, decided: Mapping[str, bool]) -> bool | None:
    """A host's trust in a folder (Mistral Vibe's, Grok Build's trusted folders): the decision
    of the closest of its ancestors, itself first, that `decided` holds; None where none is."""
    current = folder
    while True:
        if current in decided:
            return decided[current]
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def runs_as(dialect: Dialect, event: str, handler: dict[str, Any]) -> dict[str, Any]:
    """How a valid handler runs, read once with its dialect's keys (see `Handler`)."""
    def option(key: str | None) -> Any:
        return handler.get(key) if key is not None else None

    shell, args, condition = option(dialect.shell_key), option(dialect.exec_key), \
        option(dialect.condition_key)
    command = handler.get("type") == "command"
    return {
        "shell": shell if isinstance(shell, str) and shell else dialect.shell,
        "args": tuple(str(a) for a in args) if isinstance(args, list) else None,
        "background": command and option(dialect.background_key) is True,
        "condition": condition if isinstance(condition, str) else None,
        "env_file": command and event in dialect.env_file_events,
        "chain": dialect.chain,
        "plugin_vars": dialect.plugin_vars,
        "call_vars": dialect.call_vars,
        "own_vars": dialect.own_vars,
    }
