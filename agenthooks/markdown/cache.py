"""A cache of checked frontmatter, so `agenthooks run` does not import and run a YAML parser
on every tool call.

An entry holds the frontmatter of a Markdown hook that had no errors, keyed by the file's real
path and checked against its size, modification time and content hash, and against the
agenthooks that wrote it; it lives beside the hooks.json cache and is trusted only as far as
its owner, exactly as that cache is (`agenthooks.config.cache`). Scripts are not cached: they
compile on use, and the cache holds only what the file says.
"""

from __future__ import annotations

import marshal
import os
from typing import TYPE_CHECKING, Any

from agenthooks import __version__
from agenthooks.config.cache import Key, cache_dir, private

try:  # the C module hashlib itself wraps, as the hooks.json cache does
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - other Python implementations
    from hashlib import blake2b

if TYPE_CHECKING:
    from agenthooks.markdown.frontmatter import Frontmatter

_FORMAT = 1


def _entry_path(file: str) -> str:
    name = blake2b(os.path.realpath(file).encode(), digest_size=16).hexdigest()
    return os.path.join(cache_dir(), name + ".md.marshal")


def _writer() -> tuple[str, int]:
    """agenthooks' version and the frontmatter rules (an edit of frontmatter.py counts)."""
    here = os.path.join(os.path.dirname(__file__), "frontmatter.py")
    try:
        return __version__, os.stat(here).st_mtime_ns
    except OSError:
        return __version__, 0


def read(file: str, key: Key) -> Frontmatter | None:
    path = _entry_path(file)
    try:
        if not private(os.stat(os.path.dirname(path))):
            return None
        flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
        with os.fdopen(os.open(path, flags), "rb") as handle:
            status = os.fstat(handle.fileno())
            import stat

            if not private(status) or not stat.S_ISREG(status.st_mode):
                return None
            entry: Any = marshal.loads(handle.read())
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if not isinstance(entry, tuple) or len(entry) != 4:
        return None
    form, writer, entry_key, fields = entry
    if form != _FORMAT or writer != _writer() or entry_key != key:
        return None
    return _front(fields)


def _front(fields: Any) -> Frontmatter | None:
    """The record again, or None for an entry of the wrong shape (never raised)."""
    from agenthooks.markdown.frontmatter import Frontmatter, Place

    try:
        event, priority, when, script, timeout_ms, on_error, script_place, when_place, at = fields
        front = Frontmatter(event, priority, when, script, timeout_ms, on_error,
                            Place(*script_place), Place(*when_place) if when_place else None,
                            (at[0], at[1]))
    except (TypeError, ValueError):
        return None
    ok = (isinstance(event, str) and type(priority) is int and type(timeout_ms) is int
          and timeout_ms > 0 and isinstance(script, str) and on_error in ("block", "allow")
          and (when is None or isinstance(when, str)))
    return front if ok else None


def write(file: str, key: Key, front: Frontmatter) -> None:
    """Store an entry; a cache that cannot be written (or trusted) is only a missed speed-up."""
    import tempfile

    fields = (front.event, front.priority, front.when, front.script, front.timeout_ms,
              front.on_error, tuple(front.script_place),
              tuple(front.when_place) if front.when_place else None, tuple(front.event_place))
    target = _entry_path(file)
    directory = os.path.dirname(target)
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
        if not private(os.stat(directory)):
            return
        fd, temporary = tempfile.mkstemp(dir=directory, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as handle:
                marshal.dump((_FORMAT, _writer(), key, fields), handle)
            os.replace(temporary, target)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError:
        pass
