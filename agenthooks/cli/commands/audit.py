"""`agenthooks audit [FILE]`: what the hooks of the audit log did, per hook.

Counts per hook and decision, the deny rate, p50/p95/max milliseconds, timeouts and failures;
a rich table on a terminal, plain columns in a pipe, or JSON (`--format json`).
"""

from __future__ import annotations

import json
import math
import os
import re
import sys
import time
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple, TextIO

from agenthooks.errors import AgentHooksError, UsageError
from agenthooks.features.audit import ENV, file_kind
from agenthooks.userconfig import FALSE_WORDS, config_path, read_user_config

UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
DENY_WORDS = ("deny", "block")  # a PreToolUse deny; a Stop/PostToolUse block
FAILED = ("warning", "not-started", "failed")  # a handler's or an in-process hook's failure


class Stats(NamedTuple):
    """One hook's figures over the events read."""

    name: str
    kind: str
    calls: int
    decisions: dict[str, int]
    deny_rate: float
    p50_ms: float
    p95_ms: float
    max_ms: float
    timeouts: int
    failures: int

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "calls": self.calls, "decisions": self.decisions,
                "deny_rate": self.deny_rate, "p50_ms": self.p50_ms, "p95_ms": self.p95_ms,
                "max_ms": self.max_ms, "timeouts": self.timeouts, "failures": self.failures}


def parse_since(text: str) -> float:
    """Seconds from `30m`, `2h`, `7d` (or `45s`); UsageError otherwise."""
    found = re.fullmatch(r"\s*(\d+)\s*([smhd])\s*", text)
    if found is None:
        raise UsageError(f"invalid duration {text!r}: give a whole number and a unit, "
                         "such as 30m, 2h or 7d")
    return int(found.group(1)) * UNITS[found.group(2)]


def log_path(given: str | None) -> str:
    """FILE, else $AGENTHOOKS_AUDIT_LOG, else `audit_log` of the user config."""
    if given:
        return given
    from_env = os.environ.get(ENV, "").strip()
    if from_env and from_env.lower() not in FALSE_WORDS:
        return os.path.expanduser(from_env)
    configured = read_user_config().audit_log
    if configured:
        return configured
    raise AgentHooksError(f"no audit log: give FILE, set {ENV}, or set audit_log in "
                          f"{config_path()}")


def parse_time(text: Any) -> float | None:
    """Seconds since the epoch from the records' RFC 3339 UTC time, or None."""
    if not isinstance(text, str):
        return None
    import datetime

    try:
        when = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=datetime.timezone.utc)
    return when.timestamp()


def read_records(path: str, since: float | None) -> tuple[list[dict[str, Any]], int]:
    """The records (at or after `since`, seconds since the epoch), and how many lines (or
    torn starts of lines) were not records."""
    records: list[dict[str, Any]] = []
    bad = 0
    for line in read_log(path).splitlines():
        if not line.strip():
            continue
        record, torn = parse_line(line)
        bad += torn
        if record is None:
            bad += 1
            continue
        if since is not None:
            when = parse_time(record.get("time"))
            if when is None or when < since:
                continue
        records.append(record)
    return records, bad


def read_log(path: str) -> bytes:
    """The log's bytes; a FIFO, device or folder is an error at once, never a wait."""
    import stat

    # O_NONBLOCK: opening a FIFO returns at once; fstat then refuses it.
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise AgentHooksError(f"cannot read the audit log {path}: {exc.strerror}") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise AgentHooksError(f"cannot read the audit log {path}: it is "
                                  f"{file_kind(mode)}, not a regular file")
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise AgentHooksError(f"cannot read the audit log {path}: {exc.strerror}") from None
    finally:
        os.close(fd)


RECORD_START = b'{"time":'  # every record's first bytes (`agenthooks.features.audit.line_of`)


def parse_line(line: bytes) -> tuple[dict[str, Any] | None, int]:
    """The record a line holds, and 1 when a torn record was skipped before it.

    A record cut short by an older writer (or a crash) may have the next record glued onto
    it: only the torn part is skipped, the whole record after it still counts.
    """
    record = _record(line)
    if record is not None:
        return record, 0
    start = line.find(RECORD_START, 1)
    while start != -1:
        record = _record(line[start:])
        if record is not None:
            return record, 1
        start = line.find(RECORD_START, start + 1)
    return None, 0


def _record(line: bytes) -> dict[str, Any] | None:
    try:
        record = json.loads(line)
    except ValueError:
        return None
    if not isinstance(record, dict) or not isinstance(record.get("hooks"), list):
        return None
    return record


def percentile(ordered: Sequence[float], fraction: float) -> float:
    """Nearest rank: the smallest value at or above `fraction` of them."""
    if not ordered:
        return 0.0
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]


def summarize(records: Iterable[dict[str, Any]]) -> list[Stats]:
    """Per hook name, in order of first appearance."""
    seen: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        for hook in record["hooks"]:
            if isinstance(hook, dict) and isinstance(hook.get("name"), str):
                seen.setdefault(hook["name"], []).append(hook)
    return [_stats(name, calls) for name, calls in seen.items()]


def _stats(name: str, calls: list[dict[str, Any]]) -> Stats:
    decisions: dict[str, int] = {}
    for call in calls:
        word = call.get("decision")
        key = word if isinstance(word, str) else "none"
        decisions[key] = decisions.get(key, 0) + 1
    times = sorted(float(c["ms"]) for c in calls if isinstance(c.get("ms"), (int, float)))
    denied = sum(count for word, count in decisions.items() if word in DENY_WORDS)
    kinds = sorted({str(c.get("kind")) for c in calls})
    return Stats(
        name, "/".join(kinds), len(calls), dict(sorted(decisions.items())),
        round(denied / len(calls), 4), round(percentile(times, 0.5), 3),
        round(percentile(times, 0.95), 3), round(times[-1] if times else 0.0, 3),
        sum(1 for c in calls if c.get("status") == "timeout"),
        sum(1 for c in calls if c.get("status") in FAILED),
    )


def audit(file: str | None, *, since: str | None = None, fmt: str = "table") -> int:
    path = log_path(file)
    cutoff = time.time() - parse_since(since) if since else None
    records, bad = read_records(path, cutoff)
    if bad:
        what = ("1 line that is not an audit record" if bad == 1
                else f"{bad} lines that are not audit records")
        sys.stderr.write(f"agenthooks: warning: {path}: skipped {what}\n")
    hooks = summarize(records)
    if fmt == "json":
        sys.stdout.write(json.dumps({"events": len(records),
                                     "hooks": [h.as_json() for h in hooks]}, indent=2) + "\n")
        return 0
    write_table(len(records), hooks, sys.stdout, since)
    return 0


def write_table(events: int, hooks: Sequence[Stats], stream: TextIO, since: str | None) -> None:
    from agenthooks.escape import printable
    from agenthooks.report.table import render_table

    stream.write(f"{events} event{'s' if events != 1 else ''}"
                 f"{f' in the last {since}' if since else ''}\n")
    if not hooks:
        return
    headers = ["HOOK", "KIND", "CALLS", "DECISIONS", "DENY", "P50 MS", "P95 MS", "MAX MS",
               "TIMEOUTS", "FAILURES"]
    rows = [[printable(h.name), h.kind, str(h.calls),
             ", ".join(f"{word} {count}" for word, count in h.decisions.items()),
             f"{h.deny_rate:.0%}", f"{h.p50_ms:g}", f"{h.p95_ms:g}", f"{h.max_ms:g}",
             str(h.timeouts), str(h.failures)] for h in hooks]
    render_table(headers, rows, stream=stream)
