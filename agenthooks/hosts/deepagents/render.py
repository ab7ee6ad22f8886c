"""The final answer in deepagents-code's words (`agenthooks run EVENT --host deepagents`).

deepagents-code 0.2.2 reads Claude Code's JSON on stdout at exit 0 (deepagents_code/hooks/
models/wire.py `HookWireOutput`, hooks/reducer.py), so the answer is Claude Code's but for
what it reads otherwise:

    the verdict (combine.verdict)  deepagents-code's JSON
    PreToolUse deny / ask / allow  hookSpecificOutput.permissionDecision + ...DecisionReason
    updated_args                   not written: it does not apply `updatedInput` and drops the
                                   allow beside it (`run` warns, `model.capabilities`)
    a handler's defer              not written: it ignores `defer`
    a blocking word                decision "block" + reason (BLOCK_EVENTS: UserPromptSubmit
                                   and PreCompact stop, PostToolUse feedback, Stop and
                                   SubagentStop keep the agent going); PermissionRequest's
                                   hookSpecificOutput.decision {behavior "deny", message}
    stopped (continue false)       continue false + stopReason
    context                        hookSpecificOutput.additionalContext (CONTEXT_EVENTS; not
                                   Stop's, which it reads as a block), else systemMessage
"""

from __future__ import annotations

from agenthooks.hosts.writers import PERMISSION_WORDS, HostAnswer, common_fields, decision_reason

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.combine.verdict import Verdict

# Events where `decision: "block"` does something (hooks/capabilities.py `exit_code_policy`).
BLOCK_EVENTS = frozenset(("UserPromptSubmit", "PreCompact", "PostToolUse",
                          "PostToolUseFailure", "Stop", "SubagentStop"))
CONTEXT_EVENTS = frozenset(("PreToolUse", "PostToolUse", "PostToolUseFailure",
                            "UserPromptSubmit", "SessionStart", "SubagentStart"))


def write(verdict: Verdict, event: str) -> HostAnswer:
    """The answer for deepagents-code's `event` (its hook_event_name) and the exit status."""
    output: dict[str, Any] = {}
    specific: dict[str, Any] = {}
    if event == "PreToolUse":
        decision = PERMISSION_WORDS.get(verdict.word) if verdict.word is not None else None
        if decision is not None:
            specific["permissionDecision"] = decision
            reason = decision_reason(verdict) if decision == "deny" else verdict.reason
            if reason:
                specific["permissionDecisionReason"] = reason
    elif event == "PermissionRequest" and verdict.refuses:
        specific["decision"] = {"behavior": "deny", "message": decision_reason(verdict)}
    elif verdict.refuses and event in BLOCK_EVENTS:
        output["decision"] = "block"
        output["reason"] = decision_reason(verdict)
    return common_fields(verdict, event, output, specific, CONTEXT_EVENTS, 0)
