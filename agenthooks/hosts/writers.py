"""Which module writes the final answer in a host's own words (`agenthooks run --host HOST`).

One row per host, from `model.hosts.HOST_TABLE`: a new host is one module with a
`write(verdict, event)` function, named by its row there. A writer is imported only when
`--host` (or `default_host` in the user config) names it, so a run that names no host
imports none of them.

    write(verdict: Verdict, event: str) -> HostAnswer

Every writer renders the event's `Verdict` (`combine.verdict`: the answer field by field, in
the engine's terms; `EventResult.as_verdict` gives a result's), never another host's JSON.
`event` is the host's own name for the event (`host_event`): Claude Code's `hookEventName`,
Gemini CLI's `BeforeTool`; `HostAnswer` is the JSON object for stdout and the exit status.
"""

from __future__ import annotations

from agenthooks._lean.records import NamedTuple
from agenthooks.model.hosts import HOOKS_JSON_DIALECT, HOST_TABLE, implementation

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from agenthooks.combine.verdict import Verdict

# host -> "module:function", from each host's row (`model.hosts`); a tool that calls no hook
# (rulesync) is answered never.
WRITERS: dict[str, str] = {
    row.id: implementation(row.writer, "agenthooks.hosts.{}.render", "write")
    for row in HOST_TABLE if not row.generator}
HOSTS: tuple[str, ...] = tuple(WRITERS)
# The engine's words that want a person's say: a host that cannot ask refuses for them.
ASK_WORDS = frozenset(("ask", "force_ask"))
# The engine's tool decisions in Claude Code's `permissionDecision`, which its derived hosts
# and Augment read too (Antigravity's force_ask is an ask there).
PERMISSION_WORDS: dict[str, str] = {"deny": "deny", "ask": "ask", "force_ask": "ask",
                                    "allow": "allow"}


class HostAnswer(NamedTuple):
    """What goes to the host: one JSON object on stdout, and the exit status; or, for a host
    that reads its hooks' stdout as text (Kiro's context), `text` in place of the object."""

    output: dict[str, Any]
    exit_code: int
    text: str | None = None


def writer(host: str) -> Callable[[Verdict, str], HostAnswer]:
    """The writer of a host named in `WRITERS` (imported now); KeyError for another name."""
    import importlib

    module, _, name = WRITERS[host].partition(":")
    found: Callable[[Verdict, str], HostAnswer] = getattr(
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

    if host == HOOKS_JSON_DIALECT:
        return event
    if given is not None and row_of(host, given) is not None:
        return given
    row = find_row(event)
    return (word_of(host, row) if row is not None else None) or event


# --- pieces every writer needs, read from the verdict ---------------------------------------


def stop_reason(verdict: Verdict) -> str | None:
    """The `stopReason` when the answer says `continue: false` (the whole agent stops)."""
    if not verdict.stopped:
        return None
    return verdict.stop_reason or f"{verdict.event} stopped the agent"


def refusal(verdict: Verdict, host: str, asked_by: str = "a hook") -> str | None:
    """Why a host that can neither ask a person nor stop the agent from a gate is to refuse
    the call: the answer's deny, an ask it cannot put to anyone, or a stop (a gate that wanted
    either does not let the call through); None to let it through."""
    if verdict.refuses:
        return decision_reason(verdict)
    if verdict.word in ASK_WORDS:
        return (f"a hook asks a person to confirm this call, which {host} cannot ask from "
                f"{asked_by}: {verdict.reason or 'no reason given'}")
    return stop_reason(verdict)


def decision_reason(verdict: Verdict) -> str:
    """The reason given with the answer's decision; a placeholder when none was."""
    if verdict.reason:
        return verdict.reason
    return f"{verdict.event} blocked (decision: {verdict.word}, no reason given)"


def for_the_model(verdict: Verdict) -> list[str]:
    """Text for the model: injected messages, handlers' ephemeral steps, their context."""
    from agenthooks.combine.verdict import INJECT_STEP_EVENTS

    # Off the step events an empty injected text says nothing, as in the engine's message.
    as_steps = verdict.event in INJECT_STEP_EVENTS
    texts = list(verdict.injected) if as_steps or "\n".join(verdict.injected) else []
    texts += [step["ephemeralMessage"] for step in verdict.steps
              if isinstance(step.get("ephemeralMessage"), str)]
    if verdict.context:
        texts.append(verdict.context)
    return texts


def for_the_user(verdict: Verdict, message: str | None) -> str | None:
    """`message`, then the notices (skipped files, untrusted workspaces), then agenthooks'
    warnings (a handler that timed out or crashed, a handler type that cannot run here, a
    workspace left out): a host shows stderr of an exit 0 to nobody, and a gate that is
    silently off is the failure people complain of most."""
    from agenthooks.escape import printable

    lines = [f"agenthooks: warning: {printable(w)}" for w in verdict.warnings]
    return joined(message, *verdict.notices, *lines)


def joined(*parts: str | None) -> str | None:
    """Texts joined by line breaks, the empty ones left out; None when nothing is left."""
    kept = [part for part in parts if part]
    return "\n".join(kept) if kept else None


def common_fields(
    verdict: Verdict, event: str, output: dict[str, Any], specific: dict[str, Any],
    context_events: frozenset[str], code: int, *, no_stop: frozenset[str] = frozenset(),
    no_suppress: frozenset[str] = frozenset(), lead: str | None = None,
) -> HostAnswer:
    """The fields Claude Code, Gemini CLI and Codex say alike, after the writer's own
    decision fields: `continue: false` + `stopReason` (but on `no_stop` events),
    `suppressOutput` (but on `no_suppress` events), context for the model
    (`hookSpecificOutput.additionalContext` on `context_events`, else in the message), the
    message for the user (after `lead`, a line the host's JSON could not say otherwise), and
    `hookSpecificOutput` under the host's event name."""
    stopped = stop_reason(verdict)
    if stopped is not None and event not in no_stop:
        output["continue"] = False
        output["stopReason"] = stopped
    if verdict.suppress_output and event not in no_suppress:
        output["suppressOutput"] = True
    context = for_the_model(verdict)
    message = verdict.message
    if context and event in context_events:
        specific["additionalContext"] = "\n".join(context)
    else:
        message = joined(*context, message)
    message = for_the_user(verdict, joined(lead, message))
    if message is not None:
        output["systemMessage"] = message
    if specific:
        output["hookSpecificOutput"] = {"hookEventName": event, **specific}
    return HostAnswer(output, code)
