"""Each in-process hook call in a child process of its own, so that the run always answers.

An in-process hook (a `--python` hook, a Markdown hook's Starlark) can end the process that
calls it in ways no `except` catches: `os._exit(0)`, a SIGSEGV inside starlark-rust on deeply
nested data, a SIGABRT on a failed allocation. It can also hold its thread inside one C call
(a catastrophic regex, one Starlark builtin) far past its time limit, write to file
descriptor 1, or leave threads and processes behind. `agenthooks run` therefore calls each one
(its `when` and the hook) in a forked child:

- the child's fd 1 is the run's stderr: whatever the hook prints, or a process it starts
  without capture, never reaches the answer on stdout;
- the child sends its outcome over a pipe (marshal: plain data, no import on either side) and
  ends with `os._exit`, so threads the hook left behind end with it;
- the parent waits at most the hook's timeout plus `GRACE`, then kills the child's process
  group: whatever the hook was doing, and whatever it started in that group, ends. A Markdown
  hook's child is given that much CPU time rather than wall time (`CpuBudget`): its Starlark
  only computes, and on a busy machine a process also waits for a CPU;
- a child that dies, exits or overruns without an outcome is the hook's failure, named after
  the hook, which the engine turns into a deny (PreToolUse, failing closed) or a warning.

The child is a fork of the already loaded interpreter: no new interpreter starts and nothing
the run has imported is imported again. Starlark (starlark-rust, about a third of a Markdown
run) is loaded by the child that runs it, never by the run itself: the fork copies a smaller
process, and a call whose Markdown hooks do not apply never loads it. A Markdown hook's child
also gets a bound on its data size (`STARLARK_MEMORY`): starlark-rust has no heap limit of its
own.

Markdown hooks of one chain share a child (`one_child_for`): their Starlark can reach no file,
process, thread or state of the process, so one hook cannot change what the next one runs in,
and a fork per hook would cost several times the hook itself. The child answers the hooks in
turn; before each, it is sent the tool's arguments when an earlier hook's modify changed them.
A hook whose child dies, exits, overruns or answers nonsense fails as above, its child is
killed, and the next hook gets a new one. Python hooks keep a child each. A Markdown hook whose
`when` is answered without Starlark (`sources.markdown.when`) and says no gets no child at all: a
call that none of them applies to starts no process and loads no Starlark.

Only `agenthooks run` isolates (`engine.call.isolate_in_process_hooks`); the Python API calls
hooks inline in the caller's process, whose threads and state they may share.
"""

from __future__ import annotations

import marshal
import os
import sys
import time

from agenthooks._lean.suppress import suppress
from agenthooks.executor.descendants import die_with_parent, leave_watch, reap, watch_forked
from agenthooks.kinds.inprocess.call import HookOutcome, call_hook
from agenthooks.model.decision import Decision
from agenthooks.model.handlers import signal_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    import signal
    from collections.abc import Sequence
    from typing import Any

    from agenthooks.kinds.inprocess.context import Context
    from agenthooks.kinds.inprocess.hookspec import PythonHook
else:
    import _signal as signal  # as in `executor.records`: the numbers without `enum`

# How long past its timeout a hook's child may run before it is killed: the hook's own
# deadline (Starlark's cancellation, asyncio's) reports first when it can.
GRACE = 0.25
# How long, in wall time past its CPU budget, a Markdown hook's child that has not used the
# budget is still waited for: a child blocked without computing (which its Starlark cannot do)
# is killed then all the same.
CPU_WAIT = 10.0
# The data segment a Markdown hook's child may add (RLIMIT_DATA), beyond what it had at fork.
STARLARK_MEMORY = 1 << 30
_HEADER = 8  # the outcome's length, before it on the pipe
_MESSAGE_LIMIT = 16 << 20  # an outcome past it is not read: the hook fails
_SIGNALS_OF_A_RUN = ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGPIPE")


