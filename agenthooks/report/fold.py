"""A table for a terminal whose long cells fold at separators, never inside a word.

A path folds after a `/`, a command after a space (or `|`, `;`, `,`, `&`, `=`), so
that every line of a cell can be copied as it is; a word longer than its column stays whole
and the table grows past the terminal instead. `agenthooks list` prints with it on a
terminal (`--wide` and pipes get one line per row, `report.table.render_plain`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TextIO

from agenthooks.report.table import display_width

GAP = "  "
# A cell folds after any of these (kept at the end of the line they close): blanks, path
# separators, a regex's alternatives, a shell's operators. Not after `-`, `_` or `.`, which are
# inside names (`safety_gate.py`, `lint-on-write`).
_PIECES = re.compile(r"[^ /\\|;,&=]*(?:[ /\\|;,&=]+|$)")


def pieces(text: str) -> list[str]:
    """`text` cut after each run of separators: `"a/b c"` -> `["a/", "b ", "c"]`."""
    return [piece for piece in _PIECES.findall(text) if piece]


def fold(text: str, width: int) -> list[str]:
    """The lines of a cell at most `width` wide, cut only after separators (a longer piece
    is a line of its own); blanks at the end of a line are dropped."""
    lines: list[str] = []
    line = ""
    for piece in pieces(text):
        if line and display_width(line + piece.rstrip()) > width:
            lines.append(line.rstrip())
            line = ""
        line += piece
    lines.append(line.rstrip())
    return lines


def _longest_piece(cells: Sequence[str]) -> int:
    return max((display_width(p.rstrip()) for cell in cells for p in pieces(cell)), default=0)


def column_widths(headers: Sequence[str], rows: Sequence[Sequence[str]], total: int) -> list[int]:
    """Each column's width: as wide as its widest cell when the table fits in `total`, else
    the widest columns narrowed first, never below their longest piece (or header)."""
    columns = [[headers[i], *(row[i] for row in rows)] for i in range(len(headers))]
    widths = [max(display_width(cell) for cell in column) for column in columns]
    floors = [max(display_width(headers[i]), _longest_piece(column))
              for i, column in enumerate(columns)]
    room = total - len(GAP) * (len(headers) - 1)
    while sum(widths) > room:
        shrinkable = [i for i in range(len(widths)) if widths[i] > floors[i]]
        if not shrinkable:
            break
        widest = max(shrinkable, key=lambda i: widths[i])
        widths[widest] -= 1
    return widths


def terminal_columns(stream: TextIO) -> int:
    """The width of the terminal `stream` writes to (`COLUMNS` first, as `shutil` has it)."""
    import os
    import shutil

    if os.environ.get("COLUMNS", "").isdigit():
        return int(os.environ["COLUMNS"])
    try:
        return os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, ValueError, OSError):
        return shutil.get_terminal_size().columns


def render_folded(headers: Sequence[str], rows: Sequence[Sequence[str]], *, stream: TextIO,
                  total: int) -> None:
    """Aligned columns in `total` cells, each cell folded into its column, a row taking as
    many lines as its tallest cell, a rule under the headers."""
    widths = column_widths(headers, rows, total)

    def write(cells: Sequence[str]) -> None:
        folded = [fold(cell, widths[i]) for i, cell in enumerate(cells)]
        for index in range(max(len(lines) for lines in folded)):
            parts = [lines[index] if index < len(lines) else "" for lines in folded]
            padded = [part + " " * (widths[i] - display_width(part))
                      for i, part in enumerate(parts)]
            stream.write(GAP.join(padded).rstrip() + "\n")

    write(headers)
    stream.write(GAP.join("-" * width for width in widths) + "\n")
    for row in rows:
        write(row)
