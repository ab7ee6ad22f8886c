"""The examples of README.md and docs/, read as the tests run them.

Every fenced block of a page is one of:

- a `console` block: `$ command` lines, each followed by what it prints (stdout and stderr as
  a terminal shows them); the commands run in order in one shell, and what they print is
  compared with what the block shows;
- an `sh` block: commands that run in one shell and must succeed (their output is not shown);
- a `python` block: a script that runs; `<!-- output -->` before the block after it makes that
  block what it must print;
- a file: `<!-- file: PATH -->` before a block writes it to PATH, for the blocks after it;
- not run, said so before it with the reason: `<!-- not run: REASON -->`, or
  `<!-- checked by: TEST -->` for a block a test of its own reads and runs;
- text that nothing runs: a `text` block (a synopsis, an output) or a block without a language
  (a diagram).

All the blocks of one page run in order in one folder, by default a stand-in for a clone of
this repository (`sample_hooks/` in it); `<!-- example folder: empty -->` anywhere on a page
starts it empty instead, as a user's own project. `<!-- run in: DIR -->` before a block runs it
in DIR of that folder, where the host runs it (Antigravity runs handlers in `.agents/`), and
`<!-- vary: REGEX -->` lets what REGEX matches in a console block's output (a duration) differ.
The example folder's path prints as /home/me/project.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from tests.docs.pages import REPO, pages

RUN = ("console", "sh", "python")
NEVER_RUN = ("text", "")
FENCE = re.compile(r"^( *)(```+)([\w-]*)[^\n]*$")
NOTE = re.compile(r"^<!-- ([a-z ]+):?(.*?) -->$")
KEYS = ("file", "run in", "output", "not run", "checked by", "example folder", "vary")


@dataclass
class Block:
    """One fenced block and what the comments right above it say of it."""

    page: Path
    line: int  # the fence's line, 1-based
    language: str
    text: str
    notes: dict[str, str] = field(default_factory=dict)

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(REPO)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    """The fenced blocks of a page, in order, each with its notes."""
    lines = page.read_text(encoding="utf-8").split("\n")
    found: list[Block] = []
    index = 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if not opening:
            index += 1
            continue
        indent, fence, language = opening.groups()
        end = index + 1
        while not lines[end].startswith(f"{indent}{fence}") or lines[end].strip() != fence:
            end += 1
        body = "".join(line.removeprefix(indent) + "\n" for line in lines[index + 1:end])
        found.append(Block(page, index + 1, language, body, notes_above(lines, index)))
        index = end + 1
    return found


def notes_above(lines: list[str], fence: int) -> dict[str, str]:
    """`<!-- key: value -->` lines just above a fence (blank lines between them allowed)."""
    notes: dict[str, str] = {}
    index = fence - 1
    while index >= 0 and (not lines[index].strip() or NOTE.match(lines[index].strip())):
        note = NOTE.match(lines[index].strip())
        if note and note.group(1) in KEYS:
            notes.setdefault(note.group(1), note.group(2).strip())
        index -= 1
    return notes


def starts_empty(page: Path) -> bool:
    return "<!-- example folder: empty -->" in page.read_text(encoding="utf-8")


def console_steps(block: Block) -> list[tuple[str, str]]:
    """(command, what it prints) for each `$ ` line of a console block."""
    steps: list[tuple[str, str]] = []
    for line in block.text.splitlines(keepends=True):
        if line.startswith("$ "):
            steps.append((line[2:].rstrip("\n"), ""))
        else:
            assert steps, f"{block.where}: a console block starts with `$ command`"
            command, output = steps[-1]
            steps[-1] = (command, output + line)
    return steps


def example_pages() -> list[Path]:
    """The pages with at least one block to run or write."""
    return [page for page in pages()
            if any(block.language in RUN or "file" in block.notes for block in blocks(page))]
