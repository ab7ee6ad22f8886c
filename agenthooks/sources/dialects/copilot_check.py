"""The rules of a GitHub Copilot CLI hooks file (`sources.dialects.copilot`): one walk over a parsed
document (github/docs@05da5bc content/copilot/reference/hooks-reference.md).

    version    must be 1 ("a bad version ... rejects the entire file")
    hooks      an object of events, each a list of handlers ("a non-array event list"
               rejects the file); a bad handler is dropped alone, its siblings load
    handler    `type` command (default), http or prompt; a command gives `bash`,
               `powershell` or `command`, or `exec` with `args` (never both); `cwd`, `env`,
               `timeoutSec` (alias `timeout`, seconds, default 30); `matcher` an anchored regex
               (an invalid one skips the entry)
    PascalCase event names (`PreToolUse`): Copilot gives those hooks Claude Code's payload
               (snake_case, Claude Code's tool names such as `Bash`), reads their matchers as
               Claude Code's (a name or `A|B` list matches the Copilot or the Claude Code name,
               anything else is a regex anchored on the Claude Code name) and reads Claude
               Code's answers too (`hookSpecificOutput`, `updatedInput`): measured with
               copilot 1.0.102. They are read as Claude Code handlers, with Copilot's
               `timeoutSec`; one with no Claude Code event (`ErrorOccurred`) is not run
"""

from __future__ import annotations

import json
import os
import re
import shlex

from agenthooks.model.handlers import Handler, Source, breaks_file, json_kind
from agenthooks.model.matcher import is_plain_name
from agenthooks.model.rules import ALL_RULES
from agenthooks.sources.dialects.check import DialectChecker, freeze, runs_as
from agenthooks.sources.dialects.claude import CLAUDE
from agenthooks.sources.dialects.copilot import (
    COMMAND_FIELDS,
    COPILOT,
    EVENTS,
    PASCAL_EVENTS,
    VERSION,
)
from agenthooks.sources.dialects.copilot import selection as copilot_selection
from agenthooks.sources.dialects.matching import regex_error

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.sources.dialects.spec import Dialect

TOP_KEYS = ("version", "hooks", "disableAllHooks")


