"""A cache of validated hook files, so that a large hooks.json is not re-parsed on every run.

An entry holds the handlers of a file that had no errors, keyed by its path and checked against
its size, modification time and a hash of its content, and against the agenthooks that wrote
it (its version and its rules): an entry is used only when all of these still match, so a
stale entry is never trusted. Entries are written to a temporary file and renamed into place,
so concurrent runs see a whole entry or none.

The cache decides which commands run, so it is trusted only as far as its owner: a directory
or entry that belongs to another user, or that its group or others can write, is ignored
(a shared `/tmp` cache would otherwise let another user plant handlers). An entry of the
wrong shape is ignored too: the loader then reads the file itself.
The loader uses it only for files large enough that parsing costs more than the cache.
"""

from __future__ import annotations

import marshal
import os

from agenthooks._version import __version__
from agenthooks.events import INT32_MAX
from agenthooks.model.events import EVENTS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

try:  # the C module hashlib itself wraps; importing hashlib costs ten times as much
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - other Python implementations
    from hashlib import blake2b

_FORMAT = 4  # bump when the entry layout or the rules that admit a file change
_KINDS = ("command", "prompt")
_KIND_SET = frozenset(_KINDS)
_EVENT_SET = frozenset(EVENTS)

# hook, event, matcher, command, timeout, kind, enabled, pointer
Row = tuple[str, str, "str | None", str, float, str, bool, str]  # timeouts: whole seconds
Key = tuple[int, int, str]
# The rows stored column by column (a list per field): marshalled, checked and turned into
# handlers by built-ins over whole columns, which a file of 10,000 handlers needs.
Columns = tuple[list[object], ...]


def cache_dir() -> str:
    explicit = os.environ.get("AGENTHOOKS_CACHE_DIR")
    if explicit:
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.environ.get("HOME") or os.path.expanduser("~"), ".cache"
    )
    return os.path.join(base, "agenthooks", "configs")


def entry_path(file: str, suffix: str = ".marshal") -> str:
    """Where the entry of a file lives: named by a hash of its real path."""
    name = blake2b(os.path.realpath(file).encode(), digest_size=16).hexdigest()
    return os.path.join(cache_dir(), name + suffix)


def _writer() -> tuple[str, int]:
    """Who wrote an entry: agenthooks' version and its rules (an edit of check.py counts).

    The rules' file is found beside this one rather than imported: a warm run never loads
    the checker."""
    try:
        rules = os.stat(os.path.join(os.path.dirname(__file__), "check.py")).st_mtime_ns
    except OSError:
        rules = 0
    return __version__, rules


def fingerprint(stat: os.stat_result, data: bytes) -> Key:
    return (stat.st_size, stat.st_mtime_ns, blake2b(data, digest_size=20).hexdigest())


def private(status: os.stat_result) -> bool:
    """Whether only the current user (or root) could have written this file or directory."""
    if not hasattr(os, "geteuid"):  # Windows: ownership is ACLs, not modes
        return True
    return status.st_uid in (os.geteuid(), 0) and not status.st_mode & 0o022


def read_entry(path: str, writer: tuple[Any, ...], key: Key) -> Any:
    """What a private entry holds, when it was written by `writer` for `key`; else None.

    Every caching of agenthooks goes through here and `write_entry`: one trust boundary.
    """
    try:
        if not private(os.stat(os.path.dirname(path))):
            return None
        flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
        fd = os.open(path, flags)
        with os.fdopen(fd, "rb") as handle:
            status = os.fstat(handle.fileno())
            if not private(status) or not _regular(status):
                return None
            entry: Any = marshal.loads(handle.read())  # marshal.load reads a file piecemeal
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if not isinstance(entry, tuple) or len(entry) != 3:
        return None
    entry_writer, entry_key, value = entry
    if entry_writer != writer or entry_key != key:
        return None
    return value


def write_entry(path: str, writer: tuple[Any, ...], key: Key, value: Any) -> None:
    """Store an entry whole (a temporary file renamed into place); a cache that cannot be
    written, or trusted, is only a missed speed-up."""
    import tempfile

    directory = os.path.dirname(path)
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
        if not private(os.stat(directory)):
            return
        fd, temporary = tempfile.mkstemp(dir=directory, suffix=".tmp")  # mode 0600
        try:
            with os.fdopen(fd, "wb") as handle:
                marshal.dump((writer, key, value), handle)
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError:
        pass


