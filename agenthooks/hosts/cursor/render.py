"""The final answer in Cursor's words (`agenthooks run EVENT --host cursor`).

Cursor reads a JSON object on stdout at exit 0, and takes exit 2 as a deny "equivalent to
returning permission: deny" (cursor.com/docs/hooks, "Exit code behavior" and each event's
"Output"; mirror mehmetbaykar/cursor-docs-skill@1cc1c99). Each event is answered with the
fields its docs give it and no others:

    the verdict (combine.verdict)   Cursor's JSON
    a deny (preToolUse,             permission "deny", user_message (the reason, notices and
      subagentStart, before*)       warnings), agent_message (the reason and the context for
                                    the model); exit 2, as Cursor's own example does, so the
                                    call is refused even by a Cursor that cannot read the JSON
    ask / allow                     permission "ask" / "allow" (Cursor does not enforce ask
                                    on preToolUse today: its docs, said in `docs/hosts.md`);
                                    where `permission` has no ask (subagentStart, which reads
                                    one as a deny, beforeReadFile, beforeTabFileRead), a deny
    updated_args                    updated_input (preToolUse)
    context, injected, steps        additional_context (postToolUse, sessionStart), else
                                    agent_message on the events that have one
    Stop / subagentStop "continue"  followup_message: the reason, sent as the next prompt
                                    (capped by Cursor at the handler's loop_limit, default 5)
    beforeSubmitPrompt block        continue false + user_message
    stopped (continue false)        a deny where the event has a permission, continue false on
                                    beforeSubmitPrompt; Cursor has no general stop
    message, notices, warnings      user_message where the event has one

A block on an event whose answer cannot refuse anything (postToolUse, afterFileEdit...) is
said as context for the model where the event takes some, and exits 0: the action ran.
"""

from __future__ import annotations

from agenthooks.hosts.writers import (
    HostAnswer,
    decision_reason,
    for_the_model,
    for_the_user,
    joined,
    stop_reason,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.combine.verdict import Verdict

# Events answered with `permission`, and which of their messages each takes.
PERMISSION_EVENTS: dict[str, tuple[str, ...]] = {
    "preToolUse": ("user_message", "agent_message"),
    "beforeShellExecution": ("user_message", "agent_message"),
    "beforeMCPExecution": ("user_message", "agent_message"),
    "subagentStart": ("user_message",),
    "beforeReadFile": ("user_message",),
    "beforeTabFileRead": (),
}
# Permission events whose `permission` has no "ask": there Cursor cannot ask (subagentStart
# reads an ask as a deny), so an ask is written as the deny it would be.
NO_ASK_EVENTS = frozenset(("subagentStart", "beforeReadFile", "beforeTabFileRead"))
# Events whose `additional_context` reaches the model.
CONTEXT_EVENTS = frozenset(("postToolUse", "sessionStart"))
FOLLOWUP_EVENTS = frozenset(("stop", "subagentStop"))
# The engine's words in Cursor's `permission`.
PERMISSION: dict[str, str] = {"deny": "deny", "block": "deny", "ask": "ask", "force_ask": "ask",
                              "allow": "allow"}


def write(verdict: Verdict, event: str) -> HostAnswer:
    """The answer for Cursor's `event` (its hook_event_name) and the exit status."""
    if event in PERMISSION_EVENTS:
        return _permission(verdict, event)
    output: dict[str, Any] = {}
    context = for_the_model(verdict)
    if event in FOLLOWUP_EVENTS and verdict.refuses:
        output["followup_message"] = decision_reason(verdict)
    elif event == "beforeSubmitPrompt":
        blocked = verdict.refuses or verdict.stopped
        output["continue"] = not blocked
        reason = (stop_reason(verdict) or decision_reason(verdict)) if blocked else None
        _put(output, "user_message", for_the_user(verdict, joined(reason, verdict.message)))
    elif event in CONTEXT_EVENTS:
        why = decision_reason(verdict) if verdict.refuses else None
        _put(output, "additional_context", joined(why, *context))
    elif event == "preCompact":
        _put(output, "user_message", for_the_user(verdict, verdict.message))
    return HostAnswer(output, 0)


def _permission(verdict: Verdict, event: str) -> HostAnswer:
    """A permission event: the decision, its messages and the rewritten input."""
    fields = PERMISSION_EVENTS[event]
    output: dict[str, Any] = {}
    word = PERMISSION.get(verdict.word or "")
    denied = verdict.refuses or verdict.stopped or (word == "ask" and event in NO_ASK_EVENTS)
    word = "deny" if denied else word
    if word is not None:
        output["permission"] = word
    reason = (stop_reason(verdict) if verdict.stopped and not verdict.refuses
              else decision_reason(verdict)) if denied else verdict.reason
    if "user_message" in fields:
        _put(output, "user_message", for_the_user(verdict, joined(reason, verdict.message)))
    if "agent_message" in fields:
        _put(output, "agent_message", joined(reason, *for_the_model(verdict)))
    if verdict.updated_args is not None and event == "preToolUse" and not denied:
        output["updated_input"] = verdict.updated_args
    return HostAnswer(output, 2 if denied else 0)


def _put(output: dict[str, Any], key: str, value: object) -> None:
    if value is not None:
        output[key] = value
