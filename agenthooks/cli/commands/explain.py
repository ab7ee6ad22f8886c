"""`agenthooks explain EVENT`: every handler and in-process hook of the workspace, and whether
it would run for this event, tool and payload, and if not, why.

Whether a handler runs is never decided here: it is `Hooks.select`, the selection `run` and
`run --dry-run` make (the same files, the same files left out under `--host`, the same
caller), then Claude Code's `if` as `run` applies it per call (`engine.needs`), then the
handler types only their host can run. Explain only adds the reason of each handler that does
not run: its file was skipped for errors, its workspace is not trusted, its file is left to
its host, it is agenthooks itself, it is disabled, it is on another event, its matcher does
not select the tool in its own dialect's words, or it duplicates a handler that runs.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from agenthooks.errors import UsageError
from agenthooks.escape import printable
from agenthooks.model.handlers import Handler, HookFile
from agenthooks.model.hosts import HOOKS_JSON_DIALECT
from agenthooks.plan.select import HOST_NAMES

if TYPE_CHECKING:
    from agenthooks.api import Hooks
    from agenthooks.kinds.inprocess.hookspec import PythonHook
    from agenthooks.sources.payloads import Event

HEADERS = ("SOURCE", "HOOK", "EVENT", "MATCHER", "COMMAND", "RUNS", "WHY")
HOOK_HEADERS = ("SOURCE", "HOOK", "KIND", "EVENT", "TOOL", "RUNS", "WHY")
HOST_ONLY = "a {kind} handler: only {host} runs it"


class ExplainOptions(NamedTuple):
    event: str
    configs: Sequence[str] = ()
    workspaces: Sequence[str] = ()
    no_user: bool = False
    tool: str | None = None
    host: str | None = None
    other_hosts: bool = False
    require_trust: bool = False
    python: Sequence[str] = ()
    fmt: str = "text"


class Situation(NamedTuple):
    """What the reasons are read from: the call, what `run` selects, and why files are out."""

    call: Event
    chosen: tuple[Handler, ...]
    values: tuple[tuple[str, str, str | None], ...]  # per dialect: its event word, value
    out: dict[str, str]  # file path -> why its handlers do not run
    host: str | None = None  # the host whose run is explained (`--host`)


# --- reading the call ---------------------------------------------------------------------


def read_call(hooks: Hooks, given: str, tool: str | None, data: bytes) -> Event:
    """The call as `run` reads it; with no payload, `--tool` stands for one naming the tool
    (so that the tool's own host is the caller, as `list` takes it)."""
    from agenthooks.cli.commands.list import value_doc
    from agenthooks.model.payload import dumps
    from agenthooks.sources.payloads import read_event

    try:
        called = read_event(given, data, host=hooks.host, tool=tool)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if not called.doc and tool is not None:
        doc = value_doc(called.name, tool)
        called = read_event(given, dumps(doc).encode("utf-8"), host=hooks.host, tool=tool)
    return called


# --- loading as run does ------------------------------------------------------------------


def settings(options: ExplainOptions) -> ExplainOptions:
    """`--host`, `--other-hosts` and `--require-trust`, else the environment and the user
    config, read as `run` reads them (`userconfig.apply_settings`)."""
    from agenthooks.userconfig import apply_settings

    values: dict[str, Any] = {"host": options.host, "other_hosts": options.other_hosts,
                              "require_trust": options.require_trust}
    apply_settings(values, os.environ)
    return options._replace(host=values["host"], other_hosts=values["other_hosts"],
                            require_trust=values["require_trust"])


def load(options: ExplainOptions, require_trust: bool) -> tuple[Hooks, tuple[str, ...],
                                                                dict[int, str]]:
    """The registry `run` builds, and the `--python` spec of each Python hook (by place)."""
    from agenthooks.api import Hooks
    from agenthooks.cli.commands.python_hooks import load_python_hooks
    from agenthooks.sources.load import load_all

    loaded = load_all(configs=options.configs, workspaces=options.workspaces,
                      no_user=options.no_user, require_trust=require_trust)
    hooks = Hooks.from_loaded(loaded, host=options.host, other_hosts=options.other_hosts)
    origin: dict[int, str] = {}
    for spec in options.python:
        before = len(hooks.python_hooks)
        hooks = load_python_hooks(hooks, spec)
        origin.update(dict.fromkeys(range(before, len(hooks.python_hooks)), spec))
    return hooks, loaded.untrusted, origin


def every_file(hooks: Hooks) -> list[HookFile]:
    return [*hooks.files, *hooks.skipped_files]


def files_out(hooks: Hooks, every: Hooks, untrusted: Sequence[str]) -> dict[str, str]:
    """Why each file's handlers do not run, by path: skipped, untrusted, left out."""
    out = {f.source.path: skipped_why(f) for f in every.skipped_files}
    loaded = {f.source.path for f in every_file(hooks)}
    for hook_file in every.files:
        path = hook_file.source.path
        if path not in loaded:
            out[path] = untrusted_why(hook_file, untrusted)
    for hook_file, why in hooks.left_out:
        out.setdefault(hook_file.source.path, why)
    return out


def skipped_why(hook_file: HookFile) -> str:
    errors = hook_file.errors
    return "file skipped for errors" + (f": {errors[0]}" if errors else "")


def untrusted_why(hook_file: HookFile, untrusted: Sequence[str]) -> str:
    workspace = hook_file.source.workspace
    said = next((line for line in untrusted if f" {workspace}:" in line), None)
    return f"untrusted workspace: {said}" if said else f"untrusted workspace {workspace}"


# --- the reasons --------------------------------------------------------------------------


def _key(handler: Handler) -> tuple[str, str, str]:
    return (handler.source.path, handler.pointer, handler.event)


def host_name(dialect: str) -> str:
    return HOST_NAMES.get(dialect, dialect)


def verdict(handler: Handler, situation: Situation) -> tuple[bool, str | None]:
    """Whether `run` runs the handler (the selection says), and if not, why."""
    chosen = {_key(h) for h in situation.chosen}
    if _key(handler) in chosen:
        why = condition_why(handler, situation.call) or kind_why(handler)
        return why is None, why
    return False, not_selected_why(handler, situation)


def condition_why(handler: Handler, call: Event) -> str | None:
    """A per-call condition (Claude Code's `if`), checked as `run` checks it for this call
    (`engine.needs`)."""
    rule = handler.condition
    if rule is None:
        return None
    from agenthooks.engine.needs import holds_for
    from agenthooks.sources.payloads import Translation

    words = Translation(call.caller, call.doc, call.data, call.tool, call.args)
    if holds_for(handler, words, call.doc.get("cwd")):
        return None
    what = "if" if handler.condition_test is None else "condition"  # Droid's commandRegex
    return f"its {what} {rule!r} does not hold for {words.tool_in(handler.dialect) or 'this call'}"


def kind_why(handler: Handler) -> str | None:
    """The handler types only their host runs (a prompt, an MCP tool, an agent...)."""
    from agenthooks.kinds import runs_offline

    if runs_offline(handler.kind):
        return None
    return HOST_ONLY.format(kind=handler.kind, host=host_name(handler.dialect))


def not_selected_why(handler: Handler, situation: Situation) -> str:
    from agenthooks.plan.select import fans_out

    out = situation.out.get(handler.source.path)
    if out is not None:
        return out
    if fans_out(handler):
        return "agenthooks itself (`agenthooks run` registered as the host's hook), not a handler"
    from agenthooks.model.handlers import host_why

    for_another = host_why(handler, situation.host)
    if for_another is not None:
        return for_another
    if not handler.enabled:
        return "disabled"
    word = event_word(handler.dialect, situation)
    if word != handler.event:
        return f"another event ({handler.event})"
    return matcher_why(handler, situation) or duplicate_why(handler, situation)


def event_word(dialect: str, situation: Situation) -> str | None:
    """The word a dialect's files say the event with (None: that dialect has none)."""
    if dialect == HOOKS_JSON_DIALECT:
        return situation.call.name
    return next((word for d, word, _ in situation.values if d == dialect), None)


def matcher_why(handler: Handler, situation: Situation) -> str | None:
    """Why the handler's matcher does not select this call, in its own dialect's words."""
    from agenthooks.sources.dialects import matching

    seen, field = seen_value(handler, situation)
    if matching.matches(handler.dialect, handler.matcher, handler.event, seen):
        return None
    # What validate says of the matcher's names, when it says they select nothing (a
    # misspelling, another host's name) or nothing but a tool of that very name.
    said = "".join(f"; {word.rule}: {word.message}"
                   for word in matching.tool_words(handler.dialect, handler.matcher,
                                                   handler.event)
                   if word.rule != "matcher-other-host")
    return (f"matcher {handler.matcher!r} ({host_name(handler.dialect)}) does not select "
            f"{what_is_seen(seen, field, situation.call.tool, handler.dialect)}{said}")


def seen_value(handler: Handler, situation: Situation) -> tuple[str | None, str]:
    """The value the handler's matcher sees, and the field it comes from."""
    from agenthooks.plan.select import tool_in

    if handler.dialect == HOOKS_JSON_DIALECT:
        return tool_in(situation.call.tool, situation.call.caller, HOOKS_JSON_DIALECT), "tool_name"
    from agenthooks.sources.dialects.check import DIALECT_SPECS

    field = DIALECT_SPECS[handler.dialect].events.get(handler.event) or "tool_name"
    value = next((v for d, _, v in situation.values if d == handler.dialect), None)
    return value, field


def what_is_seen(seen: str | None, field: str, tool: str | None, dialect: str) -> str:
    if field != "tool_name":
        return f"{field} {seen!r}" if seen is not None else f"a call with no {field}"
    if seen is not None:
        return seen
    if tool is not None:
        return f"{tool} (no {host_name(dialect)} name for it)"
    return "a call with no tool name"


def duplicate_why(handler: Handler, situation: Situation) -> str:
    """The handler that runs in this one's place: the same command (hooks.json), the same
    host's dedup key, or the same program across files."""
    from agenthooks.plan.select import program
    from agenthooks.sources.dialects.listing import dedup_key

    for other in situation.chosen:
        same = (
            (handler.dialect == other.dialect == HOOKS_JSON_DIALECT
             and (handler.command, handler.source.cwd, handler.timeout)
             == (other.command, other.source.cwd, other.timeout))
            or (handler.dialect == other.dialect != HOOKS_JSON_DIALECT
                and dedup_key(handler) == dedup_key(other))
            or (handler.kind == other.kind == "command" and program(handler) == program(other))
        )
        if same:
            return f"duplicate of {label(other)}, which runs the same command"
    return "not selected"


def label(handler: Handler) -> str:
    if handler.dialect == HOOKS_JSON_DIALECT or handler.name:
        return f"{handler.hook or handler.name} ({handler.source.path})"
    return handler.hook or f"{handler.source.path}#{handler.pointer}"


# --- the rows -----------------------------------------------------------------------------


def handler_rows(every: Hooks, situation: Situation) -> list[dict[str, Any]]:
    rows = []
    for hook_file in every_file(every):
        if not hook_file.handlers and hook_file.source.path in situation.out:
            rows.append(file_row(hook_file, situation.out[hook_file.source.path]))
        for handler in hook_file.handlers:
            runs, why = verdict(handler, situation)
            rows.append({"source": handler.source.path, "hook": handler.hook,
                         "dialect": handler.dialect, "event": handler.event,
                         "matcher": handler.matcher, "command": handler.command,
                         "runs": runs, "why": why})
    return rows


def file_row(hook_file: HookFile, why: str) -> dict[str, Any]:
    """A file whose handlers are unknown (it did not load): one row saying why."""
    return {"source": hook_file.source.path, "hook": None, "dialect": hook_file.source.dialect,
            "event": None, "matcher": None, "command": None, "runs": False, "why": why}


def hook_rows(hooks: Hooks, call: Event, origin: Mapping[int, str]) -> list[dict[str, Any]]:
    """The in-process hooks, each with whether `run` selects it (before its `when`)."""
    plan = hooks.plan(call.given, call.data, tool=call.tool)
    planned = {id(hook) for hook in plan.hooks}
    rows = []
    for index, hook in enumerate(hooks.python_hooks):
        runs = id(hook) in planned
        rows.append({"source": hook_source(hook, origin.get(index)), "hook": hook.name,
                     "kind": "markdown" if hasattr(hook.fn, "front") else hook.phase,
                     "event": hook.event, "tool": hook.tool,
                     "when": hook_when(hook), "runs": runs,
                     "why": None if runs else hook_why(hook, call)})
    return rows


def hook_source(hook: PythonHook, spec: str | None) -> str:
    path = getattr(hook.fn, "path", None)
    if isinstance(path, str):
        return path
    return f"--python {spec}" if spec else "(python)"


def hook_when(hook: PythonHook) -> str | None:
    front = getattr(hook.fn, "front", None)
    when = getattr(front, "when", None)
    if isinstance(when, str):
        return when
    return getattr(hook.when, "__name__", "predicate") if hook.when is not None else None


def hook_why(hook: PythonHook, call: Event) -> str:
    if hook.event != call.name:
        return f"another event ({hook.event})"
    return f"tool {hook.tool!r} does not select {call.tool or 'a call with no tool name'}"


# --- the command --------------------------------------------------------------------------


def explain(options: ExplainOptions) -> int:
    """Print the explanation; 0, or raises `UsageError`/`PayloadError` (exit 1)."""
    from agenthooks.model.eventnames import check_event

    try:
        check_event(options.event)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    from agenthooks.cli.commands.run import read_stdin
    from agenthooks.plan.select import dialect_values

    data = read_stdin(note=False)  # the payload is optional here
    options = settings(options)
    hooks, untrusted, origin = load(options, options.require_trust)
    every = load(options, False)[0] if untrusted else hooks
    call = read_call(hooks, options.event, options.tool, data)
    chosen = hooks.select(call.name, call.tool, call.doc, call.caller)
    # Every dialect's values (not only the selected files'): the rows include left-out files.
    situation = Situation(call, chosen,
                          dialect_values(call.name, call.tool, call.doc, call.caller),
                          files_out(hooks, every, untrusted), options.host)
    report = {"event": call.name, "tool": call.tool, "caller": call.caller,
              "enforce": enforce(call),
              "handlers": handler_rows(every, situation),
              "hooks": hook_rows(hooks, call, origin),
              "leftOut": [{"source": path, "why": why} for path, why in situation.out.items()]}
    write(report, options.fmt)
    return 0


def enforce(call: Event) -> dict[str, Any] | None:
    """What the calling host can enforce on this event (`model.capabilities`), or None when
    the table does not know the host or the event."""
    from agenthooks.model.capabilities import as_dict, capability
    from agenthooks.model.events import find_row, row_of

    row = row_of(call.caller, call.given) or find_row(call.name)
    found = None if row is None else capability(call.caller, row.id)
    return None if found is None else dict(as_dict(found))


def enforce_line(found: Mapping[str, Any]) -> str:
    """"Claude Code can block here: yes; rewrite: yes; ..." for the text report."""
    from agenthooks.model.capabilities import capability, summary
    from agenthooks.model.hosts import host_name as name_of

    cap = capability(found["host"], found["event"])
    return "" if cap is None else summary(cap, name_of(cap.host))


def write(report: dict[str, Any], fmt: str) -> None:
    if fmt == "json":
        from agenthooks.report.diagnostics import exact_json

        sys.stdout.write(exact_json(report) + "\n")
        return
    from agenthooks.report.table import render_table

    tool = f", tool {report['tool']}" if report["tool"] else ""
    sys.stdout.write(printable(f"{report['event']}{tool}, in {host_name(report['caller'])}'s "
                               "words") + "\n")
    if report["enforce"] is not None:
        sys.stdout.write(printable(enforce_line(report["enforce"])) + "\n")
    sys.stdout.write("\n")
    if report["handlers"]:
        render_table(HEADERS, [cells(row, ("source", "hook", "event", "matcher", "command"))
                               for row in report["handlers"]], stream=sys.stdout)
    if report["hooks"]:
        if report["handlers"]:
            sys.stdout.write("\n")
        render_table(HOOK_HEADERS, [cells(row, ("source", "hook", "kind", "event", "tool"))
                                    for row in report["hooks"]], stream=sys.stdout)
    if not report["handlers"] and not report["hooks"]:
        sys.stderr.write("agenthooks: no handler or hook found\n")


def cells(row: Mapping[str, Any], keys: Sequence[str]) -> tuple[str, ...]:
    texts = ["-" if row[key] is None else str(row[key]) for key in keys]
    # A settings file's unnamed handler is named by its place: the file is in SOURCE already.
    texts[1] = texts[1].removeprefix(f"{row['source']}#")
    texts.extend(("yes" if row["runs"] else "no", row["why"] or ""))
    return tuple(printable(text) for text in texts)
