"""A parent that keeps the answer of a run that imports `--python` modules.

Each hook call already runs in a child of its own (`kinds.inprocess.supervise`), but a `--python`
module is imported, and its `register(hooks)` called, in the run's own process: a module that
calls `os._exit(0)` or crashes (SIGSEGV, SIGABRT) while it loads would end the run with no
answer (exit 0 reads as "carry on" to a host), and a non-daemon thread it starts keeps the
process alive after its answer. So when a run names `--python` modules, `agenthooks run`
forks first, before anything imports them:

- the child runs the whole event as before, its fd 1 a pipe to this parent; once its answer
  is written it sends its exit status over a second pipe and ends with `os._exit`, so
  threads left behind end with it;
- the parent writes exactly what the child wrote on fd 1 to the real stdout, and exits with
  the child's status; stderr is shared and goes straight through;
- a child that ends without a status (a signal, `os._exit`, a crash) is a failure of
  agenthooks itself, which the caller turns into a deny under fail-closed, or an error;
- SIGINT, SIGTERM, SIGHUP and SIGQUIT sent to the parent are passed on to the child, which
  ends as a run always does on them (exit 128 + the signal, nothing on stdout); one that has
  not ended `GRACE` seconds later is killed. A parent killed outright takes the child with
  it (Linux: the kernel's parent-death signal).

The parent waits as long as the child runs: a run has no deadline of its own (each hook has
its timeout, enforced in the child), and the host's timeout for its hook ends both.
"""

from __future__ import annotations

import os
import signal
import sys

from agenthooks._lean.suppress import suppress
from agenthooks.errors import AgentHooksError
from agenthooks.executor.descendants import die_with_parent, reap

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

# How long a child may take to end after a signal was passed on before it is killed: enough
# for it to kill its handlers' groups and exit.
GRACE = 2.0
# What the child may write on stdout: far more than any answer, never the parent's memory.
ANSWER_LIMIT = 64 << 20
_FORWARDED = ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT")
_NO_STATUS = 70  # the child's status when even the status cannot be worked out


class AnswerLost(AgentHooksError):
    """The process that loads and runs the `--python` hooks ended without an answer."""


def keep_answer(
    work: Callable[[], int], failed: Callable[[AgentHooksError], int], what: str
) -> int:
    """Run `work` (which writes the answer on stdout and returns the exit status) in a
    forked child; write its answer here and return its status. A child that ends without a
    status returns `failed(error)`, the error naming `what` ran there and how it ended."""
    _flush()
    try:
        answer_read, answer_write = os.pipe()
        status_read, status_write = os.pipe()
    except OSError as exc:
        return failed(AnswerLost(f"cannot start the process of {what}: {exc}"))
    parent = os.getpid()
    # Before the fork: a signal that comes while it happens is passed on too.
    forwarder = _Forwarder()
    forwarder.install()
    try:
        pid = os.fork()
    except OSError as exc:
        forwarder.restore()
        for fd in (answer_read, answer_write, status_read, status_write):
            os.close(fd)
        return failed(AnswerLost(f"cannot start the process of {what}: {exc}"))
    if pid == 0:  # never returns
        forwarder.restore()
        os.close(answer_read)
        os.close(status_read)
        _child(work, parent, answer_write, status_write)
    os.close(answer_write)
    os.close(status_write)
    forwarder.follow(pid)
    return _parent(forwarder, answer_read, status_read, failed, what)


# --- the parent ------------------------------------------------------------------------------


class _Forwarder:
    """Pass the run's signals on to the child; kill it when it outlasts `GRACE` after one."""

    def __init__(self) -> None:
        self.pid = 0  # none yet: nothing to pass a signal on to
        self.received: int | None = None
        self.previous: list[tuple[int, Any]] = []

    def install(self) -> None:
        for name in _FORWARDED:
            number = getattr(signal, name, None)
            if number is not None and signal.getsignal(number) != signal.SIG_IGN:
                self.previous.append((number, signal.signal(number, self._forward)))

    def follow(self, pid: int) -> None:
        """Pass signals on to `pid` from now on, and one that came before."""
        self.pid = pid
        if self.received is not None:
            with suppress(OSError):
                os.kill(pid, self.received)

    def restore(self) -> None:
        with suppress(AttributeError, OSError):
            signal.setitimer(signal.ITIMER_REAL, 0)
        for number, handler in self.previous:
            signal.signal(number, signal.SIG_DFL if handler is None else handler)

    def _forward(self, signum: int, frame: object) -> None:
        if self.received is None:
            self.received = signum
            with suppress(AttributeError, OSError, ValueError):
                self.previous.append((signal.SIGALRM, signal.signal(signal.SIGALRM, self._kill)))
                signal.setitimer(signal.ITIMER_REAL, GRACE)
        if self.pid > 0:  # 0 would signal the whole process group
            with suppress(OSError):
                os.kill(self.pid, signum)

    def _kill(self, signum: int, frame: object) -> None:
        if self.pid > 0:
            with suppress(OSError):
                os.kill(self.pid, signal.SIGKILL)


