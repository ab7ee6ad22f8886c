"""What the executor takes and gives, and the signals that end a run: the light half.

Records, limits and signal handling import nothing costly, so that the API and `agenthooks
run` can name them without importing `subprocess` and the selector loop
(`executor.process`), which a run with no command handler to start never needs.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    import signal
    from collections.abc import Callable, Mapping
    from types import FrameType
    from typing import Any, Literal, NamedTuple

    Status = Literal["exited", "signaled", "timeout", "not-started"]
    _SignalHandler = Callable[[int, FrameType | None], Any] | int | signal.Handlers
else:
    # The C module has the same numbers and functions; `signal` only adds enums over them,
    # and importing it imports `enum` for them.
    import _signal as signal

    from agenthooks._lean.records import NamedTuple

OUTPUT_LIMIT = 1024 * 1024
EXIT_GRACE = 0.1  # seconds to wait for pipes to close after the process exited
KILL_GRACE = 1.0  # seconds between SIGTERM and SIGKILL on timeout

# Signals that end a run: every handler group is killed, then `Interrupted` is raised.
# SIGINT raises KeyboardInterrupt by itself; the others do once `install_signal_handlers`
# ran (or the caller's own handler raises something carrying `signum`).
_ENDING_SIGNALS = tuple(
    getattr(signal, name)
    for name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT")
    if hasattr(signal, name)
)
_TERMINATING_SIGNALS = _ENDING_SIGNALS[1:]


class ProcessSpec(NamedTuple):
    """One command to run: a shell command string, as written in hooks.json."""

    command: str
    cwd: str
    timeout: float  # seconds
    env: Mapping[str, str] | None = None  # added to os.environ; None = inherit only
    shell: str | None = None  # the shell that runs `command`; None = /bin/sh
    # This handler's own stdin (a payload in its host's words); None = the run's shared one.
    stdin: bytes | None = None
    # Read its output until the pipes close (a background child still writing included),
    # within the timeout, as its host does; False: for EXIT_GRACE after it exits.
    until_closed: bool = False


class ProcessResult(NamedTuple):
    """What one command did. Output is raw bytes, at most OUTPUT_LIMIT of each stream."""

    status: Status
    exit_code: int | None  # when status == "exited"
    signal: int | None  # when "signaled"; on "timeout", the signal that ended it if known
    stdout: bytes
    stderr: bytes
    stdout_truncated: bool
    stderr_truncated: bool
    duration_ms: float
    error: str | None = None  # when "not-started": why


class _Signalled(BaseException):
    """A signal that ends the run; BaseException so that `except Exception` does not catch it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


class Interrupted(_Signalled):
    """SIGINT, SIGTERM, SIGHUP or SIGQUIT arrived during `run_processes`; every handler
    group was killed."""

    def __str__(self) -> str:
        return f"interrupted by signal {self.signum}"


class Terminated(_Signalled):
    """Raised by the SIGTERM, SIGHUP and SIGQUIT handler of `install_signal_handlers`, as
    SIGINT raises KeyboardInterrupt."""

    def __str__(self) -> str:
        return f"terminated by signal {self.signum}"


class Cancelled(Exception):
    """The `cancel_fd` of `run_processes` became readable; every handler group was killed."""

    def __str__(self) -> str:
        return "cancelled"


def install_signal_handlers() -> Callable[[], None]:
    """Make SIGTERM, SIGHUP and SIGQUIT raise `Terminated`; return a function that restores
    the previous handlers.

    Python turns SIGINT into KeyboardInterrupt but lets these kill the process outright (a
    closed terminal, a host ending its hook), which would orphan running handlers. A signal
    ignored when this is called (`nohup`) stays ignored. Must be called from the main thread.
    """

    def _raise_terminated(signum: int, frame: FrameType | None) -> None:
        raise Terminated(signum)

    previous: list[tuple[int, _SignalHandler]] = []
    try:
        for signum in _TERMINATING_SIGNALS:
            if signal.getsignal(signum) != signal.SIG_IGN:
                old = signal.signal(signum, _raise_terminated)
                # None: not installed from Python; SIG_DFL is the closest we can put back.
                previous.append((signum, signal.SIG_DFL if old is None else old))
    except BaseException:
        _restore_signals(previous)
        raise

    def restore() -> None:
        _restore_signals(previous)

    return restore


def under_signals(run: Callable[[], int]) -> int:
    """`run()`'s exit status, or 128 + the number of a signal that ended it (130 for an
    interrupt), its handlers killed by then; the signal handlers are put back after. Off the
    main thread (an embedding harness), signals are left alone."""
    try:
        restore: Callable[[], None] | None = install_signal_handlers()
    except ValueError:
        restore = None
    try:
        return run()
    except (Interrupted, Terminated) as exc:
        return 128 + exc.signum
    except KeyboardInterrupt:
        return 130
    finally:
        if restore is not None:
            restore()


def _restore_signals(held: list[tuple[int, _SignalHandler]]) -> None:
    # Nested, so that a signal raising right after one handler is restored still lets the
    # other be restored.
    if not held:
        return
    signum, previous = held[-1]
    try:
        signal.signal(signum, previous)
    finally:
        _restore_signals(held[:-1])
