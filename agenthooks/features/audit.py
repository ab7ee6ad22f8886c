"""The audit log: one JSON line per event `agenthooks run` answered, appended safely.

Imported only when auditing is on (`--audit FILE`, `AGENTHOOKS_AUDIT_LOG`, `audit_log` in the
user config): a run that does not audit pays nothing for it.

Many `agenthooks run` processes may append at once (an agent's parallel tool calls, several
agents): each record is one `write` of the whole line to a file opened `O_APPEND`, under an
exclusive `flock`, so no line is ever interleaved. A record is written whole or not at all: a
short write (a full disk) is cut back off the file. The lock is waited for only briefly, so a
process that holds it cannot keep runs alive; the log is a regular file never reached through
a symbolic link. A log that cannot be written is a warning, never a changed answer.
"""

from __future__ import annotations

import hashlib
import os
import time

from agenthooks._lean import jsontext
from agenthooks._lean.suppress import suppress

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.api import EventResult
    from agenthooks.kinds.inprocess.call import HookOutcome
    from agenthooks.model.handlers import Answer

ENV = "AGENTHOOKS_AUDIT_LOG"
KEYS = ("time", "event", "tool", "decision", "reason", "blocked", "workspace",
        "payload_sha256", "ms", "hooks")
MARKDOWN_MODULE = "agenthooks.kinds.markdown"
# How long a run waits for another writer's lock on the log before it gives up on its record:
# the answer is already out, but the host waits for the process to end.
LOCK_WAIT = 0.5


def rfc3339(seconds: float) -> str:
    """UTC with milliseconds: `2026-11-22T08:16:47.123Z`."""
    whole = int(seconds)
    millis = int((seconds - whole) * 1000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(whole)) + f".{millis:03d}Z"


def command_entry(answer: Answer) -> dict[str, Any]:
    return {"name": answer.hook, "kind": "command", "status": answer.status,
            "decision": answer.decision, "ms": round(answer.duration_ms, 3)}


def hook_entry(outcome: HookOutcome, markdown: frozenset[str]) -> dict[str, Any]:
    """An in-process hook: its phase as the kind, or "markdown" for a Markdown hook file."""
    if outcome.error is None:
        status = "ok"
    elif outcome.error.startswith("timed out"):
        status = "timeout"
    else:
        status = "failed"
    decision = outcome.decision
    return {"name": outcome.name, "kind": "markdown" if outcome.name in markdown else outcome.phase,
            "status": status, "decision": None if decision is None else decision.word,
            "ms": round(outcome.duration_ms, 3)}


def markdown_names(python_hooks: Any) -> frozenset[str]:
    """The names of the registered hooks that are Markdown hook files."""
    return frozenset(h.name for h in python_hooks if type(h.fn).__module__ == MARKDOWN_MODULE)


def make_record(
    result: EventResult,
    payload: bytes,
    *,
    workspace: str,
    started: float,
    ms: float,
    markdown: frozenset[str] = frozenset(),
    include_payload: bool = False,
) -> dict[str, Any]:
    """The record of one event, with exactly `KEYS` (and `payload` when asked for)."""
    hooks = [command_entry(a) for a in result.handlers]
    hooks.extend(hook_entry(o, markdown) for o in result.hooks)
    record: dict[str, Any] = {
        "time": rfc3339(started),
        "event": result.event,
        "tool": result.tool,
        "decision": result.decision.word,
        "reason": result.decision.reason,
        "blocked": result.blocked,
        "workspace": workspace,
        "payload_sha256": hashlib.sha256(payload).hexdigest(),
        "ms": round(ms, 3),
        "hooks": hooks,
    }
    if include_payload:
        record["payload"] = payload.decode("utf-8", "replace")
    return record


def line_of(record: dict[str, Any]) -> bytes:
    # ensure_ascii: a record is one line whatever the payload holds (U+2028 included).
    return (jsontext.dumps(record, separators=(",", ":"), default=str) + "\n").encode()


def append(path: str, record: dict[str, Any], *, lock_wait: float = LOCK_WAIT) -> None:
    """Append one record whole, or nothing: OSError, saying why, when it cannot.

    The record is one write under an exclusive lock, waited for at most `lock_wait` seconds.
    A short write (a full disk, a file size limit) is cut back to where the file ended, so no
    torn record is left for the next one to be glued onto.
    """
    data = line_of(record)
    folder = os.path.dirname(path)
    if folder and not os.path.lexists(folder):
        os.makedirs(folder, mode=0o700, exist_ok=True)
    fd = _open_log(path)
    try:
        _lock(fd, lock_wait)
        end = os.fstat(fd).st_size
        if end and os.pread(fd, 1, end - 1) != b"\n":
            data = b"\n" + data  # a record torn before: end it, never glue this one on
        _write_whole(fd, data, end)
    finally:
        os.close(fd)  # releases the lock


def _open_log(path: str) -> int:
    """The log opened for appending: a regular file, never reached through a symbolic link."""
    import errno
    import stat

    # O_NONBLOCK: a FIFO with no reader fails at once instead of hanging the run.
    # O_NOFOLLOW: a link planted at the log's path cannot send records into another file.
    # O_RDWR, not O_WRONLY: the last byte is read to see whether a torn record ends the file.
    flags = (os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK
             | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        fd = os.open(path, flags, 0o600)
    except OSError as exc:
        if exc.errno == errno.ELOOP and os.path.islink(path):
            raise OSError("it is a symbolic link, which the log is never written "
                                "through") from None
        raise
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise OSError(f"it is {file_kind(mode)}, not a regular file")
    return fd


def file_kind(mode: int) -> str:
    """What a file that is not a regular file is, in words."""
    import stat

    kinds = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"),
             (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
             (stat.S_ISSOCK, "a socket"))
    return next((name for test, name in kinds if test(mode)), "not a regular file")


def _lock(fd: int, wait: float) -> None:
    """An exclusive lock on the log, waited for at most `wait` seconds."""
    import fcntl

    deadline = time.monotonic() + wait
    pause = 0.001
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            left = deadline - time.monotonic()
            if left <= 0:
                raise OSError(f"another process has held its lock for over {wait:g} s; "
                                    "this event is not logged") from None
            time.sleep(min(pause, left))
            pause = min(pause * 2, 0.05)


def _write_whole(fd: int, data: bytes, end: int) -> None:
    """Write `data` at the end of the file whole, or cut the file back to `end`."""
    try:
        written = os.write(fd, data)
    except OSError:
        _cut_back(fd, end)
        raise
    if written != len(data):
        _cut_back(fd, end)
        raise OSError(f"the disk took {written} of {len(data)} bytes (full, or over a "
                            "file size limit); the partial record was removed")


def _cut_back(fd: int, end: int) -> None:
    # Under the lock no other writer has appended since `end` was read.
    with suppress(OSError):
        os.ftruncate(fd, end)


def write_audit(path: str, record: dict[str, Any]) -> str | None:
    """Append, or the warning that says why the log could not be written."""
    try:
        append(path, record)
    except Exception as exc:  # a log never changes an answer, whatever went wrong
        reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
        return f"cannot write the audit log {path}: {reason}"
    return None
