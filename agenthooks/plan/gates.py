"""A fail-closed gate wired on an event where its host cannot block, and an entry whose run
refuses its own words.

`agenthooks run EVENT --fail-closed` in a host's file says "deny when in doubt". On an event
whose answer the host documents as unable to stop anything (Claude Code's PostToolUse, Cursor's
stop, Copilot's sessionStart...), nothing agenthooks answers there stops the action, so the
gate is no gate. `validate` says so (rule `gate-cannot-block`), an error, and only where the
host's documentation says it cannot block (`model.capabilities`): an event the table does not
know, or knows only as "unknown", is never said.

`agenthooks run PreToolUse2` or `--host claud` stops with a usage error, exit 1, before it
reads a hook, on every call: most hosts read exit 1 as a failure that lets the call through,
so every gate behind the entry is off. `validate` says so (rule `run-refused`), an error.
"""

from __future__ import annotations

from agenthooks.model.capabilities import can_block
from agenthooks.model.events import find_row, row_of, word_of
from agenthooks.model.handlers import Diagnostic, Handler, HookFile
from agenthooks.model.hosts import host_name
from agenthooks.plan.recursion import command_errors, runs_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

RULE = "gate-cannot-block"
REFUSED = "run-refused"
FAIL_CLOSED = "--fail-closed"
USAGE_EXIT = 1  # what `agenthooks run` exits with on words it refuses (`errors.UsageError`)


def cannot_block(files: Sequence[HookFile]) -> Iterator[Diagnostic]:
    """An error at each fail-closed `agenthooks run` entry on an event its host cannot block."""
    return command_errors(files, RULE, why_not_a_gate)


def why_not_a_gate(handler: Handler) -> str | None:
    """Why a handler that declares itself a fail-closed gate gates nothing, or None."""
    itself, runs = runs_of(handler)
    if not itself or FAIL_CLOSED not in runs[0]:
        return None
    host = handler.dialect  # the host whose file holds the entry is the one that runs it
    row = row_of(host, handler.event)
    if row is None or can_block(host, row.id) is not False:
        return None
    name = host_name(host)
    return (f"`agenthooks run {handler.event} {FAIL_CLOSED}` is a gate, but {name} cannot "
            f"block on {handler.event} (`agenthooks hosts --host {host}`): whatever agenthooks "
            f"answers, the action goes on{_instead(host)}")


def refused(files: Sequence[HookFile]) -> Iterator[Diagnostic]:
    """An error at each `agenthooks run` entry whose event or `--host` the run refuses."""
    return command_errors(files, REFUSED, why_refused)


def why_refused(handler: Handler) -> str | None:
    """Why the `agenthooks run` a handler is stops before it reads a hook, or None."""
    itself, runs = runs_of(handler)
    if not itself:
        return None
    problem = refused_word(runs[0])
    if problem is None:
        return None
    from agenthooks.sources.reading.missing import native_reading

    host = handler.dialect
    return (f"agenthooks run refuses this entry ({problem}): every run stops with an error and "
            f"exits {USAGE_EXIT} before it reads a hook; "
            f"{native_reading(host, host_name(host), USAGE_EXIT)}")


def refused_word(words: Sequence[str]) -> str | None:
    """The event or `--host` word of a run's words that the run refuses, said; else None."""
    from agenthooks.model.eventnames import check_event
    from agenthooks.model.hosts import caller_error, host_ids
    from agenthooks.plan.recursion import option_values

    if words and not words[0].startswith("-"):
        try:
            check_event(words[0])
        except ValueError as exc:
            return str(exc)
    hosts = option_values(words, "--host")
    if hosts and hosts[-1] not in host_ids():
        return caller_error(hosts[-1]) or (
            f"--host {hosts[-1]!r} names no host agenthooks answers; choose from "
            f"{', '.join(host_ids())}")
    return None


def _instead(host: str) -> str:
    """Where a gate belongs: the host's word for the event before a tool call, if it blocks."""
    tool_pre = find_row("PreToolUse")
    word = word_of(host, tool_pre) if tool_pre is not None else None
    if word is None or can_block(host, "tool.pre") is not True:
        return ""
    return f"; put the gate on {word}, which can stop the call"
