"""Nothing a handler starts outlives the process that runs it: opt-in, for `agenthooks run`.

A handler's process group is killed once its answer is read (see `process`), but two kinds of
descendants escape a group kill:

- processes that left the group with `setsid` (or `setpgid`). `own_descendants` makes this
  process a child subreaper (Linux `PR_SET_CHILD_SUBREAPER`): such processes, once
  orphaned, are re-parented to it instead of to init, and `reap_orphans` kills and reaps them;
- everything, when agenthooks itself is killed with SIGKILL (by a host's own timeout, the
  OOM killer) before it could kill anything. After `own_descendants`, each handler's pid is
  noted in a list (a memfd: one fixed-width slot per pid, written with `pwrite`) when it
  starts, and blanked out before its leader is reaped (its group killed already). A watch
  covers the list: a `/bin/sh` (`_WATCH_SCRIPT`, in its own session) blocked reading a pipe
  whose only write end is ours. When this process dies, however it dies, the kernel closes
  the write end: the watch reads EOF, then the list. For each pid listed it stops the
  process and, depth first, every descendant it has (`/proc/PID/task/*/children`), in
  whatever session; then it SIGKILLs the group of each listed pid and every process it
  stopped, and exits. Stopped first: a process killed at once would leave its children to be
  re-parented to init before they were found; a stopped one forks no more. Nothing is
  written to the pipe, so the watch never wakes while the run goes on.
  What the walk cannot find is what is no longer below a listed pid: a process orphaned
  (its parent exited) is re-parented to this process, which stops being anyone's parent
  when it dies. So the executor's loop lists, every `ADOPT_EVERY` while handlers run and
  whenever one ends (`HandlerWatch.tick`), the children of this process that belong to
  another session than its own (`HandlerWatch.adopt`): orphans it adopted. Children of its
  own session (a hook's own process, a `git`) are reaped by their caller, which must not
  leave a freed pid listed (`reap` blanks it, should one have left the session).
  The watch is started before the first handler (`handler_watch`), so a handler is covered
  from its spawn on; it costs a run that starts a handler about 0.2 ms of wall time (the
  spawn of `/bin/sh` waits for its exec) and 0.3-0.7 ms of CPU in the watch. A shell rather
  than a fork of this process: a forked Python shares its pages copy-on-write, so that every
  page the run touched afterwards was copied (about 1 ms of a cold run).

What is left, on Linux: the instant between a handler's spawn and the `pwrite` of its pid; a
process orphaned less than `ADOPT_EVERY` before the SIGKILL (not yet listed); a process a
stopped one was forking in the instant the watch stopped it (the stop takes effect when the
fork returns, after the watch may have read the children); a process the watch may not
signal (another user's: a setuid program); a process a SIGKILLed watch never reached (the
watch is one more process the OOM killer or a session kill can end; what it had stopped
stays stopped); what an in-process hook's process (`watch_forked`) moved to another session
(that process dies by its parent-death signal as the watch reads its children, so they may
be re-parented to init first; its group is killed all the same). A cgroup of the run
(`cgroup.kill`) or a PID namespace would close these too, where one is delegated; neither is
used here.

None of it needs code in the child between fork and exec, so handlers keep the fast spawn
(posix_spawn). The subreaper flag changes the calling process for good, and the watch is one
more process, so both are opt-in: `agenthooks run`, a process that exists to run one event,
asks for them; the Python API does not, since the harness's own process must not change (a
harness that is a subreaper would also adopt orphans of its own subprocesses, and
`reap_orphans` kills every child of the process). Elsewhere than Linux `own_descendants` is a
no-op that returns False: handlers outlive a SIGKILLed agenthooks, and processes escaping with
setsid outlive their hook (FreeBSD's procctl could do both; nothing here uses it).

Nothing is set up until the first handler starts, so a run that starts nothing pays nothing;
then prctl is called through `_ctypes` (the C module alone, not the `ctypes` package, for a
fraction of its import time), the list is made and the watch started.
"""

from __future__ import annotations

import os
import sys
import time

from agenthooks.errors import suppress

TYPE_CHECKING = False
if TYPE_CHECKING:
    import signal
    from collections.abc import Callable
    from typing import Any
else:
    import _signal as signal  # as in `executor.records`: the numbers without `enum`

__all__ = ["ADOPT_EVERY", "HandlerWatch", "handler_watch", "own_descendants", "reap_orphans"]

