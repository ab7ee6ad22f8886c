"""What `agenthooks run` tells people on stderr: block reasons, warnings, the `-v` table.

stdout belongs to the host (one JSON object); everything here goes to stderr. The block reasons
come first and unprefixed: on exit 2, hosts show stderr to the agent as the reason. Text that
comes from configs or handlers has its control characters escaped (`escape`), so a
command cannot hide itself behind `\r` or clear the screen.
"""

from __future__ import annotations

from agenthooks.engine.call import skip_warning
from agenthooks.escape import printable

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import TextIO

if TYPE_CHECKING:
    from agenthooks.engine.call import EventResult
    from agenthooks.engine.dryrun import Plan
    from agenthooks.kinds.inprocess.call import HookOutcome
    from agenthooks.model.handlers import Answer, HookFile

PREFIX = "agenthooks: "
MAX_DIAGNOSTICS = 3  # per skipped file on stderr; `agenthooks validate` shows them all

TABLE_HEADERS = ("hook", "command", "status", "exit", "ms", "decision", "stderr")


def write_warnings(
    warnings: Sequence[str], skipped_files: Sequence[HookFile], stream: TextIO
) -> None:
    """One line per warning; a skipped file's line is followed by its next few errors."""
    files = {skip_warning(f): f for f in skipped_files}
    for warning in warnings:
        stream.write(f"{PREFIX}warning: {printable(warning)}\n")
        hook_file = files.get(warning)
        if hook_file is not None:
            errors = hook_file.errors
            # The first error is already on the warning line.
            for diagnostic in errors[1:MAX_DIAGNOSTICS]:
                stream.write(f"  {printable(str(diagnostic))}\n")
            if len(errors) > MAX_DIAGNOSTICS:
                stream.write(
                    f"  ... and {len(errors) - MAX_DIAGNOSTICS} more: "
                    f"agenthooks validate {hook_file.source.path}\n"
                )


def write_result(result: EventResult, stream: TextIO, *, verbose: bool = False,
                 markdown: frozenset[str] = frozenset()) -> None:
    """Everything about one run that is meant for people; `markdown` names the in-process
    hooks that are Markdown hook files (for the `-v` table's kind column)."""
    if result.error is not None:
        stream.write(f"{PREFIX}error: {printable(result.error)}\n")
    for reason in result.reasons:
        # Line breaks stay: a reason of several lines is several lines for the agent.
        lines = reason.rstrip("\n").split("\n")
        stream.write("\n".join(printable(line) for line in lines) + "\n")
    write_warnings(result.warnings, result.skipped_files, stream)
    if verbose:
        write_table(result.handlers, stream, result.hooks, markdown)
        stream.write(f"{PREFIX}{summary_line(result)}\n")


def _count(number: int, word: str) -> str:
    return f"{number} {word}{'s' if number != 1 else ''}"


def summary_line(result: EventResult) -> str:
    """`PreToolUse (Bash): 2 handlers, 1 in-process hook, blocked, exit 2`: what ran and what
    came of it (in-process hooks, Markdown and Python, counted when any ran)."""
    tool = f" ({result.tool})" if result.tool else ""
    parts = [_count(len(result.handlers), "handler")]
    if result.hooks:
        parts.append(_count(len(result.hooks), "in-process hook"))
    parts.append("blocked" if result.blocked else "not blocked")
    return f"{result.event}{tool}: {', '.join(parts)}, exit {result.exit_code}"


def write_plan(plan: Plan, stream: TextIO) -> None:
    write_warnings(plan.warnings, plan.skipped_files, stream)
    for path, why in plan.left_out:
        stream.write(printable(f"agenthooks: left out {path}: {why}") + "\n")


def _exit_cell(a: Answer) -> str:
    if a.exit_code is not None:
        return str(a.exit_code)
    return a.signal_name or "-"


def table_rows(answers: Sequence[Answer]) -> list[list[str]]:
    return [
        [
            printable(a.hook),
            printable(a.command),
            a.status,
            _exit_cell(a),
            f"{a.duration_ms:.0f}" if a.status != "skipped" else "-",
            a.decision or "",
            printable(a.first_stderr_line),
        ]
        for a in answers
    ]


def hook_rows(hooks: Sequence[HookOutcome], markdown: frozenset[str]) -> list[list[str]]:
    """The `-v` rows of in-process hooks: the command column says which kind (a Markdown
    hook, or a Python hook's phase), a failure shows as `error` with its message."""
    return [
        [
            printable(h.name),
            "(markdown)" if h.name in markdown else f"(python {h.phase})",
            "error" if h.failed else "ok",
            "-",
            f"{h.duration_ms:.0f}",
            (h.decision.word or "") if h.decision is not None else "",
            printable(h.error or ""),
        ]
        for h in hooks
    ]


def write_table(answers: Sequence[Answer], stream: TextIO, hooks: Sequence[HookOutcome] = (),
                markdown: frozenset[str] = frozenset()) -> None:
    """The `-v` table: each handler, then each in-process hook that ran (Markdown hooks,
    Python hooks, policies), each with its decision and time (folded at separators on a
    terminal, plain columns otherwise)."""
    if not answers and not hooks:
        stream.write(f"{PREFIX}no handler or hook ran\n")
        return
    from agenthooks.report.table import is_terminal, render_plain

    rows = table_rows(answers) + hook_rows(hooks, markdown)
    if not is_terminal(stream):
        render_plain(TABLE_HEADERS, rows, stream=stream)
        return
    from agenthooks.report.fold import render_folded, terminal_columns

    # Commands and paths fold at separators, never inside a word, as in `list`.
    render_folded(TABLE_HEADERS, rows, stream=stream, total=terminal_columns(stream))