def call_isolated(hook: PythonHook, ctx: Context, *, looped: bool) -> HookOutcome | None:
    """`kinds.inprocess.call.call_hook` in a forked child; what went wrong there is the hook's
    failure."""
    if _does_not_apply(hook, ctx):
        return None  # as call_hook answers for a `when` that says no
    if _shared.serves(hook):
        return _shared.call(hook, ctx, looped)
    _before_fork()
    start = time.monotonic()
    parent = os.getpid()
    try:
        read_end, write_end = os.pipe()
    except OSError as exc:  # out of file descriptors
        return _failure(hook, f"could not start its process: {exc}", start)
    try:
        pid = os.fork()
    except OSError as exc:  # out of processes or memory
        os.close(read_end)
        os.close(write_end)
        return _failure(hook, f"could not start its process: {exc}", start)
    if pid == 0:  # the child: never returns
        os.close(read_end)
        _child(hook, ctx, looped, write_end, parent)
    os.close(write_end)
    # A Python hook may start processes: a SIGKILLed run takes them too (a Markdown hook's
    # Starlark can start none, so its shared child is not noted).
    watch_forked(pid)
    try:
        with suppress(OSError):  # also done by the child: whichever runs first
            os.setpgid(pid, pid)
        budget = CpuBudget(pid, hook.timeout + GRACE, start, 0.0) if _is_starlark(hook) else None
        message, timed_out = _receive(read_end, start + hook.timeout + GRACE, budget)
    finally:
        os.close(read_end)
        status = _end(pid)
    if message is not None:
        readable, found = _decode(message, hook, ctx)
        if readable:
            return found
    return _failure(hook, _why(hook, status, timed_out, message), start)


class _Shared:
    """The child the Markdown hooks of one chain share (`one_child_for`), started at the first
    of them to run."""

    def __init__(self) -> None:
        self.hooks: tuple[PythonHook, ...] = ()
        self.ctx: Context | None = None
        self.pid = 0
        self.requests = -1  # the write end of the child's requests
        self.replies = -1  # the read end of its outcomes
        self.args: object = None  # the arguments the child's context holds

    def serves(self, hook: PythonHook) -> bool:
        return any(hook is known for known in self.hooks)

    def call(self, hook: PythonHook, ctx: Context, looped: bool) -> HookOutcome | None:
        start = time.monotonic()
        if self.pid and ctx is not self.ctx:
            self.end()
        if not self.pid:
            problem = self.start(hook, ctx)
            if problem is not None:
                return _failure(hook, f"could not start its process: {problem}", start)
        index = next(i for i, known in enumerate(self.hooks) if known is hook)
        message, timed_out, status = None, False, 0
        used = cpu_seconds(self.pid)  # what the child had used for the hooks before
        if self.send(index, ctx, looped):
            budget = CpuBudget(self.pid, hook.timeout + GRACE, start, used)
            message, timed_out = _receive(self.replies, start + hook.timeout + GRACE, budget)
        if message is not None:
            readable, found = _decode(message, hook, ctx)
            if readable:
                return found
        status = self.end()
        return _failure(hook, _why(hook, status, timed_out, message), start)

    def start(self, hook: PythonHook, ctx: Context) -> OSError | None:
        _before_fork()
        parent = os.getpid()
        fds: list[int] = []
        try:
            fds.extend(os.pipe())
            fds.extend(os.pipe())
            pid = os.fork()
        except OSError as exc:  # out of file descriptors, processes or memory
            for fd in fds:
                os.close(fd)
            return exc
        request_read, request_write, reply_read, reply_write = fds
        if pid == 0:  # the child: never returns
            os.close(request_write)
            os.close(reply_read)
            _serve(self.hooks, ctx, request_read, reply_write, parent)
        os.close(request_read)
        os.close(reply_write)
        with suppress(OSError):  # also done by the child: whichever runs first
            os.setpgid(pid, pid)
        self.pid, self.requests, self.replies = pid, request_write, reply_read
        self.ctx, self.args = ctx, ctx.tool_args
        return None

    def send(self, index: int, ctx: Context, looped: bool) -> bool:
        """Ask the child for one hook's outcome; False when it cannot be asked."""
        from agenthooks.kinds.inprocess.frozen import thaw

        changed = ctx.tool_args is not self.args
        try:
            request = marshal.dumps((index, looped, changed,
                                     thaw(ctx.tool_args) if changed else None))
            _send(self.requests, request)
        except (OSError, ValueError):  # the child is gone, or arguments marshal cannot carry
            return False
        self.args = ctx.tool_args
        return True

    def end(self) -> int:
        """Kill the child's group and reap it; its wait status (0 when there was none)."""
        if not self.pid:
            return 0
        for fd in (self.requests, self.replies):
            with suppress(OSError):
                os.close(fd)
        status = _end(self.pid)
        self.pid, self.requests, self.replies, self.ctx, self.args = 0, -1, -1, None, None
        return status