_PR_SET_CHILD_SUBREAPER = 36
_PR_SET_PDEATHSIG = 1
_REAP_ROUNDS = 32  # orphans of orphans come back to us; a fork bomb must not keep us here
_REAP_WAIT = 1.0  # seconds to wait for SIGKILLed orphans to be reapable (D state, say)
# How often (seconds) the executor's loop looks for orphans this process adopted while a
# handler runs, to list them for the watch: a process orphaned less than this before a
# SIGKILL of agenthooks is not yet listed, and outlives it.
ADOPT_EVERY = 0.02
# The watch: wait for EOF on stdin (nothing is ever written to it), then, for every pid in
# the list on descriptor 3 (a blanked slot reads as an empty line), stop the process and,
# depth first, every descendant it has, wherever their session (a stopped process forks no
# more, so its list of children stays as read); then SIGKILL the group of each listed pid
# and every process stopped. Stopping before killing: a killed parent's children would be
# re-parented to init before they were found. (`kill -9 -N`: dash takes neither `--` nor
# `-s KILL` before a negative pid.)
_WATCH_SCRIPT = """read -r _
found=
walk() {
  kill -STOP "$1" 2>/dev/null || return 0
  found="$found $1"
  for f in /proc/"$1"/task/*/children; do
    kids=
    [ -r "$f" ] && read -r kids <"$f"
    for k in $kids; do walk "$k"; done
  done
}
groups=
while read -r p; do
  case $p in ''|*[!0-9]*) ;; *) groups="$groups -$p"; walk "$p" ;; esac
done <&3
[ -z "$groups" ] || kill -9 $groups $found 2>/dev/null
"""
_SLOT = 12  # bytes per list slot: a pid right-aligned in 11 columns, and a newline
_BLANK = b" " * (_SLOT - 1) + b"\n"
_SHELL = "/bin/sh"
# Python ignores SIGPIPE; a terminal's signals go to their defaults too.
_WATCH_DEFAULTS = tuple(
    getattr(signal, name)
    for name in ("SIGPIPE", "SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT")
    if hasattr(signal, name)
)
# dlopen(NULL): the program and the libraries it loaded, libc among them (typeshed wants a str).
_THIS_PROGRAM: Any = None


class HandlerWatch:
    """The list of handlers the watch must kill should this process die, and our end of the
    watch once it runs."""

    __slots__ = ("fd", "inherited", "list_fd", "next_adopt", "pid", "session", "size", "slots",
                 "spare")

    def __init__(self, list_fd: int, inherited: tuple[int, ...]) -> None:
        self.list_fd = list_fd
        self.inherited = inherited  # descriptors the caller made inheritable: not the watch's
        self.fd = -1  # the write end of the watch's stdin, once it runs
        self.pid = 0  # the watch process's, once it runs
        self.slots: dict[int, int] = {}  # handler pid -> its slot in the list
        self.spare: list[int] = []  # slots blanked, to be used again
        self.size = 0  # slots ever used
        self.next_adopt = 0.0  # when `tick` next looks for adopted orphans (monotonic)
        self.session = os.getsid(0)

    def started(self, pid: int) -> None:
        """A handler started, its group led by `pid` (or an orphan was adopted, `adopt`)."""
        if self.list_fd < 0 or pid in self.slots:
            return  # listed already: by `adopt` in another thread, before its run noted it
        if self.spare:
            slot = self.spare.pop()
        else:
            slot = self.size
            self.size += 1
        self.slots[pid] = slot
        self._put(b"%11d\n" % pid, slot)

    def done(self, pid: int) -> None:
        """The handler's group is killed and its leader about to be reaped: forget it."""
        slot = self.slots.pop(pid, None)
        if slot is not None:
            self._put(_BLANK, slot)
            self.spare.append(slot)

    def cover(self) -> None:
        """Start the watch process, once; on failure nothing more is tried (pid -1)."""
        if self.pid == 0 and self.list_fd >= 0:
            self.pid, self.fd = _spawn_watch(self.list_fd, self.inherited)
            self.next_adopt = time.monotonic() + ADOPT_EVERY  # no handler has started yet

    def tick(self, now: float, *, ended: bool = False) -> None:
        """`adopt`, at most every `ADOPT_EVERY` while handlers run, and at once when one
        `ended` (its group kill orphans what it moved out of the group)."""
        if ended or now >= self.next_adopt:
            self.next_adopt = now + ADOPT_EVERY
            self.adopt()

    def adopt(self) -> None:
        """List this process's children from other sessions, but the handlers and the watch:
        processes that left a handler's group and were orphaned, re-parented to this process
        (a subreaper). The watch then kills them, and what they started, too. Children of
        this session (a hook's own process, `git`) are reaped by their caller, who must not
        find its pid listed; a hook's process that left it is blanked by `reap`."""
        if self.pid <= 0:
            return  # no watch reads the list
        children = _listed_children()
        if children is None:  # no CONFIG_PROC_CHILDREN: a scan of /proc is too dear to repeat
            self.next_adopt = float("inf")
            return
        for pid in children:
            if pid != self.pid and pid not in self.slots:
                with suppress(OSError):  # gone already
                    if os.getsid(pid) != self.session:
                        self.started(pid)

    def close(self) -> None:
        """End the watch (it kills what is still listed, then exits) and drop the list."""
        for fd in (self.fd, self.list_fd):
            if fd >= 0:
                os.close(fd)
        self.fd = self.list_fd = -1

    def _put(self, line: bytes, slot: int) -> None:
        # On failure (a full memory cgroup, say) this handler is not covered.
        with suppress(OSError):
            os.pwrite(self.list_fd, line, slot * _SLOT)  # the file offset stays at 0


