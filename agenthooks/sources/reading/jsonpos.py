"""A JSON reader that remembers where every key and value stands.

`json.loads` finds syntax errors (and says where); this module runs only on text that
already parsed, to map JSON pointers to offsets and to find what `json` hides: duplicate keys
(the last one silently wins) and the non-standard constants NaN and Infinity.
"""

from __future__ import annotations

import json.decoder
import json.scanner
import re

from agenthooks.jsonlimits import MAX_DEPTH
from agenthooks.model.handlers import escape

# Read on `agenthooks run` too, when a settings file has a finding to place: no `typing` or
# `dataclasses` (with `inspect` and `ast` behind it) at run time.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

_WS = " \t\n\r"
# The C string scanner `json` itself uses; typeshed does not declare it, hence `vars`.
_scanstring: Callable[[str, int, bool], tuple[str, int]] = vars(json.decoder)["scanstring"]
_CONSTANTS = {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf")}
# A string (skipped whole, escapes included) or one bracket.
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')


class TooDeep(ValueError):
    """Nesting beyond `MAX_DEPTH`; `offset` is the first bracket past it."""

    def __init__(self, offset: int) -> None:
        super().__init__(f"nesting deeper than {MAX_DEPTH} levels at offset {offset}")
        self.offset = offset


def too_deep_at(text: str, limit: int = MAX_DEPTH) -> int | None:
    """The offset of the first bracket that opens level `limit + 1`, or None; not recursive.

    Brackets inside strings do not count. Works on any text, valid JSON or not, so it can run
    before `json`, which recurses and would raise `RecursionError` on deep enough input.
    """
    depth = 0
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > limit:
                return match.start()
        elif token in "]}":
            depth -= 1
    return None


class PositionMap:
    """Offsets of keys and values by JSON pointer, and the oddities `json` would hide."""

    __slots__ = ("_line_starts", "constants", "duplicates", "keys", "text", "values")

    def __init__(self, text: str) -> None:
        self.text = text
        self.values: dict[str, int] = {}
        self.keys: dict[str, int] = {}
        self.duplicates: list[tuple[str, int]] = []  # (pointer, key offset)
        self.constants: list[tuple[str, int, str]] = []  # (pointer, offset, word)
        self._line_starts: list[int] | None = None

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based line and column (in characters) of an offset."""
        if self._line_starts is None:
            starts = [0]
            find = self.text.find
            i = find("\n")
            while i != -1:
                starts.append(i + 1)
                i = find("\n", i + 1)
            self._line_starts = starts
        import bisect

        line = bisect.bisect_right(self._line_starts, offset)
        return line, offset - self._line_starts[line - 1] + 1

    def locate(self, pointer: str, anchor: str) -> tuple[int, int]:
        """Where a finding about `pointer` is shown: its key, its value, or its nearest parent."""
        while True:
            if anchor == "key" and pointer in self.keys:
                return self.line_col(self.keys[pointer])
            if pointer in self.values:
                return self.line_col(self.values[pointer])
            if not pointer:
                return 1, 1
            pointer = pointer.rsplit("/", 1)[0]
            anchor = "value"


class _Reader:
    def __init__(self, text: str, positions: PositionMap) -> None:
        self.text = text
        self.pos = positions
        self.scan_string = _scanstring
        self.number = json.scanner.NUMBER_RE.match
        self.depth = 0  # bounds the recursion of value -> obj/array -> value

    def skip(self, i: int) -> int:
        text = self.text
        while i < len(text) and text[i] in _WS:
            i += 1
        return i

    def value(self, i: int, pointer: str) -> tuple[Any, int]:
        i = self.skip(i)
        self.pos.values[pointer] = i
        ch = self.text[i]
        if ch in "{[":
            if self.depth >= MAX_DEPTH:
                raise TooDeep(i)
            self.depth += 1
            try:
                return self.obj(i + 1, pointer) if ch == "{" else self.array(i + 1, pointer)
            finally:
                self.depth -= 1
        if ch == '"':
            return self.scan_string(self.text, i + 1, True)
        for word, value in (("true", True), ("false", False), ("null", None)):
            if self.text.startswith(word, i):
                return value, i + len(word)
        for word, constant in _CONSTANTS.items():
            if self.text.startswith(word, i):
                self.pos.constants.append((pointer, i, word))
                return constant, i + len(word)
        match = self.number(self.text, i)
        if match is None:  # unreachable for text that json.loads accepted
            raise ValueError(f"unexpected character at offset {i}")
        integer, frac, exp = match.groups()
        if frac or exp:
            return float(integer + (frac or "") + (exp or "")), match.end()
        return int(integer), match.end()

    def obj(self, i: int, pointer: str) -> tuple[dict[str, Any], int]:
        result: dict[str, Any] = {}
        i = self.skip(i)
        if self.text[i] == "}":
            return result, i + 1
        while True:
            i = self.skip(i)
            key_at = i
            key, i = self.scan_string(self.text, i + 1, True)
            child = f"{pointer}/{escape(key)}"
            if key in result:
                self.pos.duplicates.append((child, key_at))
            self.pos.keys[child] = key_at
            i = self.skip(i) + 1  # the colon
            result[key], i = self.value(i, child)
            i = self.skip(i)
            if self.text[i] == "}":
                return result, i + 1
            i += 1  # the comma

    def array(self, i: int, pointer: str) -> tuple[list[Any], int]:
        result: list[Any] = []
        i = self.skip(i)
        if self.text[i] == "]":
            return result, i + 1
        while True:
            item, i = self.value(i, f"{pointer}/{len(result)}")
            result.append(item)
            i = self.skip(i)
            if self.text[i] == "]":
                return result, i + 1
            i += 1


def read_positions(text: str) -> tuple[Any, PositionMap]:
    """Parse text that `json.loads` accepts, returning the value and its position map.

    Raises `TooDeep` past `MAX_DEPTH` levels, so recursion stays far below Python's limit.
    """
    positions = PositionMap(text)
    value, _ = _Reader(text, positions).value(0, "")
    return value, positions
