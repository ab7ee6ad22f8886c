"""`agenthooks list`: the handlers of the hook files, or those that would run, and beside
them the in-process hooks: Markdown hooks and `--python MODULE:ATTR` hooks.

With `--event` and/or `--tool` the handlers come from `Hooks.select`, the one selection `run`
and `run --dry-run` use: the same files left out under `--host` (named on stderr), each
matcher seeing the tool in its own dialect's words, identical commands once. The caller is
`--host`, else the host whose tool table knows `--tool`'s name. In-process hooks are listed in
the order the engine runs them (priority, then registration); a Markdown hook whose `when`
reads only the tool name is decided for `--tool`, one whose `when` needs more of the payload
shows as conditional.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from agenthooks.cli.commands.validate import looked_in
from agenthooks.escape import printable
from agenthooks.model.eventnames import unknown_event_hint
from agenthooks.model.events import ALL_EVENTS, TOOL_CALL_EVENTS, is_tool_event
from agenthooks.model.handlers import Handler, HookFile
from agenthooks.model.hosts import HOOKS_JSON_DIALECT
from agenthooks.report.diagnostics import TextReporter, ValidationResult, exact_json
from agenthooks.report.table import is_terminal, render_plain
from agenthooks.sources import discovery
from agenthooks.sources.formats import HOOKS_JSON, SETTINGS, kind_of

if TYPE_CHECKING:
    from agenthooks.api import Hooks
    from agenthooks.kinds.inprocess.hookspec import PythonHook
    from agenthooks.sources.markdown.files import MarkdownFile

HEADERS = ("SOURCE", "HOOK", "EVENT", "MATCHER", "COMMAND", "TIMEOUT", "ENABLED")
HOOK_HEADERS = ("SOURCE", "HOOK", "KIND", "EVENT", "PRIORITY", "WHEN")


class Asked(NamedTuple):
    """What the selection is asked: an event (any dialect's word, resolved), a tool (or the
    value the event's matchers see: a SessionStart source...), and the host it runs under."""

    event: str | None
    tool: str | None
    host: str | None = None
    other_hosts: bool = False

    @property
    def selects(self) -> bool:
        return self.event is not None or self.tool is not None


def resolve_event(word: str) -> str | None:
    """The event a word names (`PreToolUse`, `BeforeTool`, `tool.pre`, `PreCompact`), as
    `run` takes it; None when no dialect knows it."""
    from agenthooks.model.eventnames import check_event
    from agenthooks.model.events import MARKDOWN_WORDS, engine_name, find_row

    word = MARKDOWN_WORDS.get(word, word)  # `--event tool.pre` as a Markdown hook says it
    try:
        return check_event(word)
    except ValueError:
        row = find_row(word)
    return None if row is None else engine_name(row)


def value_doc(event: str | None, tool: str | None) -> dict[str, str]:
    """The payload `--tool` stands for: the tool name, and on events whose matchers read
    another field (SessionStart's `source`, PreCompact's `trigger`...), that field."""
    if tool is None:
        return {}
    doc = {"tool_name": tool}
    doc.update(dict.fromkeys(matcher_fields(event) - {"tool_name"}, tool))
    return doc


def matcher_fields(event: str | None) -> set[str]:
    """The payload fields the matchers of an event's row are matched against, per dialect."""
    from agenthooks.model.events import find_row, word_of
    from agenthooks.sources.dialects.check import DIALECT_SPECS

    row = find_row(event) if event is not None else None
    if row is None:
        return set()
    fields = {spec.events.get(word_of(dialect, row) or "") for dialect, spec
              in DIALECT_SPECS.items()}
    # A fixed word (Cursor's `Stop` on stop) is no payload field: `--tool` changes nothing.
    return {field for field in fields if field is not None and not field.startswith("=")}


def tool_events() -> list[str]:
    """Every event on which some dialect's matchers see the tool name (`--tool` alone)."""
    from agenthooks.model.events import EVENT_TABLE, engine_name

    return [word for row in EVENT_TABLE if "tool_name" in matcher_fields(word := engine_name(row))]


def caller_for(host: str | None, event: str | None, tool: str | None) -> str:
    """`--host`, else the host whose tool table knows the tool's name (as `run` detects it
    from a payload naming that tool)."""
    if host is not None:
        return host
    from agenthooks.sources.payloads import detect

    return detect({"tool_name": tool} if tool is not None else {}, event)


def host_settings(host: str | None, other_hosts: bool) -> tuple[str | None, bool]:
    """`--host` and `--other-hosts`, else the user config's, as `run` reads them."""
    from agenthooks.userconfig import read_user_config

    user = read_user_config()
    return host or user.default_host, other_hosts or bool(user.other_hosts)


def selected(registry: Hooks, asked: Asked) -> list[Handler]:
    """The handlers `run` selects for the event and tool (for `--tool` alone: on any event
    that matches on the tool name), in config order."""
    caller = caller_for(asked.host, asked.event, asked.tool)
    if asked.event is not None:
        doc = value_doc(asked.event, asked.tool)
        return list(registry.select(asked.event, asked.tool, doc, caller))
    picked = {id(handler) for event in tool_events()
              for handler in registry.select(event, asked.tool, value_doc(event, asked.tool),
                                             caller)}
    return [h for f in registry.files for h in f.handlers if id(h) in picked]


def _matcher_text(handler: Handler) -> str:
    if not is_tool_event(handler.event):
        return "-"
    if handler.matcher is None:
        return "(all)"
    return handler.matcher if handler.matcher else '""'


def _command_text(handler: Handler) -> str:
    return f"prompt: {handler.command}" if handler.kind == "prompt" else handler.command


def as_json(handler: Handler) -> dict[str, object]:
    """One handler's JSON row; a plugin's has `plugin` (its name) and `pluginOff` (why its
    host does not load it, null when it does)."""
    row = _json_row(handler)
    if handler.source.plugin is not None:
        row.update(plugin=handler.source.plugin, pluginOff=handler.source.plugin_off)
    return row


def _json_row(handler: Handler) -> dict[str, object]:
    if handler.dialect != HOOKS_JSON_DIALECT:
        from agenthooks.sources.dialects.listing import dialect_json

        return dialect_json(handler)
    return {
        "source": handler.source.path,
        "hook": handler.hook,
        "event": handler.event,
        "matcher": handler.matcher if is_tool_event(handler.event) else None,
        "command": handler.command,
        "timeout": handler.timeout,
        "enabled": handler.enabled,
        "type": handler.kind,
        "dialect": handler.dialect,
    }


def _nothing_message(
    event: str | None, tool: str | None, *, workspaces: Sequence[str], no_user: bool,
    files: Sequence[HookFile], markdown: bool = False,
) -> str:
    if not files and not markdown:
        where = looked_in(workspaces=workspaces, no_user=no_user)
        return f"agenthooks: no {discovery.HOOKS_FILE} found (looked in {where})"
    if event is None and tool is None:
        return "agenthooks: no handlers in " + ", ".join(f.source.path for f in files)
    if event is None:
        return f"agenthooks: no enabled handler runs for tool {tool}"
    what = f"{event} on tool {tool}" if tool is not None and is_tool_event(event) else event
    return f"agenthooks: no enabled handler runs for {what}"


def _near_miss_hint(workspaces: Sequence[str]) -> str | None:
    """The first hook file in a place agenthooks never reads, if any."""
    import os

    from agenthooks.sources.nearmiss import near_misses_in, near_misses_upward

    misses = ([m for w in workspaces for m in near_misses_in(w)] if workspaces
              else near_misses_upward(os.getcwd()))
    return f"agenthooks: {misses[0].describe()}" if misses else None


class Found(NamedTuple):
    """What discovery found, loaded for listing."""

    files: list[HookFile]  # hooks.json files, then Claude Code and Gemini CLI settings
    markdown: list[MarkdownFile]
    diagnostics: tuple[Any, ...]

    @property
    def broken(self) -> list[HookFile]:
        return [hook_file for hook_file in self.files if not hook_file.ok]

    @property
    def broken_md(self) -> list[HookFile]:
        return [md.as_hook_file() for md in self.markdown if not md.ok]


def _find(configs: Sequence[str], workspaces: Sequence[str], no_user: bool,
          dialect: str | None) -> Found:
    """Every file as `validate` checks it; under `--dialect claude` (or gemini) no hooks.json
    file is listed."""
    from agenthooks.features.findings import load_checked

    loaded = load_checked(configs=configs, workspaces=workspaces, no_user=no_user,
                          dialect=dialect)
    kinds = (SETTINGS,) if dialect not in (None, HOOKS_JSON_DIALECT) else (HOOKS_JSON, SETTINGS)
    files = [f for f in loaded.files if kind_of(f.source) in kinds]
    return Found(files, list(loaded.markdown), loaded.notes)


def _report_broken(found: Found) -> None:
    """Only errors of broken files, and what discovery skipped: list is not a linter, and
    warnings of good files are `validate`'s business."""
    broken, broken_md = found.broken, found.broken_md
    if not (broken or broken_md or found.diagnostics):
        return
    result = ValidationResult(
        sources=tuple(hook_file.source for hook_file in (*broken, *broken_md)),
        diagnostics=(*found.diagnostics, *(d for f in (*broken, *broken_md) for d in f.errors)),
    )
    TextReporter(sys.stderr, summary=False).report(result)
    for hook_file in broken:
        _say(f"agenthooks: {hook_file.source.path} has errors; "
             f"{broken_note(hook_file.source.dialect)}")
    for hook_file in broken_md:
        _say(f"agenthooks: {hook_file.source.path} has errors; its hook is not listed "
             "(run skips it)")


def _say(line: str) -> None:
    sys.stderr.write(printable(line) + "\n")


def _handlers(found: Found, asked: Asked, named: bool) -> list[Handler]:
    """Every handler listed, or those `run` selects (the files it leaves out named)."""
    if not asked.selects:
        return [h for f in found.files for h in f.handlers]
    from agenthooks.api import Hooks

    registry = Hooks(found.files, host=asked.host, other_hosts=asked.other_hosts, named=named)
    for hook_file, why in registry.left_out:
        _say(f"agenthooks: left out {hook_file.source.path}: {why}")
    if (asked.tool is not None and asked.event is not None and not is_tool_event(asked.event)
            and not matcher_fields(asked.event)):
        _say(f"agenthooks: {asked.event} ignores matchers; --tool {asked.tool} changes nothing")
    return selected(registry, asked)


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]], wide: bool) -> None:
    """On a terminal, columns that fold at separators to its width (`report.fold`); with
    `wide`, or off a terminal, one line per row, never folded."""
    if wide or not is_terminal(sys.stdout):
        render_plain(headers, rows, stream=sys.stdout)
        return
    from agenthooks.report.fold import render_folded, terminal_columns

    render_folded(headers, rows, stream=sys.stdout, total=terminal_columns(sys.stdout))


