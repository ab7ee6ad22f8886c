"""The final answer in GitHub Copilot CLI's words (`agenthooks run EVENT --host copilot`).

Copilot parses stdout as one JSON object (github/docs@05da5bc
content/copilot/reference/hooks-reference.md); each event is answered with the fields its
decision control gives and no others:

    the verdict (combine.verdict)   Copilot's JSON
    preToolUse deny / ask / allow   permissionDecision + permissionDecisionReason (required
                                    with a deny); a deny also exits 2, which Copilot reads as
                                    a deny whatever stdout says
    updated_args                    modifiedArgs (preToolUse)
    permissionRequest               behavior allow|deny + message; a deny exits 2 too
    agentStop / subagentStop        decision "block" + reason: one more turn
    context, injected, steps        additionalContext (postToolUse, postToolUseFailure,
                                    sessionStart, subagentStart, notification)

Copilot drops the output of command hooks on userPromptSubmitted, and its other events
read none: there the answer is `{}`.
"""

from __future__ import annotations

from agenthooks.hosts.writers import (
    HostAnswer,
    decision_reason,
    for_the_model,
    joined,
    stop_reason,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.combine.verdict import Verdict

CONTEXT_EVENTS = frozenset(("postToolUse", "postToolUseFailure", "sessionStart",
                            "subagentStart", "notification"))
STOP_EVENTS = frozenset(("agentStop", "subagentStop"))
PERMISSION: dict[str, str] = {"deny": "deny", "block": "deny", "ask": "ask", "force_ask": "ask",
                              "allow": "allow"}


def write(verdict: Verdict, event: str) -> HostAnswer:
    """The answer for Copilot's `event` and the exit status."""
    output: dict[str, Any] = {}
    if event == "preToolUse":
        return _pre_tool_use(verdict)
    if event == "permissionRequest":
        if verdict.refuses or verdict.stopped:
            output = {"behavior": "deny", "message": _reason(verdict)}
            if verdict.stopped:
                output["interrupt"] = True
            return HostAnswer(output, 2)
        if verdict.word == "allow":
            output["behavior"] = "allow"
    elif event in STOP_EVENTS and verdict.refuses:
        output = {"decision": "block", "reason": decision_reason(verdict)}
    elif event in CONTEXT_EVENTS:
        why = decision_reason(verdict) if verdict.refuses else None
        context = joined(why, *for_the_model(verdict))
        if context is not None:
            output["additionalContext"] = context
    return HostAnswer(output, 0)


def _pre_tool_use(verdict: Verdict) -> HostAnswer:
    denied = verdict.refuses or verdict.stopped
    word = "deny" if denied else PERMISSION.get(verdict.word or "")
    output: dict[str, Any] = {}
    if word is not None:
        output["permissionDecision"] = word
        reason = _reason(verdict) if denied else verdict.reason
        if reason:
            output["permissionDecisionReason"] = reason
    if verdict.updated_args is not None and not denied:
        output["modifiedArgs"] = verdict.updated_args
    return HostAnswer(output, 2 if denied else 0)


def _reason(verdict: Verdict) -> str:
    if verdict.stopped and not verdict.refuses:
        return stop_reason(verdict) or decision_reason(verdict)
    return decision_reason(verdict)