class CopilotChecker(DialectChecker):
    """Walks a Copilot CLI hooks file."""

    def __init__(self, source: Source, dialect: Dialect, *, thorough: bool) -> None:
        super().__init__(source, dialect, thorough=thorough)
        self.structural_errors = 0  # errors that reject the whole file (a bad version...)

    def document(self, doc: Any) -> None:
        if not isinstance(doc, dict):
            self.add("settings-type", f'a Copilot hooks file must be an object {{"version": 1, '
                                      f'"hooks": {{...}}}}, not {json_kind(doc)}', "")
            return
        self.unknown_keys(doc, TOP_KEYS, TOP_KEYS, "a Copilot hooks file", "")
        structural = self.errors
        self.version(doc)
        hooks = doc.get("hooks", {})
        self.events(hooks, self.copilot_handler)
        if not isinstance(hooks, dict):
            return
        if doc.get("disableAllHooks") is True:
            self.all_off = True
            self.add("hooks-disabled", "`disableAllHooks` is true: Copilot runs none of this "
                                       "file's hooks", "/disableAllHooks")
            self.handlers = []  # this file's alone: not a switch over every Copilot file
        if self.structural_errors > structural:  # the whole file is rejected
            self.handlers = []
        if self.thorough and self.source.level == "workspace":
            self.claude_files_too()
            self.trusted_folder()

    def structural(self, rule: str, message: str, pointer: str) -> None:
        self.add(rule, message, pointer)
        self.structural_errors += 1

    def version(self, doc: dict[str, Any]) -> None:
        if self.version_given(doc, VERSION, f'no "version": write "version": {VERSION}, the '
                                            "schema version Copilot documents",
                              lambda value: f'"version" must be {VERSION}: Copilot rejects '
                                            f"the whole file on {json.dumps(value)}"):
            self.structural_errors += 1

    def known_event(self, event: str, pointer: str) -> bool:
        if event in PASCAL_EVENTS and event not in CLAUDE.events:
            if self.thorough:
                self.add("option-ignored", f"{event} has no Claude Code event: agenthooks "
                                           "lists it but does not run it", pointer, "key")
            return False
        if event not in EVENTS and event not in PASCAL_EVENTS:
            self.add("copilot-unknown-event", unknown_event(event), pointer, "key",
                     event_meant(event))
            return False
        return True

    def not_a_list(self, event: str, listed: Any, pointer: str) -> None:
        self.structural("event-type", f"{event} must be a list of handlers, not "
                                      f"{json_kind(listed)}: Copilot rejects the file", pointer)

    def copilot_handler(self, event: str, handler: Any, pointer: str) -> None:
        """One item of an event's list. "A malformed hook item ... only that item is dropped
        and logged—valid sibling hooks in the same file still load" (measured with copilot
        1.0.102 too): what would be an error in the item is said as `copilot-item-dropped`,
        and the rest of the file runs, in Copilot and in agenthooks."""
        start, errors = len(self.findings), self.errors
        self.copilot_item(event, handler, pointer)
        if self.errors == errors:
            return
        found = self.findings[start:]
        del self.findings[start:]
        self.errors = errors
        for finding in found:
            if not breaks_file(ALL_RULES[finding.rule].severity, finding.rule):
                self.findings.append(finding)
                continue
            self.add("copilot-item-dropped", f"{finding.message} ({finding.rule}): Copilot "
                                             "drops this hook and loads the rest of the file",
                     finding.pointer, finding.anchor)

    def copilot_item(self, event: str, handler: Any, pointer: str) -> None:
        if not isinstance(handler, dict):
            self.add("handler-type", f"a handler must be an object, not {json_kind(handler)}",
                     pointer)
            return
        errors_before = self.errors
        found = self.flat_type(handler, pointer)
        if found is None:
            return
        kind, spec = found
        self.option_values(handler, spec.keys, pointer)
        text = self.command_of(handler, pointer) if kind == "command" else \
            self.required(kind, spec.field or "url", handler, pointer)
        if text and self.thorough:
            self.gate_checks(event, kind, text, pointer)
        matcher = self.copilot_matcher(event, handler, pointer)
        timeout = self.copilot_timeout(handler, pointer)
        if not spec.runs_offline and self.thorough:
            self.add("handler-host-only", f"a {kind} handler needs Copilot itself: agenthooks "
                                          "lists it but skips it when it runs hooks",
                     pointer + ("/type" if "type" in handler else ""))
        if self.errors == errors_before and text:
            self.handlers.append(self.record(event, matcher, handler, kind, text, timeout,
                                             pointer))

    def command_of(self, handler: dict[str, Any], pointer: str) -> str:
        """The command a command handler runs here (POSIX: `bash`, else `command`), or its
        `exec` program."""
        given = [key for key in COMMAND_FIELDS if key in handler]
        if "exec" in handler:
            if given:
                self.add("option-type", f"`exec` runs a program without a shell: it cannot go "
                                        f"with `{given[0]}`", f"{pointer}/{given[0]}", "key")
            return self.required("command", "exec", handler, pointer)
        if not given:
            self.add("command-missing", "a command handler needs `bash`, `powershell`, "
                                        "`command` or `exec`", pointer)
            return ""
        field = "bash" if "bash" in handler else "command" if "command" in handler else None
        if field is None:  # powershell alone: nothing runs on this platform
            if self.thorough:
                # Measured with copilot 1.0.102 on Linux: "Denied by preToolUse hook from
                # ... (hook errored)" for every call.
                self.add("option-ignored", "only `powershell` is given: on Linux and macOS "
                                           "Copilot cannot run this hook and counts it as "
                                           "errored, which on preToolUse denies every call, "
                                           "and so does agenthooks (give `bash` or "
                                           "`command`)", f"{pointer}/powershell", "key")
            return POWERSHELL_ONLY if isinstance(handler["powershell"], str) else ""
        text = self.required("command", field, handler, pointer)
        if text:
            self.command_text(text, f"{pointer}/{field}")
        return text

    def gate_checks(self, event: str, kind: str, text: str, pointer: str) -> None:
        """What would leave a gate open without a word: Claude Code's answer fields under a
        camelCase event, and a gate Copilot lets through when it fails."""
        if kind == "command":
            self.claude_answer(event, text, pointer)
        if event.lower() not in GATE_EVENTS:
            return
        if kind == "http":
            self.add("copilot-fails-open", f"an http {event} hook fails open in Copilot: a "
                                           "network error, a timeout or a non-2xx answer lets "
                                           "the call through (and only an https URL is "
                                           "allowed here); run the gate as a command through "
                                           f"`agenthooks run {event} --host copilot "
                                           "--fail-closed`", pointer)
        elif AGENTHOOKS_RUN.search(text) and "--fail-closed" not in text:
            self.add("copilot-fails-open", "Copilot lets the call through when a hook times "
                                           "out, on every event: without --fail-closed, a gate "
                                           "of agenthooks that fails or times out lets it "
                                           "through too; add --fail-closed, which answers a "
                                           "deny inside Copilot's timeoutSec", pointer)

    def claude_answer(self, event: str, text: str, pointer: str) -> None:
        """A camelCase hook whose command, or the script it names, answers with Claude Code's
        fields: Copilot reads `permissionDecision` and `modifiedArgs` there and ignores
        `hookSpecificOutput` and `updatedInput` (measured with copilot 1.0.102: the call
        ran; github/copilot-cli#2013), so such a gate is silently open."""
        if event in PASCAL_EVENTS:
            return
        said = [word for word in CLAUDE_ANSWERS if word in text or word in _script_text(
            text, self.source.workspace)]
        if said:
            self.add("copilot-claude-answer", f"this hook answers with Claude Code's "
                                              f"`{said[0]}`, which Copilot ignores under the "
                                              f"camelCase {event}: write Copilot's fields "
                                              "(permissionDecision, permissionDecisionReason, "
                                              "modifiedArgs), or use the PascalCase event, "
                                              "where Copilot reads Claude Code's answers",
                     pointer)

    def copilot_matcher(self, event: str, handler: dict[str, Any], pointer: str) -> str | None:
        matcher = handler.get("matcher")
        if not isinstance(matcher, str):
            return None
        where = pointer + "/matcher"
        skipped = f"matcher {matcher!r} is not a valid regex: Copilot skips this hook (and "\
                  "so does agenthooks), and runs the others of the file"
        if event in PASCAL_EVENTS:
            if regex_error(claude_matcher(matcher) or "") is not None:
                self.add("copilot-matcher-skipped", skipped, where)
            return matcher
        if EVENTS[event] is None and matcher and self.thorough:
            self.add("flat-matcher", f"{event} has no matcher: Copilot runs these handlers "
                                     f"on every {event}", where, "key")
        elif copilot_selection(matcher, event).form == "never":
            self.add("copilot-matcher-skipped", skipped, where)
        else:
            self.host_tool_words("copilot", event, matcher, where)
        return matcher

    def copilot_timeout(self, handler: dict[str, Any], pointer: str) -> float:
        key = "timeoutSec" if "timeoutSec" in handler else "timeout"
        return self.seconds(handler, key, COPILOT.default_timeout, pointer, named=f"`{key}`",
                            counted="Copilot")

    def record(self, event: str, matcher: str | None, handler: dict[str, Any], kind: str,
               text: str, timeout: float, pointer: str) -> Handler:
        """The Handler of a valid handler object: run in order (Copilot's `chain`), in its
        `cwd` (relative to the repository root) when it gives one."""
        # The field the text came from is the text (`bash`, `command`, `exec` with `args`);
        # `powershell` beside `bash` stays an option, which convert reports where it is lost.
        used = "exec" if "exec" in handler else "bash" if "bash" in handler else "command"
        options = tuple(sorted((key, freeze(value)) for key, value in handler.items()
                               if key not in ("type", "timeoutSec", "timeout", "matcher",
                                              used, "args", kind == "http" and "url")))
        how = runs_as(COPILOT, event, handler)
        cwd = handler.get("cwd")
        if isinstance(cwd, str) and cwd and kind == "command":
            program = text if how["args"] is None else "exec " + shlex.join(
                [text, *how["args"]])
            text, how["args"] = f"cd -- {shlex.quote(cwd)} && {program}", None
        # A PascalCase event's handler is Claude Code's in all but its file's rules.
        pascal = event in PASCAL_EVENTS
        return Handler(
            source=self.source, hook="", event=event,
            matcher=claude_matcher(matcher) if pascal else matcher, command=text,
            timeout=timeout, kind=kind, enabled=True, pointer=pointer,
            dialect=CLAUDE.name if pascal else COPILOT.name, sequential=not pascal,
            options=options, **how,
        )


    def claude_files_too(self) -> None:
        """Copilot CLI also reads `.claude/settings.json` and `.claude/settings.local.json`
        of the repository ("Cross-tool ... files in the repository are also read")."""
        from agenthooks.sources.dialects.check import has_hooks
        from agenthooks.sources.dialects.cursor_check import CLAUDE_FILES

        found = [rel for rel in CLAUDE_FILES
                 if has_hooks(os.path.join(self.source.workspace, rel))]
        if found:
            self.add("copilot-reads-claude", f"Copilot CLI also runs the hooks of {found[0]}: "
                                             "a gate written in both runs twice there, and an "
                                             "`agenthooks run` entry in both runs agenthooks "
                                             "twice; keep the hooks in one of them", "",
                     "value")

    def trusted_folder(self) -> None:
        """Repository hooks run in `copilot -p` only in a folder listed in `trustedFolders`
        of `$COPILOT_HOME/config.json` (default `~/.copilot/`); elsewhere they are skipped
        without a word [measured with copilot 1.0.102; navikt/copilot PR #892]."""
        root = os.path.realpath(self.source.workspace)
        trusted = _trusted_folders()
        if trusted is None or any(root == folder or root.startswith(folder.rstrip(os.sep)
                                                                    + os.sep)
                                  for folder in trusted):
            return
        self.add("copilot-untrusted-folder", f"{root} is not among Copilot CLI's "
                                             "trustedFolders: `copilot -p` skips this "
                                             "repository's hooks without a word (trust the "
                                             "folder in Copilot once, or set "
                                             "COPILOT_ALLOW_ALL=true in CI)", "", "value")


