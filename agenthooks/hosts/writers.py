"""Which module writes the final answer in a host's own words (`agenthooks run --host HOST`).

One row per host: a new host is one module with a `write(result, event)` function and one
line here. A writer is imported only when `--host` (or `default_host` in the user config)
names it, so a run that names no host imports none of them.

    write(result: EventResult, event: str) -> HostAnswer

`event` is the host's own name for the event (`host_event`): Claude Code's `hookEventName`,
Gemini CLI's `BeforeTool`; `HostAnswer` is the JSON object for stdout and the exit status.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, NamedTuple

    from agenthooks.api import EventResult
else:
    from agenthooks._records import NamedTuple

# host -> "module:function"
WRITERS: dict[str, str] = {
    "antigravity": "agenthooks.hosts.writers:antigravity",
    "claude": "agenthooks.hosts.claude.render:write",
    "gemini": "agenthooks.hosts.gemini.render:write",
}
HOSTS: tuple[str, ...] = tuple(WRITERS)


class HostAnswer(NamedTuple):
    """What goes to the host: one JSON object on stdout, and the exit status."""

    output: dict[str, Any]
    exit_code: int


def writer(host: str) -> Callable[[EventResult, str], HostAnswer]:
    """The writer of a host named in `WRITERS` (imported now); KeyError for another name."""
    import importlib

    module, _, name = WRITERS[host].partition(":")
    found: Callable[[EventResult, str], HostAnswer] = getattr(
        importlib.import_module(module), name)
    return found


def host_event(host: str, event: str, given: str | None = None) -> str:
    """The host's name for the engine's `event`.

    `given` is the word the event was named with on the command line: when it is already one
    of the host's words (Claude Code's `SubagentStop` as well as its `Stop`) it is kept. Else
    the event table's row of `event` gives the host's word: the row whose engine event it is,
    else the row where some host calls it so (the engine names `PreCompact` after Claude Code;
    Gemini CLI says `PreCompress`). Else `event` itself.
    """
    from agenthooks.model.events import find_row, row_of, word_of

    if host == "antigravity":
        return event
    if given is not None and row_of(host, given) is not None:
        return given
    row = find_row(event)
    return (word_of(host, row) if row is not None else None) or event


def antigravity(result: EventResult, event: str) -> HostAnswer:
    """Antigravity's answer is the engine's own: exactly what a run without `--host` prints."""
    return HostAnswer(result.output, result.exit_code)


# --- pieces every writer needs, read from the engine's answer (Antigravity's words) --------


def stop_reason(result: EventResult) -> str | None:
    """The `stopReason` when the answer says `continue: false` (the whole agent stops)."""
    if result.output.get("continue") is not False:
        return None
    reason = result.output.get("stopReason")
    return reason if isinstance(reason, str) and reason else f"{result.event} stopped the agent"


def decision_reason(result: EventResult) -> str:
    """The reason given with the answer's decision; a placeholder when none was."""
    reason = result.output.get("reason")
    if isinstance(reason, str) and reason:
        return reason
    word = result.output.get("decision")
    return f"{result.event} blocked (decision: {word}, no reason given)"


def context_and_message(result: EventResult) -> tuple[list[str], str | None]:
    """Text for the model (injected messages, then handlers' `additionalContext`) and the
    message for the user (`systemMessage` without the injected messages the engine put there).
    """
    output = result.output
    context: list[str] = []
    steps = output.get("injectSteps")
    for step in steps if isinstance(steps, list) else ():
        if isinstance(step, dict) and isinstance(step.get("ephemeralMessage"), str):
            context.append(step["ephemeralMessage"])
    message = output.get("systemMessage")
    message = message if isinstance(message, str) and message else None
    injected = "\n".join(result.injected)
    if injected and message is not None and message.startswith(injected):
        # Where Antigravity has no step to put them in, the engine wrote them as a message.
        context.extend(result.injected)
        message = message[len(injected):].lstrip("\n") or None
    specific = output.get("hookSpecificOutput")
    if isinstance(specific, dict) and isinstance(specific.get("additionalContext"), str):
        context.append(specific["additionalContext"])
    return context, message


def for_the_user(result: EventResult, message: str | None) -> str | None:
    """`message`, then agenthooks' warnings (a handler that timed out or crashed, a handler type
    that cannot run here, a workspace left out): a host shows stderr of an exit 0 to nobody,
    and a gate that is silently off is the failure people complain of most. A skipped file is
    named in `message` already."""
    from agenthooks.api import skip_warning
    from agenthooks.report.escape import printable

    skipped = {skip_warning(f) for f in result.skipped_files}
    lines = [f"agenthooks: warning: {printable(w)}" for w in result.warnings if w not in skipped]
    return joined(message, *lines)


def joined(*parts: str | None) -> str | None:
    """Texts joined by line breaks, the empty ones left out; None when nothing is left."""
    kept = [part for part in parts if part]
    return "\n".join(kept) if kept else None


def decision_blocks(result: EventResult) -> bool:
    """Whether the answer's `decision` blocks (not only its `continue: false`)."""
    return result.blocked and result.output.get("decision") in ("deny", "block", "continue")


def common_fields(
    result: EventResult, event: str, output: dict[str, Any], specific: dict[str, Any],
    context_events: frozenset[str], code: int,
) -> HostAnswer:
    """The fields Claude Code and Gemini CLI say alike, after the writer's own decision
    fields: `continue: false` + `stopReason`, `suppressOutput`, context for the model
    (`hookSpecificOutput.additionalContext` on `context_events`, else in the message), the
    message for the user, and `hookSpecificOutput` under the host's event name."""
    stopped = stop_reason(result)
    if stopped is not None:
        output["continue"] = False
        output["stopReason"] = stopped
    if result.output.get("suppressOutput") is True:
        output["suppressOutput"] = True
    context, message = context_and_message(result)
    if context and event in context_events:
        specific["additionalContext"] = "\n".join(context)
    else:
        message = joined(*context, message)
    message = for_the_user(result, message)
    if message is not None:
        output["systemMessage"] = message
    if specific:
        output["hookSpecificOutput"] = {"hookEventName": event, **specific}
    return HostAnswer(output, code)
