"""Which handlers run for an event: enabled, of that event, with a matcher that selects the tool.

Order is config order (files in discovery order, then hook names, groups and handlers in file
order), and identical handlers (same command, working directory and timeout) run once, as
their first occurrence, as Claude Code does: `AGENTHOOKS_HOOK_NAME` then names the first hook.

Claude Code and Gemini CLI handlers come after the hooks.json ones, each selected with its
own host's rules (`sources.dialects.listing.select`): the event is one row of the cross-dialect
event table (`model.events`), the matcher is matched against the field that host matches on that
event (the tool name, SessionStart's `source`, PreCompact's `trigger`...), and each host's
dedup applies.
"""

from __future__ import annotations

import os
from _collections_abc import Iterable, Mapping, Sequence

from agenthooks._lean.memo import memo
from agenthooks.model.events import is_tool_event
from agenthooks.model.handlers import Handler, HookFile, Source, host_why
from agenthooks.model.hosts import (
    HOOKS_JSON_DIALECT,
    HOST_TABLE,
    is_generator,
    is_neutral,
    runs_itself,
)
from agenthooks.model.matcher import NAME_CHARS, handler_matches, is_plain_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    pass


def event_handlers(files: Iterable[HookFile], event: str) -> list[Handler]:
    """The enabled handlers of an event in config order, before matching and de-duplication;
    never `agenthooks run` itself (`fans_out`), which would start itself again without end."""
    # `fans_out` is asked only of a command naming agenthooks: a file of 10,000 handlers
    # makes this loop part of every run.
    return [
        handler
        for hook_file in files
        for handler in hook_file.handlers
        if handler.event == event and handler.enabled
        and not ("agenthooks" in handler.command and fans_out(handler))
    ]


def select(handlers: Sequence[Handler], event: str, tool: str | None) -> list[Handler]:
    """The handlers of `event` (already filtered by `event_handlers`) that run for `tool`."""
    tool_event = is_tool_event(event)
    chosen: list[Handler] = []
    seen: set[tuple[str, str, float]] = set()
    verdicts: dict[str | None, bool] = {}  # per matcher: many handlers share a few matchers
    for handler in handlers:
        verdict = verdicts.get(handler.matcher)
        if verdict is None:
            verdict = verdicts[handler.matcher] = selects(handler.matcher, tool_event, tool)
        if not verdict:
            continue
        key = (handler.command, handler.source.cwd, handler.timeout)
        if key in seen:
            continue
        seen.add(key)
        chosen.append(handler)
    return chosen


def selects(matcher: str | None, tool_event: bool, tool: str | None) -> bool:
    """`handler_matches`, without compiling a pattern the tool's name cannot match: one
    whose `needed_text` the name lacks (most patterns of a large file, on most calls: a run
    whose patterns are all ruled out so never imports `re`)."""
    if tool_event and tool is not None and matcher and not all(
            map(tool.__contains__, needed_text(matcher))) and not is_plain_name(matcher):
        return False  # a plain name may be another host's name for the tool (`matcher`)
    return handler_matches(matcher, tool_event, tool)


# Characters that make the one before optional or repeated (the plain ones: `NAME_CHARS`).
_QUANTIFIERS = frozenset("?*+{")
_DIGITS = frozenset("0123456789")


@memo(4096)
def needed_text(pattern: str) -> tuple[str, ...]:
    """Runs of plain characters that every name `pattern` matches whole (`re.fullmatch`)
    holds: the runs of its top level, each character neither quantified nor in a group or
    class. None for a pattern with alternation at its top level, nor for one with an
    escape or an inline flag (`(?i)`), which may make a run mean something else."""
    if "\\" in pattern or "(?" in pattern:
        return ()
    runs: list[str] = []
    run: list[str] = []
    depth = 0
    at = 0
    while at < len(pattern):
        char = pattern[at]
        if char in NAME_CHARS and not depth and pattern[at + 1:at + 2] not in _QUANTIFIERS:
            run.append(char)
            at += 1
            continue
        runs.append("".join(run))
        run = []
        if char == "|" and not depth:
            return ()
        depth += (char == "(") - (char == ")")
        at = _after(pattern, at)
        if at < 0:  # not a pattern at all: the engine says so
            return ()
    runs.append("".join(run))
    return tuple(filter(None, runs))


def _after(pattern: str, at: int) -> int:
    """Where the atom at `at` ends: after a whole class (`[...]`) or count (`{2,5}`), else
    after its one character (a `{` that starts no count is a plain `{`); -1 when a class is
    not closed."""
    char = pattern[at]
    if char == "[":
        start = at + 1 + (pattern[at + 1:at + 2] == "^")
        start += pattern[start:start + 1] == "]"  # a `]` first in a class is plain
        end = pattern.find("]", start)
        return end + 1 if end >= 0 else -1
    if char == "{":
        end = pattern.find("}", at)
        count = pattern[at + 1:end] if end >= 0 else "x"
        if count.count(",") <= 1 and _DIGITS.issuperset(count.replace(",", "")):
            return end + 1
    return at + 1


