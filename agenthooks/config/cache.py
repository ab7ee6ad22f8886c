"""A cache of validated hook files, so that a hooks.json is not re-parsed and re-checked on
every run.

A hooks.json entry holds the handlers of a file that had no errors, by event, and is found by
the file's path. It is used when it was written by the same agenthooks (its version and its
rules) and the file is the one it was written for: either the same file by its status (device,
inode, size, modification and change times, to the nanosecond), so that a hit reads no byte of
the file, or the same bytes (size and a BLAKE2 hash of the content). Entries are written to a
temporary file and renamed into place, so concurrent runs see a whole entry or none.

Why the status is enough: any write to a file, and any `utime` on it, sets its change time to
the current time, and no call sets a change time at will (an owner can set the modification
time back, never the change time, short of setting the system's clock). The one hazard is a
clock tick: a file written twice within one tick of the filesystem's timestamps (a few
milliseconds; seconds on some filesystems) keeps its change time, and with the same size its
whole status. So an entry is keyed by status only when the file's last change is older than
`RACY_NS` at the time the entry is written; a file changed more recently than that is keyed
by its bytes alone (read and hashed on every run), and gets its status key on the first run
after it has settled (as Git treats "racily clean" index entries). A file whose times read as
zero (a filesystem that keeps none), or on Windows (where st_ctime is the creation time), is
never keyed by status.

The cache decides which commands run, so it is trusted only as far as its owner: a directory
or entry that belongs to another user, or that its group or others can write, is ignored
(a shared `/tmp` cache would otherwise let another user plant handlers). An entry of the
wrong shape is ignored too: the loader then reads the file itself.

The other formats' entries (settings files here, Markdown hooks in `markdown.cache`) are keyed
by `fingerprint`, under the same rule: the file's status once it has settled, else its size,
modification time and content hash.

A warm run reads through `config.entries` alone (the trust checks, a hooks.json's lookup);
this module writes, and holds the entries of the other formats.
"""

from __future__ import annotations

import marshal
import os

from agenthooks._version import __version__
from agenthooks.config.entries import (
    KINDS,
    Digest,
    Entry,
    Identity,
    entry_path,
    hash_hex,
    hooks_entry_path,
    identity,
    lookup,
    private,
    read_private,
    writer,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# How long after its last change a file is keyed by its status: well over the coarsest
# timestamps of a common filesystem (FAT's two seconds) and the kernel's clock tick.
RACY_NS = 3_000_000_000

# hook, event, matcher, command, timeout, kind, enabled, pointer
Row = tuple[str, str, "str | None", str, float, str, bool, str]  # timeouts: whole seconds
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


def digest(data: bytes) -> Digest:
    return (len(data), hash_hex(data, 20))


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


def write_entry(path: str, writer: tuple[Any, ...], key: Any, value: Any) -> None:
    """Store an entry whole (a temporary file renamed into place); a cache that cannot be
    written, or trusted, is only a missed speed-up."""
    write_bytes(path, marshal.dumps((writer, key, value)))


def write_bytes(path: str, data: bytes) -> None:
    """Store an entry's bytes whole, in a private directory alone (else not at all)."""
    import tempfile

    directory = os.path.dirname(path)
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
        if not private(os.stat(directory)):
            return
        fd, temporary = tempfile.mkstemp(dir=directory, suffix=".tmp")  # mode 0600
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError:
        pass


# --- hooks.json files ---------------------------------------------------------------------
# Read by `config.entries` (`lookup`, `same_file`, `event_columns`); written here.


def same_bytes(file: str, entry: Entry, status: os.stat_result, data: bytes) -> bool:
    """Whether the file holds the bytes the entry was written for; if so and the file has
    settled since, the entry is keyed by its status from now on."""
    if entry[1] != digest(data):
        return False
    if settled(status) and entry[0] != identity(status):
        whole = lookup(file, None)  # every event's columns, to write them again
        if whole is not None and whole[1] == entry[1] and whole[4] is not None:
            _store(file, identity(status), whole[1], whole[3], whole[4])
    return True


def write(file: str, status: os.stat_result, data: bytes, rows: list[Row]) -> None:
    """Store the rows of a file that had no errors (per event, as columns), keyed by its
    bytes, and by its status when it has settled."""
    by_event: dict[str, list[tuple[object, ...]]] = {}
    words: dict[object, object] = {}  # one string per distinct word: marshal writes it once
    order = bytearray()
    for hook, event, matcher, command, timeout, kind, enabled, pointer in rows:
        row = (words.setdefault(hook, hook), words.setdefault(matcher, matcher), command,
               timeout, words.setdefault(kind, kind), enabled, pointer)
        found = by_event.get(event)
        if found is None:
            found = by_event[event] = []
        order.append(list(by_event).index(event))
        found.append(row)
    events = {event: marshal.dumps(tuple(map(list, zip(*found, strict=True))))
              for event, found in by_event.items()}
    _store(file, identity(status) if settled(status) else None, digest(data), events,
           bytes(order))


def _store(file: str, known: Identity | None, content: Digest, events: dict[str, bytes],
           order: bytes) -> None:
    """Write an entry: its header, then each event's columns, then the order."""
    spans = []
    offset = 0
    for data in events.values():
        spans.append((offset, len(data)))
        offset += len(data)
    header = marshal.dumps((writer(), known, content, tuple(events), tuple(spans),
                            (offset, len(order))))
    write_bytes(hooks_entry_path(file),
                b"".join((len(header).to_bytes(4, "little"), header, *events.values(), order)))


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
        and kind in KINDS
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
