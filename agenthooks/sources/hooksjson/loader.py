"""Loading hooks.json files.

`load` is the hot path of `agenthooks run`: plain `json.loads` and one walk, no positions and no
JSON Schema. Only when a file has errors, or when `validate` asks for every finding, is the file
read again with positions (`jsonpos`) and checked against the schema.
"""

from __future__ import annotations

import os
from _collections_abc import Iterable

from agenthooks._lean import jsontext as json
from agenthooks.jsonlimits import MAX_DEPTH, could_be_too_deep, depth_exceeds
from agenthooks.model.handlers import Diagnostic, Handler, HookFile, Source, breaks_file
from agenthooks.model.rules import RULES
from agenthooks.sources.reading.text import (
    Unusable,
    not_utf8,
    open_config,
    read_bytes,
    read_open,
    syntax_message,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.sources.reading import entries
    from agenthooks.sources.reading.check import Finding

_BOM = b"\xef\xbb\xbf"


class _Constant(ValueError):
    pass


def _reject_constant(word: str) -> Any:
    raise _Constant(word)


def _diagnostic(source: Source, rule: str, message: str, line: int = 1, column: int = 1,
                pointer: str = "") -> Diagnostic:
    return Diagnostic(source.path, line, column, RULES[rule].severity, rule, message, pointer)


def _read_text(source: Source, data: bytes | None = None) -> tuple[str | None, list[Diagnostic]]:
    """The file's text (from `data`, when given: an editor's unsaved text), or the
    diagnostics that say why it has none usable."""
    if data is None:
        try:
            data, _ = read_bytes(source.file, source.path)
        except Unusable as exc:
            return None, [_diagnostic(source, exc.rule, exc.message)]
    found: list[Diagnostic] = []
    if data.startswith(_BOM):
        found.append(_diagnostic(
            source, "bom",
            "the file starts with a UTF-8 byte-order mark, which Antigravity rejects: "
            "save it as UTF-8 without BOM",
        ))
        data = data[len(_BOM):]
    try:
        return data.decode("utf-8"), found
    except UnicodeDecodeError as exc:
        found.append(_diagnostic(source, "encoding", *not_utf8(data, exc)))
        return None, found


def load(source: Source, event: str | None = None) -> HookFile:
    """Load a file for running: its handlers, and full diagnostics only if it has errors.

    `event`: only that event's handlers are wanted (a run answers one event); from the
    cache, no handler of another event is made. Without it, every handler, in file order.
    The file is opened (and its size checked) on every run, but read only when the cache
    does not know it by its status.
    """
    if source.unsure:  # never from the cache: read as it is now, it is an error
        return check_file(source)
    try:
        fd, status = open_config(source.file)
    except Unusable:
        return check_file(source)  # the slow path names the problem precisely
    from agenthooks.sources.reading import entries

    entry = entries.lookup(source.file, event)
    try:
        if entry is not None and entries.same_file(entry, status):
            found = _from_entry(source, entry, event)
            if found is not None:
                return found
        data = read_open(fd, status, source.file)
    except Unusable:
        return check_file(source)
    finally:
        os.close(fd)
    return _from_bytes(source, status, data, entry, event)


def _from_bytes(source: Source, status: os.stat_result, data: bytes,
                entry: entries.Entry | None, event: str | None) -> HookFile:
    """A file the cache does not know by its status: from its entry when that was written
    for the same bytes, else parsed and checked."""
    if entry is not None:
        from agenthooks.sources.reading import cache

        if cache.same_bytes(source.file, entry, status, data):
            found = _from_entry(source, entry, event)
            if found is not None:
                return found
    return _parse(source, status, data)


def _parse(source: Source, status: os.stat_result, data: bytes) -> HookFile:
    """A file the cache does not hold: parsed and checked, and cached when it has no
    errors."""
    if data.startswith(_BOM):
        return check_file(source)
    try:
        doc = json.loads(data.decode("utf-8"), parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        return check_file(source)
    if could_be_too_deep(data) and depth_exceeds(doc):
        return check_file(source)
    # The checker is imported only here, on a cache miss: a warm run never loads it.
    from agenthooks.sources.reading import cache
    from agenthooks.sources.reading.check import check_document

    checker = check_document(doc, source, thorough=False)
    if checker.errors:
        return check_file(source)
    rows = [
        (h.hook, h.event, h.matcher, h.command, h.timeout, h.kind, h.enabled, h.pointer)
        for h in checker.handlers
    ]
    # The cache keeps hooks.json's own fields: a file with a handler written for another
    # host (`dialect`) is read again each run.
    if not any(h.speaks for h in checker.handlers):
        cache.write(source.file, status, data, rows)
    return HookFile(source, tuple(checker.handlers))


def _from_entry(source: Source, entry: entries.Entry, event: str | None
                ) -> HookFile | None:
    """The file's handlers from its cache entry (of `event` alone, when given), or None when
    the entry is malformed."""
    from agenthooks.sources.reading import entries

    if event is not None:
        columns = entries.event_columns(entry, event)
        if columns is None:
            return None
        return HookFile(source, _cached_handlers(source, event, columns))
    found = entries.every_event(entry)
    if found is None or entry[4] is None:
        return None
    made = [iter(_cached_handlers(source, event_, columns))
            for event_, columns in zip(entry[2], found, strict=True)]
    # The order holds, for each row of the file, the index of its event: the next handler of
    # that event is the row.
    return HookFile(source, tuple(map(next, map(made.__getitem__, entry[4]))))


def _cached_handlers(source: Source, event: str, columns: entries.Columns
                     ) -> tuple[Handler, ...]:
    """Each cached row of `event` as a handler of `source`, of its file's dialect, every later
    field at its default: each handler made as the tuple it is, its fields zipped from the
    columns, all in built-ins (a file may hold 10,000 handlers)."""
    import gc
    from itertools import repeat

    hooks, matchers, commands, timeouts, kinds, enabled, pointers = columns
    count = len(hooks)
    if not count:
        return ()
    defaults = Handler._field_defaults
    tail = [repeat(defaults[name], count) for name in Handler._fields[10:]]
    fields = zip(repeat(source, count), hooks, repeat(event, count), matchers, commands,
                 timeouts, kinds, enabled, pointers, repeat(source.dialect, count), *tail,
                 strict=True)
    # Thousands of new tuples, none garbage: collections meanwhile would only double the time.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return tuple(map(tuple.__new__, repeat(Handler, count), fields))
    finally:
        if collecting:
            gc.enable()


def check_file(source: Source, *, schema: bool = True, data: bytes | None = None) -> HookFile:
    """Every finding in a file, placed at its line and column; `data`: its bytes, when they
    are not the file's on disk (a language server checks an editor's text)."""
    text, found = _read_text(source, data)
    if text is None:
        return HookFile(source, (), tuple(found))
    from agenthooks.sources.reading.jsonpos import read_positions, too_deep_at

    # Before json itself, which recurses: past the limit a file is one finding, never a crash.
    deep = too_deep_at(text) if could_be_too_deep(text) else None
    if deep is not None:
        line = text.count("\n", 0, deep) + 1
        column = deep - (text.rfind("\n", 0, deep) + 1) + 1
        found.append(_diagnostic(
            source, "nesting-too-deep",
            f"nesting too deep: more than {MAX_DEPTH} levels of lists and objects", line, column,
        ))
        return HookFile(source, (), tuple(found))
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        found.append(_diagnostic(
            source, "json-syntax", f"invalid JSON: {syntax_message(text, exc)}",
            exc.lineno, exc.colno,
        ))
        return HookFile(source, (), tuple(found))

    doc, positions = read_positions(text)
    for pointer, offset in positions.duplicates:
        line, column = positions.line_col(offset)
        key = pointer.rsplit("/", 1)[1].replace("~1", "/").replace("~0", "~")
        found.append(_diagnostic(
            source, "duplicate-key",
            f"key {key!r} is given twice; JSON keeps only this last one", line, column, pointer,
        ))
    for pointer, offset, word in positions.constants:
        line, column = positions.line_col(offset)
        found.append(_diagnostic(
            source, "json-constant", f"{word} is not valid JSON", line, column, pointer
        ))

    from agenthooks.sources.reading.check import check_document

    checker = check_document(doc, source, thorough=True)
    findings = list(checker.findings)
    if schema:
        findings.extend(schema_findings(doc, findings))
    # A NaN timeout is already reported as a constant; a second finding there (from the rules
    # or from the schema) says nothing new.
    constant_at = {pointer for pointer, _, _ in positions.constants}
    findings = [f for f in findings if f.pointer not in constant_at]
    for finding in findings:
        line, column = positions.locate(finding.pointer, finding.anchor)
        found.append(_diagnostic(
            source, finding.rule, finding.message, line, column, finding.pointer
        )._replace(fix=finding.fix))
    found.sort(key=lambda d: (d.line, d.column))
    handlers = () if any(breaks_file(d.severity, d.rule) for d in found) else tuple(
        checker.handlers)
    return HookFile(source, handlers, tuple(found))


def schema_findings(doc: Any, known: Iterable[Finding]) -> list[Finding]:
    """What the JSON Schema forbids that the rules in code have not already reported."""
    from agenthooks.sources.hooksjson.schema import schema_errors
    from agenthooks.sources.reading.check import Finding

    reported = [f.pointer for f in known if f.severity == "error"]
    extra: list[Finding] = []
    for pointer, message in schema_errors(doc):
        related = any(
            p == pointer or p.startswith(pointer + "/") or pointer.startswith(p + "/")
            for p in reported
        )
        if not related:
            extra.append(Finding("schema", message, pointer))
    return extra