_shared = _Shared()


def one_child_for(hooks: Sequence[PythonHook]) -> OneChild:
    """While the chain of `hooks` runs (`with one_child_for(chain):`), its Markdown hooks share
    one child; it is killed when the chain ends, however it ends."""
    return OneChild(hooks)


class OneChild:
    """`one_child_for`'s context manager (a class: `contextlib` is not on the run path)."""

    def __init__(self, hooks: Sequence[PythonHook]) -> None:
        self.hooks = hooks

    def __enter__(self) -> None:
        _shared.end()
        _shared.hooks = tuple(hook for hook in self.hooks if _is_starlark(hook))

    def __exit__(self, *exc_info: object) -> None:
        _shared.end()
        _shared.hooks = ()


def _is_starlark(hook: PythonHook) -> bool:
    return type(hook.fn).__name__ == "MarkdownHook"


def _does_not_apply(hook: PythonHook, ctx: Context) -> bool:
    """A Markdown hook whose `when` is known to say no without Starlark (`sources.markdown.when`):
    no process starts for it, and a call none of whose hooks applies loads no Starlark."""
    known = getattr(hook.fn, "known_when", None)
    if hook.when is None or not _is_starlark(hook) or not callable(known):
        return False
    try:
        return bool(known(ctx) is False)
    except Exception:  # its process meets it again, and fails as the hook's own failure
        return False


def _failure(hook: PythonHook, error: str, start: float) -> HookOutcome:
    return HookOutcome(hook.name, hook.phase, None, error, (time.monotonic() - start) * 1000.0)


def _before_fork() -> None:
    """Output flushed (`_flush`), and `_ctypes` loaded: every child needs it first thing
    (`die_with_parent`), and so does the run itself once it starts a handler (the executor's
    subreaper). Loaded here, the fork shares it and no child loads it again (a C extension's
    load is about a tenth of a Markdown hooks' process)."""
    _flush()
    with suppress(ImportError):
        __import__("_ctypes")


def _flush() -> None:
    """Nothing buffered before the fork may be written twice (once by the child)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass


class CpuBudget:
    """A Markdown hook's time limit, in the CPU time its child spends on the call.

    A trivial hook whose child waited for a CPU on a busy machine (an agent's parallel tool
    calls, a shared CI runner) used to pass a wall-clock deadline and be killed: a deny, or a
    gate skipped, for the load alone. The wall-clock deadline still comes first; when it
    passes, `left` says how much longer to wait: the CPU time the child has not used yet, and
    never past `CPU_WAIT` after the budget in wall time. Where `/proc` cannot say how much CPU
    the child used, nothing is left: the wall-clock deadline holds as it is.
    """

    __slots__ = ("budget", "last", "pid", "used")

    def __init__(self, pid: int, budget: float, start: float, used: float | None) -> None:
        self.pid = pid
        self.budget = budget
        self.used = used  # the child's CPU time when the call started
        self.last = start + budget + CPU_WAIT

    def left(self) -> float:
        """Seconds more to wait for the child: 0 once its budget is spent."""
        now = cpu_seconds(self.pid)
        if now is None or self.used is None:
            return 0.0
        unused = self.budget - (now - self.used)
        wall = self.last - time.monotonic()
        if unused <= 0 or wall <= 0:
            return 0.0
        # The clock ticks in hundredths: a few left are worth one more look, not a busy loop.
        return min(max(unused, 0.02), wall)


_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_seconds(pid: int) -> float | None:
    """The CPU time (user and system) process `pid` has used, or None where /proc cannot say."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            # After the name in parentheses (which may hold anything): state is the first
            # field, utime the 12th and stime the 13th.
            fields = stat.read().rsplit(b")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / _TICKS
    except (OSError, IndexError, ValueError):
        return None


def _receive(fd: int, deadline: float,
             budget: CpuBudget | None = None) -> tuple[bytes | None, bool]:
    """The child's whole message, or None; and whether the deadline passed first (for a
    `budget`, once the child has also spent it)."""
    import select

    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLHUP)
    chunks: list[bytes] = []
    size = 0
    wanted: int | None = None
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            more = 0.0 if budget is None else budget.left()
            if more <= 0:
                return None, True
            deadline = time.monotonic() + more
            continue
        if not poller.poll(left * 1000.0):
            continue
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return None, False  # the child ended without a whole message
        chunks.append(chunk)
        size += len(chunk)
        if wanted is None and size >= _HEADER:
            wanted = _HEADER + int.from_bytes(b"".join(chunks)[:_HEADER], "big")
            if wanted > _HEADER + _MESSAGE_LIMIT:
                return b"", False  # not read: an outcome that cannot be read
        if wanted is not None and size >= wanted:
            return b"".join(chunks)[_HEADER:wanted], False


