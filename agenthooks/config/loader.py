"""Loading hooks.json files.

`load` is the hot path of `agenthooks run`: plain `json.loads` and one walk, no positions and no
JSON Schema. Only when a file has errors, or when `validate` asks for every finding, is the file
read again with positions (`jsonpos`) and checked against the schema.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from typing import Any

from agenthooks.config.check import Finding, check_document
from agenthooks.config.model import Diagnostic, Handler, HookFile, Source
from agenthooks.config.rules import RULES

_BOM = b"\xef\xbb\xbf"


class _Constant(ValueError):
    pass


def _reject_constant(word: str) -> Any:
    raise _Constant(word)


def _diagnostic(source: Source, rule: str, message: str, line: int = 1, column: int = 1,
                pointer: str = "") -> Diagnostic:
    return Diagnostic(source.path, line, column, RULES[rule].severity, rule, message, pointer)


def _read_text(source: Source) -> tuple[str | None, list[Diagnostic]]:
    """The file's text, or the diagnostics that say why it has none usable."""
    try:
        with open(source.file, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        return None, [_diagnostic(source, "unreadable", f"cannot read {source.path}: {reason}")]
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
        prefix = data[: exc.start].decode("utf-8", "replace")
        line = prefix.count("\n") + 1
        column = len(prefix) - (prefix.rfind("\n") + 1) + 1
        found.append(_diagnostic(
            source, "encoding", f"the file is not UTF-8: byte 0x{data[exc.start]:02x}", line, column
        ))
        return None, found


def _syntax_message(text: str, exc: json.JSONDecodeError) -> str:
    """json's message, with the likely cause when it is a habit from JavaScript."""
    rest = text[exc.pos:].lstrip()
    if rest.startswith(("//", "/*")):
        return f"{exc.msg}: comments are not allowed in JSON"
    if exc.pos > 0 and text[: exc.pos].rstrip().endswith(",") and rest[:1] in ("}", "]"):
        return f"{exc.msg}: trailing commas are not allowed in JSON"
    return exc.msg


# Below this size, parsing and checking a file is cheaper than hashing it and reading a cache entry.
CACHE_MIN_SIZE = 64 * 1024


def load(source: Source) -> HookFile:
    """Load a file for running: its handlers, and full diagnostics only if it has errors."""
    try:
        with open(source.file, "rb") as handle:
            stat = os.fstat(handle.fileno())
            data = handle.read()
    except OSError:
        return check_file(source)  # the slow path names the problem precisely
    key = None
    if len(data) >= CACHE_MIN_SIZE:
        from agenthooks.config import cache

        key = cache.fingerprint(stat, data)
        rows = cache.read(source.file, key)
        if rows is not None:
            return HookFile(source, tuple(Handler(source, *row) for row in rows))
    if data.startswith(_BOM):
        return check_file(source)
    try:
        doc = json.loads(data.decode("utf-8"), parse_constant=_reject_constant)
    except ValueError:
        return check_file(source)
    checker = check_document(doc, source, check_scripts=False)
    if checker.errors:
        return check_file(source)
    if key is not None:
        from agenthooks.config import cache

        rows = [
            (h.hook, h.event, h.matcher, h.command, h.timeout, h.kind, h.enabled, h.pointer)
            for h in checker.handlers
        ]
        cache.write(source.file, key, rows)
    return HookFile(source, tuple(checker.handlers))


def check_file(source: Source, *, schema: bool = True) -> HookFile:
    """Every finding in a file, placed at its line and column."""
    text, found = _read_text(source)
    if text is None:
        return HookFile(source, (), tuple(found))
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        found.append(_diagnostic(
            source, "json-syntax", f"invalid JSON: {_syntax_message(text, exc)}",
            exc.lineno, exc.colno,
        ))
        return HookFile(source, (), tuple(found))

    from agenthooks.config.jsonpos import read_positions

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

    checker = check_document(doc, source, check_scripts=True)
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
        ))
    found.sort(key=lambda d: (d.line, d.column))
    handlers = tuple(checker.handlers) if not any(d.severity == "error" for d in found) else ()
    return HookFile(source, handlers, tuple(found))


def schema_findings(doc: Any, known: Iterable[Finding]) -> list[Finding]:
    """What the JSON Schema forbids that the rules in code have not already reported."""
    from agenthooks.config.schema import schema_errors

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
