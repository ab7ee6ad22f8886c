"""Run hook commands as concurrent subprocesses and return what each did, as data.

This is on the hot path (`agenthooks run` starts once per agent tool call, and a harness may
call `run_processes` per event), so it uses no threads and no asyncio: the handlers are
started, then a single selector loop feeds their stdin, reads their stdout/stderr and
watches their exit (through a pidfd where the kernel has one) until each is done or timed
out. A hook's failure is never an exception: it is a `ProcessResult`.

Each handler runs in its own session, so the whole process group can be killed: on timeout
(SIGTERM, then SIGKILL after KILL_GRACE), and once the handler has exited and its answer is
read (SIGKILL to whatever it left running in the background). The group leader is only
reaped after that final SIGKILL: an unreaped leader keeps its pgid from being reused by an
unrelated process between our kill calls. Descendants that leave the group (setsid) and
handlers outliving a SIGKILLed caller are `descendants`' business, for callers that opt in.

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

import contextlib
import errno
import os
import selectors
import signal
import subprocess
import sys
import time

from agenthooks.executor.command import direct_command
from agenthooks.executor.descendants import death_signal_setter
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
    from collections.abc import Callable, Mapping, Sequence
    from types import FrameType
    from typing import IO, Any, Literal

    Status = Literal["exited", "signaled", "timeout", "not-started"]
    _SignalHandler = Callable[[int, FrameType | None], Any] | int | signal.Handlers

# The records, limits and signal handling it uses live in `executor.records`.
__all__ = ["run_processes", "start_cap"]


SHELL = "/bin/sh"
_READ_SIZE = 65536  # one pipe buffer's worth
_MAX_DRAIN_READS = 64  # bounds the final drain when something outside the group keeps writing
_POLL_MIN = 0.001  # exit polling, only when pidfd_open is unavailable
_POLL_MAX = 0.05
# The longest single wait: selectors take milliseconds as a C int (epoll and poll overflow
# past ~24.8 days), and a timeout may be up to 2**31 - 1 seconds, so a far deadline is
# simply waited for in steps.
_MAX_WAIT = 3600.0
_MAX_STARTED = 64  # handlers running at once, at most; fewer under a low RLIMIT_NOFILE
_FDS_PER_HANDLER = 8  # four held while it runs, more while it starts, and room for the caller

# What a selector key refers to (key.data is (handler, kind); (None, _CANCEL) for cancel_fd).
_STDIN, _STDOUT, _STDERR, _PIDFD, _CANCEL = range(5)


class _Stream:
    """One output pipe of a handler and what was kept of it."""

    __slots__ = ("chunks", "fd", "file", "size", "truncated")

    def __init__(self, file: IO[bytes]) -> None:
        self.file: IO[bytes] | None = file
        self.fd = file.fileno()
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
        "pidfd",
        "poll_interval",
        "proc",
        "result",
        "spec",
        "start",
        "stderr",
        "stdin",
        "stdin_fd",
        "stdin_off",
        "stdout",
        "term_at",
    )

    def __init__(self, spec: ProcessSpec) -> None:
        self.spec = spec
        self.start = 0.0
        self.deadline = 0.0
        self.proc: subprocess.Popen[bytes] | None = None
        self.stdin: IO[bytes] | None = None
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
    sel = selectors.DefaultSelector()
    try:
        try:
            if cancel_fd is not None:
                sel.register(cancel_fd, selectors.EVENT_READ, (None, _CANCEL))
                if sel.select(0):
                    raise Cancelled
            _serve(queue, sel, payload)
        except BaseException as exc:
            _abort(handlers, sel, cancel_fd)
            signum = _signum_of(exc)
            if signum is None:
                raise
            raise Interrupted(signum) from exc
    finally:
        sel.close()
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

    __slots__ = ("cap", "envs", "waiting")

    def __init__(self, handlers: list[_Handler], cap: int) -> None:
        self.waiting = handlers[::-1]  # popped from the end, so in spec order
        self.cap = cap
        # id(spec.env) -> the environment made from it, for specs sharing one mapping
        self.envs: dict[int, dict[str, str]] = {}


def _start_more(
    queue: _Queue, live: list[_Handler], sel: selectors.BaseSelector, payload: memoryview
) -> list[_Handler]:
    """Start waiting handlers while fewer than the cap run; return the running ones.

    Signals that end a run are held meanwhile: a KeyboardInterrupt raised inside Popen()
    after the fork would lose the child's pid, and with it any way to kill its group; under
    load that window is most of a millisecond. So they are only recorded, and delivered
    again once every Popen returned, where the interruption can kill everything started.
    """
    held: list[tuple[int, _SignalHandler]] = []
    pending: list[int] = []
    started: list[_Handler] = []
    try:
        _hold_signals(held, pending)
        preexec = death_signal_setter()
        while queue.waiting and len(live) + len(started) < queue.cap:
            h = queue.waiting.pop()
            if not _start(h, sel, queue.envs, preexec, others=bool(live or started)):
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


def _start(
    h: _Handler,
    sel: selectors.BaseSelector,
    envs: dict[int, dict[str, str]],
    preexec: Callable[[], None] | None,
    *,
    others: bool,
) -> bool:
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
    env = None
    path = None
    if spec.env is not None:
        env = envs.get(id(spec.env))
        if env is None:
            env = envs[id(spec.env)] = _environment(spec.env)
        path = env.get("PATH")
    try:
        h.proc = _spawn(spec, env, path, preexec)
    except OSError as exc:
        if others and exc.errno in (errno.EMFILE, errno.ENFILE):
            return False
        h.result = _not_started(h, str(exc))
        return True
    except (ValueError, TypeError, subprocess.SubprocessError) as exc:
        h.result = _not_started(h, str(exc))
        return True
    _watch(h, h.proc, sel)
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


def _environment(extra: Mapping[str, str]) -> dict[str, str]:
    """os.environ with `extra` added, each variable as execve can take it (see above)."""
    env = {**os.environ}
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
    spec: ProcessSpec,
    env: dict[str, str] | None,
    path: str | None,
    preexec: Callable[[], None] | None,
) -> subprocess.Popen[bytes]:
    direct = direct_command(spec.command, spec.cwd, path)
    if direct is not None:
        executable, argv = direct
        try:
            return _popen(argv, executable, spec.cwd, env, preexec)
        except OSError as exc:
            if exc.errno in (errno.EMFILE, errno.ENFILE):
                raise
            # E.g. ENOEXEC for a script without a shebang: sh runs those itself, and its
            # errors are the ones a user expects, so let it have a go.
    shell = spec.shell or SHELL
    return _popen([shell, "-c", spec.command], shell, spec.cwd, env, preexec)


def _popen(
    argv: list[str],
    executable: str,
    cwd: str,
    env: dict[str, str] | None,
    preexec: Callable[[], None] | None,
) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        argv,
        executable=executable,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
        env=env,
        start_new_session=True,
        close_fds=True,
        bufsize=0,
        # None unless the caller asked handlers to die with it (descendants.py), which is
        # for a single-threaded process such as `agenthooks run`.
        preexec_fn=preexec,  # noqa: PLW1509
    )


def _watch(h: _Handler, proc: subprocess.Popen[bytes], sel: selectors.BaseSelector) -> None:
    """Register the handler's pipes and exit notification in the selector."""
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    h.stdin = proc.stdin
    h.stdin_fd = proc.stdin.fileno()
    h.stdout = _Stream(proc.stdout)
    h.stderr = _Stream(proc.stderr)
    os.set_blocking(h.stdin_fd, False)
    for kind, stream in ((_STDOUT, h.stdout), (_STDERR, h.stderr)):
        os.set_blocking(stream.fd, False)
        sel.register(stream.fd, selectors.EVENT_READ, (h, kind))
    try:
        h.pidfd = os.pidfd_open(proc.pid)
    except (OSError, AttributeError):
        h.pidfd = None  # old kernel or not Linux: poll with waitid instead
    else:
        sel.register(h.pidfd, selectors.EVENT_READ, (h, _PIDFD))


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