def _trusted_folders() -> list[str] | None:
    """The `trustedFolders` of Copilot CLI's config, real paths; None without a config."""
    home = os.environ.get("COPILOT_HOME") or os.path.join(
        os.environ.get("HOME") or os.path.expanduser("~"), ".copilot")
    try:
        with open(os.path.join(home, "config.json"), "rb") as stream:
            config = json.loads(stream.read(1 << 20))
    except (OSError, ValueError, RecursionError):
        return None
    folders = config.get("trustedFolders") if isinstance(config, dict) else None
    if not isinstance(folders, list):
        return []
    return [os.path.realpath(os.path.expanduser(f)) for f in folders if isinstance(f, str)]


# The events whose hooks are gates (preToolUse and permissionRequest, in either casing).
GATE_EVENTS = frozenset(("pretooluse", "permissionrequest"))
# What a hook that gives only `powershell` runs here: an error, as Copilot counts it on Linux
# and macOS (its preToolUse then denies: `kinds.protocols.copilot`).
POWERSHELL_ONLY = ("echo 'only powershell is given, which Copilot does not run on Linux or "
                   "macOS: the hook errored' >&2; exit 1")
# A command that runs agenthooks as this event's hook.
AGENTHOOKS_RUN = re.compile(r"(?:^|[\s/;&|(])agenthooks\s+run\s")
# Claude Code's answer fields that Copilot ignores under a camelCase event.
CLAUDE_ANSWERS = ("hookSpecificOutput", "updatedInput")
# How much of a hook's script is read to find them.
SCRIPT_BYTES = 1 << 16


