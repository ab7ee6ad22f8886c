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

The other formats' entries (settings files here, Markdown hooks in `sources.markdown.cache`) are
keyed by `fingerprint`, under the same rule: the file's status once it has settled, else its size,
modification time and content hash.

A warm run reads through `sources.reading.entries` alone (the trust checks, a hooks.json's lookup, a
settings file's entry, `fingerprint`); this module writes.
"""

from __future__ import annotations

import marshal
import os

from agenthooks.sources.reading.entries import (
    SETTINGS_SUFFIX,
    Digest,
    Entry,
    Identity,
    Key,
    entry_path,
    fingerprint,
    hash_hex,
    hooks_entry_path,
    identity,
    lookup,
    private,
    read_entry,
    read_settings,
    settings_writer,
    settled,
    writer,
)

# The read side lives in `sources.reading.entries` (a warm run imports it alone); these of its names
# are imported from here too.
__all__ = ["Key", "fingerprint", "read_entry", "read_settings", "same_bytes", "write",
           "write_entry", "write_settings"]

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# hook, event, matcher, command, timeout, kind, enabled, pointer
Row = tuple[str, str, "str | None", str, float, str, bool, str]  # timeouts: whole seconds


def digest(data: bytes) -> Digest:
    return (len(data), hash_hex(data, 20))


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
# Read by `sources.reading.entries` (`lookup`, `same_file`, `event_columns`); written here.


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

if TYPE_CHECKING:
    from agenthooks.sources.reading.entries import SettingsEntry


def write_settings(source: tuple[Any, ...], file: str, key: Key, entry: SettingsEntry) -> None:
    """Store the yield of a settings file that had no errors (not at all when some value in it
    is not plain data marshal can write)."""
    try:
        marshal.dumps(entry)
    except ValueError:
        return
    write_entry(entry_path(file, SETTINGS_SUFFIX), settings_writer(source), key, entry)
