"""`agenthooks list`: the handlers of the hooks.json files, or those that would run, and
beside them the in-process hooks: Markdown hooks and `--python MODULE:ATTR` hooks.

With `--event`/`--tool` the list comes from `agenthooks.selection`, the code `run` uses, so it
shows exactly what `run` would run: enabled handlers whose matcher selects the tool, each
command once per workspace. In-process hooks are listed in the order the engine runs them
(priority, then registration); a Markdown hook whose `when` reads only the tool name is
decided for `--tool`, one whose `when` needs more of the payload shows as conditional.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from agenthooks import selection
from agenthooks.commands.validate import looked_in
from agenthooks.config import discovery
from agenthooks.config.loader import check_file
from agenthooks.config.model import Handler, HookFile
from agenthooks.events import (
    ALL_EVENTS,
    EVENTS,
    TOOL_CALL_EVENTS,
    TOOL_EVENTS,
    is_tool_event,
    unknown_event_hint,
)
from agenthooks.matcher import matches_everything
from agenthooks.report.diagnostics import TextReporter, ValidationResult, exact_json
from agenthooks.report.escape import printable
from agenthooks.report.table import render_table

if TYPE_CHECKING:
    from agenthooks.api import Hooks
    from agenthooks.engine.hookspec import PythonHook
    from agenthooks.markdown.files import MarkdownFile

HEADERS = ("SOURCE", "HOOK", "EVENT", "MATCHER", "COMMAND", "TIMEOUT", "ENABLED")
HOOK_HEADERS = ("SOURCE", "HOOK", "KIND", "EVENT", "PRIORITY", "WHEN")


def chosen_handlers(
    files: Sequence[HookFile], event: str | None, tool: str | None
) -> list[Handler]:
    """The handlers to show, in config order."""
    every = [handler for hook_file in files for handler in hook_file.handlers]
    if event is None and tool is None:
        return every
    if event is not None and (tool is not None or not is_tool_event(event)):
        return selection.select(selection.event_handlers(files, event), event, tool)
    if event is not None:
        # A tool event without --tool: every enabled handler that would run for some tool.
        return _for_some_tool(selection.event_handlers(files, event), event)
    # --tool alone: what would run for that tool on each tool event, in config order.
    assert tool is not None
    picked = {
        id(handler)
        for tool_event in TOOL_EVENTS
        for handler in selection.select(
            selection.event_handlers(files, tool_event), tool_event, tool
        )
    }
    return [handler for handler in every if id(handler) in picked]


def _for_some_tool(handlers: Sequence[Handler], event: str) -> list[Handler]:
    """The handlers that run for at least one tool: all but those an earlier identical
    handler always takes the place of (same matcher, or an earlier one that matches all).

    Whether two handlers are identical is `selection.select`'s decision, asked of the pair
    with matchers set aside, so `list` and `run` cannot disagree on it.
    """
    shown: list[Handler] = []
    for handler in handlers:
        hidden = any(
            (earlier.matcher == handler.matcher or matches_everything(earlier.matcher))
            and len(selection.select(
                [earlier._replace(matcher=None), handler._replace(matcher=None)], event, None
            )) == 1
            for earlier in shown
        )
        if not hidden:
            shown.append(handler)
    return shown


def _matcher_text(handler: Handler) -> str:
    if not is_tool_event(handler.event):
        return "-"
    if handler.matcher is None:
        return "(all)"
    return handler.matcher if handler.matcher else '""'


def _command_text(handler: Handler) -> str:
    return f"prompt: {handler.command}" if handler.kind == "prompt" else handler.command


def as_json(handler: Handler) -> dict[str, object]:
    if handler.dialect != "antigravity":
        from agenthooks.dialects.listing import dialect_json

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
) -> int:
    """Print the handlers and in-process hooks; 1 if any file has errors (its hooks are then
    left out) or the event is unknown, else 0. `python`: `--python MODULE:ATTR` specs.

    `--event` takes any dialect's word (`BeforeTool` lists PreToolUse handlers too, and
    Claude Code's and Gemini CLI's of that meaning); `dialect` (--dialect) reads every named
    file in that dialect and limits discovery to it."""
    from agenthooks.dialects.listing import DialectListing, event_row

    asked = event
    row = event_row(event) if event is not None else None
    if event is not None:
        from agenthooks.markdown.events import EVENT_WORDS

        event = EVENT_WORDS.get(event, event)  # `--event tool.pre` as a Markdown hook says it
        if event not in ALL_EVENTS and row is not None:
            event = row.engine or row.antigravity or event
    if event is not None and event not in ALL_EVENTS and row is None:
        sys.stderr.write(printable(
            f"agenthooks: unknown event {event!r}: {unknown_event_hint(event)}"
        ) + "\n")
        return 1
    found = discovery.discover_all(configs=configs, workspaces=workspaces, no_user=no_user,
                                   dialects=True, dialect=dialect)
    files = [check_file(source) for source in found.sources]
    listing = DialectListing.load(found.dialect_sources, row, asked, tool)
    markdown = _markdown(found.markdown)
    broken = [hook_file for hook_file in files if not hook_file.ok]
    broken_md = [md.as_hook_file() for md in markdown if not md.ok]
    broken_dialect = listing.broken
    broken = [*broken, *broken_dialect]
    if broken or broken_md or found.diagnostics:
        # Only errors of broken files, and what discovery skipped: list is not a linter, and
        # warnings of good files are `validate`'s business.
        result = ValidationResult(
            sources=tuple(hook_file.source for hook_file in (*broken, *broken_md)),
            diagnostics=(*found.diagnostics,
                         *(d for f in (*broken, *broken_md) for d in f.errors)),
        )
        TextReporter(sys.stderr, summary=False).report(result)
        for hook_file in broken:
            sys.stderr.write(printable(
                f"agenthooks: {hook_file.source.path} has errors; "
                f"{BROKEN_NOTE[hook_file.source.dialect]}"
            ) + "\n")
        for hook_file in broken_md:
            sys.stderr.write(printable(
                f"agenthooks: {hook_file.source.path} has errors; its hook is not listed "
                "(run skips it)"
            ) + "\n")
    if (tool is not None and event is not None and not is_tool_event(event)
            and not listing.uses_value):
        sys.stderr.write(printable(
            f"agenthooks: {event} ignores matchers; --tool {tool} changes nothing"
        ) + "\n")

    plain = chosen_handlers(files, event, tool) if event in (None, *EVENTS) else []
    if dialect not in (None, "antigravity"):
        plain = []
    handlers = [*plain, *listing.handlers]
    hooks = chosen_hooks(_registry(markdown, python), event, tool)
    if fmt == "json":
        rows = [as_json(handler) for handler in handlers] + [row.as_json() for row in hooks]
        sys.stdout.write(exact_json(rows) + "\n")
    else:
        if handlers:
            mixed = any(handler.dialect != "antigravity" for handler in handlers)
            headers = (*HEADERS, "DIALECT") if mixed else HEADERS
            cells = [(*_row(handler), handler.dialect) if mixed else _row(handler)
                     for handler in handlers]
            render_table(headers, cells, stream=sys.stdout)
        if hooks:
            if handlers:
                sys.stdout.write("\n")
            render_table(HOOK_HEADERS, [row.cells() for row in hooks], stream=sys.stdout)
    nothing = not handlers and not hooks
    if nothing and (files or markdown or listing.files or not found.diagnostics):
        # (else the warning said why)
        sys.stderr.write(printable(_nothing_message(
            event, tool, workspaces=workspaces, no_user=no_user, files=[*files, *listing.files],
            markdown=bool(markdown) or bool(python),
        )) + "\n")
    return 1 if broken or broken_md else 0


BROKEN_NOTE = {
    "antigravity": "its handlers are not listed (Antigravity ignores the whole file)",
    "claude": "its handlers are not listed (Claude Code reads none of its hooks)",
    "gemini": "the entries with errors are not listed (Gemini CLI skips each one and runs "
              "the rest)",
}


def _row(handler: Handler) -> tuple[str, ...]:
    """One table row; config text escaped, so a command cannot hide behind `\\r` or ANSI."""
    if handler.dialect != "antigravity":
        from agenthooks.dialects.listing import dialect_cells

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


def _markdown(sources: Sequence[Any]) -> list[MarkdownFile]:
    if not sources:
        return []
    from agenthooks.markdown.files import load_markdown

    return load_markdown(sources)


def _registry(
    markdown: Sequence[MarkdownFile], python: Sequence[str]
) -> tuple[Hooks, dict[int, str]]:
    """One registry with the Markdown hooks, then each `--python` spec's hooks, as `run`
    builds it, and the spec each Python hook came from (by position)."""
    from agenthooks.api import Hooks

    hooks = Hooks()
    if markdown:
        from agenthooks.markdown.files import register_markdown

        register_markdown(hooks, markdown)
    origin: dict[int, str] = {}
    if python:
        from agenthooks.cli.python_hooks import load_python_hooks

        for spec in python:
            before = len(hooks.python_hooks)
            hooks = load_python_hooks(hooks, spec)
            origin.update(dict.fromkeys(range(before, len(hooks.python_hooks)), spec))
    return hooks, origin


def chosen_hooks(
    registry: tuple[Hooks, dict[int, str]], event: str | None, tool: str | None
) -> list[HookRow]:
    """The in-process hooks to show, in the order the engine runs them per event."""
    from agenthooks.engine.hookspec import selects_tool

    hooks, origin = registry
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
        if tool is not None and on_tool and not selects_tool(hook, tool):
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
    from agenthooks.markdown.hook import MarkdownHook

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
    from agenthooks.engine.context import Context, turn_for
    from agenthooks.engine.frozen import freeze
    from agenthooks.errors import HookFailure

    payload = {"tool_name": tool, "tool_input": {}}
    ctx = Context(event, freeze(payload), tool, freeze({}), turn_for(None))
    try:
        return bool(md.when(ctx))
    except HookFailure:
        return None