def _script_text(command: str, root: str) -> str:
    """The start of the script a command runs, when its first word names a file of the
    repository (relative to its root, or through $COPILOT_PROJECT_DIR / $CLAUDE_PROJECT_DIR);
    "" otherwise."""
    try:
        first = shlex.split(command)[0] if command.strip() else ""
    except ValueError:
        return ""
    for variable in ("$COPILOT_PROJECT_DIR/", "${COPILOT_PROJECT_DIR}/", "$CLAUDE_PROJECT_DIR/",
                     "${CLAUDE_PROJECT_DIR}/"):
        first = first.removeprefix(variable)
    path = os.path.join(root, first)
    if not first or first.startswith(("$", "~")) or not os.path.isfile(path):
        return ""  # a FIFO or a device is never opened: validate must not wait on one
    try:
        with open(path, "rb") as stream:
            return stream.read(SCRIPT_BYTES).decode("utf-8", "replace")
    except OSError:
        return ""


def event_meant(event: str) -> str | None:
    """The Copilot event an unknown name likely means: the same name in another case, else
    the closest one."""
    known = (*EVENTS, *sorted(PASCAL_EVENTS))
    meant = next((word for word in known if word.lower() == event.lower()), None)
    if meant is None:  # a misspelling (`preToolUze`): the closest name
        from agenthooks.model.eventnames import did_you_mean

        meant = did_you_mean(event, list(known))
    return meant


