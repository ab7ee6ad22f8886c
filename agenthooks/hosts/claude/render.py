"""The final answer in Claude Code's words (`agenthooks run EVENT --host claude`).

Claude Code reads a JSON object on stdout at exit 0 (its hooks reference,
https://code.claude.com/docs/en/hooks, "JSON output"), so everything its JSON can say is said
there and the exit status stays 0; that way the reason always reaches Claude:

    the verdict (combine.verdict)  Claude Code's JSON
    PreToolUse deny / ask / allow  hookSpecificOutput.permissionDecision + ...DecisionReason
    deferred (a handler's defer)   permissionDecision "defer", when nothing stronger was said
    updated_args                   hookSpecificOutput.updatedInput (PreToolUse)
    a blocking word                decision "block" + reason (the events of BLOCK_EVENTS)
    PermissionRequest block        hookSpecificOutput.decision {behavior "deny", message}
    stopped (continue false)       continue false + stopReason (every event)
    injected, steps, context       hookSpecificOutput.additionalContext (CONTEXT_EVENTS),
                                   else systemMessage
    message, notices, warnings     systemMessage: the handlers' message, skipped files, then
                                   agenthooks' warnings (a handler that timed out or crashed,
                                   one that cannot run here)

Only a block that Claude Code's JSON cannot express (PreCompact, a SessionStart handler's
exit 2, ...) exits 2 with the reason on stderr, which is how Claude Code reads a block there.
"""

from __future__ import annotations

from agenthooks.hosts.writers import PERMISSION_WORDS, HostAnswer, common_fields, decision_reason

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.combine.verdict import Verdict

# Events whose JSON answer blocks with top-level `decision: "block"` and `reason`.
BLOCK_EVENTS = frozenset(("PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop",
                          "ConfigChange"))
# Events whose hookSpecificOutput.additionalContext reaches the model.
CONTEXT_EVENTS = frozenset(("PreToolUse", "PostToolUse", "PostToolUseFailure",
                            "UserPromptSubmit", "SessionStart", "SubagentStart"))
# Claude Code's own order, most restrictive first (a handler's "defer" ranks below deny).
PERMISSION_RANK: tuple[str, ...] = ("deny", "defer", "ask", "allow")


def write(verdict: Verdict, event: str) -> HostAnswer:
    """The answer for Claude Code's `event` (its hookEventName) and the exit status."""
    output: dict[str, Any] = {}
    specific: dict[str, Any] = {}
    code = 0
    if event == "PreToolUse":
        _permission(verdict, specific)
    elif event == "PermissionRequest" and verdict.refuses:
        specific["decision"] = {"behavior": "deny", "message": decision_reason(verdict)}
    elif verdict.refuses:
        if event in BLOCK_EVENTS:
            output["decision"] = "block"
            output["reason"] = decision_reason(verdict)
        else:
            code = 2  # the reasons are on stderr already (report.run.write_result)
    return common_fields(verdict, event, output, specific, CONTEXT_EVENTS, code)


def _permission(verdict: Verdict, specific: dict[str, Any]) -> None:
    """PreToolUse: the decision, its reason and the rewritten input, in hookSpecificOutput."""
    word = verdict.word
    decision = PERMISSION_WORDS.get(word) if word is not None else None
    # "defer" is a Claude Code handler's word alone; the engine reads it as no opinion.
    if verdict.deferred and (decision is None or _rank("defer") < _rank(decision)):
        decision, word = "defer", None
    if decision is not None:
        specific["permissionDecision"] = decision
        reason = decision_reason(verdict) if decision == "deny" else verdict.reason
        if reason and word is not None:
            specific["permissionDecisionReason"] = reason
    if verdict.updated_args is not None and decision not in ("deny", "defer"):
        specific["updatedInput"] = verdict.updated_args


def _rank(decision: str) -> int:
    return PERMISSION_RANK.index(decision)
