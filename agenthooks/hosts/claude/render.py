"""The final answer in Claude Code's words (`agenthooks run EVENT --host claude`).

Claude Code reads a JSON object on stdout at exit 0 (its hooks reference,
https://code.claude.com/docs/en/hooks, "JSON output"), so everything its JSON can say is said
there and the exit status stays 0; that way the reason always reaches Claude:

    engine's answer               Claude Code's JSON
    PreToolUse deny / ask / allow hookSpecificOutput.permissionDecision + ...DecisionReason
    PreToolUse defer (a handler)  permissionDecision "defer", when nothing stronger was said
    rewritten arguments           hookSpecificOutput.updatedInput (PreToolUse)
    a block                       decision "block" + reason (the events of BLOCK_EVENTS)
    PermissionRequest block       hookSpecificOutput.decision {behavior "deny", message}
    continue false                continue false + stopReason (every event)
    injected messages, context    hookSpecificOutput.additionalContext (CONTEXT_EVENTS),
                                  else systemMessage
    systemMessage (skipped files) systemMessage, then agenthooks' warnings (a handler that
                                  timed out or crashed, one that cannot run here)

Only a block that Claude Code's JSON cannot express (PreCompact, a SessionStart handler's
exit 2, ...) exits 2 with the reason on stderr, which is how Claude Code reads a block there.
"""

from __future__ import annotations

from agenthooks.hosts.writers import HostAnswer, common_fields, decision_blocks, decision_reason

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.api import EventResult

# Events whose JSON answer blocks with top-level `decision: "block"` and `reason`.
BLOCK_EVENTS = frozenset(("PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop",
                          "ConfigChange"))
# Events whose hookSpecificOutput.additionalContext reaches the model.
CONTEXT_EVENTS = frozenset(("PreToolUse", "PostToolUse", "PostToolUseFailure",
                            "UserPromptSubmit", "SessionStart", "SubagentStart"))
# The engine's PreToolUse words in Claude Code's permissionDecision.
PERMISSION: dict[str, str] = {"deny": "deny", "ask": "ask", "force_ask": "ask", "allow": "allow"}
# Claude Code's own order, most restrictive first (a handler's "defer" ranks below deny).
PERMISSION_RANK: tuple[str, ...] = ("deny", "defer", "ask", "allow")


def write(result: EventResult, event: str) -> HostAnswer:
    """The answer for Claude Code's `event` (its hookEventName) and the exit status."""
    output: dict[str, Any] = {}
    specific: dict[str, Any] = {}
    code = 0
    if event == "PreToolUse":
        _permission(result, specific)
    elif event == "PermissionRequest" and decision_blocks(result):
        specific["decision"] = {"behavior": "deny", "message": decision_reason(result)}
    elif decision_blocks(result):
        if event in BLOCK_EVENTS:
            output["decision"] = "block"
            output["reason"] = decision_reason(result)
        else:
            code = 2  # the reasons are on stderr already (report.run.write_result)
    return common_fields(result, event, output, specific, CONTEXT_EVENTS, code)


def _permission(result: EventResult, specific: dict[str, Any]) -> None:
    """PreToolUse: the decision, its reason and the rewritten input, in hookSpecificOutput."""
    word = result.output.get("decision")
    decision = PERMISSION.get(word) if isinstance(word, str) else None
    deferred = _handler_defer(result)
    if deferred and (decision is None or _rank(deferred) < _rank(decision)):
        decision, word = deferred, None
    if decision is not None:
        specific["permissionDecision"] = decision
        reason = decision_reason(result) if decision == "deny" else result.output.get("reason")
        if isinstance(reason, str) and reason and word is not None:
            specific["permissionDecisionReason"] = reason
    if result.updated_args is not None and decision not in ("deny", "defer"):
        specific["updatedInput"] = result.updated_args


def _handler_defer(result: EventResult) -> str | None:
    """"defer" when a Claude Code handler said so (the engine itself has no such word)."""
    for answer in result.handlers:
        output = answer.output if answer.status == "ok" else None
        specific = output.get("hookSpecificOutput") if isinstance(output, dict) else None
        if isinstance(specific, dict) and specific.get("permissionDecision") == "defer":
            return "defer"
    return None


def _rank(decision: str) -> int:
    return PERMISSION_RANK.index(decision)
