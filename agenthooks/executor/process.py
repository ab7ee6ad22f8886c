"""Run hook commands as concurrent subprocesses and return what each did, as data.

This is on the hot path (`agenthooks run` starts once per agent tool call, and a harness may
call `run_processes` per event), so it uses no threads and no asyncio: the handlers are
started, then a single selector loop feeds their stdin, reads their stdout/stderr and
watches their exit (through a pidfd where the kernel has one) until each is done or timed
out. A hook's failure is never an exception: it is a `ProcessResult`.

Handlers are started with `os.posix_spawn` (a vfork-style clone and exec in the C library),
not `subprocess`: it spares a cold run the import of `subprocess` and its dependencies, and
never needs a Python callback in the child. Each handler runs in its own session, so the whole
process group can be killed: on timeout (SIGTERM, then SIGKILL after KILL_GRACE), and once the
handler has exited and its answer is read (SIGKILL to whatever it left running in the
background). The group leader is only reaped after that final SIGKILL: an unreaped leader
keeps its pgid from being reused by an unrelated process between our kill calls.
Descendants that leave the group (setsid) and handlers outliving a SIGKILLed caller are
`descendants`' business, for callers that opt in.

The child gets the handler's three pipes on 0, 1 and 2, SIGPIPE and SIGXFSZ back at their
defaults (Python ignores them), and no other descriptor: ours are close-on-exec, and any the
caller made inheritable is closed in the child. posix_spawn has no working directory of its
own, so a handler running elsewhere than this process's directory is started after a
`chdir` there and back (`fchdir`), only while this process has a single thread; with more
threads (a harness, background hooks) the directory is left alone and the command's shell
changes into it before it execs the handler (setting back the PWD and OLDPWD that `cd`
changes). Every command runs through its shell, even one with no shell syntax: a program
exec'd in the shell's place would lead its process group (dash forks it) and miss what the
shell does first (its builtins, its own variables), as `docs/protocol.md` says.

At most `start_cap()` handlers run at once (each holds four descriptors), the rest wait in
spec order and start as others finish; a handler's timeout counts from its own start.

Whatever the caller passes, a handler starts if its command can run at all. An environment
variable that cannot reach execve is left out (replacing any inherited one of that name):
one whose value holds a NUL byte, or whose name is empty or holds `=` or NUL or cannot be
encoded. A value with characters the file system encoding cannot hold (a lone surrogate,
say, from a JSON escape in a tool name an MCP server chose) has each of them written as a
backslash escape (`\\ud800`); surrogates `os.fsencode` can hold (`\\udc80`-`\\udcff`, bytes the
OS gave us decoded with surrogateescape) become those bytes again. The payload on stdin is
exact, so a handler needing the true text reads it there. A command with a NUL byte or an
unencodable character cannot run as written: it is `not-started`, never an exception.
"""

from __future__ import annotations

import errno
import os
import select
import sys
import time

from agenthooks.errors import suppress
from agenthooks.executor.command import lookup, same_directory
from agenthooks.executor.descendants import handler_watch, inheritable_fds
from agenthooks.executor.records import (
    _ENDING_SIGNALS,
    EXIT_GRACE,
    KILL_GRACE,
    OUTPUT_LIMIT,
    Cancelled,
    Interrupted,
    ProcessResult,
    ProcessSpec,
    _restore_signals,
)

# `typing` costs ~2 ms to import and is only needed by the type checker (which understands
# this spelling), so it is not imported at run time.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import signal
    from collections.abc import Callable, Mapping, Sequence
    from types import FrameType
    from typing import Any, Literal

    from agenthooks.executor.descendants import HandlerWatch

    Status = Literal["exited", "signaled", "timeout", "not-started"]
    _SignalHandler = Callable[[int, FrameType | None], Any] | int | signal.Handlers
else:
    import _signal as signal  # as in `executor.records`: the numbers without `enum`

# The records, limits and signal handling it uses live in `executor.records`.
__all__ = ["run_processes", "start_cap"]


