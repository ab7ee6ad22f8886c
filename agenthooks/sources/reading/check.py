"""The rules of hooks.json that a walk over the parsed document can check.

One walk serves both `validate` (all findings, placed later by a position map) and `run`
(which only needs the handlers and whether any error exists). JSON Schema covers the file's
shape too (`schemas/hooks.schema.json`); the rules it cannot express live here, and a test
keeps the two in agreement.
"""

from __future__ import annotations

import os
import re

from agenthooks._lean.records import NamedTuple
from agenthooks.model.eventnames import (
    DEFAULT_TIMEOUT,
    INT32_MAX,
    did_you_mean,
    event_meant,
    unknown_event_hint,
)
from agenthooks.model.events import EVENTS, TOOL_EVENTS
from agenthooks.model.handlers import Handler, Source, breaks_file, escape, json_kind
from agenthooks.model.hosts import HOOKS_JSON_DIALECT
from agenthooks.model.matcher import matcher_error, matches_everything, named_alternatives
from agenthooks.model.rules import RULES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Literal

    from agenthooks.model.handlers import Severity
    Anchor = Literal["key", "value"]


HANDLER_KINDS = ("command", "prompt")
HANDLER_KEYS: dict[str, tuple[str, ...]] = {
    "command": ("type", "command", "timeout", "dialect"),
    "prompt": ("type", "prompt", "model", "timeout"),
}
GROUP_KEYS = ("matcher", "hooks")
# Keys other hosts accept that this format ignores, and what to tell their authors.
FOREIGN_KEYS = {
    "sequential": "Gemini CLI's `sequential` is not part of this format; handlers run in parallel",
    "name": "handler names are not part of this format; the hook name is the definition's key",
    "failClosed": "use `agenthooks run --fail-closed` instead",
}


AMBIGUOUS = (
    "this file reads as Claude Code settings (or a Codex hooks.json) and as a hooks.json with "
    "one hook named \"hooks\", and which one it is changes what runs: nothing of it runs "
    "until you name its format with --dialect claude, --dialect codex or --dialect "
    "antigravity (a hooks.json in a customization folder, such as .agents/hooks.json, is "
    "always a hooks.json)")


