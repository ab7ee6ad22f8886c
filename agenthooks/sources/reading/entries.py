"""Reading the cache: the trust checks every cached run passes through, and a hooks.json's entry.

This is the side of the cache (`sources.reading.cache`) that a warm run takes, kept apart from
writing and from the other formats' entries so that a run imports only it. Its rules are the
cache's: an entry is read only from a directory and a file that its user (or root) alone can write,
never through a symbolic link, and a hooks.json entry only when this agenthooks wrote it
(`writer`) for the file as it is now (`same_file`, or `cache.same_bytes`).
"""

from __future__ import annotations

import marshal
import os
import stat

from agenthooks._version import __version__
from agenthooks.model.eventnames import INT32_MAX
from agenthooks.model.events import EVENTS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    # A settings file's yield: handler rows (every field but the source), its switch, and
    # the hooks it disables (see `sources.reading.cache`).
    SettingsEntry = tuple[list[tuple[Any, ...]], bool | None, tuple[str, ...]]

FORMAT = 5  # bump when the entry layout or the rules that admit a file change
KINDS = ("command", "prompt")
_KIND_SET = frozenset(KINDS)
_EVENT_SET = frozenset(EVENTS)
# The checker's rules decide what a file yields: an edit of them makes every entry stale.
# Found beside this module rather than imported: a warm run never loads the checker.
_RULES = os.path.join(os.path.dirname(__file__), "check.py")

# dev, ino, size, mtime_ns, ctime_ns
Identity = tuple[int, int, int, int, int]
Digest = tuple[int, str]  # size, BLAKE2 of the bytes
# One event's rows stored column by column (a list per field: hook, matcher, command, timeout,
# kind, enabled, pointer): marshalled, checked and turned into handlers by built-ins over whole
# columns, which a file of 10,000 handlers needs.
Columns = tuple[list["Any"], ...]
COLUMNS = 7
# A hooks.json entry, as read: the file's status (None: changed too recently to be known by
# it), its digest, the file's events (in order of first appearance), the marshalled columns of
# the events read, and the order of the rows across events (when every event was read: the
# index of each row's event, one byte each).
Entry = tuple["Identity | None", Digest, tuple[str, ...], dict[str, bytes], "bytes | None"]
# An entry on disk: four bytes giving the length of a marshalled header, the header
# (writer, status, digest, events, where each event's columns lie, where the order lies), then
# those: a run reads the header and its own event's columns alone.
Span = tuple[int, int]  # offset after the header, length
Header = tuple[tuple[int, str, int], "Identity | None", Digest, tuple[str, ...],
               tuple[Span, ...], Span]
_HEAD = 4096  # read at once: the header of any file with fewer than a hundred or so events


def cache_dir() -> str:
    explicit = os.environ.get("AGENTHOOKS_CACHE_DIR")
    if explicit:
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.environ.get("HOME") or os.path.expanduser("~"), ".cache"
    )
    return os.path.join(base, "agenthooks", "configs")


def private(status: os.stat_result) -> bool:
    """Whether only the current user (or root) could have written this file or directory."""
    if not hasattr(os, "geteuid"):  # Windows: ownership is ACLs, not modes
        return True
    return status.st_uid in (os.geteuid(), 0) and not status.st_mode & 0o022


def open_private(path: str) -> int | None:
    """An entry opened for reading when it and its directory are private (never through a
    symbolic link), else None; the caller closes it.

    Every caching of agenthooks reads through here and writes through
    `cache.write_entry`: one trust boundary."""
    try:
        if not private(os.stat(os.path.dirname(path))):
            return None
        flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        status = os.fstat(fd)
    except OSError:
        status = None
    if status is None or not private(status) or not stat.S_ISREG(status.st_mode):
        os.close(fd)
        return None
    return fd


def read_private(path: str) -> Any:
    """What a private entry holds, unmarshalled; else None."""
    fd = open_private(path)
    if fd is None:
        return None
    try:
        return marshal.loads(_read_all(fd))
    except (OSError, EOFError, ValueError, TypeError):
        return None
    finally:
        os.close(fd)


