"""Fixtures for executor tests: find, watch and clean up real processes through /proc."""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Callable, Iterator

import proctools
import pytest


class Procs:
    """Look at processes through /proc, and kill at teardown whatever a test registered."""

    def __init__(self) -> None:
        self._argvs: list[list[str]] = []
        self._groups: list[int] = []

    stat = staticmethod(proctools.stat)
    pids = staticmethod(proctools.pids)
    group_members = staticmethod(proctools.live_group_members)
    children = staticmethod(proctools.children)
    with_argv = staticmethod(proctools.pids_with_argv)

    def wait_group_gone(self, pgid: int, timeout: float = 2.0) -> list[int]:
        """Poll until no live process remains in the group; return the survivors, if any.

        Killed processes reparented to init can linger as zombies for a while, so those do
        not count, and a kill may take a moment to land.
        """
        proctools.wait_for(lambda: not self.group_members(pgid), timeout)
        return self.group_members(pgid)

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