def _print(handlers: Sequence[Handler], hooks: Sequence[HookRow], fmt: str,
           wide: bool = False) -> None:
    if fmt == "json":
        rows = [as_json(handler) for handler in handlers] + [row.as_json() for row in hooks]
        sys.stdout.write(exact_json(rows) + "\n")
        return
    if handlers:
        mixed = any(handler.dialect != HOOKS_JSON_DIALECT for handler in handlers)
        plugins = any(handler.source.plugin is not None for handler in handlers)
        headers = (*HEADERS, *(("DIALECT",) if mixed else ()), *(("PLUGIN",) if plugins else ()))
        cells = [(*_row(handler), *((handler.dialect,) if mixed else ()),
                  *((_plugin_text(handler),) if plugins else ())) for handler in handlers]
        _table(headers, cells, wide)
    if hooks:
        if handlers:
            sys.stdout.write("\n")
        _table(HOOK_HEADERS, [row.cells() for row in hooks], wide)


def list_handlers(
    *,
    configs: Sequence[str] = (),
    workspaces: Sequence[str] = (),
    no_user: bool = False,
    event: str | None = None,
    tool: str | None = None,
    fmt: str = "text",
    python: Sequence[str] = (),
    dialect: str | None = None,
    host: str | None = None,
    other_hosts: bool = False,
    wide: bool = False,
) -> int:
    """Print the handlers and in-process hooks; 1 if any file has errors (its hooks are then
    left out) or the event is unknown, else 0. `python`: `--python MODULE:ATTR` specs.

    `--event` takes any dialect's word (`BeforeTool` lists PreToolUse handlers too, and
    Claude Code's and Gemini CLI's of that meaning); `dialect` (--dialect) reads every named
    file in that dialect and limits discovery to it. `host`/`other_hosts`: as `run`'s.
    `wide`: one line per row on a terminal too."""
    resolved = resolve_event(event) if event is not None else None
    if event is not None and resolved is None:
        _say(f"agenthooks: unknown event {event!r}: {unknown_event_hint(event)}")
        return 1
    found = _find(configs, workspaces, no_user, dialect)
    _report_broken(found)
    asked = Asked(resolved, tool, *host_settings(host, other_hosts))
    handlers = _handlers(found, asked, named=bool(configs))
    hooks = chosen_hooks(_registry(found.markdown, python), resolved, tool,
                         caller_for(asked.host, resolved, tool))
    _print(handlers, hooks, fmt, wide)
    if not handlers and not hooks and (found.files or found.markdown or not found.diagnostics):
        # (else the warning said why)
        _say(_nothing_message(
            resolved, tool, workspaces=workspaces, no_user=no_user, files=found.files,
            markdown=bool(found.markdown) or bool(python),
        ))
        hint = None if found.files or found.markdown else _near_miss_hint(workspaces)
        if hint is not None:
            _say(hint)
    return 1 if found.broken or found.broken_md else 0