def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 1024 * 1024):
        chunks.append(chunk)
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def writer() -> tuple[int, str, int]:
    """Who wrote a hooks.json entry: the entry format, agenthooks' version and its rules."""
    try:
        rules = os.stat(_RULES).st_mtime_ns
    except OSError:
        rules = 0
    return FORMAT, __version__, rules


def hash_hex(data: bytes, digest_size: int) -> str:
    """BLAKE2b of `data`, in hex."""
    try:  # the C module hashlib itself wraps; importing hashlib costs ten times as much
        from _blake2 import blake2b
    except ImportError:  # pragma: no cover - other Python implementations
        from hashlib import blake2b
    return blake2b(data, digest_size=digest_size).hexdigest()


def hooks_entry_path(file: str) -> str:
    """Where a hooks.json's entry lives (see `entry_path`)."""
    return entry_path(file, ".hooks.marshal")


def entry_path(file: str, suffix: str) -> str:
    """Where the entry of a file lives: named by its absolute path, escaped (no hash to
    import, no link to resolve: an entry is checked against the file itself), then `suffix`,
    which says what kind of file it is; a path too long for a file name is hashed."""
    name = os.path.abspath(file).replace("%", "%25").replace("/", "%2F")
    if len(name) > 200:
        name = hash_hex(name.encode(), 16)
    return os.path.join(cache_dir(), name + suffix)


def lookup(file: str, event: str | None) -> Entry | None:
    """The entry of a hooks.json written by this agenthooks, well formed, with the columns
    of `event` (None: of every event, and their order), or None; whether it is for the file
    as it is now is `same_file`'s or `cache.same_bytes`' to say."""
    fd = open_private(hooks_entry_path(file))
    if fd is None:
        return None
    try:
        return _read_entry(fd, event)
    except (OSError, EOFError, ValueError, TypeError):
        return None
    finally:
        os.close(fd)


def _read_entry(fd: int, event: str | None) -> Entry | None:
    head = os.read(fd, _HEAD)
    size = int.from_bytes(head[:4], "little") + 4
    if len(head) < size:
        head += _read_at(fd, size - len(head), len(head))
    header = marshal.loads(head[4:size])
    if not _valid_header(header):
        return None
    _, known, content, events, spans, order_span = header
    wanted = events if event is None else (event,) if event in events else ()
    found = {name: _read_span(fd, spans[events.index(name)], size) for name in wanted}
    order = _read_span(fd, order_span, size) if event is None else None
    return known, content, events, found, order


def _read_span(fd: int, span: Span, base: int) -> bytes:
    data = _read_at(fd, span[1], base + span[0])
    if len(data) != span[1]:
        raise EOFError("a cache entry shorter than its header says")
    return data


def _read_at(fd: int, length: int, offset: int) -> bytes:
    if hasattr(os, "pread"):
        return os.pread(fd, length, offset)
    os.lseek(fd, offset, os.SEEK_SET)  # pragma: no cover - Windows
    return os.read(fd, length)  # pragma: no cover


def _valid_header(header: Any) -> bool:
    if type(header) is not tuple or len(header) != 6 or header[0] != writer():
        return False
    _, known, _, events, spans, order = header
    return (
        (known is None or (type(known) is tuple and len(known) == 5))
        and type(events) is tuple and set(events) <= _EVENT_SET
        and len(set(events)) == len(events)
        and type(spans) is tuple and len(spans) == len(events)
        and all(map(_valid_span, (*spans, order)))
    )


def _valid_span(span: Any) -> bool:
    return (type(span) is tuple and len(span) == 2 and type(span[0]) is int
            and type(span[1]) is int and span[0] >= 0 and span[1] >= 0)


def identity(status: os.stat_result) -> Identity:
    return (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns,
            status.st_ctime_ns)


def same_file(entry: Entry, status: os.stat_result) -> bool:
    """Whether the file is, by its status, the one the entry was written for."""
    return entry[0] is not None and entry[0] == identity(status)


def event_columns(entry: Entry, event: str) -> Columns | None:
    """The rows of one event, as checked columns; empty for an event with none, None when
    the entry is malformed."""
    data = entry[3].get(event)
    if data is None:
        return ([],) * COLUMNS
    try:
        columns = marshal.loads(data)
    except (EOFError, ValueError, TypeError):
        return None
    return columns if _valid_columns(columns) else None


