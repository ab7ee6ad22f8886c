"""Rewriting a hook config from one dialect into another, and saying what cannot be carried.

Per handler: the event by the cross-dialect table; the matcher by its meaning
(`matching.Selection`), tool names by `TOOLS`, written back in the target's syntax; the
timeout in seconds, written in the target's unit (left out where it is the target's default
for that event); `$CLAUDE_PROJECT_DIR` <-> `$GEMINI_PROJECT_DIR`, and a hooks.json handler's
relative script path (relative to its folder) <-> a project-dir path. Labels (`name`, hook
names, `description`) go where the target has a place for them. Everything else that changes
what runs (an event or handler type the target lacks, `if`, `async`, `args`, `env`,
`sequential`, a disabled handler Claude cannot express...) is a `Loss` at its place.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Sequence

from agenthooks.config.model import Handler
from agenthooks.dialects import matching
from agenthooks.dialects.check import DIALECT_SPECS
from agenthooks.dialects.events import HOST_NAMES, counterpart
from agenthooks.dialects.matching import PLAIN_NAME, Selection

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, NamedTuple
else:
    from agenthooks._records import NamedTuple

# One row per tool, each host's name for it (None: the host has no such tool). Names not in
# the table (MCP tools, a host's own tools), and names of tools the target lacks, are kept as
# they are: they match nothing there, and come back unchanged on the way back.
TOOLS: tuple[dict[str, str | None], ...] = (
    {"claude": "Bash", "gemini": "run_shell_command", "antigravity": "run_command"},
    {"claude": "Edit", "gemini": "replace", "antigravity": "replace_file_content"},
    {"claude": "MultiEdit", "gemini": None, "antigravity": "multi_replace_file_content"},
    {"claude": "Read", "gemini": "read_file", "antigravity": "view_file"},
    {"claude": "Write", "gemini": "write_file", "antigravity": "write_to_file"},
    {"claude": "Grep", "gemini": "grep_search", "antigravity": "grep_search"},
    {"claude": "Glob", "gemini": "glob", "antigravity": "find_by_name"},
    {"claude": "LS", "gemini": "list_directory", "antigravity": "list_dir"},
)
PROJECT_VARIABLES = {"claude": "CLAUDE_PROJECT_DIR", "gemini": "GEMINI_PROJECT_DIR"}
PLUGIN_VARIABLES = {"claude": "CLAUDE_PLUGIN_ROOT", "gemini": "extensionPath"}
# Handler types each dialect has.
KINDS = {
    "antigravity": ("command", "prompt"),
    "claude": ("command", "http", "mcp_tool", "prompt", "agent"),
    "gemini": ("command", "plugin", "runtime"),
}
# Options that are labels: carried where the target has a place, else dropped quietly.
LABELS = frozenset(("description",))
DEFAULT_FOLDER = ".agents"  # where a converted hooks.json is assumed to live without -o


class Loss(NamedTuple):
    pointer: str
    message: str


class Converted(NamedTuple):
    document: dict[str, Any]
    losses: list[Loss]


def tool_name(name: str, source: str, target: str) -> str:
    """The target's name for a source tool (the name itself when the target lacks it)."""
    for row in TOOLS:
        if row.get(source) == name:
            return row.get(target) or name
    return name


def translate_tools(chosen: Selection, source: str, target: str) -> Selection:
    """A selection with the source host's tool names as the target host names them."""
    if chosen.form == "names":
        return chosen._replace(names=tuple(tool_name(n, source, target) for n in chosen.names))
    if chosen.form in ("search", "full"):
        def swap(found: re.Match[str]) -> str:
            return tool_name(found.group(0), source, target)

        return chosen._replace(pattern=re.sub(r"[A-Za-z_][A-Za-z0-9_]*", swap, chosen.pattern))
    return chosen


def matcher_field(dialect: str, event: str) -> str | None:
    if dialect == "antigravity":
        from agenthooks.events import TOOL_EVENTS

        return "tool_name" if event in TOOL_EVENTS else None
    return DIALECT_SPECS[dialect].events.get(event)


def render(chosen: Selection, target: str, event: str) -> list[str | None] | None:
    """Matchers that select what `chosen` selects on a target event (one group each); None
    when the target cannot say it."""
    if chosen.form == "all":
        return [None]
    field = matcher_field(target, event)
    if field is None or chosen.form == "never":
        return None
    if target == "gemini" and event in DIALECT_SPECS["gemini"].exact_events:
        return list(chosen.names) if chosen.form == "names" else None
    names, pattern = chosen.names, chosen.pattern
    if chosen.form == "names":
        plain = all(PLAIN_NAME.fullmatch(n) for n in names)
        if target == "gemini":
            body = "|".join(re.escape(n) for n in names)
            return [f"^{body}$" if len(names) == 1 else f"^({body})$"]
        narrow = target == "claude" and event in DIALECT_SPECS["claude"].exact_events
        if plain and not (narrow and any("-" in n for n in names)):
            return ["|".join(names)]
        return ["^(?:" + "|".join(re.escape(n) for n in names) + ")$"]
    if chosen.form == "search":
        return [f".*(?:{pattern}).*"] if target == "antigravity" else [f".*(?:{pattern})"]
    return [pattern] if target == "antigravity" else [f"^(?:{pattern})$"]


