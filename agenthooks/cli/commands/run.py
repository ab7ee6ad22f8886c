"""`agenthooks run EVENT`: run the matching handlers on the payload from stdin, print one answer.

stdout carries exactly one JSON object (the merged answer, the `--report json` object or the
`--dry-run` plan); everything for people goes to stderr. Exit status: 2 when the answer blocks,
0 when it does not (a skipped hooks.json included: it is named in the answer), 1 when
agenthooks itself failed and produced no answer (never under `--fail-closed` on PreToolUse,
where every failure is a deny). With `--host`, the host's writer (`hosts.writers`) says the
answer in that host's words and chooses the exit status: Claude Code and Gemini CLI read a
block from JSON on exit 0.
"""

from __future__ import annotations

import os
import sys
import time

from agenthooks._lean.records import NamedTuple
from agenthooks.api import Hooks
from agenthooks.engine.call import EventResult
from agenthooks.engine.runner import (
    exit_status,
    failed_closed,
    untrusted_deny,
    untrusted_result,
)
from agenthooks.errors import AgentHooksError, describe
from agenthooks.escape import printable
from agenthooks.model.payload import dumps
from agenthooks.plan.recursion import check_depth, enter, leave
from agenthooks.report.run import write_plan, write_result
from agenthooks.sources.load import load_all

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

TTY_NOTE = (
    "agenthooks: note: stdin is a terminal, so the payload is {}; "
    "pipe one in: agenthooks run EVENT < payload.json\n"
)


class RunOptions(NamedTuple):
    """The options of `agenthooks run`, as parsed by `agenthooks.cli.run_args`.

    A NamedTuple rather than a frozen dataclass: defining one costs a tenth as much at import.
    """

    event: str
    configs: tuple[str, ...] = ()
    workspaces: tuple[str, ...] = ()
    no_user: bool = False
    tool: str | None = None
    fail_closed: bool = False
    default_decision: str | None = None
    report: str | None = None  # "json" or None
    dry_run: bool = False
    verbose: bool = False
    python: tuple[str, ...] = ()  # MODULE:ATTR, in order
    require_trust: bool = False
    audit: str | None = None  # the audit log's absolute path
    audit_payloads: bool = False
    host: str | None = None  # whose words the answer is written in; None: Antigravity's
    other_hosts: bool = False  # under a host, also run other hosts' settings files
    given_event: str | None = None  # EVENT as typed, before aliases were resolved
    dialect: str | None = None  # --dialect: read every named file in it, discover only it
    record: str | None = None  # --record: the folder each payload and answer is written to
    redact: tuple[str, ...] = ()  # --redact: regexes the recording replaces, besides its own

    @property
    def closed(self) -> bool:
        """Whether agenthooks' own errors deny the call instead of exiting 1."""
        return self.fail_closed and self.event == "PreToolUse"


def read_stdin(*, note: bool = True) -> bytes:
    """The payload bytes, untouched. A terminal is not waited on: it means an empty payload
    (`note`: say so on stderr, where a payload was expected)."""
    stdin = sys.stdin
    if stdin is None:  # started with stdin closed
        return b""
    try:
        if stdin.isatty():
            if note:
                sys.stderr.write(TTY_NOTE)
            return b""
    except ValueError:  # a closed stream
        return b""
    buffer = getattr(stdin, "buffer", None)
    if buffer is not None:
        data: bytes = buffer.read()
        return data
    return stdin.read().encode()


class OutputError(AgentHooksError):
    """stdout is closed or full: no answer can reach the host."""


def write_json(value: Any) -> None:
    """One strict JSON object and a newline on stdout, as UTF-8 whatever the locale says."""
    data = (dumps(value) + "\n").encode()
    try:
        write_out(data)
    except (OSError, ValueError) as exc:  # EPIPE, ENOSPC, a closed stream
        raise OutputError(f"cannot write the answer to stdout: {exc}") from None


