"""The final answer in Augment's words (`agenthooks run EVENT --host augment`).

Augment (@augmentcode/auggie 0.36.0, augment.mjs `bao`, `zIt`) reads one JSON object on
stdout at exit 0 or 2, checked against its schema: an answer that fails it is dropped whole,
so each event gets only the fields Augment takes there.

    the verdict (combine.verdict)   Augment's JSON
    PreToolUse deny / ask / allow   hookSpecificOutput.permissionDecision + ...DecisionReason
                                    (no "defer": Augment would drop the answer)
    updated_args                    hookSpecificOutput.updatedInput (PreToolUse)
    Stop, PostToolUse block         hookSpecificOutput.decision "block" + reason: Augment
                                    reads no top-level `decision`
    stopped (continue false)        continue false + stopReason
    injected, steps, context        hookSpecificOutput.additionalContext on PostToolUse and
                                    SessionStart, else the top-level additionalContext
    message, notices, warnings      systemMessage

A block on another event exits 2 with the reason on stderr, which Augment reads as a block on
PreToolUse alone: `run` warns that it goes unheeded (`model.capabilities`).
"""

from __future__ import annotations

from agenthooks.hosts.writers import PERMISSION_WORDS, HostAnswer, common_fields, decision_reason

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.combine.verdict import Verdict

EVENTS = frozenset(("PreToolUse", "PostToolUse", "Stop", "SessionStart", "SessionEnd",
                    "Notification", "PromptSubmit"))
# The events whose hookSpecificOutput Augment's schema knows (PromptSubmit's it does not).
SPECIFIC_EVENTS = EVENTS - {"PromptSubmit"}
# Where hookSpecificOutput carries the context; elsewhere it goes top-level.
NESTED_CONTEXT = frozenset(("PostToolUse", "SessionStart"))
NESTED_BLOCK = frozenset(("PostToolUse", "Stop"))


def write(verdict: Verdict, event: str) -> HostAnswer:
    """The answer for Augment's `event` and the exit status."""
    output: dict[str, Any] = {}
    specific: dict[str, Any] = {}
    code = 0
    if event == "PreToolUse":
        _permission(verdict, specific)
    elif verdict.refuses:
        if event in NESTED_BLOCK:
            specific.update(decision="block", reason=decision_reason(verdict))
        else:
            code = 2  # the reasons are on stderr already (report.run.write_result)
    answer = common_fields(verdict, event, output, specific, EVENTS, code)
    nested = answer.output.pop("hookSpecificOutput", {})
    if event not in NESTED_CONTEXT and "additionalContext" in nested:
        answer.output["additionalContext"] = nested.pop("additionalContext")
    if event in SPECIFIC_EVENTS and len(nested) > 1:  # more than its hookEventName
        answer.output["hookSpecificOutput"] = nested
    return answer


def _permission(verdict: Verdict, specific: dict[str, Any]) -> None:
    word = verdict.word
    decision = PERMISSION_WORDS.get(word) if word is not None else None
    if decision is not None:
        specific["permissionDecision"] = decision
        reason = decision_reason(verdict) if decision == "deny" else verdict.reason
        if reason:
            specific["permissionDecisionReason"] = reason
    if verdict.updated_args is not None and decision != "deny":
        specific["updatedInput"] = verdict.updated_args