def reread(matcher: str | None, dialect: str, event: str) -> Selection:
    """What a matcher selects, in its plainest form (for round trips and `simplify`)."""
    chosen = matching.simplify(matching.selection(dialect, matcher, event))
    if chosen.form == "search" and chosen.pattern.startswith(".*(?:") and \
            chosen.pattern.endswith(")"):
        inner = chosen.pattern[5:-1]
        if matching._balanced(inner):
            return matching.simplify(Selection("search", pattern=inner))
    return chosen


# --- commands ------------------------------------------------------------------------------

_VAR = r"\$(?:\{%s\}|%s\b)"


def rewrite_command(handler: Handler, target: str, folder: str) -> tuple[str, str | None]:
    """(command for the target, what could not be carried or None)."""
    source = handler.dialect
    command = handler.command
    if source == target:
        return command, None
    if source == "antigravity":
        return _from_hooks_json(command, handler, target), None
    plugin = PLUGIN_VARIABLES[source]
    if re.search(_VAR % (plugin, plugin), command):
        if target == "antigravity":
            return command, f"${plugin} has no counterpart in hooks.json"
        other = PLUGIN_VARIABLES[target]
        command = re.sub(_VAR % (plugin, plugin), "${" + other + "}", command)
    mine = PROJECT_VARIABLES[source]
    if target == "antigravity":
        return _to_hooks_json(command, mine, folder), None
    other = PROJECT_VARIABLES[target]
    return re.sub(_VAR % (mine, mine), lambda m: m.group(0).replace(mine, other), command), None


def _script_word(command: str) -> tuple[int, int] | None:
    """The span of the script path in a command: the first word, or an interpreter's script."""
    from agenthooks.config.check import _interpreter, _words

    words = _words(command)
    if not words:
        return None
    found = _interpreter(words)
    word = found[1] if found else words[0]
    start = command.find(word)
    return (start, start + len(word)) if start >= 0 else None


def _from_hooks_json(command: str, handler: Handler, target: str) -> str:
    """A hooks.json command runs in its folder; Claude and Gemini run in the project root, so
    a relative script path becomes a path under the project-dir variable."""
    from agenthooks.config.check import _relative_path

    span = _script_word(command)
    if span is None:
        return command
    word = command[span[0]:span[1]]
    if not _relative_path(word) or "/" not in word:
        return command
    absolute = os.path.normpath(os.path.join(handler.source.cwd, word))
    rel = os.path.relpath(absolute, handler.source.workspace)
    if rel.startswith(".."):
        return command
    new = f"${PROJECT_VARIABLES[target]}/{rel}"
    return command[:span[0]] + new + command[span[1]:]


def _to_hooks_json(command: str, variable: str, folder: str) -> str:
    """A project-dir script path under the hooks.json's folder becomes relative to it."""
    span = _script_word(command)
    if span is None:
        return command
    word = command[span[0]:span[1]]
    found = re.match(r"\$(?:\{(\w+)\}|(\w+))/(.+)", word)
    if found is None or (found.group(1) or found.group(2)) != variable:
        return command
    rel = os.path.relpath(found.group(3), folder)
    if rel.startswith(".."):
        return command
    return command[:span[0]] + "./" + rel + command[span[1]:]


# --- handlers ------------------------------------------------------------------------------


def default_timeout(dialect: str, event: str) -> float:
    if dialect == "antigravity":
        from agenthooks.events import DEFAULT_TIMEOUT

        return float(DEFAULT_TIMEOUT)
    return DIALECT_SPECS[dialect].default_timeout_for(event)


def timeout_value(seconds: float, target: str, event: str) -> tuple[int | float | None, bool]:
    """(the `timeout` to write, None to leave it out; whether it was rounded)."""
    if math.isclose(seconds, default_timeout(target, event)):
        return None, False
    if target == "gemini":
        return round(seconds * 1000), False
    whole = math.ceil(seconds - 1e-9)
    return whole, not math.isclose(whole, seconds)


class Entry(NamedTuple):
    """One converted handler: where it goes, and its object."""

    hook: str  # the hooks.json definition name (antigravity), else ""
    event: str
    matcher: str | None
    sequential: bool
    handler: dict[str, Any]
    enabled: bool