def write_text(text: str) -> None:
    """The answer of a host that reads text (`HostAnswer.text`), as UTF-8; nothing for ""."""
    if not text:
        return
    try:
        write_out(text.encode("utf-8", "surrogateescape"))
    except (OSError, ValueError) as exc:
        raise OutputError(f"cannot write the answer to stdout: {exc}") from None


# Where the answer goes when it is not fd 1 (`answer_to`); None: sys.stdout.
_answer_fd: int | None = None


def answer_to(fd: int) -> None:
    """Write every answer of this process to `fd` from now on, not to stdout.

    A process that loads `--python` modules (`cli.keeper`'s child) points fd 1 and
    `sys.stdout` at stderr, so that what those modules print, at any time and from any
    thread, never reaches the host; the answer alone goes down `fd`.
    """
    global _answer_fd
    _answer_fd = fd


def write_out(data: bytes) -> None:
    """`data` where the answer goes: stdout, or the descriptor given to `answer_to`."""
    if _answer_fd is None:
        _write_stdout(data)
        return
    view = memoryview(data)
    while view:
        view = view[os.write(_answer_fd, view):]


def _write_stdout(data: bytes) -> None:
    stdout = sys.stdout
    if stdout is None:
        raise ValueError("stdout is closed")
    buffer = getattr(stdout, "buffer", None)
    if buffer is None:
        stdout.write(data.decode())
        stdout.flush()
        return
    stdout.flush()
    buffer.write(data)
    buffer.flush()


def emit(
    result: EventResult, *, report: str | None = None, verbose: bool = False,
    host: str | None = None, given_event: str | None = None,
    markdown: frozenset[str] = frozenset(),
) -> int:
    """Print a result (stderr first, then the one object on stdout) and return the exit code.

    `host` names the writer of the answer (`hosts.writers`); None prints the engine's own.
    A result that blocks exits 2 even when stdout cannot take it: the reasons are on stderr.
    `markdown`: the names of the Markdown hooks among the in-process hooks (for `-v`).
    """
    say(lambda stream: write_result(result, stream, verbose=verbose, markdown=markdown))
    output, code = result.output, result.exit_code
    if host is not None and report != "json":
        output, code = host_answer(result, host, given_event)
    try:
        if isinstance(output, str):  # a host that reads text (`HostAnswer.text`)
            write_text(output)
        else:
            write_json(result.to_report() if report == "json" else output)
    except OutputError:
        if not result.blocked:
            raise
        return 2  # exit 2 alone says "blocked" to every host
    return code


def host_answer(result: EventResult, host: str, given_event: str | None) -> tuple[Any, int]:
    """The answer and exit status in the words of `host` (its writer is imported only now)."""
    from agenthooks.hosts.writers import host_event, writer

    word = host_event(host, result.event, given_event)
    answer = writer(host)(result.as_verdict(), word)
    if result.blocked or result.updated_args is not None:
        for unheeded in unheeded_by(host, result, word):
            say(lambda stream, said=unheeded: stream.write(f"agenthooks: warning: {said}\n"))
    return answer.output if answer.text is None else answer.text, answer.exit_code


def unheeded_by(host: str, result: EventResult, word: str) -> list[str]:
    """What the answer asks of `host` on its event that the host cannot do there, where its
    documentation or code says so (`model.capabilities`): a block that stops nothing, new
    arguments the call never gets. A gate that cannot act is said on every run, not only by
    `explain`."""
    from agenthooks.model.capabilities import can_block, can_rewrite
    from agenthooks.model.events import find_row
    from agenthooks.model.hosts import host_name

    row = find_row(result.event)
    if row is None:
        return []
    found = []
    where = f"(`agenthooks hosts --host {host}`)"
    if result.blocked and can_block(host, row.id) is False:
        found.append(f"a hook blocks {word}, but {host_name(host)} cannot block there "
                     f"{where}: the action goes on")
    if result.updated_args is not None and not result.blocked \
            and can_rewrite(host, row.id) is False:
        found.append(f"a hook rewrites the arguments of {word}, but {host_name(host)} cannot "
                     f"rewrite them there {where}: the call runs as the agent wrote it")
    return found