def _parent(forwarder: _Forwarder, answer_fd: int, status_fd: int,
            failed: Callable[[AgentHooksError], int], what: str) -> int:
    pid = forwarder.pid
    collected = False
    try:
        answer, status = _collect(answer_fd, status_fd, pid)
        collected = True
    finally:
        os.close(answer_fd)
        os.close(status_fd)
        if not collected:  # this parent failed: the child must not outlive it
            with suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        wait_status = reap(pid)
        forwarder.restore()
    if status is None and forwarder.received is not None:
        return 128 + forwarder.received  # ended by the run's signal: nothing on stdout
    if status is None:
        return failed(AnswerLost(f"the process of {what} {_how(wait_status, answer)} "
                                 "before it answered"))
    return _write_answer(answer, status, failed)


def _collect(answer_fd: int, status_fd: int, pid: int) -> tuple[bytes | None, int | None]:
    """What the child wrote on stdout (None: more than `ANSWER_LIMIT`), and its status (None:
    it ended without one)."""
    import select

    os.set_blocking(answer_fd, False)
    poller = select.poll()
    poller.register(answer_fd, select.POLLIN)
    poller.register(status_fd, select.POLLIN)
    chunks: list[bytes] = []
    size = 0
    while True:
        ready = dict(poller.poll())
        if answer_fd in ready:
            size += _drain(answer_fd, chunks)
            if size > ANSWER_LIMIT:
                with suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
                return None, None
            if ready[answer_fd] & select.POLLHUP and not ready[answer_fd] & select.POLLIN:
                poller.unregister(answer_fd)
        if status_fd in ready:
            found = os.read(status_fd, 1)
            _drain(answer_fd, chunks)  # written before the status: whole in the pipe now
            return b"".join(chunks), found[0] if found else None


def _drain(fd: int, chunks: list[bytes]) -> int:
    """Read what is in the pipe now, without waiting; how many bytes."""
    size = 0
    while True:
        try:
            chunk = os.read(fd, 1 << 16)
        except BlockingIOError:
            return size
        if not chunk:
            return size
        chunks.append(chunk)
        size += len(chunk)


def _how(wait_status: int, answer: bytes | None) -> str:
    if answer is None:
        return f"wrote more than {ANSWER_LIMIT >> 20} MiB on stdout"
    if os.WIFSIGNALED(wait_status):
        from agenthooks.model.handlers import signal_name

        return f"ended with {signal_name(os.WTERMSIG(wait_status))}"
    code = os.WEXITSTATUS(wait_status) if os.WIFEXITED(wait_status) else wait_status
    return f"exited with status {code}"


def _write_answer(answer: bytes | None, status: int,
                  failed: Callable[[AgentHooksError], int]) -> int:
    """The child's answer on stdout, and its status; stdout closed or full is as it is in the
    run itself: a block still exits 2, anything else is agenthooks' failure."""
    view = memoryview(answer or b"")
    try:
        while view:
            view = view[os.write(1, view):]
    except OSError as exc:
        if status == 2:
            return 2
        return failed(AnswerLost(f"cannot write the answer to stdout: {exc}"))
    return status


# --- the child -------------------------------------------------------------------------------


def _child(work: Callable[[], int], parent: int, answer_fd: int, status_fd: int) -> None:
    """Run `work` with its answer on the answer pipe; send its status; end with `os._exit`."""
    code = _NO_STATUS
    try:
        try:
            # A parent killed outright (SIGKILL at a host's timeout) takes this process too.
            if die_with_parent() and os.getppid() != parent:
                os._exit(_NO_STATUS)
            _answer_only_to(answer_fd)
            code = work()
        finally:
            _flush()
            with suppress(OSError):
                os.write(status_fd, bytes([code & 0xFF]))
    except BaseException:  # a signal in the `finally`: the status is sent or never will be
        pass
    os._exit(code & 0xFF)


def _answer_only_to(answer_fd: int) -> None:
    """The answer down `answer_fd`; fd 1 and `sys.stdout` on stderr, so that whatever the
    modules write later (a thread they started at import, a process they left) is not in it."""
    from agenthooks.cli.commands.run import answer_to

    _flush()
    os.dup2(2, 1)
    answer_to(answer_fd)


def _flush() -> None:
    """Nothing buffered before the fork is written twice; nothing after it is lost."""
    for stream in (sys.stdout, sys.stderr):
        with suppress(OSError, ValueError, AttributeError):
            stream.flush()
