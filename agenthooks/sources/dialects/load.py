"""Reading Claude Code and Gemini CLI settings files: every finding at its line and column,
and the handlers each host would register.

Gemini CLI reads its settings as JSON with comments (`strip-json-comments`), so comments are
blanked out (offsets kept) before parsing; Claude Code reads plain JSON. Neither host reads a
byte-order mark.
"""

from __future__ import annotations

import os

from agenthooks._lean import jsontext
from agenthooks._lean.records import NamedTuple
from agenthooks.jsonlimits import MAX_DEPTH, could_be_too_deep
from agenthooks.model.handlers import Diagnostic, Handler, HookFile, Source, breaks_file
from agenthooks.model.rules import ALL_RULES
from agenthooks.sources.reading.text import Unusable, read_bytes, syntax_message

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from agenthooks.sources.dialects.spec import Dialect
    from agenthooks.sources.reading.jsonpos import PositionMap


class DialectFile(NamedTuple):
    """A checked settings file, with the switches that act across files."""

    hook_file: HookFile
    switch: bool | None  # disableAllHooks (negated) / hooksConfig.enabled, when given
    disabled: tuple[str, ...]  # Gemini hooksConfig.disabled (merged as a union)


def _spec(source: Source) -> Dialect:
    from agenthooks.sources.dialects.check import DIALECT_SPECS

    return DIALECT_SPECS[source.dialect]


def _diagnostic(source: Source, rule: str, message: str, line: int = 1, column: int = 1,
                pointer: str = "") -> Diagnostic:
    return Diagnostic(source.path, line, column, ALL_RULES[rule].severity, rule, message, pointer)