def _serve(queue: _Queue, sel: selectors.BaseSelector, payload: memoryview) -> None:
    live = _start_more(queue, [], sel, payload)
    now = time.monotonic()
    while live:  # _start_more leaves none running only when none is waiting
        for key, _mask in sel.select(_select_timeout(live, now)):
            h, kind = key.data
            if kind == _PIDFD:
                _close_pidfd(h, sel)
                h.exit_seen = True
            elif kind == _STDIN:
                _write_stdin(h, sel, payload, registered=True)
            elif kind == _CANCEL:
                raise Cancelled
            else:
                _read(h.stdout if kind == _STDOUT else h.stderr, sel)
        now = time.monotonic()
        for h in live:
            _advance(h, sel, now)
        live = [h for h in live if h.result is None]
        if queue.waiting and len(live) < queue.cap:
            live = _start_more(queue, live, sel, payload)


def _select_timeout(live: list[_Handler], now: float) -> float | None:
    """Seconds until the earliest moment some handler needs attention without an event."""
    wake = float("inf")
    for h in live:
        if h.exit_at is not None:
            wake = min(wake, h.exit_at + EXIT_GRACE, h.deadline)
            continue
        wake = min(wake, h.deadline if h.term_at is None else h.term_at + KILL_GRACE)
        if h.pidfd is None:
            # No exit notification: poll, quickly at first (most hooks are fast), then
            # backing off so a long-running hook does not keep the loop spinning.
            wake = min(wake, now + h.poll_interval)
            h.poll_interval = min(h.poll_interval * 2, _POLL_MAX)
    return max(0.0, min(wake - now, _MAX_WAIT))


