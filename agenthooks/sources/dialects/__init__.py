"""Each host's own hook files (Claude Code's and Gemini CLI's settings, Cursor's and Copilot
CLI's hooks files...), each read with that host's own rules.

A dialect is data (`claude.CLAUDE`, `gemini.GEMINI`, `cursor.CURSOR`...: events, matcher
semantics, handler types, timeout unit), a walker (`check`, or the host's own reader) that
yields `Handler`s carrying their dialect, and a cross-dialect event table (`model.events`).
`validate`, `list`, `convert` and `run` read these files, each with its own reader.

The dialect of a file comes from its place (`sources.discovery.dialect_of_place`), else its
shape (`dialect_of_shape`); `--dialect` overrides both (`sources.discovery.detect`).
"""

from __future__ import annotations

from agenthooks.model.events import DIALECTS
from agenthooks.model.hosts import HOOKS_JSON_DIALECT

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

    from agenthooks.model.hosts import HostRow
    from agenthooks.sources.dialects.spec import Dialect

__all__ = ["DIALECTS", "dialect_of_shape", "dialect_spec", "every_dialect_spec",
           "unsure_shape"]

# Each dialect's `Dialect` by its word, filled as they are asked for; `every_dialect_spec` fills
# it whole, and it is `sources.dialects.check.DIALECT_SPECS`, the one table of dialects.
_SPECS: dict[str, Dialect] = {}


def every_dialect_spec() -> dict[str, Dialect]:
    """Every host with files of its own (its row of `model.hosts` names a `dialect`), in table
    order, then any dialect added to the table by hand; each host's module imported."""
    from agenthooks.model.hosts import HOST_TABLE

    ordered = {row.id: dialect_spec(row.id) for row in HOST_TABLE if row.dialect}
    added = {word: spec for word, spec in _SPECS.items() if word not in ordered}
    _SPECS.clear()
    _SPECS.update(ordered)
    _SPECS.update(added)
    return _SPECS


def dialect_spec(dialect: str) -> Dialect:
    """One host's `Dialect`, importing that host's module alone: a run over Claude Code
    settings loads no other host's tables (KeyError for a host without files of its own)."""
    found = _SPECS.get(dialect)
    if found is None:
        from agenthooks.model.hosts import host_row, imported

        row = host_row(dialect)
        if row is None or row.dialect is None:
            raise KeyError(dialect)
        parent = host_row(row.derived_from) if row.derived_from else None
        if parent is not None and parent.dialect == row.dialect:
            found = derived_dialect(dialect_spec(parent.id), row)
        else:
            from agenthooks.sources.reading import dialect_path

            found = imported(dialect_path(row))
        _SPECS[dialect] = found
    return found


# The `Dialect` fields that name a "module:function", which a derived host's row names within
# `sources/dialects/` (`grok_check:read`): the row's layer names no module of this one.
_FUNCTIONS = frozenset(("reader", "parser", "event_key", "own_vars"))


def _within_dialects(reference: str | None) -> str | None:
    if reference is None or "." in reference.partition(":")[0]:
        return reference  # none, or a module outside the package (a test's host)
    return f"agenthooks.sources.dialects.{reference}"


def derived_dialect(parent: Dialect, row: HostRow) -> Dialect:
    """The files of a host derived from another (`model.hosts.derive`) that states no dialect
    of its own: the parent's rules, its handler types and timeouts, under the derived host's
    name and event words (`HostRow.event_words`); an event it has no word for is not one of
    its events."""
    from agenthooks.model.events import counterpart

    def renamed(words: Iterable[str]) -> dict[str, str]:
        return {word: mine for word in words
                if (mine := counterpart(word, parent.name, row.id)) is not None}

    events = renamed(parent.events)
    from agenthooks.sources.dialects.spec import HandlerType

    changes: dict[str, Any] = {key: _within_dialects(value) if key in _FUNCTIONS else value
                               for key, value in row.dialect_changes.items()}
    if "types" in changes:  # a row states them as plain tuples (`model.hosts._handler`)
        changes["types"] = {kind: HandlerType(*fields)
                            for kind, fields in changes["types"].items()}
    # A command may start its script's path with its own project-dir variable too.
    own = (row.project_var,) if row.project_var else ()
    listed = changes.get("path_variables",
                         (*own, *(v for v in parent.path_variables if v not in own)))
    plugin = parent.convert.get("plugin_root")
    fields: dict[str, object] = {
        "name": row.id, "host": row.name, "vscode_reads": False,
        "project_var": row.project_var or parent.project_var,
        "path_variables": listed,
        # Of the parent's variables, those its commands still name are its handlers'.
        "convert": {**parent.convert,
                    "project_dirs": (*own, *(v for v in parent.convert.get("project_dirs", ())
                                             if v in listed and v not in own)),
                    "plugin_root": plugin if plugin in listed else None},
        "events": {**{mine: parent.events[word] for word, mine in events.items()},
                   **changes.pop("events", {})},
        "exact_events": frozenset(events[w] for w in parent.exact_events if w in events),
        "timeout_by_event": {events[w]: t for w, t in parent.timeout_by_event.items()
                             if w in events},
        "env_file_events": frozenset(events[w] for w in parent.env_file_events
                                     if w in events),
        # The parent's schema describes the parent's files: the derived host's is its row's.
        "schema": None}
    return parent._replace(**{**fields, **changes})