def _line_col(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def strip_comments(text: str) -> str:
    """`//` and `/* */` comments replaced by spaces (newlines kept), strings left alone."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        char = text[i]
        if char == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j == -1 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j == -1 else j + 2
            out.append("".join(c if c == "\n" else " " for c in text[i:j]))
            i = j
        else:
            out.append(char)
            i += 1
    return "".join(out)


def _text(source: Source, data: bytes | None = None) -> tuple[str | None, list[Diagnostic]]:
    if data is None:
        try:
            data, _ = read_bytes(source.file, source.path)
        except Unusable as exc:
            return None, [_diagnostic(source, exc.rule, exc.message)]
    if data.startswith(b"\xef\xbb\xbf"):
        from agenthooks.model.hosts import host_name

        host = host_name(source.dialect)
        return None, [_diagnostic(source, "bom", f"the file starts with a UTF-8 byte-order "
                                                 f"mark, which {host}'s JSON parser rejects: "
                                                 "save it as UTF-8 without BOM")]
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError as exc:
        prefix = data[: exc.start].decode("utf-8", "replace")
        return None, [_diagnostic(source, "encoding",
                                  f"the file is not UTF-8: byte 0x{data[exc.start]:02x}",
                                  *_line_col(prefix, len(prefix)))]


class _NeedsPositions(Exception):
    """A duplicate key or a NaN/Infinity: only the position reader reports those."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        raise _NeedsPositions
    return found


def _no_constant(word: str) -> Any:
    raise _NeedsPositions


def parse(source: Source) -> tuple[Any, Any, list[Diagnostic]]:
    """(document, position map, findings); the document is None when it does not parse."""
    doc, positions, found, _text_read = _parse(source, exact=True)
    return doc, positions, found


def _parse(source: Source, *, exact: bool,
           data: bytes | None = None) -> tuple[Any, Any, list[Diagnostic], str]:
    """`parse`, and the text parsed; unless `exact`, the position map is None when `json`
    alone read the file (no duplicate key, no constant): positions cost a second parser,
    imported and run only for a diagnostic (`_positions`). `data`: the file's bytes, when
    already read. A script (`Dialect.script`: each file one handler) is its parser's whole,
    whatever its bytes."""
    spec = _spec(source)
    if spec.script and spec.parser is not None:
        from agenthooks.model.hosts import imported

        script: tuple[Any, Any, list[Diagnostic], str] = imported(spec.parser)(source, data)
        return script
    text, found = _text(source, data)
    if text is None:
        return None, None, found, ""
    parsed = _own_parser(source, text)
    if parsed is not None:
        return parsed
    return _parse_json(source, text, found, exact)


def _own_parser(source: Source, text: str) -> tuple[Any, Any, list[Diagnostic], str] | None:
    """What the dialect's own reader makes of a file that is not JSON (Codex's config.toml);
    None for a JSON file."""
    parser = _spec(source).parser
    if parser is None:
        return None
    from agenthooks.model.hosts import imported

    parsed: tuple[Any, Any, list[Diagnostic], str] | None = imported(parser)(source, text)
    return parsed


def _parse_json(source: Source, text: str, found: list[Diagnostic],
                exact: bool) -> tuple[Any, Any, list[Diagnostic], str]:
    if _spec(source).comments:
        text = strip_comments(text)
    if could_be_too_deep(text):
        from agenthooks.sources.reading.jsonpos import too_deep_at

        deep = too_deep_at(text)
        if deep is not None:
            found.append(_diagnostic(source, "nesting-too-deep", f"nesting too deep: more "
                                     f"than {MAX_DEPTH} levels of lists and objects",
                                     *_line_col(text, deep)))
            return None, None, found, text
    try:
        doc = jsontext.loads(text, object_pairs_hook=_unique_keys, parse_constant=_no_constant)
    except jsontext.JSONDecodeError as exc:
        found.append(_diagnostic(source, "json-syntax",
                                 f"invalid JSON: {syntax_message(text, exc)}",
                                 exc.lineno, exc.colno))
        return None, None, found, text
    except _NeedsPositions:
        exact = True
    if not exact:
        return doc, None, found, text
    doc, positions = _positions(text)
    for pointer, offset in positions.duplicates:
        key = pointer.rsplit("/", 1)[1].replace("~1", "/").replace("~0", "~")
        found.append(_diagnostic(source, "duplicate-key", f"key {key!r} is given twice; JSON "
                                 "keeps only this last one", *positions.line_col(offset),
                                 pointer))
    for pointer, offset, word in positions.constants:
        found.append(_diagnostic(source, "json-constant", f"{word} is not valid JSON",
                                 *positions.line_col(offset), pointer))
    return doc, positions, found, text


def parse_json_text(source: Source, text: str) -> tuple[Any, Any, list[Diagnostic], str]:
    """`_parse_json` of a text a dialect's own parser made JSON of (rulesync's JSONC with
    its trailing commas blanked): the document, its positions, the findings, the text."""
    return _parse_json(source, text, [], exact=True)


def _positions(text: str) -> tuple[Any, PositionMap]:
    from agenthooks.sources.reading.jsonpos import read_positions

    return read_positions(text)


def check_dialect_file(source: Source, *, thorough: bool = True,
                       data: bytes | None = None) -> DialectFile:
    """Every finding in a settings file, placed at its line and column, and the handlers its
    host registers: none of a Claude Code file with errors, the valid ones of a Gemini one."""
    from agenthooks.sources.dialects.check import check_document

    doc, positions, found, text = _parse(source, exact=False, data=data)
    if doc is None:
        return DialectFile(HookFile(source, (), tuple(found)), None, ())
    checker = check_document(doc, source, thorough=thorough)
    if checker.findings and positions is None:
        positions = _positions(text)[1]
    constant_at = set() if positions is None else {p for p, _, _ in positions.constants}
    for finding in checker.findings:
        if finding.pointer in constant_at:
            continue
        line, column = positions.locate(finding.pointer, finding.anchor)
        found.append(_diagnostic(source, finding.rule, finding.message, line, column,
                                 finding.pointer)._replace(fix=finding.fix))
    found.sort(key=lambda d: (d.line, d.column))
    # Claude Code reads none of a settings file that does not validate; Gemini CLI's registry
    # skips each invalid event, group or handler and registers the rest.
    spec = _spec(source)
    broken = spec.whole_file and any(breaks_file(d.severity, d.rule) and d.rule not in spec.spared
                                     for d in found)
    handlers = () if broken else tuple(checker.handlers)
    return DialectFile(HookFile(source, handlers, tuple(found)), checker.switch_given,
                       checker.disabled)


def settle(files: Sequence[DialectFile]) -> list[HookFile]:
    """The files with each host's switches applied across them, in discovery order.

    Claude Code: the last file (user, project, local) that sets `disableAllHooks` decides
    for all. Gemini CLI: the last `hooksConfig.enabled` decides; `hooksConfig.disabled`
    lists are merged (a union), matched against a handler's `name`, else its command.
    """
    switches: dict[str, bool] = {}
    disabled: dict[str, set[str]] = {}
    for dialect_file in files:
        dialect = dialect_file.hook_file.source.dialect
        if dialect_file.switch is not None:
            switches[dialect] = dialect_file.switch
        disabled.setdefault(dialect, set()).update(dialect_file.disabled)
    settled: list[HookFile] = []
    for dialect_file in files:
        hook_file = dialect_file.hook_file
        dialect = hook_file.source.dialect
        on = switches.get(dialect, True)
        off = disabled.get(dialect, set())
        handlers = tuple(_settled(handler, on, off) for handler in hook_file.handlers)
        settled.append(hook_file._replace(handlers=handlers))
    return settled


def _settled(handler: Handler, on: bool, off: set[str]) -> Handler:
    """A handler with its host's switches applied; one its own file turns off (Kiro's
    `enabled: false`) stays off."""
    key = handler.name if handler.name is not None else handler.command
    enabled = handler.enabled and on and key not in off
    return handler if handler.enabled == enabled else handler._replace(enabled=enabled)


def load_dialect_files(sources: Sequence[Source]) -> list[HookFile]:
    """Check and settle the settings files of a discovery, in order; a file without errors
    read before (same bytes, same source, same agenthooks) comes from the cache instead."""
    return settle([_cached_dialect_file(source) for source in sources])


def _cached_dialect_file(source: Source) -> DialectFile:
    from agenthooks.sources.reading import entries  # the read side alone: a miss loads the writer

    try:
        data, status = read_bytes(source.file, source.path)
    except Unusable:
        return check_dialect_file(source)  # names the problem
    key = entries.fingerprint(status, data)
    fields = len(Handler._fields) - 1  # all but the source
    ident = (*source, *shadowing(source))
    entry = entries.read_settings(ident, source.file, key, fields)
    if entry is not None:
        rows, switch, disabled = entry
        handlers = tuple(Handler(source, *row) for row in rows)
        return DialectFile(HookFile(source, handlers), switch, disabled)
    read = check_dialect_file(source, data=data)
    if read.hook_file.ok:
        from agenthooks.sources.reading import cache

        rows = [tuple(h)[1:] for h in read.hook_file.handlers]
        cache.write_settings(ident, source.file, key, (rows, read.switch, read.disabled))
    return read


def shadowing(source: Source) -> tuple[str, ...]:
    """The files beside a host's file that its host reads instead of it
    (`model.hosts.HostRow.shadowed_by`: Factory Droid's hooks.json beside its settings.json),
    those present: what a cached reading of the file holds depends on them."""
    from agenthooks.model.hosts import host_row

    row = host_row(source.dialect)
    if row is None or not row.shadowed_by:
        return ()
    folder, name = os.path.split(source.file)
    return tuple(other for mine, other in row.shadowed_by
                 if mine == name and os.path.isfile(os.path.join(folder, other)))