BROKEN_NOTE = {
    "antigravity": "its handlers are not listed (Antigravity ignores the whole file)",
}


def broken_note(dialect: str) -> str:
    """What `list` leaves out of a file with errors, as its host reads such a file."""
    found = BROKEN_NOTE.get(dialect)
    if found is not None:
        return found
    from agenthooks.sources.dialects.check import DIALECT_SPECS

    spec = DIALECT_SPECS[dialect]
    if spec.whole_file:
        return f"its handlers are not listed ({spec.host} reads none of its hooks)"
    return (f"the entries with errors are not listed ({spec.host} skips each one and runs "
            "the rest)")


def _plugin_text(handler: Handler) -> str:
    """The PLUGIN cell: the plugin's name, `(off)` when its host does not load it."""
    source = handler.source
    if source.plugin is None:
        return "-"
    return printable(source.plugin + (" (off)" if source.plugin_off is not None else ""))


def _row(handler: Handler) -> tuple[str, ...]:
    """One table row; config text escaped, so a command cannot hide behind `\\r` or ANSI."""
    if handler.dialect != HOOKS_JSON_DIALECT:
        from agenthooks.sources.dialects.listing import dialect_cells

        cells = dialect_cells(handler)
    else:
        cells = (
            handler.source.path, handler.hook, handler.event, _matcher_text(handler),
            _command_text(handler), f"{handler.timeout}s", "yes" if handler.enabled else "no",
        )
    return tuple(printable(cell) for cell in cells)


