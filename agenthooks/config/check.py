"""The rules of hooks.json that a walk over the parsed document can check.

One walk serves both `validate` (all findings, placed later by a position map) and `run`
(which only needs the handlers and whether any error exists). JSON Schema covers the file's
shape too (`schemas/hooks.schema.json`); the rules it cannot express live here, and a test
keeps the two in agreement.
"""

from __future__ import annotations

import os
from typing import Any, Literal, NamedTuple

from agenthooks.config.model import Handler, Severity, Source, escape, json_kind
from agenthooks.config.rules import RULES
from agenthooks.events import (
    DEFAULT_TIMEOUT,
    EVENTS,
    INT32_MAX,
    TOOL_EVENTS,
    did_you_mean,
    unknown_event_hint,
)
from agenthooks.matcher import matcher_error

Anchor = Literal["key", "value"]

HANDLER_KINDS = ("command", "prompt")
HANDLER_KEYS: dict[str, tuple[str, ...]] = {
    "command": ("type", "command", "timeout"),
    "prompt": ("type", "prompt", "model", "timeout"),
}
GROUP_KEYS = ("matcher", "hooks")
# Keys other hosts accept that this format ignores, and what to tell their authors.
FOREIGN_KEYS = {
    "sequential": "Gemini CLI's `sequential` is not part of this format; handlers run in parallel",
    "name": "handler names are not part of this format; the hook name is the definition's key",
    "failClosed": "use `agenthooks run --fail-closed` instead",
}


class Finding(NamedTuple):
    """A diagnostic before it has a place: `anchor` says whether to point at the key or value."""

    rule: str
    message: str
    pointer: str
    anchor: Anchor = "value"

    @property
    def severity(self) -> Severity:
        return RULES[self.rule].severity


def _unknown_key_message(key: str, known: tuple[str, ...], where: str) -> str:
    if key in FOREIGN_KEYS:
        return f"unknown key {key!r} in {where} is ignored: {FOREIGN_KEYS[key]}"
    guess = did_you_mean(key, known)
    hint = f"; did you mean {guess!r}?" if guess else f" (known keys: {', '.join(known)})"
    return f"unknown key {key!r} in {where} is ignored{hint}"


