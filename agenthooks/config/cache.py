"""A cache of validated hook files, so that a large hooks.json is not re-parsed on every run.

An entry holds the handlers of a file that had no errors, keyed by its path and checked against
its size, modification time and a hash of its content: an entry is used only when all three
still match the bytes just read, so a stale entry is never trusted. Entries are written to a
temporary file and renamed into place, so concurrent runs see a whole entry or none.
The loader uses it only for files large enough that parsing costs more than the cache.
"""

from __future__ import annotations

import marshal
import os
from typing import Any

try:  # the C module hashlib itself wraps; importing hashlib costs ten times as much
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - other Python implementations
    from hashlib import blake2b

_FORMAT = 1  # bump when the entry layout or the rules that admit a file change

# hook, event, matcher, command, timeout, kind, enabled, pointer
Row = tuple[str, str, "str | None", str, int, str, bool, str]


def cache_dir() -> str:
    explicit = os.environ.get("AGENTHOOKS_CACHE_DIR")
    if explicit:
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.environ.get("HOME") or os.path.expanduser("~"), ".cache"
    )
    return os.path.join(base, "agenthooks", "configs")


def _entry_path(file: str) -> str:
    name = blake2b(os.path.realpath(file).encode(), digest_size=16).hexdigest()
    return os.path.join(cache_dir(), name + ".marshal")


def fingerprint(stat: os.stat_result, data: bytes) -> tuple[int, int, str]:
    return (stat.st_size, stat.st_mtime_ns, blake2b(data, digest_size=20).hexdigest())


def read(file: str, key: tuple[int, int, str]) -> list[Row] | None:
    """The cached rows of a file whose fingerprint is `key`, or None."""
    try:
        with open(_entry_path(file), "rb") as handle:
            entry: Any = marshal.loads(handle.read())  # marshal.load reads a file piecemeal
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if not isinstance(entry, tuple) or len(entry) != 3 or entry[0] != _FORMAT:
        return None
    if entry[1] != key:
        return None
    rows: list[Row] = entry[2]
    return rows


def write(file: str, key: tuple[int, int, str], rows: list[Row]) -> None:
    """Store an entry; a cache that cannot be written is only a missed speed-up."""
    import tempfile

    target = _entry_path(file)
    try:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=os.path.dirname(target), suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as handle:
                marshal.dump((_FORMAT, key, rows), handle)
            os.replace(temporary, target)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError:
        pass
