"""A cache of checked frontmatter, so `agenthooks run` does not import and run a YAML parser
on every tool call.

An entry holds the frontmatter of a Markdown hook that had no errors, found by the file's path
and checked against the file's fingerprint (its status once it has settled, else its size,
modification time and content hash: `sources.reading.cache.fingerprint`) and against the agenthooks
that wrote it; it lives beside the hooks.json cache and is trusted only as far as
its owner, exactly as that cache is (`agenthooks.sources.reading.cache`). Scripts are not cached:
they compile on use, and the cache holds only what the file says.
"""

from __future__ import annotations

import os

from agenthooks._version import __version__
from agenthooks.sources.reading.cache import Key, read_entry, write_entry
from agenthooks.sources.reading.entries import entry_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.sources.markdown.frontmatter import Frontmatter

_FORMAT = 2  # 2: with the `when` test (`sources.markdown.when`)
_RULES = ("frontmatter.py", "when.py")  # what an entry holds is their reading: an edit counts


_writers: list[tuple[int, str, int]] = []


def _writer() -> tuple[int, str, int]:
    """The entry format, agenthooks' version and the newest edit of the modules that read a
    file; read once per process."""
    if not _writers:
        _writers.append((_FORMAT, *_rules()))
    return _writers[0]


def _rules() -> tuple[str, int]:
    here = os.path.dirname(__file__)
    newest = 0
    for name in _RULES:
        try:
            newest = max(newest, os.stat(os.path.join(here, name)).st_mtime_ns)
        except OSError:
            continue
    return __version__, newest


def _entry_path(file: str) -> str:
    """Where a file's entry lives: named by its path as found, as every entry is
    (`sources.reading.entries.entry_path`: no hash to import, no link to resolve)."""
    return entry_path(file, ".md.marshal")


def read(file: str, key: Key) -> Frontmatter | None:
    fields = read_entry(_entry_path(file), _writer(), key)
    return None if fields is None else _front(fields)


def _front(fields: Any) -> Frontmatter | None:
    """The record again, or None for an entry of the wrong shape (never raised)."""
    from agenthooks.sources.markdown.frontmatter import Frontmatter, Place
    from agenthooks.sources.markdown.when import valid

    try:
        (event, priority, when, script, timeout_ms, on_error, script_place, when_place, at,
         test) = fields
        front = Frontmatter(event, priority, when, script, timeout_ms, on_error,
                            Place(*script_place), Place(*when_place) if when_place else None,
                            (at[0], at[1]), test)
    except (TypeError, ValueError):
        return None
    ok = (isinstance(event, str) and type(priority) is int and type(timeout_ms) is int
          and timeout_ms > 0 and isinstance(script, str) and on_error in ("block", "allow")
          and (when is None or isinstance(when, str))
          and (test is None or (when is not None and valid(test))))
    return front if ok else None


def write(file: str, key: Key, front: Frontmatter) -> None:
    """Store the frontmatter of a file that had no errors."""
    fields = (front.event, front.priority, front.when, front.script, front.timeout_ms,
              front.on_error, tuple(front.script_place),
              tuple(front.when_place) if front.when_place else None, tuple(front.event_place),
              front.when_test)
    write_entry(_entry_path(file), _writer(), key, fields)
