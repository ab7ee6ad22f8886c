"""A table for humans: rich on a terminal, plain aligned columns anywhere else.

Plain output is what scripts and pipes get (`agenthooks list | grep ...`): one row per line,
columns separated by two spaces, no colours and no box drawing.
"""



from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import TextIO

_NO_WRAP_WIDTH = 20


def display_width(text: str) -> int:
    """Terminal cells `text` takes: wide (CJK) characters take two, combining marks none."""
    width = 0
    for char in text:
        if unicodedata.combining(char):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


def is_terminal(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False


def render_plain(headers: Sequence[str], rows: Sequence[Sequence[str]], *, stream: TextIO) -> None:
    """Aligned columns; the last column is not padded, so lines carry no trailing blanks."""
    table = [list(headers), *[list(row) for row in rows]]
    widths = [max(display_width(row[i]) for row in table) for i in range(len(headers))]
    for row in table:
        cells = [
            cell + " " * (widths[i] - display_width(cell)) if i < len(row) - 1 else cell
            for i, cell in enumerate(row)
        ]
        stream.write("  ".join(cells).rstrip() + "\n")


def render_rich(headers: Sequence[str], rows: Sequence[Sequence[str]], *, stream: TextIO) -> None:
    from rich import box
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    table = Table(
        box=box.SIMPLE_HEAD, header_style="bold", pad_edge=False, show_edge=False,
        padding=(0, 1, 0, 0),
    )
    for index, header in enumerate(headers):
        widest = max([display_width(header), *(display_width(row[index]) for row in rows)])
        # On a narrow terminal only long columns (commands, regexes) fold; short ones such
        # as an event name or a timeout stay whole, which keeps the table readable.
        if widest <= _NO_WRAP_WIDTH:
            table.add_column(header, no_wrap=True)
        else:
            table.add_column(header, overflow="fold", min_width=max(len(header), 8))
    for row in rows:
        # Text, not str: commands and regexes contain [brackets] that are not rich markup.
        table.add_row(*(Text(cell) for cell in row))
    Console(file=stream, highlight=False, markup=False).print(table)


def render_table(headers: Sequence[str], rows: Sequence[Sequence[str]], *, stream: TextIO) -> None:
    """Print a table to `stream`: rich when it is a terminal, plain aligned text otherwise."""
    if is_terminal(stream):
        render_rich(headers, rows, stream=stream)
    else:
        render_plain(headers, rows, stream=stream)
