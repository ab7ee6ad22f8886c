"""`agenthooks list`: the handlers of the hooks.json files, or those that would run.

With `--event`/`--tool` the list comes from `agenthooks.selection`, the code `run` uses, so it
shows exactly what `run` would run: enabled handlers whose matcher selects the tool, each
command once per workspace.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from agenthooks import selection
from agenthooks.commands.validate import looked_in
from agenthooks.config import discovery
from agenthooks.config.loader import check_file
from agenthooks.config.model import Handler, HookFile
from agenthooks.events import EVENTS, TOOL_EVENTS, is_tool_event, unknown_event_hint
from agenthooks.matcher import matches_everything
from agenthooks.report.diagnostics import TextReporter, ValidationResult, exact_json
from agenthooks.report.escape import printable
from agenthooks.report.table import render_table

HEADERS = ("SOURCE", "HOOK", "EVENT", "MATCHER", "COMMAND", "TIMEOUT", "ENABLED")


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
    return {
        "source": handler.source.path,
        "hook": handler.hook,
        "event": handler.event,
        "matcher": handler.matcher if is_tool_event(handler.event) else None,
        "command": handler.command,
        "timeout": handler.timeout,
        "enabled": handler.enabled,
        "type": handler.kind,
    }


def _nothing_message(
    event: str | None, tool: str | None, *, workspaces: Sequence[str], no_user: bool,
    files: Sequence[HookFile],
) -> str:
    if not files:
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
) -> int:
    """Print the handlers; 1 if any file has errors (its handlers are then left out) or the
    event is unknown, else 0."""
    if event is not None and event not in EVENTS:
        sys.stderr.write(printable(
            f"agenthooks: unknown event {event!r}: {unknown_event_hint(event)}"
        ) + "\n")
        return 1
    found = discovery.discover_all(configs=configs, workspaces=workspaces, no_user=no_user)
    files = [check_file(source) for source in found.sources]
    broken = [hook_file for hook_file in files if not hook_file.ok]
    if broken or found.diagnostics:
        # Only errors of broken files, and what discovery skipped: list is not a linter, and
        # warnings of good files are `validate`'s business.
        result = ValidationResult(
            sources=tuple(hook_file.source for hook_file in broken),
            diagnostics=(*found.diagnostics, *(d for f in broken for d in f.errors)),
        )
        TextReporter(sys.stderr, summary=False).report(result)
        for hook_file in broken:
            sys.stderr.write(printable(
                f"agenthooks: {hook_file.source.path} has errors; its handlers are not listed "
                f"(Antigravity ignores the whole file)"
            ) + "\n")
    if tool is not None and event is not None and not is_tool_event(event):
        sys.stderr.write(printable(
            f"agenthooks: {event} ignores matchers; --tool {tool} changes nothing"
        ) + "\n")

    handlers = chosen_handlers(files, event, tool)
    if fmt == "json":
        sys.stdout.write(exact_json([as_json(handler) for handler in handlers]) + "\n")
    elif handlers:
        render_table(HEADERS, [_row(handler) for handler in handlers], stream=sys.stdout)
    if not handlers and (files or not found.diagnostics):  # else the warning said why
        sys.stderr.write(printable(_nothing_message(
            event, tool, workspaces=workspaces, no_user=no_user, files=files
        )) + "\n")
    return 1 if broken else 0


def _row(handler: Handler) -> tuple[str, ...]:
    """One table row; config text escaped, so a command cannot hide behind `\\r` or ANSI."""
    cells = (
        handler.source.path, handler.hook, handler.event, _matcher_text(handler),
        _command_text(handler), f"{handler.timeout}s", "yes" if handler.enabled else "no",
    )
    return tuple(printable(cell) for cell in cells)
