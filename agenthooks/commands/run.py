"""`agenthooks run EVENT`: run the matching handlers on the payload from stdin, print one answer.

stdout carries exactly one JSON object (the merged answer, the `--report json` object or the
`--dry-run` plan); everything for people goes to stderr. Exit status: 2 when the answer blocks,
1 when a hooks.json was skipped for errors or agenthooks itself failed, else 0.
"""

from __future__ import annotations

import json
import sys
from typing import Any, NamedTuple

from agenthooks.api import EventResult, exit_status, failed_closed, load_hooks
from agenthooks.errors import AgentHooksError
from agenthooks.report.run import write_plan, write_result

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

    @property
    def closed(self) -> bool:
        """Whether agenthooks' own errors deny the call instead of exiting 1."""
        return self.fail_closed and self.event == "PreToolUse"


def read_stdin() -> bytes:
    """The payload bytes, untouched. A terminal is not waited on: it means an empty payload."""
    stdin = sys.stdin
    if stdin is None:  # started with stdin closed
        return b""
    try:
        if stdin.isatty():
            sys.stderr.write(TTY_NOTE)
            return b""
    except ValueError:  # a closed stream
        return b""
    buffer = getattr(stdin, "buffer", None)
    if buffer is not None:
        data: bytes = buffer.read()
        return data
    return stdin.read().encode()


def write_json(value: Any) -> None:
    """One JSON object and a newline on stdout, as UTF-8 whatever the locale says."""
    try:
        data = (json.dumps(value, ensure_ascii=False) + "\n").encode()
    except UnicodeEncodeError:  # a lone surrogate from a "\ud800" escape in some output
        data = (json.dumps(value) + "\n").encode()
    stdout = sys.stdout
    buffer = getattr(stdout, "buffer", None)
    if buffer is None:
        stdout.write(data.decode())
        stdout.flush()
        return
    stdout.flush()
    buffer.write(data)
    buffer.flush()


def emit(result: EventResult, *, report: str | None = None, verbose: bool = False) -> int:
    """Print a result (stderr first, then the one object on stdout) and return the exit code."""
    write_result(result, sys.stderr, verbose=verbose)
    sys.stderr.flush()
    write_json(result.to_report() if report == "json" else result.output)
    return result.exit_code


def deny_own_error(event: str, error: str, *, report: str | None = None) -> int:
    """`--fail-closed` on PreToolUse: agenthooks' own error denies the call (exit 2)."""
    return emit(failed_closed(event, error), report=report)


def run(options: RunOptions) -> int:
    try:
        payload = read_stdin()
        hooks = load_hooks(
            configs=options.configs, workspaces=options.workspaces, no_user=options.no_user
        )
        if options.dry_run:
            plan = hooks.plan(options.event, payload, tool=options.tool)
            write_plan(plan, sys.stderr)
            write_json(plan.to_json())
            return exit_status(False, plan.skipped_files)
        result = hooks.run(
            options.event,
            payload,
            tool=options.tool,
            fail_closed=options.fail_closed,
            default_decision=options.default_decision,
        )
    except AgentHooksError as exc:
        if not options.closed or options.dry_run:
            raise
        return deny_own_error(options.event, str(exc), report=options.report)
    return emit(result, report=options.report, verbose=options.verbose)
