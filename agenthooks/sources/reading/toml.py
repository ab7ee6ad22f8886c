"""Hook entries in TOML, as a host's file holds them (Codex's `[hooks]` tables, Kimi Code's
`[[hooks]]` entries): the tables, the `toml-syntax` error where the file is not TOML, and the
place of each table and key for findings. Positions come from the table headers and
`key = value` lines (inline tables and arrays are placed at their key): the standard library's
`tomllib` gives values only.
"""

from __future__ import annotations

import sys

from agenthooks.model.handlers import Diagnostic, Source, escape

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.sources.reading.jsonpos import PositionMap

# Patterns, compiled (and `re` imported) only for a file that may hold hooks.
_HEADER = r"\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$"
_KEY = r"\s*([A-Za-z0-9_\-]+|\"[^\"]*\")\s*=\s*"
_TOML_ERROR = r"(.*) \(at line (\d+), column (\d+)\)$"


def _tomllib() -> Any:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # the backport, a dependency on Python 3.10
        import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]
    return tomllib


def values(text: str) -> dict[str, Any] | None:
    """A TOML text's tables, None where it is not TOML (a host's own settings, read as it
    reads them: a file it cannot read counts as empty)."""
    tomllib = _tomllib()
    try:
        found: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None
    return found


def load_toml(source: Source, text: str, consequence: str
              ) -> tuple[dict[str, Any] | None, list[Diagnostic]]:
    """A TOML file's tables, or None and the `toml-syntax` error at its place, which says
    `consequence` (what the host does with such a file)."""
    tomllib = _tomllib()
    try:
        return tomllib.loads(text), []
    except tomllib.TOMLDecodeError as exc:
        import re

        found = re.match(_TOML_ERROR, str(exc))
        message, line, column = (found.group(1), int(found.group(2)), int(found.group(3))) \
            if found else (str(exc), 1, 1)
        from agenthooks.model.rules import ALL_RULES

        return None, [Diagnostic(source.path, line, column, ALL_RULES["toml-syntax"].severity,
                                 "toml-syntax", f"invalid TOML: {message} ({consequence})",
                                 "")]


def may_hold_hooks(text: str) -> bool:
    """Whether a line could define hooks: a `[hooks...]` / `[[hooks...]]` header, or a
    top-level `hooks` key (`hooks.PreToolUse = [...]`, `hooks = {...}`)."""
    for line in text.splitlines():
        word = line.lstrip(" \t[").lstrip('"')
        if word.startswith("hooks") and word[5:6] in ("", ".", "]", '"', " ", "=", "\t"):
            return True
    return False


def positions(text: str) -> PositionMap:
    """Where each `[hooks...]` table and each of its keys is, by JSON pointer."""
    import re

    from agenthooks.sources.reading.jsonpos import PositionMap

    header_at, key_at = re.compile(_HEADER).match, re.compile(_KEY).match
    found = PositionMap(text)
    counts: dict[str, int] = {}
    table = ""
    offset = 0
    for line in text.splitlines(keepends=True):
        header = header_at(line)
        if header is not None and not line.lstrip().startswith("#"):
            table = _table_pointer(header.group(1) == "[[", header.group(2), counts)
            found.values.setdefault(table, offset + line.index("["))
            _place_event(found, table, line, offset)
        elif table:
            key = key_at(line)
            if key is not None:
                name = key.group(1).strip('"')
                pointer = f"{table}/{escape(name)}"
                found.keys.setdefault(pointer, offset + key.start(1))
                found.values.setdefault(pointer, offset + key.end())
        offset += len(line)
    return found


def _place_event(found: PositionMap, table: str, line: str, offset: int) -> None:
    """The event of a `[[hooks.X...]]` header, placed at its name on the first header that
    names it: what a finding about the event (`codex-unknown-event`) points at."""
    parts = table.split("/")
    if len(parts) < 3 or parts[1] != "hooks":
        return
    event = f"/hooks/{parts[2]}"
    name = parts[2].replace("~1", "/").replace("~0", "~")
    at = offset + max(line.find(name, line.index("[")), line.index("["))
    found.keys.setdefault(event, at)
    found.values.setdefault(event, at)


def _table_pointer(array: bool, dotted: str, counts: dict[str, int]) -> str:
    """The pointer of a `[hooks.X]` / `[[hooks.X]]` / `[[hooks.X.hooks]]` / `[[hooks]]` header
    ("" for a table outside `hooks`)."""
    parts = [part.strip().strip('"') for part in dotted.split(".")]
    if parts[0] != "hooks":
        return ""
    if len(parts) == 1 and array:  # `[[hooks]]`: a list of entries (Kimi Code's)
        index = counts.get("/hooks", 0)
        counts["/hooks"] = index + 1
        return f"/hooks/{index}"
    if len(parts) == 1 or not array:
        return "/" + "/".join(escape(part) for part in parts)
    event = f"/hooks/{escape(parts[1])}"
    if len(parts) == 2:
        index = counts.get(event, 0)
        counts[event] = index + 1
        counts.pop(f"{event}/{index}/hooks", None)
        return f"{event}/{index}"
    group = f"{event}/{max(counts.get(event, 1) - 1, 0)}"
    handlers = f"{group}/hooks"
    index = counts.get(handlers, 0)
    counts[handlers] = index + 1
    return f"{handlers}/{index}"