def _advance(h: _Handler, sel: selectors.BaseSelector, now: float) -> None:
    """Move one handler along after a selector round: reap, time out, kill or finish it."""
    proc = h.proc
    assert proc is not None
    if h.exit_at is not None:  # exited on its own, not reaped yet; waiting for the pipes
        pipes_closed = (h.stdout is None or h.stdout.file is None) and (
            h.stderr is None or h.stderr.file is None
        )
        # Past the grace, background children still hold the pipes: do not wait for them.
        if pipes_closed or now >= min(h.exit_at + EXIT_GRACE, h.deadline):
            # The answer is read: whatever the handler left running in its group goes too.
            # The leader is still unreaped, so its pgid is still its group's.
            _kill_and_reap(proc)
            _finish(h, sel, now, timed_out=False)
        return
    if not h.exit_seen and h.pidfd is None:
        h.exit_seen = _has_exited(proc.pid)
    if h.exit_seen:
        if h.term_at is not None:
            _kill_and_reap(proc)
            _finish(h, sel, now, timed_out=True)
        else:
            h.exit_at = now
            _close_stdin(h, sel)
            _advance(h, sel, now)
        return
    if h.term_at is None:
        if now >= h.deadline:
            _killpg(proc.pid, signal.SIGTERM)
            h.term_at = now
            _close_stdin(h, sel)
    elif now >= h.term_at + KILL_GRACE:
        _kill_and_reap(proc)
        _finish(h, sel, now, timed_out=True)


def _has_exited(pid: int) -> bool:
    """Whether the child has exited, without reaping it (so its pgid stays reserved)."""
    try:
        info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return True
    return info is not None


