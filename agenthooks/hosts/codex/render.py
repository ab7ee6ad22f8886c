"""The final answer in Codex's words (`agenthooks run EVENT --host codex`).

Codex reads a JSON object on stdout at exit 0 (openai/codex
`codex-rs/hooks/src/engine/output_parser.rs`; developers.openai.com/codex/hooks), and counts
the hook as failed, letting the call go on, when an answer says what the event does not take.
So the answer is always one JSON object at exit 0, and only in the fields each event takes:

    the verdict              Codex's JSON
    PreToolUse deny          hookSpecificOutput.permissionDecision "deny" + a non-empty
                             permissionDecisionReason (Codex refuses a deny without one)
    PreToolUse ask           the same deny, the reason saying a person must confirm: Codex has
                             no `ask` (it would run the call)
    updated_args             permissionDecision "allow" + updatedInput (PreToolUse only;
                             Codex refuses `allow` alone, so a bare allow says nothing)
    PermissionRequest block  hookSpecificOutput.decision {behavior "deny", message}
    a blocking word          decision "block" + reason (PostToolUse, UserPromptSubmit, Stop,
                             SubagentStop: on Stop, keep working)
    stopped (continue false) continue false + stopReason; on PreToolUse and
                             PermissionRequest, which refuse it, a deny with that reason
    context for the model    hookSpecificOutput.additionalContext (CONTEXT_EVENTS), else in
                             systemMessage
    message, notices,        systemMessage
    warnings

Stop must print JSON on exit 0: it always gets an object, `{}` when there is nothing to say.
"""

from __future__ import annotations

from agenthooks.hosts.writers import (
    ASK_WORDS,
    HostAnswer,
    common_fields,
    decision_reason,
    refusal,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.combine.verdict import Verdict

# Events whose JSON answer blocks with top-level `decision: "block"` and `reason`.
BLOCK_EVENTS = frozenset(("PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop"))
# Events whose hookSpecificOutput.additionalContext reaches the model.
CONTEXT_EVENTS = frozenset(("PreToolUse", "PostToolUse", "UserPromptSubmit", "SessionStart",
                            "SubagentStart"))
# Events that refuse `continue: false` (and `suppressOutput`): a stop becomes a deny there.
GATE_EVENTS = frozenset(("PreToolUse", "PermissionRequest"))
# Events that refuse `suppressOutput`.
NO_SUPPRESS = frozenset(("PreToolUse", "PermissionRequest", "PostToolUse"))


def write(verdict: Verdict, event: str) -> HostAnswer:
    """The answer for Codex's `event` and the exit status (always 0)."""
    output: dict[str, Any] = {}
    specific: dict[str, Any] = {}
    if event == "PreToolUse":
        _pre_tool_use(verdict, specific)
    elif event == "PermissionRequest" and (verdict.refuses or verdict.stopped):
        specific["decision"] = {"behavior": "deny", "message": _gate_reason(verdict)}
    elif verdict.refuses and event in BLOCK_EVENTS:
        output["decision"] = "block"
        output["reason"] = decision_reason(verdict)
    # A block Codex's JSON cannot say on this event: at least the user hears of it.
    lead = (f"{event} blocked: {decision_reason(verdict)}"
            if verdict.refuses and event not in BLOCK_EVENTS | GATE_EVENTS else None)
    return common_fields(verdict, event, output, specific, CONTEXT_EVENTS, 0,
                         no_stop=GATE_EVENTS, no_suppress=NO_SUPPRESS, lead=lead)


def _pre_tool_use(verdict: Verdict, specific: dict[str, Any]) -> None:
    if verdict.refuses or verdict.stopped or verdict.word in ASK_WORDS:
        specific["permissionDecision"] = "deny"
        specific["permissionDecisionReason"] = _gate_reason(verdict)
    elif verdict.updated_args is not None:
        specific["permissionDecision"] = "allow"
        specific["updatedInput"] = verdict.updated_args


def _gate_reason(verdict: Verdict) -> str:
    """A deny's reason: the handlers', a stop's, or the confirmation Codex cannot ask for."""
    return refusal(verdict, "Codex") or decision_reason(verdict)