def convert_handler(handler: Handler, target: str, folder: str,
                    losses: list[Loss]) -> list[Entry]:
    source = handler.dialect
    where = handler.pointer

    def lost(message: str) -> list[Entry]:
        losses.append(Loss(where, message))
        return []

    event = counterpart(handler.event, source, target)
    if event is None:
        return lost(f"{handler.event} has no counterpart in {HOST_NAMES[target]}")
    if handler.kind not in KINDS[target]:
        return lost(f"a {handler.kind} handler cannot be written for {HOST_NAMES[target]}")
    chosen = reread(handler.matcher, source, handler.event)
    if matcher_field(source, handler.event) == "tool_name":
        chosen = translate_tools(chosen, source, target)
    matchers = render(chosen, target, event)
    if matchers is None:
        return lost(f"the matcher {handler.matcher!r} ({matching.describe(chosen)}) cannot be "
                    f"said on {HOST_NAMES[target]}'s {event}")
    if not handler.enabled and target == "claude":
        return lost("a disabled handler: Claude Code has no switch for one handler")
    command, problem = rewrite_command(handler, target, folder)
    if problem is not None:
        losses.append(Loss(where, problem))
    body: dict[str, Any] = {}
    if target != "antigravity" or handler.kind != "command":
        body["type"] = handler.kind
    if target == "gemini" and (handler.name or handler.hook):
        body["name"] = handler.name or handler.hook
    field = {"command": "command", "prompt": "prompt", "agent": "prompt", "http": "url"}.get(
        handler.kind)
    if field is not None:
        body[field] = command
    timeout, rounded = timeout_value(handler.timeout, target, event)
    if rounded:
        losses.append(Loss(where, f"timeout {handler.timeout:g} s rounded up to {timeout} s"))
    if timeout is not None:
        body["timeout"] = timeout
    for key, value in handler.options:
        if _carried(key, handler, target):
            body[key] = _thaw(value)
        elif key not in LABELS:
            losses.append(Loss(f"{where}/{key}", f"`{key}` has no counterpart in "
                                                 f"{HOST_NAMES[target]}"))
    sequential = handler.sequential and target == "gemini"
    if handler.sequential and target != "gemini":
        losses.append(Loss(where, f"`sequential: true`: {HOST_NAMES[target]} runs handlers in "
                                  "parallel"))
    hook = handler.hook or handler.name or ""
    return [Entry(hook, event, matcher, sequential, body, handler.enabled)
            for matcher in matchers]


def _carried(key: str, handler: Handler, target: str) -> bool:
    if handler.dialect == target:
        return True
    if target == "antigravity":
        return key == "model" and handler.kind == "prompt"
    if target == "claude":
        return key == "model" and handler.kind == "prompt"
    return key == "description"


def _thaw(value: object) -> Any:
    if isinstance(value, tuple):
        if value and all(isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str)
                         for item in value):
            return {key: _thaw(item) for key, item in value}
        return [_thaw(item) for item in value]
    return value


# --- documents -----------------------------------------------------------------------------


def assemble(entries: Sequence[Entry], target: str) -> dict[str, Any]:
    if target == "antigravity":
        return _hooks_json(entries)
    hooks: dict[str, list[dict[str, Any]]] = {}
    disabled: list[str] = []
    for entry in entries:
        groups = hooks.setdefault(entry.event, [])
        last = groups[-1] if groups else None
        if last is None or last.get("matcher") != entry.matcher or \
                bool(last.get("sequential")) != entry.sequential:
            last = {"matcher": entry.matcher} if entry.matcher is not None else {}
            if entry.sequential:
                last["sequential"] = True
            last["hooks"] = []
            groups.append(last)
        last["hooks"].append(entry.handler)
        if not entry.enabled:
            key = entry.handler.get("name") or entry.handler.get("command")
            if key and key not in disabled:
                disabled.append(key)
    document: dict[str, Any] = {"hooks": hooks}
    if disabled:
        document["hooksConfig"] = {"disabled": disabled}
    return document


def _hooks_json(entries: Sequence[Entry]) -> dict[str, Any]:
    from agenthooks.events import TOOL_EVENTS

    document: dict[str, Any] = {}
    names: dict[tuple[str, bool], str] = {}
    for entry in entries:
        base = entry.hook or _name_from(entry)
        key = (base, entry.enabled)
        name = names.get(key)
        if name is None:
            name = base
            counter = 2
            while name in document:
                name = f"{base}-{counter}"
                counter += 1
            names[key] = name
            document[name] = {} if entry.enabled else {"enabled": False}
        definition = document[name]
        items = definition.setdefault(entry.event, [])
        if entry.event not in TOOL_EVENTS:
            items.append(entry.handler)
            continue
        last = items[-1] if items else None
        if last is None or last.get("matcher") != entry.matcher:
            last = {"matcher": entry.matcher} if entry.matcher is not None else {}
            last["hooks"] = []
            items.append(last)
        last["hooks"].append(entry.handler)
    return document


def _name_from(entry: Entry) -> str:
    text = str(entry.handler.get("command") or entry.handler.get("prompt") or entry.event)
    span = _script_word(text)
    word = text[span[0]:span[1]] if span else text
    stem = os.path.splitext(os.path.basename(word))[0]
    name = re.sub(r"[^A-Za-z0-9]+", "-", stem).strip("-").lower()
    return name or entry.event


def convert_handlers(handlers: Sequence[Handler], target: str, *,
                     folder: str = DEFAULT_FOLDER) -> Converted:
    """The target document for these handlers (in file order), and what was lost."""
    losses: list[Loss] = []
    entries = [entry for handler in handlers
               for entry in convert_handler(handler, target, folder, losses)]
    return Converted(assemble(entries, target), losses)