def _kill_and_reap(proc: subprocess.Popen[bytes]) -> None:
    _killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def _killpg(pgid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


def _finish(h: _Handler, sel: selectors.BaseSelector, now: float, *, timed_out: bool) -> None:
    proc = h.proc
    assert proc is not None and h.stdout is not None and h.stderr is not None
    for stream in (h.stdout, h.stderr):
        _drain(stream, sel)
        _close_stream(stream, sel)
    _close_stdin(h, sel)
    _close_pidfd(h, sel)
    code = proc.returncode
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


def _write_stdin(
    h: _Handler, sel: selectors.BaseSelector, payload: memoryview, *, registered: bool
) -> None:
    """Write as much of the payload as the pipe takes now; close stdin after the last byte."""
    if h.stdin is None:
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
        sel.register(h.stdin_fd, selectors.EVENT_WRITE, (h, _STDIN))


def _read(stream: _Stream | None, sel: selectors.BaseSelector) -> None:
    if stream is None or stream.file is None:
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


def _drain(stream: _Stream, sel: selectors.BaseSelector) -> None:
    """Read what is already in the pipe before closing it, without waiting for more."""
    for _ in range(_MAX_DRAIN_READS):
        if stream.file is None:
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


def _close_stream(stream: _Stream, sel: selectors.BaseSelector) -> None:
    if stream.file is None:
        return
    _unregister(sel, stream.fd)
    stream.file.close()
    stream.file = None


def _close_stdin(h: _Handler, sel: selectors.BaseSelector) -> None:
    if h.stdin is None:
        return
    _unregister(sel, h.stdin_fd)
    # Unbuffered, so close() flushes nothing; suppress in case a platform reports EPIPE.
    with contextlib.suppress(OSError):
        h.stdin.close()
    h.stdin = None


def _close_pidfd(h: _Handler, sel: selectors.BaseSelector) -> None:
    if h.pidfd is None:
        return
    _unregister(sel, h.pidfd)
    os.close(h.pidfd)
    h.pidfd = None


def _unregister(sel: selectors.BaseSelector, fd: int) -> None:
    # KeyError: never registered (stdin written at once); ValueError: selector closed.
    with contextlib.suppress(KeyError, ValueError):
        sel.unregister(fd)


# --- interruption -----------------------------------------------------------------------


def _abort(handlers: list[_Handler], sel: selectors.BaseSelector, cancel_fd: int | None) -> None:
    """Kill every handler group still running, reap every leader and close every fd.

    Called with an exception in flight (a signal, `Cancelled`, anything else). Another
    signal arriving meanwhile only cuts the SIGTERM grace short: the SIGKILL and reaping
    still happen.
    """
    live = [h for h in handlers if h.proc is not None and h.proc.returncode is None]
    with contextlib.suppress(BaseException):
        if cancel_fd is not None:
            # Readable from now on, it would wake the wait below at once: no grace at all.
            _unregister(sel, cancel_fd)
        for h in live:
            assert h.proc is not None
            _killpg(h.proc.pid, signal.SIGTERM)
        # Closing our ends also unblocks handlers stuck writing to a full pipe (EPIPE).
        for h in handlers:
            _close_pipes(h, sel)
        _wait_exits(live, sel, time.monotonic() + KILL_GRACE)
    for h in live:
        _kill_and_reap_quietly(h)
    for h in handlers:
        _close_pipes(h, sel)
        _close_pidfd(h, sel)


def _close_pipes(h: _Handler, sel: selectors.BaseSelector) -> None:
    for stream in (h.stdout, h.stderr):
        if stream is not None:
            _close_stream(stream, sel)
    _close_stdin(h, sel)
    if h.proc is not None:
        # Interrupted between Popen and _watch: the pipes are only on the Popen object.
        for file in (h.proc.stdin, h.proc.stdout, h.proc.stderr):
            if file is not None:
                file.close()


def _wait_exits(live: list[_Handler], sel: selectors.BaseSelector, until: float) -> None:
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
        for key, _mask in sel.select(timeout):
            h, _kind = key.data
            _close_pidfd(h, sel)
            h.exit_seen = True


def _exit_noticed(h: _Handler) -> bool:
    if not h.exit_seen and h.pidfd is None and h.proc is not None:
        h.exit_seen = _has_exited(h.proc.pid)
    return h.exit_seen


def _kill_and_reap_quietly(h: _Handler) -> None:
    proc = h.proc
    assert proc is not None
    # After SIGKILL wait() returns at once; retry if yet another signal interrupts it, so
    # that no zombie is left behind.
    for _ in range(3):
        try:
            _killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            return
        except BaseException:
            continue