def dialect_of_shape(path: str, data: bytes | None = None) -> str:
    """The dialect a file's content says: a `hooks` object whose events are Gemini's (or a
    `hooksConfig`) is Gemini CLI's, one with other events Claude Code's; anything else is
    hooks.json. Unreadable or invalid files are hooks.json, whose checks report them.
    `data`: the content, when it is not the file's on disk (an editor's text)."""
    from agenthooks.model.events import EVENTS as HOOKS_JSON_EVENTS
    from agenthooks.model.events import FLAT_EVENTS
    from agenthooks.sources.dialects.claude import CLAUDE
    from agenthooks.sources.dialects.gemini import GEMINI

    doc = _document(path, data)
    if not isinstance(doc, dict) or not isinstance(doc.get("hooks"), dict):
        return HOOKS_JSON_DIALECT
    marked = _marked(doc)
    if marked is not None:
        return marked
    if "hooksConfig" in doc:
        return GEMINI.name
    hooks = doc["hooks"]
    if set(hooks) & (set(GEMINI.events) - set(CLAUDE.events)):
        return GEMINI.name
    if "disableAllHooks" in doc or set(hooks) - set(HOOKS_JSON_EVENTS) - {"enabled"}:
        return CLAUDE.name
    # Only hooks.json's events: `{"hooks": {...}}` may be a hook named "hooks". Claude Code
    # puts matcher groups under every event, hooks.json handlers straight under Stop.
    grouped = any(isinstance(item, dict) and "hooks" in item
                  for event, items in hooks.items() if event in FLAT_EVENTS
                  and isinstance(items, list) for item in items)
    if grouped or len(doc) > 1 or _handler_keys(hooks) & _claude_only_keys():
        return CLAUDE.name  # Claude Code's groups, settings or handler keys (`async`, `if`...)
    return HOOKS_JSON_DIALECT


def _claude_only_keys() -> set[str]:
    """The handler keys Claude Code knows and hooks.json does not (`async`, `if`, `url`...)."""
    from agenthooks.sources.dialects.claude import CLAUDE
    from agenthooks.sources.reading.check import HANDLER_KEYS

    ours = {key for keys in HANDLER_KEYS.values() for key in keys}
    return {key for kind in CLAUDE.types.values() for key in kind.keys} - ours


def _document(path: str, data: bytes | None = None) -> object:
    """A file's JSON (comments allowed; from `data` when given), or None when it is
    unreadable or not JSON."""
    from agenthooks._lean import jsontext
    from agenthooks.sources.dialects.load import strip_comments
    from agenthooks.sources.reading.text import Unusable, read_bytes

    try:
        if data is None:
            data, _ = read_bytes(path)
        return jsontext.loads(strip_comments(data.decode("utf-8-sig")))
    except (Unusable, ValueError, RecursionError):
        return None


def _handlers(hooks: dict[str, object]) -> list[object]:
    """The handlers of a `hooks` object's matcher groups, whatever the format."""
    return [handler for items in hooks.values() if isinstance(items, list)
            for item in items if isinstance(item, dict)
            for handler in (item["hooks"] if isinstance(item.get("hooks"), list) else [item])]


def _handler_keys(hooks: dict[str, object]) -> set[str]:
    return {key for handler in _handlers(hooks) if isinstance(handler, dict) for key in handler}


def unsure_shape(path: str, data: bytes | None = None) -> bool:
    """Whether a file's shape reads as hooks.json and as well as Claude Code's settings (or a
    Codex hooks.json): its only key `hooks`, holding matcher groups of events both formats
    have, each handler with a `type` (Claude Code requires one) and no key of Claude Code's
    alone. One format would run a hook named "hooks"; the other the settings of another host.
    (`sources.discovery.unsure_format` asks this of a file its place says nothing of.)"""
    doc = _document(path, data)
    if not isinstance(doc, dict) or set(doc) != {"hooks"} or not isinstance(doc["hooks"], dict):
        return False
    hooks = doc["hooks"]
    handlers = _handlers(hooks)
    return bool(handlers) and "enabled" not in hooks and dialect_of_shape(path, data) == \
        HOOKS_JSON_DIALECT and all(isinstance(h, dict) and "type" in h for h in handlers)


def _marked(doc: dict[str, object]) -> str | None:
    """A dialect that has marker keys (Cursor's and Copilot's `version`) whose events alone
    name every event of the file's `hooks` (`agentStop` is Copilot's, `stop` Cursor's); else
    the first whose marker keys the file has and whose events name them all."""
    from agenthooks.model.hosts import is_generator
    from agenthooks.sources.dialects.check import DIALECT_SPECS

    events = set(doc["hooks"]) if isinstance(doc["hooks"], dict) else set()
    marked = [spec for spec in DIALECT_SPECS.values() if spec.marker_keys]
    fits = [spec for spec in marked if events <= set(spec.events)]
    for spec in fits:
        # A generator's file (rulesync's) is known by its place alone: its words, every
        # host's, tell nothing apart.
        others = {word for other in DIALECT_SPECS.values()
                  if other is not spec and not is_generator(other.name)
                  for word in other.events}
        if events and not events & others:
            return spec.name
    return next((spec.name for spec in fits if set(spec.marker_keys) <= set(doc)), None)