class Checker:
    """Walks one parsed document, collecting findings and the handlers it defines."""

    def __init__(self, source: Source, *, check_scripts: bool) -> None:
        self.source = source
        self.check_scripts = check_scripts and source.level == "workspace"
        self.findings: list[Finding] = []
        self.handlers: list[Handler] = []
        self.errors = 0

    def add(self, rule: str, message: str, pointer: str, anchor: Anchor = "value") -> None:
        finding = Finding(rule, message, pointer, anchor)
        self.findings.append(finding)
        if finding.severity == "error":
            self.errors += 1

    def document(self, doc: Any) -> None:
        if not isinstance(doc, dict):
            self.add(
                "top-level-type",
                f"the top level must be an object mapping hook names to definitions, "
                f"not {json_kind(doc)}",
                "",
            )
            return
        for name, definition in doc.items():
            self.definition(name, definition, "/" + escape(name))

    def definition(self, name: str, definition: Any, pointer: str) -> None:
        if not isinstance(definition, dict):
            self.add(
                "definition-type",
                f"hook {name!r} must be an object of events, not {json_kind(definition)}",
                pointer,
            )
            return
        enabled = definition.get("enabled", True)
        if not isinstance(enabled, bool):
            self.add(
                "enabled-type",
                f"`enabled` must be true or false, not {json_kind(enabled)}",
                pointer + "/enabled",
            )
            enabled = True
        has_event = False
        for key, value in definition.items():
            child = f"{pointer}/{escape(key)}"
            if key == "enabled":
                continue
            if key not in EVENTS:
                self.add(
                    "unknown-event",
                    f"unknown event {key!r} in hook {name!r}: {unknown_event_hint(key)}",
                    child,
                    "key",
                )
                has_event = True  # one finding about the key is enough
                continue
            has_event = True
            if not isinstance(value, list):
                self.add("event-type", f"{key} must be a list, not {json_kind(value)}", child)
                continue
            for index, item in enumerate(value):
                if key in TOOL_EVENTS:
                    self.group(name, key, item, f"{child}/{index}", enabled)
                else:
                    self.flat_item(name, key, item, f"{child}/{index}", enabled)
        if not has_event:
            self.add("no-events", f"hook {name!r} defines no event, so it never runs", pointer)

    def group(self, name: str, event: str, group: Any, pointer: str, enabled: bool) -> None:
        if not isinstance(group, dict):
            self.add(
                "group-type",
                f"items of {event} must be matcher groups "
                f'{{"matcher": ..., "hooks": [...]}}, not {json_kind(group)}',
                pointer,
            )
            return
        if "hooks" not in group and ("command" in group or "type" in group):
            self.add(
                "handler-needs-group",
                f"{event} takes matcher groups: wrap this handler as "
                f'{{"matcher": "<tool regex>", "hooks": [...]}}',
                pointer,
            )
            return
        matcher = group.get("matcher")
        matcher_ok = True
        if "matcher" in group and not isinstance(matcher, str):
            self.add(
                "matcher-type",
                f"matcher must be a string, not {json_kind(matcher)}",
                pointer + "/matcher",
            )
            matcher_ok = False
        elif isinstance(matcher, str):
            error = matcher_error(matcher)
            if error is not None:
                self.add(
                    "matcher-regex",
                    f"matcher {matcher!r} is not a valid Python regex: {error}",
                    pointer + "/matcher",
                )
                matcher_ok = False
        for key in group:
            if key not in GROUP_KEYS:
                self.add(
                    "unknown-key",
                    _unknown_key_message(key, GROUP_KEYS, "a matcher group"),
                    f"{pointer}/{escape(key)}",
                    "key",
                )
        hooks = group.get("hooks")
        if not isinstance(hooks, list):
            if "hooks" in group:
                self.add(
                    "group-hooks",
                    f"`hooks` must be a list of handlers, not {json_kind(hooks)}",
                    pointer + "/hooks",
                )
            else:
                self.add("group-hooks", "matcher group has no `hooks` list of handlers", pointer)
            return
        for index, handler in enumerate(hooks):
            self.handler(
                name,
                event,
                handler,
                f"{pointer}/hooks/{index}",
                enabled,
                matcher if matcher_ok and isinstance(matcher, str) else None,
            )

    def flat_item(self, name: str, event: str, item: Any, pointer: str, enabled: bool) -> None:
        if isinstance(item, dict) and "hooks" in item and "command" not in item:
            self.add(
                "group-in-flat-event",
                f"{event} takes handlers directly, not matcher groups: "
                f"move the handlers of `hooks` up into the {event} list",
                pointer,
            )
            return
        if isinstance(item, dict) and "matcher" in item:
            self.add(
                "flat-matcher",
                f"{event} ignores matchers: this handler runs for every {event}",
                pointer + "/matcher",
                "key",
            )
        self.handler(name, event, item, pointer, enabled, None, flat=True)

    def handler(
        self,
        name: str,
        event: str,
        handler: Any,
        pointer: str,
        enabled: bool,
        matcher: str | None,
        *,
        flat: bool = False,
    ) -> None:
        if not isinstance(handler, dict):
            self.add(
                "handler-type", f"a handler must be an object, not {json_kind(handler)}", pointer
            )
            return
        errors_before = self.errors
        kind = handler.get("type", "command")
        if kind not in HANDLER_KINDS:
            guess = did_you_mean(kind, HANDLER_KINDS) if isinstance(kind, str) else None
            hint = f"; did you mean {guess!r}?" if guess else ' ("command" or "prompt")'
            self.add("handler-kind", f"unknown handler type {kind!r}{hint}", pointer + "/type")
            kind = "command"
        known = HANDLER_KEYS[kind] + (("matcher",) if flat else ())
        for key in handler:
            if key not in known:
                self.add(
                    "unknown-key",
                    _unknown_key_message(key, HANDLER_KEYS[kind], "a handler"),
                    f"{pointer}/{escape(key)}",
                    "key",
                )
        field = "command" if kind == "command" else "prompt"
        text = handler.get(field)
        if not isinstance(text, str) or not text.strip():
            rule = "command-missing" if kind == "command" else "prompt-missing"
            if field not in handler:
                self.add(rule, f"handler has no `{field}`", pointer)
            elif not isinstance(text, str):
                self.add(
                    rule,
                    f"`{field}` must be a string, not {json_kind(text)}",
                    pointer + "/" + field,
                )
            else:
                self.add(rule, f"`{field}` is empty", pointer + "/" + field)
            text = ""
        timeout = handler.get("timeout", DEFAULT_TIMEOUT)
        if (
            isinstance(timeout, bool)
            or not isinstance(timeout, int)
            or not 0 < timeout <= INT32_MAX
        ):
            self.add("timeout-invalid", _timeout_message(timeout), pointer + "/timeout")
            timeout = DEFAULT_TIMEOUT
        if kind == "prompt":
            self.add(
                "prompt-handler",
                "prompt handlers need the agent's model; agenthooks skips them",
                pointer + "/type",
            )
        elif text and self.check_scripts:
            self.script(text, pointer + "/command")
        if self.errors == errors_before:
            self.handlers.append(
                Handler(
                    source=self.source,
                    hook=name,
                    event=event,
                    matcher=matcher,
                    command=text,
                    timeout=timeout,
                    kind=kind,
                    enabled=enabled,
                    pointer=pointer,
                )
            )

    def script(self, command: str, pointer: str) -> None:
        first = command.split(None, 1)[0]
        if first.startswith("/") or "/" not in first or "$" in first or "`" in first:
            return
        path = os.path.join(self.source.cwd, first)
        if not os.path.isfile(path):
            self.add(
                "script-missing",
                f"{first} does not exist in {self.source.cwd}, where the handler runs; "
                f"the handler would fail with exit 127",
                pointer,
            )
        elif not os.access(path, os.X_OK):
            self.add(
                "script-missing",
                f"{first} is not executable (chmod +x {first}); "
                "the handler would fail with exit 126",
                pointer,
            )


def _timeout_message(timeout: Any) -> str:
    if isinstance(timeout, str):
        return f"timeout must be a whole number of seconds, not the string {timeout!r}"
    if isinstance(timeout, bool):
        return f"timeout must be a whole number of seconds, not {str(timeout).lower()}"
    if isinstance(timeout, float) and timeout.is_integer() and timeout > 0:
        return f"timeout must be a whole number of seconds: write {int(timeout)}, not {timeout}"
    if isinstance(timeout, (int, float)) and timeout > INT32_MAX:
        return f"timeout {timeout} is too large (at most {INT32_MAX} seconds)"
    if isinstance(timeout, (int, float)):
        return f"timeout must be a positive whole number of seconds, not {timeout}"
    return f"timeout must be a positive whole number of seconds, not {json_kind(timeout)}"


def check_document(doc: Any, source: Source, *, check_scripts: bool) -> Checker:
    """Run every rule on a parsed document; the checker holds findings and handlers."""
    checker = Checker(source, check_scripts=check_scripts)
    checker.document(doc)
    return checker