SHELL = "/bin/sh"
_READ_SIZE = 65536  # one pipe buffer's worth
_MAX_DRAIN_READS = 64  # bounds the final drain when something outside the group keeps writing
_POLL_MIN = 0.001  # exit polling, only when pidfd_open is unavailable
_POLL_MAX = 0.05
# The longest single wait: poll takes milliseconds as a C int (it overflows past ~24.8
# days), and a timeout may be up to 2**31 - 1 seconds, so a far deadline is simply waited
# for in steps.
_MAX_WAIT = 3600.0
_MAX_STARTED = 64  # handlers running at once, at most; fewer under a low RLIMIT_NOFILE
_FDS_PER_HANDLER = 8  # four held while it runs, more while it starts, and room for the caller

# What a registered descriptor refers to: (handler, kind); (None, _CANCEL) for cancel_fd.
_STDIN, _STDOUT, _STDERR, _PIDFD, _CANCEL = range(5)

# Readable, or the other end gone: either way a read (or a write, for stdin) says which.
_READ_EVENTS = select.POLLIN | select.POLLHUP | select.POLLERR
_WRITE_EVENTS = select.POLLOUT | select.POLLERR
# Signals Python ignores at start, which a handler must get back at their defaults.
_DEFAULT_IN_CHILD = tuple(
    getattr(signal, name) for name in ("SIGPIPE", "SIGXFZ", "SIGXFSZ") if hasattr(signal, name)
)
# Runs the handler's argv in a directory, for a process with threads (see above): $2 is the
# PWD and $3 and $4 the OLDPWD the command is to find there (a shell started in the
# directory would not have changed them as `cd` does).
_CD_SCRIPT = ('cd -- "$1" || exit 126; PWD=$2; if [ "$3" ]; then OLDPWD=$4; else unset OLDPWD;'
              ' fi; shift 4; exec "$@"')


class _Poller:
    """`select.poll` with the data each descriptor stands for: the whole event loop's needs."""

    __slots__ = ("data", "poll")

    def __init__(self) -> None:
        self.poll = select.poll()
        self.data: dict[int, tuple[_Handler | None, int]] = {}

    def register(self, fd: int, events: int, data: tuple[_Handler | None, int]) -> None:
        self.poll.register(fd, events)
        self.data[fd] = data

    def unregister(self, fd: int) -> None:
        if self.data.pop(fd, None) is not None:
            self.poll.unregister(fd)

    def select(self, timeout: float | None) -> list[tuple[_Handler | None, int]]:
        """What became ready within `timeout` seconds (None: no limit)."""
        # Rounded up: a wait cut short by rounding down would only spin until the deadline.
        ms = None if timeout is None else int(timeout * 1000) + (timeout > 0)
        return [self.data[fd] for fd, _events in self.poll.poll(ms) if fd in self.data]


class _Stream:
    """One output pipe of a handler and what was kept of it; fd is -1 once closed."""

    __slots__ = ("chunks", "fd", "size", "truncated")

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.chunks: list[bytes] = []
        self.size = 0
        self.truncated = False

    def keep(self, data: bytes) -> None:
        room = OUTPUT_LIMIT - self.size
        if len(data) <= room:
            self.chunks.append(data)
            self.size += len(data)
        else:
            if room > 0:
                self.chunks.append(data[:room])
                self.size = OUTPUT_LIMIT
            self.truncated = True

    def value(self) -> bytes:
        return b"".join(self.chunks)


class _Handler:
    """The running state of one spec."""

    __slots__ = (
        "deadline",
        "exit_at",
        "exit_seen",
        "pid",
        "pidfd",
        "poll_interval",
        "result",
        "returncode",
        "spec",
        "start",
        "stderr",
        "stdin_fd",
        "stdin_off",
        "stdout",
        "term_at",
    )

    def __init__(self, spec: ProcessSpec) -> None:
        self.spec = spec
        self.start = 0.0
        self.deadline = 0.0
        self.pid: int | None = None
        self.returncode: int | None = None  # once reaped: the exit code, or -signal
        self.stdin_fd = -1
        self.stdin_off = 0
        self.stdout: _Stream | None = None
        self.stderr: _Stream | None = None
        self.pidfd: int | None = None
        self.poll_interval = _POLL_MIN
        self.exit_seen = False  # the leader has exited (maybe not reaped yet)
        self.exit_at: float | None = None  # when it was reaped after exiting on its own
        self.term_at: float | None = None  # when SIGTERM was sent on timeout
        self.result: ProcessResult | None = None