def every_event(entry: Entry) -> list[Columns] | None:
    """Every event's rows (in the order of `entry`'s events), or None when any is
    malformed or they do not fit the order."""
    events, order = entry[2], entry[4]
    found = []
    for index, event in enumerate(events):
        columns = event_columns(entry, event)
        if columns is None or order is None or order.count(index) != len(columns[0]):
            return None
        found.append(columns)
    if order is None or len(order) != sum(len(columns[0]) for columns in found):
        return None
    return found


def _valid_columns(columns: Any) -> bool:
    """Whether `columns` are the columns of one event's well-formed rows; anything else is
    dropped, never raised. Checked with built-ins over whole columns: marshal gives exact
    types (never a subclass of str), so `type` suffices, and `str.join` takes strings alone."""
    if type(columns) is not tuple or len(columns) != COLUMNS:
        return False
    if set(map(type, columns)) != {list} or len(set(map(len, columns))) != 1:
        return False
    hooks, matchers, commands, timeouts, kinds, enabled, pointers = columns
    if not hooks:
        return True
    try:
        "".join(hooks), "".join(commands), "".join(pointers)
        words, patterns = set(kinds), set(matchers)  # a few distinct each
    except TypeError:  # not a string, or not hashable where a word belongs
        return False
    return (
        words <= _KIND_SET
        and set(map(type, patterns)) <= {str, type(None)}
        and set(map(type, timeouts)) == {int}
        and min(timeouts) > 0
        and max(timeouts) <= INT32_MAX
        and set(map(type, enabled)) == {bool}
    )


# --- Entries keyed by `fingerprint`: settings files here, Markdown hooks in
# `sources.markdown.cache`

# How long after its last change a file is keyed by its status: well over the coarsest
# timestamps of a common filesystem (FAT's two seconds) and the kernel's clock tick.
RACY_NS = 3_000_000_000
# A file's status once it has settled (dev, ino, size, mtime_ns, ctime_ns), else its size,
# modification time and content hash: see `fingerprint`.
Key = tuple["int | str", ...]


def fingerprint(stat: os.stat_result, data: bytes) -> Key:
    """What an entry of a file holding `data` is keyed by: the file's status once it has
    settled (a change since shows in it, and nothing is hashed), else its size, modification
    time and content hash (see the module's docstring)."""
    if settled(stat):
        return identity(stat)
    return (stat.st_size, stat.st_mtime_ns, hash_hex(data, 20))


def settled(status: os.stat_result) -> bool:
    """Whether a file's status can stand for its bytes: changed long enough ago that a
    later change cannot share its change time (see the module's docstring)."""
    if os.name == "nt":  # st_ctime is the file's creation there: no write shows in it
        return False
    import time

    changed = status.st_ctime_ns
    return 0 < changed < time.time_ns() - RACY_NS and status.st_mtime_ns != 0


def read_entry(path: str, writer: tuple[Any, ...], key: Key) -> Any:
    """What a private entry holds, when it was written by `writer` for `key`; else None."""
    entry = read_private(path)
    if not isinstance(entry, tuple) or len(entry) != 3:
        return None
    entry_writer, entry_key, value = entry
    if entry_writer != writer or entry_key != key:
        return None
    return value


# A Claude Code or Gemini CLI settings file's entry (written by
# `sources.reading.cache.write_settings`).
_SETTINGS_FORMAT = 2  # 2: handlers carry their environment's variables
SETTINGS_SUFFIX = ".settings.marshal"
# The modules whose rules decide what a settings file yields: an edit of any counts.
_SETTINGS_RULES = (
    "sources/dialects", "sources/reading/check.py", "model/rules.py", "model/handlers.py",
)


def settings_writer(source: tuple[Any, ...]) -> tuple[Any, ...]:
    package = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
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
    entry = read_entry(entry_path(file, SETTINGS_SUFFIX), settings_writer(source), key)
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
        and kind in KINDS
        and type(timeout) in (int, float)
        and type(enabled) is bool
    )