DialectValues = tuple[tuple[str, str, "str | None"], ...]  # (dialect, its event, value)


def dialect_values(event: str, tool: str | None, doc: Mapping[str, object] | None,
                   caller: str,
                   dialects: Iterable[str] | None = None) -> DialectValues:
    """Per dialect with a word for the event's row: that word, and the value its matchers
    are matched against on it (the tool name in that dialect's words, or the payload's
    field), or None. `dialects`: only these (the files' own; default every host's), so that
    no other host's tables are imported."""
    from agenthooks.model.events import call_word, find_row
    from agenthooks.sources.dialects import dialect_spec, every_dialect_spec

    row = find_row(event)
    if row is None:
        return ()
    found = []
    for dialect in list(every_dialect_spec()) if dialects is None else dialects:
        word = call_word(dialect, row, caller, tool)
        if word is None:
            continue
        field = dialect_spec(dialect).events.get(word)
        value = (doc or {}).get(field) if field not in (None, "tool_name") else None
        if field is not None and field.startswith("="):  # a fixed word (Cursor's `Stop`)
            value = field[1:]
        found.append((dialect, word, tool_in(tool, caller, dialect) if field == "tool_name"
                      else value if isinstance(value, str) else None))
    return tuple(found)


def tool_in(tool: str | None, caller: str, dialect: str) -> str | None:
    """The caller's tool under the name a handler of `dialect` knows it by: matchers match
    in the handler's own words (`run_command` selects Claude Code's `Bash`)."""
    if tool is None or dialect == caller:
        return tool
    from agenthooks.model.tools import tool_name

    return tool_name(tool, caller, dialect)


def select_dialects(files: Sequence[HookFile], values: DialectValues) -> list[Handler]:
    """The Claude Code and Gemini CLI handlers that run, in discovery order."""
    from agenthooks.sources.dialects.listing import select as host_select

    every = [h for f in files for h in f.handlers if not fans_out(h)]
    chosen: set[int] = set()
    for dialect, word, value in values:
        mine = [h for h in every if h.dialect == dialect]
        chosen.update(id(h) for h in host_select(mine, word, value))
    return [h for h in every if id(h) in chosen]


def program(handler: Handler) -> tuple[str, ...]:
    """What a command handler really runs: its words with the project-directory variables
    filled in and a relative program path made absolute against its working directory, so
    that `./scripts/gate.py` in `.agents/hooks.json` and `$CLAUDE_PROJECT_DIR/.agents/scripts/
    gate.py` in `.claude/settings.json` are one program."""
    import os
    import re

    root = handler.source.workspace
    text = re.sub(r"\$\{?(?:CLAUDE|GEMINI)_PROJECT_DIR\}?", lambda _: root, handler.command)
    if any(char in text for char in "'\"\\"):
        import shlex

        try:
            words = shlex.split(text)
        except ValueError:
            return (handler.kind, handler.command)
    else:  # what shlex.split gives without quotes or escapes, without importing it
        words = re.findall(r"[^ \t\r\n]+", text)
    if words and "/" in words[0] and not os.path.isabs(words[0]):
        words[0] = os.path.normpath(os.path.join(handler.source.cwd, words[0]))
    return (handler.kind, *words, *(handler.args or ()))


def fans_out(handler: Handler) -> bool:
    """`model.itself.fans_out`, importing it only for a command that names agenthooks."""
    if handler.kind != "command" or not any(
            "agenthooks" in word for word in (handler.command, *(handler.args or ()))):
        return False
    from agenthooks.model.itself import fans_out as itself

    return itself(handler)


def once_across(first: tuple[Handler, ...], then: tuple[Handler, ...]) -> tuple[Handler, ...]:
    """`first`, then the handlers of `then` that run a program none before runs: a project
    wired for several hosts to the same scripts runs each script once per event."""
    if len(first) + len(then) < 2:  # nothing to run twice
        return first + then
    seen = {program(h) for h in first if h.kind == "command"}
    kept = []
    for handler in then:
        key = program(handler)
        if handler.kind == "command" and key in seen:
            continue
        seen.add(key)
        kept.append(handler)
    return first + tuple(kept)