def read(file: str, key: Key) -> Columns | None:
    """The cached rows of a file whose fingerprint is `key`, as columns, or None."""
    columns = read_entry(entry_path(file), (_FORMAT, *_writer()), key)
    return columns if _valid_columns(columns) else None


def _regular(status: os.stat_result) -> bool:
    import stat

    return stat.S_ISREG(status.st_mode)


def _valid_columns(columns: Any) -> bool:
    """Whether `columns` are the eight columns of well-formed rows; anything else is dropped,
    never raised. Checked with built-ins over whole columns (marshal gives exact types, so
    `type` suffices)."""
    if type(columns) is not tuple or len(columns) != 8:
        return False
    if set(map(type, columns)) != {list} or len(set(map(len, columns))) != 1:
        return False
    hooks, events, matchers, commands, timeouts, kinds, enabled, pointers = columns
    if not hooks:
        return True
    return (
        {*map(type, hooks), *map(type, events), *map(type, commands), *map(type, kinds),
         *map(type, pointers)} == {str}
        and set(events) <= _EVENT_SET
        and set(kinds) <= _KIND_SET
        and set(map(type, matchers)) <= {str, type(None)}
        and set(map(type, timeouts)) == {int}
        and min(timeouts) > 0
        and max(timeouts) <= INT32_MAX
        and set(map(type, enabled)) == {bool}
    )


def write(file: str, key: Key, rows: list[Row]) -> None:
    """Store the rows of a file that had no errors (as columns)."""
    columns = tuple(map(list, zip(*rows, strict=True))) if rows else ([],) * 8
    write_entry(entry_path(file), (_FORMAT, *_writer()), key, columns)


# --- settings files ---------------------------------------------------------------------------
# A Claude Code or Gemini CLI settings file without errors: its handlers (every field but the
# source, which the reader attaches again) and the switches that act across files. The entry
# is also keyed by the whole source (how the file was reached: workspace, level, dialect),
# since what a file yields depends on it.

_SETTINGS_FORMAT = 1
_SETTINGS_SUFFIX = ".settings.marshal"
# The modules whose rules decide what a settings file yields: an edit of any counts.
_SETTINGS_RULES = ("dialects", "config/check.py", "config/rules.py", "model/handlers.py")

if TYPE_CHECKING:
    SettingsEntry = tuple[list[tuple[Any, ...]], bool | None, tuple[str, ...]]


def _settings_writer(source: tuple[Any, ...]) -> tuple[Any, ...]:
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    newest = 0
    for name in _SETTINGS_RULES:
        path = os.path.join(package, name)
        try:
            names = [os.path.join(path, n) for n in os.listdir(path) if n.endswith(".py")]
        except NotADirectoryError:
            names = [path]
        except OSError:
            continue
        for file in names:
            try:
                newest = max(newest, os.stat(file).st_mtime_ns)
            except OSError:
                continue
    return (_SETTINGS_FORMAT, __version__, newest, tuple(source))


def read_settings(source: tuple[Any, ...], file: str, key: Key,
                  fields: int) -> SettingsEntry | None:
    """The cached yield of a settings file whose fingerprint is `key`, read through `source`;
    `fields`: how many fields a handler row has. None when absent, stale or malformed."""
    entry = read_entry(entry_path(file, _SETTINGS_SUFFIX), _settings_writer(source), key)
    if not isinstance(entry, tuple) or len(entry) != 3:
        return None
    rows, switch, disabled = entry
    if not (isinstance(rows, list) and all(_settings_row(row, fields) for row in rows)):
        return None
    if switch is not None and type(switch) is not bool:
        return None
    if not isinstance(disabled, tuple) or not all(isinstance(d, str) for d in disabled):
        return None
    return rows, switch, disabled


def _settings_row(row: Any, fields: int) -> bool:
    if not isinstance(row, tuple) or len(row) != fields:
        return False
    hook, event, matcher, command, timeout, kind, enabled, pointer = row[:8]
    return (  # events in the file's own words (BeforeTool): no table to check them against
        all(isinstance(text, str) for text in (hook, event, command, kind, pointer))
        and (matcher is None or isinstance(matcher, str))
        and kind in _KINDS
        and type(timeout) in (int, float)
        and type(enabled) is bool
    )


def write_settings(source: tuple[Any, ...], file: str, key: Key, entry: SettingsEntry) -> None:
    """Store the yield of a settings file that had no errors (not at all when some value in it
    is not plain data marshal can write)."""
    try:
        marshal.dumps(entry)
    except ValueError:
        return
    write_entry(entry_path(file, _SETTINGS_SUFFIX), _settings_writer(source), key, entry)