def _end(pid: int) -> int:
    """Kill the child's group (the child and what it started there) and reap the child."""
    with suppress(OSError):  # already gone
        os.killpg(pid, signal.SIGKILL)
    with suppress(OSError):  # not a group leader yet, or already gone
        os.kill(pid, signal.SIGKILL)
    # It has sent its outcome and called `os._exit`, or ended, or was just killed: the wait
    # is short.
    return reap(pid)


def _why(hook: PythonHook, status: int, timed_out: bool, message: bytes | None) -> str:
    if timed_out:
        limit_ms = getattr(getattr(hook.fn, "front", None), "timeout_ms", None)
        if isinstance(limit_ms, int):  # a Markdown hook: its own words for its limit
            return (f"timed out: one call ran past timeout_ms ({limit_ms} ms) and its "
                    f"process was killed after {hook.timeout + GRACE:.2f} s of CPU time")
        return f"timed out after {hook.timeout:g} s (its process was killed)"
    if message is not None:
        return f"sent an outcome that cannot be read (or larger than {_MESSAGE_LIMIT >> 20} MiB)"
    if os.WIFSIGNALED(status):
        return f"crashed: its process was killed by {signal_name(os.WTERMSIG(status))}"
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else status
    return f"ended its process (exit status {code}) before answering"


# --- the child -------------------------------------------------------------------------------


def _child(hook: PythonHook, ctx: Context, looped: bool, fd: int, parent: int) -> None:
    """Run the hook and send its outcome; whatever happens, end with `os._exit`."""
    code = 0
    try:
        _become_child(hook, parent)
        outcome = _run(hook, ctx, looped)
        _send(fd, _encode(outcome, ctx))
    except BaseException:  # nothing may escape into the parent's code in this process
        code = 70
    finally:
        _flush()
        os._exit(code)


def _serve(hooks: tuple[PythonHook, ...], ctx: Context, requests: int, replies: int,
           parent: int) -> None:
    """The shared child: each request's hook, its outcome sent back, until the parent closes
    the requests (or kills it); whatever happens, end with `os._exit`."""
    code = 0
    try:
        _become_child(hooks[0], parent)
        while True:
            request = _read_message(requests)
            if request is None:
                break
            index, looped, changed, args = marshal.loads(request)
            if changed:
                from agenthooks.kinds.inprocess.frozen import freeze

                ctx.tool_args = freeze(args)
            outcome = _run(hooks[index], ctx, looped)
            _send(replies, _encode(outcome, ctx))
            _flush()
    except BaseException:  # nothing may escape into the parent's code in this process
        code = 70
    finally:
        _flush()
        os._exit(code)


def _read_message(fd: int) -> bytes | None:
    """One length-prefixed message; None at end-of-file before it starts."""
    header = _read_exactly(fd, _HEADER)
    if header is None:
        return None
    body = _read_exactly(fd, int.from_bytes(header, "big"))
    if body is None:
        raise EOFError("the request ended early")
    return body


def _read_exactly(fd: int, size: int) -> bytes | None:
    chunks: list[bytes] = []
    left = size
    while left:
        chunk = os.read(fd, min(left, 1 << 16))
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


_hook_process = [False]