class Selector:
    """Selection for many events over the same files, remembered per (event, tool).

    A harness that calls the API per tool call pays for matching once per distinct tool.
    Claude Code and Gemini CLI files (`Source.dialect`) are selected with their hosts' rules,
    remembered per (event, the values their matchers see).
    """

    def __init__(self, files: Sequence[HookFile]) -> None:
        self.files = tuple(f for f in files if f.source.dialect == HOOKS_JSON_DIALECT)
        self.dialect_files = tuple(f for f in files if f.source.dialect != HOOKS_JSON_DIALECT)
        # The files' dialects, once each, in discovery order: only their tables are read.
        # A file's handlers may be of another dialect than the file: a Copilot file's
        # PascalCase events hold Claude Code handlers.
        self._dialects = tuple(dict.fromkeys(h.dialect for f in self.dialect_files
                                             for h in f.handlers))
        self._by_event: dict[str, list[Handler]] = {}
        self._memo: dict[tuple[str, str | None], tuple[Handler, ...]] = {}
        self._dialect_memo: dict[tuple[str, DialectValues], tuple[Handler, ...]] = {}

    def __call__(self, event: str, tool: str | None, doc: Mapping[str, object] | None,
                 caller: str) -> tuple[Handler, ...]:
        """The handlers that run, each selected with its own dialect's matcher rules on
        the tool's name in its own dialect's words (`caller`: whose words `tool` is in)."""
        key = (event, tool_in(tool, caller, HOOKS_JSON_DIALECT))
        found = self._memo.get(key)
        if found is None:
            handlers = self._by_event.get(event)
            if handlers is None:
                handlers = self._by_event[event] = event_handlers(self.files, event)
            found = self._memo[key] = tuple(select(handlers, event, key[1]))
        if not self.dialect_files:
            return found
        return once_across(found, self.dialects(event, self.values(event, tool, doc, caller)))

    def values(self, event: str, tool: str | None, doc: Mapping[str, object] | None,
               caller: str) -> DialectValues:
        if not self.dialect_files:
            return ()
        return dialect_values(event, tool, doc, caller, self._dialects)

    def dialects(self, event: str, values: DialectValues) -> tuple[Handler, ...]:
        key = (event, values)
        found = self._dialect_memo.get(key)
        if found is None:
            found = self._dialect_memo[key] = tuple(select_dialects(self.dialect_files,
                                                                    values))
        return found


def left_out(source: Source, host: str | None, other_hosts: bool) -> str | None:
    """Why a discovered file does not run under `--host`, or None when it runs.

    The host runs its own files itself: running them again would double every side effect
    and every message. Another host's settings files were written for that host's tools and
    payloads; agenthooks translates both, but whether they belong in this host's runs is
    the user's call (`other_hosts`). Host-neutral files (hooks.json under Claude Code or
    Gemini CLI) always run; without a host (offline), everything runs, but a plugin's file
    its host does not load (`Source.plugin_off`: the plugin is disabled...), which never runs.
    """
    if source.plugin_off is not None:  # its host does not load it: nor does agenthooks
        return source.plugin_off
    if host is None:
        return None
    if source.dialect == host:
        if source.plugin is not None:
            return f"{HOST_NAMES.get(host, host)} runs the hooks of plugin {source.plugin} itself"
        return f"{HOST_NAMES.get(host, host)} runs this file itself"
    if runs_itself(host, source.dialect, _relative(source), source.level):
        return (f"{HOST_NAMES.get(host, host)} runs this "
                f"{HOST_NAMES.get(source.dialect, source.dialect)} file itself")
    if is_generator(source.dialect) and not other_hosts:
        tool, name = HOST_NAMES.get(source.dialect, source.dialect), HOST_NAMES.get(host, host)
        return (f"{tool}'s file, not run under {name} without --other-hosts ({tool} writes "
                f"{name}'s own hooks from it, and {name} runs those)")
    if not is_neutral(source.dialect) and not other_hosts:
        return (f"{HOST_NAMES.get(source.dialect, source.dialect)}'s file, not run under "
                f"{HOST_NAMES.get(host, host)} without --other-hosts")
    return None


def for_host(hook_file: HookFile, host: str | None) -> HookFile:
    """A file with the handlers that run when `host` calls (None: offline): a handler
    written for one host alone (`Handler.only_under`) runs under that host only, one that
    host's own handlers replace (`Handler.not_under`) never there."""
    if hook_file.source.dialect == HOOKS_JSON_DIALECT or not any(
            h.only_under is not None or h.not_under for h in hook_file.handlers):
        return hook_file
    return hook_file._replace(handlers=tuple(h for h in hook_file.handlers
                                             if host_why(h, host) is None))



def _relative(source: Source) -> str:
    """A file's path under its project root, or under the home directory for a user file."""
    base = source.workspace if source.level == "workspace" else os.path.expanduser("~")
    return os.path.relpath(source.file, base)


HOST_NAMES: dict[str, str] = {row.id: row.name for row in HOST_TABLE}