def run_processes(
    specs: Sequence[ProcessSpec], stdin: bytes, *, cancel_fd: int | None = None
) -> list[ProcessResult]:
    """Run every spec concurrently, each fed `stdin`; return their results in spec order.

    Raises `Interrupted` (after killing every handler group) when SIGINT or a `Terminated`
    arrives while waiting; any other exception is re-raised after the same cleanup. Handlers
    beyond `start_cap()` wait for others to finish before they start.
    `cancel_fd`, the read end of a pipe owned by the caller, cancels the run once it is
    readable (a byte was written, or the write end closed): every handler group is killed
    the same way and `Cancelled` is raised. Nothing is read from it nor closed; when it is
    readable from the start, nothing is started.
    """
    if not specs:
        return []
    handlers = [_Handler(spec) for spec in specs]
    queue = _Queue(handlers, start_cap())
    payload = memoryview(stdin)
    sel = _Poller()
    try:
        if cancel_fd is not None:
            sel.register(cancel_fd, _READ_EVENTS, (None, _CANCEL))
            if sel.select(0):
                raise Cancelled
        _serve(queue, sel, payload)
    except BaseException as exc:
        _abort(handlers, sel, cancel_fd, queue.watch)
        signum = _signum_of(exc)
        if signum is None:
            raise
        raise Interrupted(signum) from exc
    return _results(handlers)


def _results(handlers: list[_Handler]) -> list[ProcessResult]:
    results = []
    for h in handlers:
        assert h.result is not None, "the loop only ends when every handler has a result"
        results.append(h.result)
    return results


def _signum_of(exc: BaseException) -> int | None:
    if isinstance(exc, KeyboardInterrupt):
        return int(signal.SIGINT)
    signum = getattr(exc, "signum", None)
    return signum if isinstance(signum, int) else None


# --- starting ---------------------------------------------------------------------------