# --- in-process hooks: Markdown and --python ----------------------------------------------


class HookRow(NamedTuple):
    """One in-process hook as `list` shows it."""

    source: str
    hook: str
    kind: str  # markdown, or the Python hook's phase (decide, transform, inspect)
    event: str
    priority: int
    when: str  # the `when` text, or what the matcher says, or "(always)"
    conditional: bool  # whether it depends on more than the event and tool
    extra: dict[str, Any]

    def cells(self) -> tuple[str, ...]:
        when = f"{self.when} (conditional)" if self.conditional else self.when
        cells = (self.source, self.hook, self.kind, self.event, str(self.priority), when)
        return tuple(printable(cell) for cell in cells)

    def as_json(self) -> dict[str, object]:
        return {"source": self.source, "hook": self.hook, "kind": self.kind,
                "event": self.event, "priority": self.priority, **self.extra,
                "conditional": self.conditional}


def _registry(
    markdown: Sequence[MarkdownFile], python: Sequence[str]
) -> tuple[Hooks, dict[int, str]]:
    """One registry with the Markdown hooks, then each `--python` spec's hooks, as `run`
    builds it, and the spec each Python hook came from (by position)."""
    from agenthooks.api import Hooks

    hooks = Hooks()
    if markdown:
        from agenthooks.kinds.markdown import register_markdown

        register_markdown(hooks, markdown)
    origin: dict[int, str] = {}
    if python:
        from agenthooks.cli.commands.python_hooks import load_python_hooks

        for spec in python:
            before = len(hooks.python_hooks)
            hooks = load_python_hooks(hooks, spec)
            origin.update(dict.fromkeys(range(before, len(hooks.python_hooks)), spec))
    return hooks, origin