def say(write: Any) -> None:
    """Write to stderr; a closed stderr must not change the answer."""
    stream = sys.stderr
    if stream is None:
        return
    try:
        write(stream)
        stream.flush()
    except (OSError, ValueError):
        pass


def deny_own_error(
    event: str, error: str, *, report: str | None = None, host: str | None = None
) -> int:
    """`--fail-closed` on PreToolUse: agenthooks' own error denies the call (exit 2)."""
    return emit(failed_closed(event, error), report=report, host=host)


def load_python(hooks: Hooks, spec: str) -> Hooks:
    """`--python MODULE:ATTR`: a `Hooks` registry merged in, or `register(hooks)` called."""
    from agenthooks.cli.commands.python_hooks import load_python_hooks

    return load_python_hooks(hooks, spec)


def run(options: RunOptions) -> int:
    started = time.time()
    clock = time.perf_counter()
    payload = b""
    hooks: Hooks | None = None
    try:
        check_depth(os.environ)
        payload = read_stdin()
        loaded = load_all(configs=options.configs, workspaces=options.workspaces,
                          no_user=options.no_user, require_trust=options.require_trust,
                          dialect=options.dialect, event=options.event)
        hooks = Hooks.from_loaded(loaded, host=options.host, other_hosts=options.other_hosts)
        untrusted = loaded.untrusted
        for spec in options.python:
            hooks = load_python(hooks, spec)
        empty = nothing_to_run(options, hooks)
        if options.dry_run:
            plan = hooks.plan(options.event, payload, tool=options.tool)
            write_plan(plan, sys.stderr)
            write_json(plan.to_json())
            return exit_status(False)
        result = decide(options, hooks, payload, untrusted, empty)
    except AgentHooksError as exc:
        if not options.closed or options.dry_run:
            raise
        result = failed_closed(options.event, str(exc))
    try:
        return emit(result, report=options.report, verbose=options.verbose, host=options.host,
                    given_event=options.given_event,
                    markdown=markdown_of(hooks) if options.verbose else frozenset())
    finally:  # after the answer: the host is not kept waiting on the log's lock
        if options.audit is not None:
            audit(options, result, payload, hooks, started, clock)
        if options.record is not None:
            record(options, result, payload, hooks)


def decide(options: RunOptions, hooks: Hooks, payload: bytes, untrusted: tuple[str, ...],
           empty: Empty | None) -> EventResult:
    """Run the event's hooks, their handlers marked one run deeper (`plan.recursion`); what
    was left out (untrusted workspaces, no hook file at all) is named in the answer."""
    if options.closed:
        denied = untrusted_deny(options.event, hooks, untrusted)
        if denied is None and empty is not None and empty.misplaced:
            # A gate in a place agenthooks never reads is a gate skipped: as a hooks.json with
            # errors is, it denies under fail-closed.
            denied = failed_closed(options.event, empty.notice)
        if denied is not None:
            return denied
    previous = enter(os.environ)
    try:
        result = hooks.run(options.event, payload, tool=options.tool,
                           fail_closed=options.fail_closed,
                           default_decision=options.default_decision)
    finally:
        leave(os.environ, previous)
    result = untrusted_result(result, untrusted)
    if empty is not None and options.host is not None:
        result = untrusted_result(result, [f"warning: {empty.notice}"])
    return result


class Empty(NamedTuple):
    """A run with no hook to run: why, and whether a hook file sits where none is read."""

    notice: str
    misplaced: bool


