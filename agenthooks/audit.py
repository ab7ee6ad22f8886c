"""The audit log: one JSON line per event `agenthooks run` answered, appended safely.

Imported only when auditing is on (`--audit FILE`, `AGENTHOOKS_AUDIT_LOG`, `audit_log` in the
user config): a run that does not audit pays nothing for it.

Many `agenthooks run` processes may append at once (an agent's parallel tool calls, several
agents): each record is one `write` of the whole line to a file opened `O_APPEND`, under an
exclusive `flock`, so no line is ever torn or interleaved, and none is lost. A log that cannot
be written is a warning, never a changed answer.
"""

from __future__ import annotations

import hashlib
import json
import os
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.api import EventResult
    from agenthooks.kinds.python import HookOutcome
    from agenthooks.model.handlers import Answer

ENV = "AGENTHOOKS_AUDIT_LOG"
KEYS = ("time", "event", "tool", "decision", "reason", "blocked", "workspace",
        "payload_sha256", "ms", "hooks")
MARKDOWN_MODULE = "agenthooks.markdown.hook"


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
    return (json.dumps(record, separators=(",", ":"), default=str) + "\n").encode()


def append(path: str, record: dict[str, Any]) -> None:
    """Append one record as one write under an exclusive lock; OSError when it cannot."""
    import fcntl

    data = line_of(record)
    folder = os.path.dirname(path)
    if folder and not os.path.lexists(folder):
        os.makedirs(folder, mode=0o700, exist_ok=True)
    # O_NONBLOCK: a FIFO with no reader fails at once instead of hanging the run.
    flags = (os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK
             | getattr(os, "O_CLOEXEC", 0))
    fd = os.open(path, flags, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        written = os.write(fd, data)
        if written != len(data):  # a full disk: the lock still keeps others out of the line
            raise OSError(f"wrote {written} of {len(data)} bytes")
    finally:
        os.close(fd)  # releases the lock


def write_audit(path: str, record: dict[str, Any]) -> str | None:
    """Append, or the warning that says why the log could not be written."""
    try:
        append(path, record)
    except Exception as exc:  # a log never changes an answer, whatever went wrong
        reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
        return f"cannot write the audit log {path}: {reason}"
    return None