class _State:
    """What `own_descendants` asked for and what was set up for it, in this process."""

    __slots__ = ("owner_pid", "subreaper", "wanted", "watch")

    def __init__(self) -> None:
        self.wanted = False
        self.owner_pid = 0  # the pid that set it up: a forked child must set up its own
        self.watch: HandlerWatch | None = None
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


def handler_watch(inherited: tuple[int, ...] = ()) -> HandlerWatch | None:
    """The watch handlers are to be told of: None (nothing to tell) unless `own_descendants`.

    Called before handlers are started; on the first call after `own_descendants` this
    process becomes a child subreaper and the watch is started. `inherited`: descriptors the
    caller made inheritable, which the watch must not hold.
    """
    if not _state.wanted:
        return None
    pid = os.getpid()
    if _state.owner_pid != pid:
        _state.owner_pid = pid
        _state.subreaper = _prctl(_PR_SET_CHILD_SUBREAPER, 1)
        _state.watch = None  # a parent's, inherited through fork
    if _state.watch is None or _state.watch.list_fd < 0:
        _state.watch = _new_watch(inherited)
        if _state.watch is not None:
            # Before the first handler starts: from its spawn on, a SIGKILL of this process
            # finds it listed and watched.
            _state.watch.cover()
    return _state.watch


def inheritable_fds() -> tuple[int, ...]:
    """Descriptors above 2 a child would inherit: those the caller made inheritable."""
    for directory in ("/proc/self/fd", "/dev/fd"):
        try:
            names = os.listdir(directory)
        except OSError:
            continue
        found = []
        for name in names:
            fd = int(name)
            with suppress(OSError):  # the listing's own descriptor, now closed
                if fd > 2 and os.get_inheritable(fd):
                    found.append(fd)
        return tuple(found)
    return ()


def _new_watch(inherited: tuple[int, ...]) -> HandlerWatch | None:
    """An empty list, in memory (a memfd, or else an unlinked file in /tmp); None without."""
    try:
        fd = os.memfd_create("agenthooks-watch", os.MFD_CLOEXEC)
    except (OSError, AttributeError):
        try:
            fd = os.open("/tmp", os.O_TMPFILE | os.O_RDWR | os.O_CLOEXEC, 0o600)
        except (OSError, AttributeError):
            return None
    return HandlerWatch(_above_3(fd), inherited)


def _above_3(fd: int) -> int:
    """`fd`, or a copy of it above 3 (it is dup'd onto 3 in the watch, after 0 to 2 are set,
    so it must not be one of them: the caller may have closed its own)."""
    low = []
    while fd <= 3:
        low.append(fd)
        fd = os.dup(fd)  # close-on-exec, like the original
    for old in low:
        os.close(old)
    return fd


