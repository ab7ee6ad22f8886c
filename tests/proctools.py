"""Reading processes through /proc, for tests that check what a run left behind."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


def stat(pid: int) -> tuple[str, int, int] | None:
    """(state, ppid, pgrp) of a process, or None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name is in parentheses and may itself contain spaces or parentheses.
    fields = text[text.rindex(")") + 2 :].split()
    return fields[0], int(fields[1]), int(fields[2])


def pids() -> list[int]:
    return [int(entry.name) for entry in Path("/proc").iterdir() if entry.name.isdigit()]


def pids_with_argv(argv: list[str]) -> list[int]:
    """Processes whose command line is exactly `argv`, but those already killed: a process
    sent SIGKILL keeps its command line until the kernel has torn it down, which on a busy
    machine can be a while after the kill, but it runs none of its own code again."""
    wanted = "\0".join(argv).encode() + b"\0"
    found = []
    for pid in pids():
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if cmdline == wanted and not killed(pid):
            found.append(pid)
    return found


PF_EXITING = 0x4  # include/linux/sched.h: the process is in do_exit
SIGKILL_BIT = 1 << (9 - 1)


def killed(pid: int) -> bool:
    """Whether a process is on its way out: exiting, or with SIGKILL pending."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return True
    flags = int(text[text.rindex(")") + 2 :].split()[6])
    pending = [int(line.split()[1], 16) for line in status.splitlines()
               if line.startswith(("SigPnd:", "ShdPnd:"))]
    return bool(flags & PF_EXITING) or any(mask & SIGKILL_BIT for mask in pending)


def live_group_members(pgid: int) -> list[int]:
    """Non-zombie processes of a group: a killed, reparented process may linger as a zombie."""
    members = []
    for pid in pids():
        st = stat(pid)
        if st is not None and st[2] == pgid and st[0] != "Z":
            members.append(pid)
    return members


def children(ppid: int) -> list[tuple[int, str]]:
    """(pid, state) of every child of `ppid`, zombies included."""
    found = []
    for pid in pids():
        st = stat(pid)
        if st is not None and st[1] == ppid:
            found.append((pid, st[0]))
    return found


def watch_of(pid: int) -> int | None:
    """The pid of the process's watch (a child running the watch script), or None: a run
    starts it before its first handler."""
    from agenthooks.executor import descendants

    script = descendants._WATCH_SCRIPT.encode()
    for child, _state in children(pid):
        try:
            cmdline = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if script in cmdline:
            return child
    return None


def watching(pid: int) -> bool:
    """Whether the process has started its watch."""
    return watch_of(pid) is not None


def watched(pid: int) -> list[int]:
    """The pids the process's watch would kill now: its list, on the watch's descriptor 3."""
    watch = watch_of(pid)
    if watch is None:
        return []
    try:
        text = Path(f"/proc/{watch}/fd/3").read_bytes()
    except OSError:
        return []
    return [int(word) for word in text.split()]


def wait_for(predicate: Callable[[], Any], timeout: float = 10.0) -> Any:
    """Poll until `predicate()` is truthy or the time is up; return its last value."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value or time.monotonic() >= deadline:
            return value
        time.sleep(0.02)


def waiting_in_poll(pid: int) -> bool:
    """Whether a process sleeps in poll(): for `run_processes`, that it started its handlers
    and told the watch of each (a kill before that may leave the newest one unknown to it)."""
    try:
        return "poll" in Path(f"/proc/{pid}/wchan").read_text()
    except OSError:
        return False
