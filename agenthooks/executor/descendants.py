"""Nothing a handler starts outlives the process that runs it: opt-in, for `agenthooks run`.

A handler's process group is killed once its answer is read (see `process`), but two kinds of
descendants escape a group kill:

- every handler, when agenthooks itself is killed with SIGKILL (by a host's own timeout, say)
  before it could kill their groups. `own_descendants` makes each handler started afterwards
  get the death signal SIGKILL when this process dies (Linux `PR_SET_PDEATHSIG`, set in the
  child between fork and exec). It reaches the handler's own process and what that process
  execs (a command exec'd directly, a script, `exec prog` in a shell command), not the
  children it forks (dash's `sh -c 'a; b'` forks `a`): a SIGKILL leaves those to the
  nearest subreaper or init, as before;
- processes that left the group with `setsid` (or `setpgid`). `own_descendants` also makes
  this process a child subreaper (Linux `PR_SET_CHILD_SUBREAPER`): such processes, once
  orphaned, are reparented to it instead of to init, and `reap_orphans` kills and reaps them.

Both change the calling process for good (the subreaper flag) or slow each spawn down (a
`preexec_fn` means fork instead of vfork, about a millisecond a handler, plus ctypes on the
first start), so both are opt-in: `agenthooks run`, a process that exists to run one event,
asks for them; the Python API does not, since the harness's own process must not change
(a harness that is a subreaper would also adopt orphans of its own subprocesses, and
`reap_orphans` kills every child of the process). Elsewhere than Linux `own_descendants` is
a no-op that returns False: handlers outlive a SIGKILLed agenthooks, and processes escaping
with setsid outlive their hook (FreeBSD's procctl could do both; nothing here uses it).

ctypes is imported only when the first handler is started after `own_descendants`, so a run
that starts nothing pays nothing. Because of the `preexec_fn` (unsafe with threads) and because
the death signal follows the *thread* that started the handler, this is for a single-threaded
process that calls `run_processes` from its main thread, as `agenthooks run` does.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["death_signal_setter", "own_descendants", "reap_orphans"]

_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36
_REAP_ROUNDS = 32  # orphans of orphans come back to us; a fork bomb must not keep us here
_REAP_WAIT = 1.0  # seconds to wait for SIGKILLed orphans to be reapable (D state, say)


class _State:
    """What `own_descendants` asked for and what was set up for it, in this process."""

    __slots__ = ("owner_pid", "setter", "subreaper", "wanted")

    def __init__(self) -> None:
        self.wanted = False
        self.owner_pid = 0  # the pid that set it up: a forked child must set up its own
        self.setter: Callable[[], None] | None = None
        self.subreaper = False


_state = _State()


def own_descendants() -> bool:
    """Make every handler started from now on die with this process, and adopt orphans.

    For a process that exists to run hooks (`agenthooks run` calls it at start); see the
    module's docstring for what it changes. Nothing happens until a handler is started.
    Returns whether it takes effect here (Linux), False elsewhere.
    """
    if not sys.platform.startswith("linux"):
        return False
    _state.wanted = True
    return True


def death_signal_setter() -> Callable[[], None] | None:
    """The `preexec_fn` for handlers: None (the fast spawn path) unless `own_descendants`.

    Called before handlers are started; on the first call after `own_descendants` this
    process becomes a child subreaper.
    """
    if not _state.wanted:
        return None
    pid = os.getpid()
    if _state.owner_pid != pid:
        _state.owner_pid = pid
        _state.setter = _make_setter(pid)
    return _state.setter


def _make_setter(parent: int) -> Callable[[], None] | None:
    prctl = _load_prctl()
    if prctl is None:
        return None
    _state.subreaper = prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    kill = int(signal.SIGKILL)

    def set_death_signal() -> None:
        # Runs in the child between fork and exec: only calls resolved beforehand.
        prctl(_PR_SET_PDEATHSIG, kill, 0, 0, 0)
        if os.getppid() != parent:
            # The parent died before the death signal was set: it will never come.
            os.kill(os.getpid(), kill)

    return set_death_signal


def _load_prctl() -> Callable[..., int] | None:
    try:
        import ctypes  # costs ~2 ms: imported once a handler is started, not before

        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (ImportError, OSError, AttributeError):
        return None  # no ctypes or no prctl in this libc: handlers start as without it
    prctl.restype = ctypes.c_int
    prctl.argtypes = (ctypes.c_int, *[ctypes.c_ulong] * 4)
    function: Callable[..., int] = prctl
    return function


def reap_orphans() -> int:
    """Kill and reap every child this process still has; return how many were reaped.

    Only after `own_descendants` made this process a subreaper (else 0, touching nothing):
    its handlers are all reaped by the time `run_processes` returns, so any child left is a
    descendant that escaped its handler's group and was orphaned. Each is killed with its
    process group (it cannot be reused while the child is unreaped); their own orphans come
    back to us and are killed in the next round.
    """
    if not _state.subreaper or _state.owner_pid != os.getpid():
        return 0
    reaped = 0
    for _ in range(_REAP_ROUNDS):
        pids = _children()
        if not pids:
            break
        for pid in pids:
            _kill(os.killpg, pid)
            _kill(os.kill, pid)
        reaped += _reap(pids, time.monotonic() + _REAP_WAIT)
    return reaped


def _kill(kill: Callable[[int, int], None], ident: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        kill(ident, signal.SIGKILL)


def _reap(pids: list[int], until: float) -> int:
    """Reap these children as they die, until `until`; return how many were reaped."""
    pending = set(pids)
    delay = 0.001
    while pending:
        for pid in list(pending):
            try:
                done, _status = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                done = pid  # reaped elsewhere: not ours to wait for any more
            if done:
                pending.discard(pid)
        if pending:
            if time.monotonic() >= until:
                break
            time.sleep(delay)
            delay = min(delay * 2, 0.05)
    return len(pids) - len(pending)


def _children() -> list[int]:
    """This process's children, zombies included, from /proc."""
    found: list[int] = []
    try:
        tasks = os.listdir("/proc/self/task")
        for tid in tasks:
            with open(f"/proc/self/task/{tid}/children", "rb") as f:
                found.extend(int(pid) for pid in f.read().split())
    except OSError:
        return _children_by_scan()  # a kernel without CONFIG_PROC_CHILDREN
    return found


def _children_by_scan() -> list[int]:
    me = os.getpid()
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                text = f.read()
        except OSError:
            continue
        # The command name is in parentheses and may itself contain them.
        fields = text[text.rindex(b")") + 2 :].split()
        if int(fields[1]) == me:
            found.append(int(name))
    return found