def nothing_to_run(options: RunOptions, hooks: Hooks) -> Empty | None:
    """When the run has no hook at all (no file, or only files its host leaves out) and was
    named none: say so once on stderr, naming any hook file in a place agenthooks never reads
    (`sources.nearmiss`). Looked for only then, so a run with hooks pays nothing."""
    if (options.configs or hooks.python_hooks or hooks.shell_hooks or hooks.skipped_files
            or hooks.notes or len(hooks.left_out) < len(hooks.files)):
        return None
    from agenthooks.sources.nearmiss import near_misses_in, near_misses_upward

    if options.workspaces:
        misses = [m for w in options.workspaces for m in near_misses_in(w)]
    else:
        misses = near_misses_upward(os.getcwd())
    what = "no hook file found" if not hooks.files else "no hook to run (" + "; ".join(
        f"{f.source.path}: {why}" for f, why in hooks.left_out) + ")"
    if misses:
        more = f" (and {len(misses) - 1} more: agenthooks validate)" if len(misses) > 1 else ""
        notice = f"{what}; {misses[0].describe()}{more}"
    else:
        notice = f"{what}: nothing ran (agenthooks init sets up a workspace)"
    if not (misses and options.closed and not options.dry_run):  # else the deny says it
        say(lambda stream: stream.write(f"agenthooks: warning: {printable(notice)}\n"))
    return Empty(notice, bool(misses))


def markdown_of(hooks: Hooks | None) -> frozenset[str]:
    """The names of the registered hooks that are Markdown hook files."""
    if hooks is None:
        return frozenset()
    from agenthooks.features.audit import markdown_names

    return markdown_names(hooks.python_hooks)


def audit(options: RunOptions, result: EventResult, payload: bytes, hooks: Hooks | None,
          started: float, clock: float) -> None:
    """Append the event's record to the audit log; a failure is a warning, nothing more."""
    assert options.audit is not None
    try:
        from agenthooks.features.audit import make_record, markdown_names, write_audit

        record = make_record(
            result, payload, workspace=workspace_of(options, hooks), started=started,
            ms=(time.perf_counter() - clock) * 1000.0,
            markdown=markdown_names(hooks.python_hooks) if hooks is not None else frozenset(),
            include_payload=options.audit_payloads,
        )
        problem = write_audit(options.audit, record)
    except Exception as exc:  # a log never changes an answer, whatever went wrong
        problem = f"cannot write the audit log {options.audit}: {describe(exc)}"
    if problem is not None:
        say(lambda stream: stream.write(f"agenthooks: warning: {problem}\n"))


def record(options: RunOptions, result: EventResult, payload: bytes,
           hooks: Hooks | None) -> None:
    """Write the payload and its answer as a fixture file (`testing.capture`); a failure is
    a one-line warning, nothing more: the answer is already out and stays what it was."""
    assert options.record is not None
    try:
        from agenthooks.features.fixtures.capture import Recorded, record_run

        run = Recorded(event=options.given_event or options.event, host=options.host,
                       tool=options.tool, workspace=workspace_of(options, hooks),
                       fail_closed=options.fail_closed, other_hosts=options.other_hosts,
                       redact=options.redact)
        record_run(options.record, run, payload, result)
    except Exception as exc:  # a recording never changes an answer, whatever went wrong
        problem = f"cannot record the payload in {options.record}: {describe(exc)}"
        say(lambda stream: stream.write(f"agenthooks: warning: {printable(problem)}\n"))


def workspace_of(options: RunOptions, hooks: Hooks | None) -> str:
    """The run's workspace: `--workspace`, else the one discovery used, else the cwd."""
    if options.workspaces:
        return os.path.realpath(options.workspaces[0])
    if hooks is not None:
        for hook_file in (*hooks.files, *hooks.skipped_files):
            return hook_file.source.workspace
    return os.path.realpath(os.getcwd())


def deny_anything(
    event: str, exc: BaseException, *, report: str | None = None, host: str | None = None
) -> int:
    """The last line of defence under fail-closed: any failure at all denies (exit 2).

    When not even the deny can be printed, the reason goes to stderr and the exit is still 2.
    """
    message = describe(exc)
    try:
        return deny_own_error(event, message, report=report, host=host)
    except Exception:  # stdout closed or full: exit 2 alone says "deny" to every host
        say(lambda stream: stream.write(f"agenthooks: error: fail-closed: {message}\n"))
        return 2

