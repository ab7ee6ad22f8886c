"""Fixtures for executor tests: find, watch and clean up real processes through /proc."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest


class Procs:
    """Look at processes through /proc, and kill at teardown whatever a test registered."""

    def __init__(self) -> None:
        self._argvs: list[list[str]] = []
        self._groups: list[int] = []

    @staticmethod
    def stat(pid: int) -> tuple[str, int, int] | None:
        """(state, ppid, pgrp) of a process, or None once it is gone."""
        try:
            text = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            return None
        # The command name is in parentheses and may itself contain spaces or parentheses.
        fields = text[text.rindex(")") + 2 :].split()
        return fields[0], int(fields[1]), int(fields[2])

    @staticmethod
    def pids() -> list[int]:
        return [int(entry.name) for entry in Path("/proc").iterdir() if entry.name.isdigit()]

    def group_members(self, pgid: int) -> list[int]:
        """Live (non-zombie) processes in process group `pgid`."""
        members = []
        for pid in self.pids():
            st = self.stat(pid)
            if st is not None and st[2] == pgid and st[0] != "Z":
                members.append(pid)
        return members

    def wait_group_gone(self, pgid: int, timeout: float = 2.0) -> list[int]:
        """Poll until no live process remains in the group; return the survivors, if any.

        Killed processes reparented to init can linger as zombies for a while, so those do
        not count, and a kill may take a moment to land.
        """
        deadline = time.monotonic() + timeout
        while True:
            members = self.group_members(pgid)
            if not members or time.monotonic() >= deadline:
                return members
            time.sleep(0.02)

    def children(self, ppid: int) -> list[tuple[int, str]]:
        """(pid, state) of every child of `ppid`, zombies included."""
        found = []
        for pid in self.pids():
            st = self.stat(pid)
            if st is not None and st[1] == ppid:
                found.append((pid, st[0]))
        return found

    def with_argv(self, argv: list[str]) -> list[int]:
        """Processes whose command line is exactly `argv`."""
        wanted = "\0".join(argv).encode() + b"\0"
        found = []
        for pid in self.pids():
            try:
                cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            if cmdline == wanted:
                found.append(pid)
        return found

    def reap_argv(self, argv: list[str]) -> None:
        """Kill processes with this distinctive argv (e.g. ["sleep", "31.7"]) at teardown."""
        self._argvs.append(argv)

    def reap_group(self, pgid: int) -> None:
        """Kill this process group at teardown, in case the test failed halfway."""
        self._groups.append(pgid)

    def cleanup(self) -> None:
        for argv in self._argvs:
            for pid in self.with_argv(argv):
                _kill(os.kill, pid)
        for pgid in self._groups:
            if self.group_members(pgid):  # if gone, its pgid may belong to someone else now
                _kill(os.killpg, pgid)


def _kill(kill: Callable[[int, int], None], ident: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        kill(ident, signal.SIGKILL)


@pytest.fixture
def procs() -> Iterator[Procs]:
    p = Procs()
    try:
        yield p
    finally:
        p.cleanup()