class Finding(NamedTuple):
    """A diagnostic before it has a place: `anchor` says whether to point at the key or value."""

    rule: str
    message: str
    pointer: str
    anchor: Anchor = "value"
    fix: str | None = None  # what to write instead (`Diagnostic.fix`)

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

    def __init__(self, source: Source, *, thorough: bool) -> None:
        self.source = source
        # Warnings cost time (regex parsing, file checks) and `run` ignores them: only
        # `validate` and `list` ask for them.
        self.thorough = thorough
        # A plugin's scripts are in its folder, wherever it is installed: checked too.
        self.check_scripts = thorough and (source.level == "workspace"
                                           or source.plugin_root is not None)
        self.findings: list[Finding] = []
        self.handlers: list[Handler] = []
        self.errors = 0
        # (event, command, timeout) -> (hook name, matcher) of the handlers that run it so far
        self.first_hooks: dict[tuple[str, str, int], list[tuple[str, str | None]]] = {}

    def add(self, rule: str, message: str, pointer: str, anchor: Anchor = "value",
            fix: str | None = None) -> None:
        finding = Finding(rule, message, pointer, anchor, fix)
        self.findings.append(finding)
        if breaks_file(finding.severity, rule):
            self.errors += 1

    def document(self, doc: Any) -> None:
        if self.source.unsure:
            self.add("format-ambiguous", AMBIGUOUS, "/hooks", "key")
            return
        if not isinstance(doc, dict):
            self.add(
                "top-level-type",
                f"the top level must be an object mapping hook names to definitions, "
                f"not {json_kind(doc)}",
                "",
            )
            return
        for name, definition in doc.items():
            pointer = "/" + escape(name)
            if self.thorough and _has_controls(name):
                self.add(
                    "control-character",
                    f"hook name {name!r} holds control characters, which can hide or rewrite "
                    "what a terminal shows",
                    pointer,
                    "key",
                )
            self.definition(name, definition, pointer)

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
                    event_meant(key),
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
        matcher = self.group_matcher(group, pointer + "/matcher")
        self.unknown_keys(group, GROUP_KEYS, GROUP_KEYS, "a matcher group", pointer)
        hooks = self.group_hooks(group, pointer)
        for index, handler in enumerate(hooks or ()):
            self.handler(name, event, handler, f"{pointer}/hooks/{index}", enabled, matcher)

    def group_matcher(self, group: dict[str, Any], pointer: str) -> str | None:
        """The group's matcher when its handlers can use it; None when absent or broken."""
        if "matcher" not in group:
            return None
        matcher = group["matcher"]
        if not isinstance(matcher, str):
            self.add("matcher-type", f"matcher must be a string, not {json_kind(matcher)}", pointer)
            return None
        error = matcher_error(matcher)
        if error is not None:
            message = f"matcher {matcher!r} is not a valid Python regex: {error}"
            self.add("matcher-regex", message, pointer)
            return None
        if self.thorough:
            self.backtracking(matcher, pointer)
            self.tool_words(matcher, pointer)
        return matcher

    def large_seconds(self, value: float, pointer: str, *, named: str, counted: str) -> None:
        """A timeout in seconds of 1000 or more (over 16 minutes, past what any host waits
        by default) is most likely milliseconds: said, naming the unit."""
        if value >= 1000 and self.thorough:
            self.add("timeout-seconds", f"{named} {value:g} is {value:g} seconds in {counted}; "
                                        f"if you meant {value / 1000:g} seconds, write "
                                        f"{value / 1000:g}", pointer, fix=f"{value / 1000:g}")

    def tool_words(self, matcher: str, pointer: str) -> None:
        """What a tool matcher's plain names say (`model.toolwords`): hooks.json selects a
        tool by any host's name for it, and a misspelt or unknown name is said."""
        from agenthooks.model.toolwords import words

        for word in words(HOOKS_JSON_DIALECT, named_alternatives(matcher)):
            self.add(word.rule, word.message, pointer, fix=word.fixed(matcher))

    def group_hooks(self, group: dict[str, Any], pointer: str) -> list[Any] | None:
        hooks = group.get("hooks")
        if isinstance(hooks, list):
            return hooks
        if "hooks" in group:
            self.add(
                "group-hooks",
                f"`hooks` must be a list of handlers, not {json_kind(hooks)}",
                pointer + "/hooks",
            )
        else:
            self.add("group-hooks", "matcher group has no `hooks` list of handlers", pointer)
        return None

    def unknown_keys(
        self, obj: dict[str, Any], allowed: tuple[str, ...], known: tuple[str, ...], where: str,
        pointer: str,
    ) -> None:
        """One warning per key outside `allowed`; the hint suggests one of `known`."""
        for key in obj:
            if key not in allowed:
                self.add(
                    "unknown-key",
                    _unknown_key_message(key, known, where),
                    f"{pointer}/{escape(key)}",
                    "key",
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
        kind = self.handler_kind(handler, pointer)
        # A flat event's handler may carry a `matcher` (warned about by flat_item), but the
        # hint never suggests adding one.
        allowed = HANDLER_KEYS[kind] + (("matcher",) if flat else ())
        self.unknown_keys(handler, allowed, HANDLER_KEYS[kind], "a handler", pointer)
        text = self.handler_text(handler, kind, pointer)
        timeout = self.handler_timeout(handler, pointer)
        speaks = self.handler_dialect(handler, pointer) if kind == "command" else None
        # A handler written for another host runs where that host runs it: the project root.
        cwd = self.source.cwd if speaks is None else self.source.workspace
        if kind == "prompt":
            self.add(
                "prompt-handler",
                "prompt handlers need the agent's model; agenthooks skips them",
                pointer + "/type",
            )
        elif text:
            self.command_text(text, pointer + "/command")
            if self.check_scripts:
                self.script(text, pointer + "/command", cwd)
        if self.errors != errors_before:
            return  # a handler with an error never runs
        if self.thorough and kind == "command" and enabled:
            self.duplicate(name, event, matcher, text, timeout, pointer + "/command")
        # Positional: by keyword, building a record costs twice as much, once per handler.
        handler = Handler(self.source, name, event, matcher, text, timeout, kind, enabled,
                          pointer, self.source.dialect)
        self.handlers.append(handler if speaks is None else self.speaking(handler, speaks))

    def handler_dialect(self, handler: dict[str, Any], pointer: str) -> str | None:
        """The host a handler was written for (`dialect`, as `convert` writes it): it gets
        that host's payload and is read with its protocol; None: hooks.json's own."""
        if "dialect" not in handler:
            return None
        from agenthooks.model.hosts import host_ids

        word = handler["dialect"]
        if isinstance(word, str) and word in host_ids():
            return None if word == HOOKS_JSON_DIALECT else word
        guess = did_you_mean(word, host_ids()) if isinstance(word, str) else None
        hint = f"; did you mean {guess!r}?" if guess else ": one of " + ", ".join(host_ids())
        self.add("handler-dialect", f"`dialect` {word!r} names no host{hint}",
                 pointer + "/dialect")
        return None

    @staticmethod
    def speaking(handler: Handler, speaks: str) -> Handler:
        """A handler written for another host: run as that host runs its hooks (in the
        project root, with its shell)."""
        from agenthooks.model.hosts import host_row, imported
        from agenthooks.sources.reading import dialect_path

        row = host_row(speaks)
        shell = None if row is None or row.dialect is None else imported(dialect_path(row)).shell
        return handler._replace(speaks=speaks, shell=shell)

    def handler_kind(self, handler: dict[str, Any], pointer: str) -> str:
        """The handler's `type`; an unknown one is reported and read as "command"."""
        kind = handler.get("type", "command")
        if kind in HANDLER_KINDS:
            return str(kind)
        guess = did_you_mean(kind, HANDLER_KINDS) if isinstance(kind, str) else None
        hint = f"; did you mean {guess!r}?" if guess else ' ("command" or "prompt")'
        self.add("handler-kind", f"unknown handler type {kind!r}{hint}", pointer + "/type")
        return "command"

    def handler_text(self, handler: dict[str, Any], kind: str, pointer: str) -> str:
        """The command (or prompt) text; "" when missing, not a string, or blank."""
        field = "command" if kind == "command" else "prompt"
        text = handler.get(field)
        if isinstance(text, str) and text.strip():
            return text
        rule = "command-missing" if kind == "command" else "prompt-missing"
        if field not in handler:
            self.add(rule, f"handler has no `{field}`", pointer)
        elif not isinstance(text, str):
            message = f"`{field}` must be a string, not {json_kind(text)}"
            self.add(rule, message, f"{pointer}/{field}")
        else:
            self.add(rule, f"`{field}` is empty", f"{pointer}/{field}")
        return ""

    def handler_timeout(self, handler: dict[str, Any], pointer: str) -> int:
        timeout = handler.get("timeout", DEFAULT_TIMEOUT)
        # bool is an int to Python, but `true` is no number of seconds
        if isinstance(timeout, int) and not isinstance(timeout, bool) and 0 < timeout <= INT32_MAX:
            self.large_seconds(timeout, pointer + "/timeout", named="timeout",
                               counted="hooks.json")
            return timeout
        self.add("timeout-invalid", _timeout_message(timeout), pointer + "/timeout")
        return DEFAULT_TIMEOUT

    def command_text(self, command: str, pointer: str) -> None:
        """A NUL or an unencodable surrogate cannot reach a shell; other controls only hide."""
        if "\0" in command:
            self.add(
                "command-unrunnable",
                "the command holds a NUL character, which no shell can receive: "
                "the handler could never start",
                pointer,
            )
            return
        try:
            command.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:
            self.add(
                "command-unrunnable",
                "the command holds a lone surrogate (a \\ud800-style escape), which cannot be "
                "passed to a shell: the handler could never start",
                pointer,
            )
            return
        if self.thorough and _has_controls(command):
            from agenthooks.escape import printable

            self.add(
                "control-character",
                f"the command '{printable(command)}' holds control characters, which can hide "
                "it or rewrite what a terminal shows",
                pointer,
            )

    def backtracking(self, matcher: str, pointer: str) -> None:
        if has_nested_quantifier(matcher):
            self.add(
                "matcher-backtracking",
                f"matcher {matcher!r} repeats a part that is itself repeated, which can "
                "backtrack for seconds on a long tool name (an MCP server chooses its tools' "
                "names): write it without the nested repetition",
                pointer,
            )

    def duplicate(
        self, name: str, event: str, matcher: str | None, command: str, timeout: int,
        pointer: str,
    ) -> None:
        """The same handler under two hook names, for the same tool calls, runs once."""
        earlier = self.first_hooks.setdefault((event, command, timeout), [])
        first = next(
            (hook for hook, other in earlier if hook != name and _overlap(matcher, other)), None
        )
        earlier.append((name, matcher))
        if first is not None:
            self.add(
                "duplicate-handler",
                f"hook {name!r} runs the same {event} command as hook {first!r} (same folder "
                f"and timeout): it runs once per call, with AGENTHOOKS_HOOK_NAME={first}, so a "
                f"script that tells hooks apart by that name never sees {name!r} here",
                pointer,
            )

    def script(self, command: str, pointer: str, cwd: str) -> None:
        words = _words(command)
        if not words:
            return
        first = words[0]
        interpreter = _interpreter(words)
        if interpreter is not None:
            self.interpreted_script(*interpreter, pointer, cwd)
            return
        if not _relative_path(first) or "/" not in first:
            return
        path = os.path.join(cwd, first)
        if not os.path.isfile(path):
            self.add(
                "script-missing",
                f"{first} does not exist in {cwd}, where the handler runs; "
                f"the handler would exit 127: {_missing_means(127)}",
                pointer,
            )
        elif not os.access(path, os.X_OK):
            self.add(
                "script-missing",
                f"{first} is not executable (chmod +x {first}); "
                "the handler would fail with exit 126",
                pointer,
            )

    def interpreted_script(self, program: str, script: str, pointer: str, cwd: str) -> None:
        """`python3 ../x.py`: the interpreter needs no exec bit, but the script must exist."""
        if not _relative_path(script) or os.path.isfile(os.path.join(cwd, script)):
            return
        from agenthooks.sources.reading.missing import missing_exit

        code = missing_exit(program)
        self.add(
            "script-missing",
            f"{script} does not exist in {cwd}, where the handler runs; "
            f"{program} would fail to open it and exit {code}: {_missing_means(code)}",
            pointer,
        )


def _missing_means(code: int) -> str:
    """What a hooks.json handler exiting `code` does, read with the hooks.json protocol by
    agenthooks' run under every host, and by Antigravity (its hooks page: exit 2 blocks)."""
    if code == 2:
        return "exit 2 is a block, so this hook blocks every call it gates"
    return "a warning, so this gate is off (a deny under --fail-closed)"


def _has_controls(text: str) -> bool:
    from agenthooks.escape import has_controls  # only validate and list need it

    return has_controls(text)


def _overlap(one: str | None, other: str | None) -> bool:
    """Whether two matchers surely select some tool in common (equal, or one selects all)."""
    return one == other or matches_everything(one) or matches_everything(other)


# Interpreters whose first argument, unless it is an option, is a script path; a version
# suffix (python3.12, pypy3) is allowed.
INTERPRETERS = frozenset({
    "python", "pypy", "node", "nodejs", "bash", "sh", "dash", "zsh", "ruby", "perl", "php",
    "deno", "bun", "tsx",
})


def _words(command: str) -> list[str]:
    import shlex

    try:
        return shlex.split(command)
    except ValueError:  # unbalanced quotes: the shell will say so
        return command.split()


def _relative_path(word: str) -> bool:
    return bool(word) and not word.startswith(("/", "~", "-")) and not any(
        char in word for char in "$`*?[{"
    )


def _interpreter(words: list[str]) -> tuple[str, str] | None:
    """(interpreter, script) of `python3 x.py`, `/usr/bin/env node x.js`, `deno run x.ts`."""
    index = 0
    if os.path.basename(words[0]) == "env" and len(words) > 1:
        index = 1
    program = os.path.basename(words[index])
    if program.rstrip("0123456789.") not in INTERPRETERS:
        return None
    rest = words[index + 1:]
    if program in ("deno", "bun") and rest[:1] == ["run"]:
        rest = rest[1:]
    if not rest or rest[0].startswith("-"):
        return None  # `python3 -m x`, `bash -c '...'`, a REPL: no script path to check
    return program, rest[0]


def has_nested_quantifier(pattern: str) -> bool:
    """Whether a repetition holds a repetition of varying length (`(\\w+\\s?)+`).

    Such a pattern can match one string in exponentially many ways, and Python's regex engine
    tries them all before it fails. A fixed count inside (`(ab{2})+`) is harmless, and so are
    possessive repeats and atomic groups, which never backtrack into themselves.
    """
    try:
        import re._parser as parser  # type: ignore[import-not-found, unused-ignore]
    except ImportError:  # Python 3.10: the same parser under its old name
        import sre_parse as parser  # type: ignore[no-redef, unused-ignore]

    try:
        parsed = parser.parse(pattern)
    except (re.error, RecursionError):
        return False
    stack: list[tuple[Any, bool]] = [(parsed, False)]
    while stack:
        items, inside_repeat = stack.pop()
        for op, av in items:
            name = str(op)
            if name in ("MAX_REPEAT", "MIN_REPEAT"):
                low, high, body = av
                if inside_repeat and high != low and high > 1:
                    return True
                stack.append((body, inside_repeat or high > 1))
            else:
                stack.extend((child, inside_repeat) for child in _children(name, av))
    return False


def _children(name: str, av: Any) -> list[Any]:
    """The sub-patterns of one parsed regex node that can backtrack."""
    if name == "SUBPATTERN":
        return [av[-1]]
    if name == "BRANCH":
        return list(av[1])
    if name in ("ASSERT", "ASSERT_NOT"):
        return [av[1]]
    if name == "GROUPREF_EXISTS":
        return [branch for branch in av[1:] if branch is not None]
    return []  # atoms, atomic groups, possessive repeats


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


def check_document(doc: Any, source: Source, *, thorough: bool) -> Checker:
    """Run the rules on a parsed document; the checker holds findings and handlers.

    Errors are always found; warnings only when `thorough`.
    """
    checker = Checker(source, thorough=thorough)
    checker.document(doc)
    return checker