def _spawn_watch(list_fd: int, inherited: tuple[int, ...]) -> tuple[int, int]:
    """Start the watch process on the list: its pid and our end of its stdin; (-1, -1) if
    it cannot start."""
    read_fd, write_fd = os.pipe()  # both close-on-exec: no handler holds the write end
    actions = [
        (os.POSIX_SPAWN_DUP2, read_fd, 0),
        # Holds nothing of ours open: not our stdout, whose EOF a host waits for.
        (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
        (os.POSIX_SPAWN_DUP2, 1, 2),
        (os.POSIX_SPAWN_DUP2, list_fd, 3),
        *((os.POSIX_SPAWN_CLOSE, fd) for fd in inherited if fd > 3),
    ]
    try:
        # Its own session: a kill of our group or terminal never reaches it.
        pid = os.posix_spawn(_SHELL, [_SHELL, "-c", _WATCH_SCRIPT], {"PATH": os.defpath},
                             file_actions=actions, setsid=True, setsigdef=_WATCH_DEFAULTS)
    except OSError:
        os.close(write_fd)
        return -1, -1
    finally:
        os.close(read_fd)
    return pid, write_fd


def _prctl(option: int, arg: int) -> bool:
    """prctl(option, arg, 0, 0, 0) == 0, through `_ctypes` alone; False where it is not."""
    try:
        import _ctypes  # the C module: a tenth of the `ctypes` package's import time

        class _Int(_ctypes._SimpleCData):  # type: ignore[type-arg]
            _type_ = "i"

        class _ULong(_ctypes._SimpleCData):  # type: ignore[type-arg]
            _type_ = "L"

        class _Function(_ctypes.CFuncPtr):
            _flags_ = _ctypes.FUNCFLAG_CDECL
            _restype_ = _Int
            _argtypes_ = (_Int, _ULong, _ULong, _ULong, _ULong)

        address = _ctypes.dlsym(_ctypes.dlopen(_THIS_PROGRAM), "prctl")
        result: int = _Function(address)(option, arg, 0, 0, 0)
    except (ImportError, OSError, AttributeError):
        return False  # no _ctypes or no prctl in this libc: no subreaper
    return result == 0


def watch_forked(pid: int) -> None:
    """Note a child this process forked (an in-process hook's process, the leader of a group
    of its own) for the watch, started if need be: should this process be SIGKILLed, the
    watch kills the child's group, and what it moved to other sessions. Nothing unless
    `own_descendants`; `reap` blanks it before the child is reaped."""
    watch = handler_watch(inheritable_fds())
    if watch is not None:
        watch.started(pid)


def leave_watch() -> None:
    """In a child forked from a process with a watch: close the child's copies of the
    watch's descriptors, so that the pipe the watch waits on ends when the parent dies,
    whatever the child (or a process it forks) goes on doing."""
    watch = _state.watch
    if watch is not None and _state.owner_pid != os.getpid():
        for fd in (watch.fd, watch.list_fd):
            if fd >= 0:
                with suppress(OSError):
                    os.close(fd)
        _state.watch = None


def die_with_parent() -> bool:
    """Have the kernel SIGKILL this process when its parent dies (Linux's parent-death
    signal); whether it will. A forked child of agenthooks asks for it first thing, so that
    a run killed outright (SIGKILL at a host's timeout) cannot leave it running."""
    return sys.platform.startswith("linux") and _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def reap(pid: int) -> int:
    """Wait for a child of this process and return its wait status (0: someone else reaped
    it). `os.waitpid` itself retries when a signal interrupts it (PEP 475)."""
    watch = _state.watch
    if watch is not None and _state.owner_pid == os.getpid():
        watch.done(pid)  # listed by `adopt` if it left our session: not once its pid is free
    try:
        return os.waitpid(pid, 0)[1]
    except ChildProcessError:
        return 0


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
    if _state.watch is not None:
        _end_watch(_state.watch)
        _state.watch = None
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


def _end_watch(watch: HandlerWatch) -> None:
    """Every handler is done: end the watch now, if one runs, and reap it (a killed process
    blocked reading a pipe dies at once, so the wait is short). Killed before its pipe is
    closed, it never reads the list: the orphans still listed are `reap_orphans`' to kill."""
    if watch.pid > 0:
        _kill(os.killpg, watch.pid)  # its own session and group
    watch.close()
    if watch.pid > 0:
        with suppress(ChildProcessError):
            os.waitpid(watch.pid, 0)


def _kill(kill: Callable[[int, int], None], ident: int) -> None:
    with suppress(ProcessLookupError, PermissionError):
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
    found = _listed_children()
    return _children_by_scan() if found is None else found


def _listed_children() -> list[int] | None:
    """This process's children, from each thread's list; None where the kernel keeps none
    (no CONFIG_PROC_CHILDREN)."""
    found: list[int] = []
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return None
    for tid in tasks:
        try:
            with open(f"/proc/self/task/{tid}/children", "rb") as f:
                found.extend(int(pid) for pid in f.read().split())
        except OSError:
            if os.path.isdir(f"/proc/self/task/{tid}"):
                return None  # the thread is there, its list is not
            # else a thread that ended meanwhile: it has no children left
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