def start_cap() -> int:
    """How many handlers run at once, at most: min(64, RLIMIT_NOFILE // 8), at least 1."""
    try:
        limit = os.sysconf("SC_OPEN_MAX")
    except (ValueError, OSError):
        return _MAX_STARTED
    if limit <= 0:  # no limit
        return _MAX_STARTED
    return max(1, min(_MAX_STARTED, limit // _FDS_PER_HANDLER))


class _Queue:
    """The handlers of a run still waiting for their turn to start, and what they share."""

    __slots__ = ("cap", "envs", "place", "waiting", "watch")

    def __init__(self, handlers: list[_Handler], cap: int) -> None:
        self.waiting = handlers[::-1]  # popped from the end, so in spec order
        self.cap = cap
        # id(spec.env) -> the environment made from it, for specs sharing one mapping
        self.envs: dict[int, dict[str, str]] = {}
        self.place: _Place | None = None  # made when the first handler starts
        self.watch: HandlerWatch | None = None


class _Place:
    """Where this process is when a run starts, and what its children must not inherit."""

    __slots__ = ("cwd", "environ", "inherited")

    def __init__(self) -> None:
        try:
            self.cwd: str | None = os.getcwd()
        except OSError:
            self.cwd = None  # deleted: every handler changes into its own directory
        self.inherited = inheritable_fds()
        # A plain copy: posix_spawn reads os.environ item by item through its Python
        # wrapper, a few dozen calls for every handler started.
        self.environ = dict(os.environ)


def _single_thread() -> bool:
    """Whether this process runs one thread (so a chdir around a spawn is seen by no one)."""
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        threading = sys.modules.get("threading")
        return threading is None or threading.active_count() == 1


def _start_more(
    queue: _Queue, live: list[_Handler], sel: _Poller, payload: memoryview
) -> list[_Handler]:
    """Start waiting handlers while fewer than the cap run; return the running ones.

    Signals that end a run are held meanwhile: a KeyboardInterrupt raised inside the spawn
    would lose the child's pid, and with it any way to kill its group. So they are only
    recorded, and delivered again once every spawn returned, where the interruption can
    kill everything started.
    """
    held: list[tuple[int, _SignalHandler]] = []
    pending: list[int] = []
    started: list[_Handler] = []
    try:
        _hold_signals(held, pending)
        if queue.place is None:
            queue.place = _Place()
            queue.watch = handler_watch(queue.place.inherited)
        while queue.waiting and len(live) + len(started) < queue.cap:
            h = queue.waiting.pop()
            if not _start(h, sel, queue, others=bool(live or started)):
                # Out of descriptors while others run: wait for them, with a lower cap.
                queue.waiting.append(h)
                queue.cap = len(live) + len(started)
                break
            if h.result is None:
                started.append(h)
    finally:
        _restore_signals(held)
        for signum in dict.fromkeys(pending):
            signal.raise_signal(signum)
    for h in started:
        _write_stdin(h, sel, payload, registered=False)
    return [*live, *started]


def _hold_signals(held: list[tuple[int, _SignalHandler]], pending: list[int]) -> None:
    def hold(signum: int, frame: FrameType | None) -> None:
        pending.append(signum)

    for signum in _ENDING_SIGNALS:
        previous = signal.getsignal(signum)
        if previous is None or previous == signal.SIG_IGN:
            continue  # set outside Python (cannot be put back), or nothing to hold
        held.append((signum, previous))  # before replacing it, so it is always restored
        try:
            signal.signal(signum, hold)
        except ValueError:
            held.pop()
            return  # not the main thread, where no signal handler can interrupt us anyway


def _start(h: _Handler, sel: _Poller, queue: _Queue, *, others: bool) -> bool:
    """Start one handler, or give it a `not-started` result; False: retry once others end.

    `others`: whether other handlers are running, whose end would free descriptors.
    """
    spec = h.spec
    h.start = time.monotonic()
    h.deadline = h.start + spec.timeout
    unfit = _unfit_command(spec.command)
    if unfit is not None:
        h.result = _not_started(h, unfit)
        return True
    assert queue.place is not None
    env = None
    if spec.env is not None:
        env = queue.envs.get(id(spec.env))
        if env is None:
            env = queue.envs[id(spec.env)] = _environment(queue.place.environ, spec.env)
    try:
        pid, stdin_fd, stdout_fd, stderr_fd = _spawn(spec, env, queue.place)
    except OSError as exc:
        if others and exc.errno in (errno.EMFILE, errno.ENFILE):
            return False
        h.result = _not_started(h, str(exc))
        return True
    except (ValueError, TypeError) as exc:
        h.result = _not_started(h, str(exc))
        return True
    h.pid = pid
    if queue.watch is not None:
        queue.watch.started(pid)
    _watch(h, (stdin_fd, stdout_fd, stderr_fd), sel)
    return True


def _unfit_command(command: str) -> str | None:
    """Why `command` cannot reach execve as written, or None."""
    if "\0" in command:
        return "the command contains a NUL byte"
    if command.isascii():
        return None
    try:
        os.fsencode(command)
    except UnicodeEncodeError as exc:
        char = exc.object[exc.start]
        escaped = char.encode("ascii", "backslashreplace").decode("ascii")
        if "\ud800" <= char <= "\udfff":
            return f"the command contains a lone surrogate ({escaped})"
        return f"the command contains a character the file system cannot encode ({escaped})"
    return None


def _environment(base: Mapping[str, str], extra: Mapping[str, str]) -> dict[str, str]:
    """os.environ with `extra` added, each variable as execve can take it (see above)."""
    env = {**base}  # the run's copy of os.environ, which decodes each item it gives
    for name, value in extra.items():
        text = _env_text(value) if _env_name_ok(name) else None
        if text is None:
            # Do not let an inherited value of the same name stand in for the dropped one.
            env.pop(name, None)
        else:
            env[name] = text
    return env


def _env_name_ok(name: str) -> bool:
    if not name or "=" in name or "\0" in name:
        return False
    return name.isascii() or _encodable(name)


def _env_text(value: str) -> str | None:
    if "\0" in value:
        return None
    if value.isascii() or _encodable(value):
        return value
    encoding = sys.getfilesystemencoding()
    return value.encode(encoding, "backslashreplace").decode(encoding)


def _encodable(text: str) -> bool:
    try:
        os.fsencode(text)
    except UnicodeEncodeError:
        return False
    return True


def _spawn(
    spec: ProcessSpec, env: dict[str, str] | None, place: _Place
) -> tuple[int, int, int, int]:
    """Start the handler's shell: its pid, and our ends of its stdin, stdout and stderr."""
    environ: Mapping[str, str] = place.environ if env is None else env
    shell = _shell_path(spec.shell or SHELL, environ.get("PATH"))
    argv = [shell, "-c", spec.command]
    return _spawn_in(spec.cwd, shell, argv, environ, place, shell)


def _shell_path(shell: str, path: str | None) -> str:
    """The file of a shell named without a directory, looked up on PATH as execvp would."""
    if "/" in shell:
        return shell
    return lookup(shell, path or os.defpath) or shell


def _spawn_in(
    cwd: str, executable: str, argv: list[str], env: Mapping[str, str], place: _Place,
    shell: str,
) -> tuple[int, int, int, int]:
    """Spawn in `cwd`: around a chdir, or with threads through `shell` (the command's own,
    whose changes to the environment are then those of the command's shell alone)."""
    if cwd == place.cwd:
        return _posix_spawn(executable, argv, env, place.inherited)
    # Checked at each spawn: only this thread starts others (background hooks) here.
    if _single_thread():
        back = os.open(".", os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.chdir(cwd)
            try:
                return _posix_spawn(executable, argv, env, place.inherited)
            finally:
                os.fchdir(back)
        finally:
            os.close(back)
    if not os.path.isdir(cwd):
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), cwd)
    # What a shell started there would find: the PWD given if it names the directory.
    pwd = env.get("PWD")
    if pwd is None or not same_directory(pwd, cwd):
        pwd = os.path.realpath(cwd)
    old = env.get("OLDPWD")
    # The handler's own shell is then exec'd there, and finds what it would have found.
    script = [shell, "-c", _CD_SCRIPT, "agenthooks", cwd, pwd, "" if old is None else "1",
              old or "", *argv]
    return _posix_spawn(shell, script, env, place.inherited)


def _posix_spawn(
    executable: str, argv: list[str], env: Mapping[str, str], inherited: tuple[int, ...]
) -> tuple[int, int, int, int]:
    """posix_spawn with the three pipes; our ends are close-on-exec and ours to close."""
    ours: list[int] = []
    theirs: list[int] = []
    try:
        _three_pipes(ours, theirs)
        actions = [
            (os.POSIX_SPAWN_DUP2, theirs[0], 0),
            (os.POSIX_SPAWN_DUP2, theirs[1], 1),
            (os.POSIX_SPAWN_DUP2, theirs[2], 2),
            *((os.POSIX_SPAWN_CLOSE, fd) for fd in inherited),
        ]
        pid = os.posix_spawn(
            executable, argv, env, file_actions=actions, setsid=True,
            setsigdef=_DEFAULT_IN_CHILD,
        )
    except BaseException:
        for fd in ours:
            os.close(fd)
        raise
    finally:
        for fd in theirs:
            os.close(fd)
    return pid, ours[0], ours[1], ours[2]


def _three_pipes(ours: list[int], theirs: list[int]) -> None:
    """stdin, stdout and stderr pipes, none on descriptors 0-2 (a caller may have closed
    them), so that no dup2 of the child overwrites another of its pipes."""
    low: list[int] = []
    try:
        while len(ours) < 3:
            read, write = os.pipe()
            if read <= 2 or write <= 2:
                low += (read, write)
                continue
            stdin = not ours
            ours.append(write if stdin else read)
            theirs.append(read if stdin else write)
    finally:
        for fd in low:
            os.close(fd)


def _watch(h: _Handler, fds: tuple[int, int, int], sel: _Poller) -> None:
    """Register the handler's pipes and exit notification."""
    h.stdin_fd = fds[0]
    h.stdout = _Stream(fds[1])
    h.stderr = _Stream(fds[2])
    for fd in fds:
        os.set_blocking(fd, False)
    sel.register(fds[1], _READ_EVENTS, (h, _STDOUT))
    sel.register(fds[2], _READ_EVENTS, (h, _STDERR))
    assert h.pid is not None
    try:
        h.pidfd = os.pidfd_open(h.pid)
    except (OSError, AttributeError):
        h.pidfd = None  # old kernel or not Linux: poll with waitid instead
    else:
        sel.register(h.pidfd, _READ_EVENTS, (h, _PIDFD))


def _not_started(h: _Handler, reason: str) -> ProcessResult:
    return ProcessResult(
        status="not-started",
        exit_code=None,
        signal=None,
        stdout=b"",
        stderr=b"",
        stdout_truncated=False,
        stderr_truncated=False,
        duration_ms=(time.monotonic() - h.start) * 1000.0,
        error=f"cannot start: {reason}",
    )


# --- the loop ---------------------------------------------------------------------------


def _serve(queue: _Queue, sel: _Poller, payload: memoryview) -> None:
    live = _start_more(queue, [], sel, payload)
    now = time.monotonic()
    while live:  # _start_more leaves none running only when none is waiting
        for h, kind in sel.select(_select_timeout(live, now, queue.watch)):
            if kind == _CANCEL:
                raise Cancelled
            assert h is not None
            if kind == _PIDFD:
                _close_pidfd(h, sel)
                h.exit_seen = True
            elif kind == _STDIN:
                _write_stdin(h, sel, payload, registered=True)
            else:
                _read(h.stdout if kind == _STDOUT else h.stderr, sel)
        now = time.monotonic()
        for h in live:
            _advance(h, sel, now, queue.watch)
        running = [h for h in live if h.result is None]
        if queue.watch is not None:  # orphans adopted meanwhile are listed for the watch
            queue.watch.tick(now, ended=len(running) < len(live))
        live = running
        if queue.waiting and len(live) < queue.cap:
            live = _start_more(queue, live, sel, payload)


def _select_timeout(
    live: list[_Handler], now: float, watch: HandlerWatch | None = None
) -> float | None:
    """Seconds until the earliest moment some handler needs attention without an event."""
    wake = float("inf")
    if watch is not None and watch.pid > 0 and live:
        wake = watch.next_adopt  # `descendants.HandlerWatch.tick`
    for h in live:
        if h.exit_at is not None:
            wake = min(wake, _reading_ends(h, h.exit_at))
            continue
        wake = min(wake, h.deadline if h.term_at is None else h.term_at + KILL_GRACE)
        if h.pidfd is None:
            # No exit notification: poll, quickly at first (most hooks are fast), then
            # backing off so a long-running hook does not keep the loop spinning.
            wake = min(wake, now + h.poll_interval)
            h.poll_interval = min(h.poll_interval * 2, _POLL_MAX)
    return max(0.0, min(wake - now, _MAX_WAIT))


def _advance(h: _Handler, sel: _Poller, now: float, watch: HandlerWatch | None) -> None:
    """Move one handler along after a poll round: reap, time out, kill or finish it."""
    assert h.pid is not None
    if h.exit_at is not None:  # exited on its own, not reaped yet; waiting for the pipes
        pipes_closed = (h.stdout is None or h.stdout.fd < 0) and (
            h.stderr is None or h.stderr.fd < 0
        )
        # Past the grace, background children still hold the pipes: do not wait for them.
        if pipes_closed or now >= _reading_ends(h, h.exit_at):
            # The answer is read: whatever the handler left running in its group goes too.
            # The leader is still unreaped, so its pgid is still its group's. Read until
            # the pipes close, the handler ran out of time while they were open.
            _kill_and_reap(h, watch)
            _finish(h, sel, now, timed_out=h.spec.until_closed and not pipes_closed)
        return
    if not h.exit_seen and h.pidfd is None:
        h.exit_seen = _has_exited(h.pid)
    if h.exit_seen:
        if h.term_at is not None:
            _kill_and_reap(h, watch)
            _finish(h, sel, now, timed_out=True)
        else:
            h.exit_at = now
            _close_stdin(h, sel)
            _advance(h, sel, now, watch)
        return
    if h.term_at is None:
        if now >= h.deadline:
            _killpg(h.pid, signal.SIGTERM)
            h.term_at = now
            _close_stdin(h, sel)
    elif now >= h.term_at + KILL_GRACE:
        _kill_and_reap(h, watch)
        _finish(h, sel, now, timed_out=True)


def _reading_ends(h: _Handler, exit_at: float) -> float:
    """When reading an exited handler's pipes stops: a grace after its exit, or its deadline
    where its host reads them until they close (`ProcessSpec.until_closed`)."""
    return h.deadline if h.spec.until_closed else min(exit_at + EXIT_GRACE, h.deadline)


def _has_exited(pid: int) -> bool:
    """Whether the child has exited, without reaping it (so its pgid stays reserved)."""
    try:
        info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return True
    return info is not None


def _kill_and_reap(h: _Handler, watch: HandlerWatch | None) -> None:
    """SIGKILL the handler's group, then reap its leader (which frees the pgid)."""
    assert h.pid is not None
    _killpg(h.pid, signal.SIGKILL)
    if watch is not None:
        watch.done(h.pid)  # before the pgid is freed: the watch must never kill it again
    while h.returncode is None:
        try:
            _pid, status = os.waitpid(h.pid, 0)
        except ChildProcessError:  # reaped by someone else: its status is lost
            h.returncode = -int(signal.SIGKILL)
        else:
            h.returncode = os.waitstatus_to_exitcode(status)


def _killpg(pgid: int, sig: int) -> None:
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


def _finish(h: _Handler, sel: _Poller, now: float, *, timed_out: bool) -> None:
    assert h.stdout is not None and h.stderr is not None
    for stream in (h.stdout, h.stderr):
        _drain(stream, sel)
        _close_stream(stream, sel)
    _close_stdin(h, sel)
    _close_pidfd(h, sel)
    code = h.returncode
    assert code is not None
    status: Status = "timeout" if timed_out else "exited" if code >= 0 else "signaled"
    h.result = ProcessResult(
        status=status,
        exit_code=code if status == "exited" else None,
        signal=-code if code < 0 else None,
        stdout=h.stdout.value(),
        stderr=h.stderr.value(),
        stdout_truncated=h.stdout.truncated,
        stderr_truncated=h.stderr.truncated,
        duration_ms=(now - h.start) * 1000.0,
    )


# --- pipes ------------------------------------------------------------------------------


def _write_stdin(h: _Handler, sel: _Poller, payload: memoryview, *, registered: bool) -> None:
    """Write as much of the payload as the pipe takes now; close stdin after the last byte."""
    if h.stdin_fd < 0:
        return
    if h.spec.stdin is not None:
        payload = memoryview(h.spec.stdin)
    if h.stdin_off < len(payload):
        try:
            h.stdin_off += os.write(h.stdin_fd, payload[h.stdin_off :])
        except BlockingIOError:
            pass
        except OSError:
            # EPIPE: the handler exited or closed stdin without reading it all, which is
            # its right. Nothing more to write.
            h.stdin_off = len(payload)
    if h.stdin_off >= len(payload):
        _close_stdin(h, sel)
    elif not registered:
        sel.register(h.stdin_fd, _WRITE_EVENTS, (h, _STDIN))


def _read(stream: _Stream | None, sel: _Poller) -> None:
    if stream is None or stream.fd < 0:
        return
    try:
        data = os.read(stream.fd, _READ_SIZE)
    except BlockingIOError:
        return
    except OSError:
        data = b""
    if data:
        stream.keep(data)
    else:
        _close_stream(stream, sel)


def _drain(stream: _Stream, sel: _Poller) -> None:
    """Read what is already in the pipe before closing it, without waiting for more."""
    for _ in range(_MAX_DRAIN_READS):
        if stream.fd < 0:
            return
        try:
            data = os.read(stream.fd, _READ_SIZE)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            _close_stream(stream, sel)
            return
        stream.keep(data)


def _close_stream(stream: _Stream, sel: _Poller) -> None:
    if stream.fd < 0:
        return
    sel.unregister(stream.fd)
    os.close(stream.fd)
    stream.fd = -1


def _close_stdin(h: _Handler, sel: _Poller) -> None:
    if h.stdin_fd < 0:
        return
    sel.unregister(h.stdin_fd)
    with suppress(OSError):
        os.close(h.stdin_fd)
    h.stdin_fd = -1


def _close_pidfd(h: _Handler, sel: _Poller) -> None:
    if h.pidfd is None:
        return
    sel.unregister(h.pidfd)
    os.close(h.pidfd)
    h.pidfd = None


# --- interruption -----------------------------------------------------------------------


def _abort(
    handlers: list[_Handler], sel: _Poller, cancel_fd: int | None, watch: HandlerWatch | None
) -> None:
    """Kill every handler group still running, reap every leader and close every fd.

    Called with an exception in flight (a signal, `Cancelled`, anything else). Another
    signal arriving meanwhile only cuts the SIGTERM grace short: the SIGKILL and reaping
    still happen.
    """
    live = [h for h in handlers if h.pid is not None and h.returncode is None]
    with suppress(BaseException):
        if cancel_fd is not None:
            # Readable from now on, it would wake the wait below at once: no grace at all.
            sel.unregister(cancel_fd)
        for h in live:
            assert h.pid is not None
            _killpg(h.pid, signal.SIGTERM)
        # Closing our ends also unblocks handlers stuck writing to a full pipe (EPIPE).
        for h in handlers:
            _close_pipes(h, sel)
        _wait_exits(live, sel, time.monotonic() + KILL_GRACE)
    for h in live:
        _kill_and_reap_quietly(h, watch)
    for h in handlers:
        _close_pipes(h, sel)
        _close_pidfd(h, sel)


def _close_pipes(h: _Handler, sel: _Poller) -> None:
    for stream in (h.stdout, h.stderr):
        if stream is not None:
            _close_stream(stream, sel)
    _close_stdin(h, sel)


def _wait_exits(live: list[_Handler], sel: _Poller, until: float) -> None:
    """Wait until every leader has exited (unreaped) or `until` passes."""
    pending = list(live)
    while True:
        pending = [h for h in pending if not _exit_noticed(h)]
        now = time.monotonic()
        if not pending or now >= until:
            return
        timeout = min(until - now, _MAX_WAIT)
        if any(h.pidfd is None for h in pending):
            timeout = min(timeout, _POLL_MAX)
        for h, _kind in sel.select(timeout):
            if h is not None:
                _close_pidfd(h, sel)
                h.exit_seen = True


def _exit_noticed(h: _Handler) -> bool:
    if not h.exit_seen and h.pidfd is None and h.pid is not None:
        h.exit_seen = _has_exited(h.pid)
    return h.exit_seen


def _kill_and_reap_quietly(h: _Handler, watch: HandlerWatch | None) -> None:
    # After SIGKILL waitpid returns at once; retry if yet another signal interrupts it, so
    # that no zombie is left behind.
    for _ in range(3):
        try:
            _kill_and_reap(h, watch)
            return
        except BaseException:
            continue