def chosen_hooks(
    registry: tuple[Hooks, dict[int, str]], event: str | None, tool: str | None,
    caller: str = HOOKS_JSON_DIALECT,
) -> list[HookRow]:
    """The in-process hooks to show, in the order the engine runs them per event; a hook's
    tool matcher sees the tool's name in every host's words, as in `run`."""
    from agenthooks.engine.runner import tool_names
    from agenthooks.kinds.inprocess.hookspec import selects_tool

    hooks, origin = registry
    names = tool_names(tool, caller)
    rows: list[HookRow] = []
    indexed = sorted(enumerate(hooks.python_hooks),
                     key=lambda pair: (ALL_EVENTS.index(pair[1].event), pair[1].priority,
                                       pair[1].order))
    for index, hook in indexed:
        if event is not None and hook.event != event:
            continue
        if tool is not None and event is None and hook.event not in TOOL_CALL_EVENTS:
            continue
        on_tool = hook.event in TOOL_CALL_EVENTS
        if tool is not None and on_tool and not selects_tool(hook, names):
            continue
        row = _markdown_row(hook, tool if on_tool else None)
        if row is False:
            continue
        rows.append(row if isinstance(row, HookRow) else _python_row(hook, origin.get(index)))
    return rows


def _python_row(hook: PythonHook, spec: str | None) -> HookRow:
    parts = []
    if hook.tool is not None:
        parts.append(f"tool={hook.tool}")
    parts.extend(f"{key}={glob}" for key, glob in hook.args)
    if hook.when is not None:
        parts.append(f"when={getattr(hook.when, '__name__', 'predicate')}")
    extra = {"tool": hook.tool, "args": dict(hook.args) or None}
    return HookRow(f"--python {spec}" if spec else "(python)", hook.name, hook.phase,
                   hook.event, hook.priority, " ".join(parts) or "(always)",
                   bool(hook.args) or hook.when is not None, extra)


# `payload["name"]`, `payload['name']`, `payload.get("name")`: the tool name alone.
_NAME_READS = re.compile(r"""payload\s*(?:\[\s*(["'])name\1\s*\]|\.get\(\s*(["'])name\2\s*\))""")
_CALL = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(")
# Keywords before a parenthesis (`in (...)`) and built-ins that read only what they are given.
_PURE = frozenset(("in", "not", "and", "or", "if", "else", "len", "str", "int", "bool", "type",
                   "any", "all", "sorted", "list", "tuple", "dict", "min", "max", "hasattr",
                   "getattr"))


def reads_only_the_name(when: str) -> bool:
    """Whether a `when` reads nothing of the payload but the tool name (and calls no function
    of the script), so that the tool name decides it."""
    rest = _NAME_READS.sub("NAME", when)
    if re.search(r"\bpayload\b", rest):
        return False
    return all(name in _PURE or name in ("startswith", "endswith") for name in _CALL.findall(rest))


def _markdown_row(hook: PythonHook, tool: str | None) -> HookRow | bool | None:
    """The row of a Markdown hook; False when its `when` rules the tool out; None for a
    Python hook."""
    from agenthooks.kinds.markdown import MarkdownHook

    md = hook.fn
    if not isinstance(md, MarkdownHook):
        return None
    front = md.front
    extra = {"source_event": front.event, "when": front.when, "on_error": front.on_error,
             "timeout_ms": front.timeout_ms}
    conditional = front.when is not None
    if front.when is not None and reads_only_the_name(front.when) and tool is not None:
        decided = _when_for_tool(md, hook.event, tool)
        if decided is False:
            return False
        conditional = decided is None
    return HookRow(md.path, md.name, "markdown", hook.event, front.priority,
                   front.when or "(always)", conditional, extra)


def _when_for_tool(md: Any, event: str, tool: str) -> bool | None:
    """The hook's `when` for a call of `tool` with no arguments; None if it cannot say."""
    from agenthooks.errors import HookFailure
    from agenthooks.kinds.inprocess.context import Context, turn_for
    from agenthooks.kinds.inprocess.frozen import freeze

    payload = {"tool_name": tool, "tool_input": {}}
    ctx = Context(event, freeze(payload), tool, freeze({}), turn_for(None))
    try:
        return bool(md.when(ctx))
    except HookFailure:
        return None