def in_hook_process() -> bool:
    """Whether this process is a hook's own child: agenthooks owns it whole (its threads, its
    modules) until it ends with `os._exit`."""
    return _hook_process[0]


def _become_child(hook: PythonHook, parent: int) -> None:
    """Its own process group, death with the parent, default signal handling, fd 1 on
    stderr, a Starlark bound."""
    _hook_process[0] = True
    with suppress(OSError):
        os.setpgid(0, 0)
    leave_watch()  # the parent's: its pipe must end when the parent dies
    # A parent killed outright (SIGKILL at a host's timeout) cannot kill this process: the
    # kernel does (Linux), so a hook that never returns does not outlive the run.
    if die_with_parent() and os.getppid() != parent:
        os._exit(70)  # the parent died before the request took effect
    for name in _SIGNALS_OF_A_RUN:
        number = getattr(signal, name, None)
        if number is not None and signal.getsignal(number) != signal.SIG_IGN:
            signal.signal(number, signal.SIG_DFL)
    os.dup2(2, 1)  # print(), os.write(1, ...), children without capture: all to stderr
    if type(hook.fn).__name__ == "MarkdownHook":
        _bound_memory()


def _bound_memory() -> None:
    try:
        import resource

        with open("/proc/self/statm", "rb") as statm:  # pages: size resident shared text lib data
            used = int(statm.read().split()[5]) * os.sysconf("SC_PAGE_SIZE")
        limit = used + STARLARK_MEMORY
        _, hard = resource.getrlimit(resource.RLIMIT_DATA)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_DATA, (limit, hard))
    except (ImportError, OSError, ValueError):  # not on this platform: the deadline still holds
        pass


def _run(hook: PythonHook, ctx: Context, looped: bool) -> HookOutcome | None:
    """The hook's outcome, every exception its failure (`contain=True`)."""
    step = call_hook(hook, ctx, looped=looped, contain=True)
    if not looped:
        from agenthooks.drive import finish

        return finish(step, "an in-process hook")
    import asyncio

    # The fork happened inside the parent's running loop: this process starts its own.
    asyncio.events._set_running_loop(None)
    return asyncio.run(step)


def _send(fd: int, data: bytes) -> None:
    message = len(data).to_bytes(_HEADER, "big") + data
    view = memoryview(message)
    while view:
        view = view[os.write(fd, view):]


def _encode(outcome: HookOutcome | None, ctx: Context) -> bytes:
    """The outcome as plain data; a value that is not plain data is the hook's failure."""
    if outcome is None:
        return marshal.dumps(None)
    decision = outcome.decision
    fields = None if decision is None else tuple(decision)
    try:
        return marshal.dumps((tuple(outcome[:2]), fields, tuple(outcome[3:]), _state(ctx)))
    except ValueError:
        pass
    try:
        return marshal.dumps((tuple(outcome[:2]), fields, (*outcome[3:5], ()), None))
    except ValueError:
        error = "returned a value that is not plain data (dicts, lists, text, numbers)"
        return marshal.dumps((tuple(outcome[:2]), None, (error, outcome.duration_ms, ()), None))


def _state(ctx: Context) -> tuple[dict[str, Any], ...] | None:
    """What the hook wrote to `ctx.state` (this call's scope, its turn's and session's)."""
    own = ctx._state
    if own is None:
        return None
    turn = ctx.turn
    return own.own(), turn.state.own(), turn.session.state.own()


def _decode(message: bytes, hook: PythonHook, ctx: Context) -> tuple[bool, HookOutcome | None]:
    """(whether it could be read, the child's outcome), its state written back into `ctx`."""
    try:
        found = marshal.loads(message)
        if found is None:
            return True, None
        (name, phase), fields, (error, duration, records), state = found
        decision = None if fields is None else Decision(*fields)
        outcome = HookOutcome(name, phase, decision, error, duration, tuple(records))
    except (ValueError, TypeError, EOFError):
        return False, None
    if state is not None:
        _write_back(ctx, state)
    return True, outcome


def _write_back(ctx: Context, state: tuple[dict[str, Any], ...]) -> None:
    turn = ctx.turn
    for scope, values in zip((ctx.state, turn.state, turn.session.state), state, strict=False):
        if isinstance(values, dict):
            for key, value in values.items():
                scope.set(key, value)
