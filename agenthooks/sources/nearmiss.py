"""Hook files in places agenthooks does not look: `hooks.json` at a workspace root,
`.agents/hook.json`, `agents/hooks.json`, `.agnets/hooks.json`, `.harness/hook/x.md`...

Such a file never runs, and nothing else says so: a gate kept there protects nothing. `run`
looks for them only when it found no hook file at all (so a run that has hooks pays nothing),
`validate` in every folder it is given. A candidate counts only when it looks like a hook file
(a JSON object naming an event, or JSON that does not parse; Markdown with `event:` in its
frontmatter), so an unrelated `hooks.json` (a webhook list) is not reported.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator

from agenthooks._lean.records import NamedTuple
from agenthooks.sources.discovery import (
    CUSTOMIZATION_DIRS,
    HARNESS_DIR,
    HOOKS_FILE,
    MARKDOWN_DIR,
    MARKDOWN_SUFFIX,
    display_path,
)

RULE = "near-miss"
MAX_TYPOS = 2  # edits (insert, delete, replace, swap) from a name agenthooks reads
MAX_READ = 1 << 20  # bytes of a candidate read to decide whether it is a hook file
MAX_LEVELS = 32  # directories walked upward from the current one
HOOKS_FOLDER = os.path.basename(MARKDOWN_DIR)


class NearMiss(NamedTuple):
    """A file that looks like a hook file, and where agenthooks would read it."""

    path: str  # absolute
    expected: str  # absolute: where agenthooks reads such a file (a folder for Markdown)

    def describe(self, cwd: str | None = None) -> str:
        shown = display_path(self.path, cwd)
        where = display_path(self.expected, cwd)
        if self.expected.endswith(os.sep):
            where = where.rstrip(os.sep) + "/"
        move = "merge it into" if os.path.isfile(self.expected) else "move it to"
        return (f"{shown} looks like a hook file, but agenthooks never reads it there: "
                f"{move} {where}")


def typos(word: str, target: str) -> int:
    """The edits from `word` to `target`, case ignored (optimal string alignment distance:
    a swap of two neighbours is one edit, as `.agnets` for `.agents`)."""
    a, b = word.lower(), target.lower()
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], previous2[j - 2] + 1)
        previous2, previous = previous, row
    return previous[len(b)]


def _close(name: str, target: str) -> bool:
    """Close to `target` but not it (`hook.json`, `Hooks.json`, `.agnets`, `agents`)."""
    return name != target and typos(name, target) <= MAX_TYPOS


def _entries(folder: str) -> list[os.DirEntry[str]]:
    try:
        return sorted(os.scandir(folder), key=lambda entry: entry.name)
    except OSError:
        return []


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def _is_file(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file()
    except OSError:
        return False


def _event_words() -> frozenset[str]:
    from agenthooks.model.events import EVENT_TABLE, filled

    filled()
    return frozenset(word.lower() for row in EVENT_TABLE for word in row.words.values())


def _read(path: str) -> str | None:
    try:
        with open(path, "rb") as handle:
            return handle.read(MAX_READ).decode("utf-8", "replace")
    except OSError:
        return None


def looks_like_hooks_json(path: str) -> bool:
    """An object with an event among its keys, or its definitions' or its `hooks`' keys; or
    JSON that does not parse (a gate with a typo is still a gate)."""
    text = _read(path)
    if text is None:
        return False
    try:
        document = json.loads(text)
    except ValueError:
        return bool(text.strip())
    if not isinstance(document, dict):
        return False
    words = _event_words()
    keys = {str(key).lower() for key in document}
    for value in document.values():
        if isinstance(value, dict):
            keys.update(str(key).lower() for key in value)
    return bool(keys & words)


def looks_like_markdown_hook(path: str) -> bool:
    """Frontmatter (`---` first) with an `event:` key."""
    text = _read(path)
    if text is None or not text.startswith("---"):
        return False
    front = text[3:].split("\n---", 1)[0]
    return any(line.startswith("event:") for line in front.splitlines())


def _json_in(folder: str, expected: str, *, exact: bool) -> Iterator[NearMiss]:
    """The hooks.json look-alikes of a folder (`exact`: `hooks.json` itself counts too)."""
    for entry in _entries(folder):
        named = (exact and entry.name == HOOKS_FILE) or _close(entry.name, HOOKS_FILE)
        if named and _is_file(entry) and looks_like_hooks_json(entry.path):
            yield NearMiss(entry.path, expected)


def _markdown_in(folder: str, expected: str) -> Iterator[NearMiss]:
    for entry in _entries(folder):
        if (entry.name.endswith(MARKDOWN_SUFFIX) and not entry.name.startswith(".")
                and _is_file(entry) and looks_like_markdown_hook(entry.path)):
            yield NearMiss(entry.path, expected)


def near_misses_in(root: str) -> list[NearMiss]:
    """The hook look-alikes of one directory, taken as a workspace root: its own hooks.json,
    a misnamed file in a customization folder, a file in a folder named almost like one, and
    Markdown hooks beside or near `.harness/hooks/`."""
    root = os.path.abspath(root)
    if _inside_a_hook_folder(root):
        return []
    expected = os.path.join(root, CUSTOMIZATION_DIRS[0], HOOKS_FILE)
    markdown_home = os.path.join(root, MARKDOWN_DIR) + os.sep
    found = list(_json_in(root, expected, exact=True))
    for entry in _entries(root):
        if not _is_dir(entry):
            continue
        if entry.name in CUSTOMIZATION_DIRS:
            found.extend(_json_in(entry.path, os.path.join(entry.path, HOOKS_FILE), exact=False))
        elif any(_close(entry.name, name) for name in CUSTOMIZATION_DIRS):
            found.extend(_json_in(entry.path, expected, exact=True))
        elif entry.name == HARNESS_DIR:
            found.extend(_markdown_in(entry.path, markdown_home))
            found.extend(miss for sub in _entries(entry.path)
                         if _is_dir(sub) and _close(sub.name, HOOKS_FOLDER)
                         for miss in _markdown_in(sub.path, markdown_home))
        elif _close(entry.name, HARNESS_DIR):
            found.extend(miss for sub in _entries(entry.path)
                         if _is_dir(sub) and typos(sub.name, HOOKS_FOLDER) <= MAX_TYPOS
                         for miss in _markdown_in(sub.path, markdown_home))
    return found


def _inside_a_hook_folder(directory: str) -> bool:
    """Whether a directory is (or is almost) a customization or `.harness` folder, or in one:
    its files are judged from the root above it."""
    names = (*CUSTOMIZATION_DIRS, HARNESS_DIR)
    here, parent = os.path.basename(directory), os.path.basename(os.path.dirname(directory))
    return any(typos(name, target) <= MAX_TYPOS for name in (here, parent) for target in names)


def near_misses_upward(start: str) -> list[NearMiss]:
    """The look-alikes of `start` and of each directory above it, up to the top of its git
    work tree (the first directory with a `.git`), else up to the home directory."""
    home = os.path.realpath(os.environ.get("HOME") or os.path.expanduser("~"))
    directory = os.path.abspath(start)
    found: list[NearMiss] = []
    for _ in range(MAX_LEVELS):
        found.extend(near_misses_in(directory))
        parent = os.path.dirname(directory)
        if (os.path.lexists(os.path.join(directory, ".git")) or parent == directory
                or os.path.realpath(parent) == home):
            break
        directory = parent
    return found