def unknown_event(event: str) -> str:
    """Why Copilot drops an event it does not know, with the name it likely meant: Copilot
    matches names case-sensitively (measured with copilot 1.0.102: `pretooluse` and
    `PreToolUSE` never ran; github/copilot-cli#4520)."""
    meant = event_meant(event)
    hint = f"did you mean {meant!r}? " if meant else ""
    return (f"unknown event {event!r}: {hint}Copilot drops the hooks of an event it does not "
            "know without a word (names are case-sensitive), and runs the rest of the file")


def claude_matcher(matcher: str | None) -> str | None:
    """A PascalCase event's matcher as Claude Code's reader says it (`sources.dialects.
    claude.selection`, which matches Claude Code's tool names): everything for `*`, `**` or
    none; a list of names, each Copilot name joined by its Claude Code name ("A literal name
    or |-separated alternation ... fires when any token equals the runtime tool name or its
    Claude tool name"); any other text anchored ("a case-sensitive regex anchored as
    ^(?:PATTERN)$ tested against the Claude tool name"). github/docs@05da5bc
    hooks-reference.md, "Claude-format matchers"; `Bash` and `B.*` selecting Copilot's bash
    were measured with 1.0.102."""
    if matcher is None or matcher.strip() in ("", "*", "**"):
        return None
    tokens = matcher.split("|")
    if not all(map(is_plain_name, tokens)):
        return f"^(?:{matcher})$"
    from agenthooks.model.tools import tool_name

    names = [*tokens, *(tool_name(token, COPILOT.name, CLAUDE.name) for token in tokens)]
    return "|".join(dict.fromkeys(names))


def read(doc: Any, source: Source, *, thorough: bool) -> DialectChecker:
    """Every finding of a Copilot hooks file, and the handlers Copilot would register."""
    checker = CopilotChecker(source, COPILOT, thorough=thorough)
    checker.document(doc)
    return checker
