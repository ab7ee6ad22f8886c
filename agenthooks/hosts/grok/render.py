"""The final answer in Grok Build's words (`agenthooks run EVENT --host grok`).

Grok (xai-org/grok-build@19d42e3, crates/codegen/xai-grok-hooks/src/runner/command.rs
`parse_blocking_result`, `parse_stop_result`; runner/mod.rs `GateHookJson`, `StopHookJson`)
decides on PreToolUse, Stop and SubagentStop alone and reads nothing of another event's answer.
A JSON deny counts on any exit code, so the exit status is always 0 and everything is said in
the JSON, in the two words each gate knows:

    the verdict (combine.verdict)            Grok's JSON
    PreToolUse deny; ask; stopped            decision "deny" + reason: the call is skipped
                                             (Grok cannot ask from a hook, nor stop the agent
                                             from a gate: a gate that wanted either does not
                                             let the call through)
    PreToolUse updated_args                  hookSpecificOutput.updatedInput
    Stop "continue" (keep going)             decision "block" + reason
    Stop stopped                             continue false + stopReason
    Stop context, injected text              hookSpecificOutput.additionalContext
    anything else                            {} (Grok shows no message of a hook)
"""

from __future__ import annotations

from agenthooks.hosts.writers import (
    HostAnswer,
    decision_reason,
    for_the_model,
    refusal,
    stop_reason,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.combine.verdict import Verdict

STOP_GATES = frozenset(("Stop", "SubagentStop"))


def write(verdict: Verdict, event: str) -> HostAnswer:
    """The answer for Grok's `event`; the exit status is always 0."""
    if event == "PreToolUse":
        return HostAnswer(_gate(verdict), 0)
    if event in STOP_GATES:
        return HostAnswer(_stop_gate(verdict, event), 0)
    return HostAnswer({}, 0)


def _gate(verdict: Verdict) -> dict[str, Any]:
    reason = refusal(verdict, "Grok")
    if reason is not None:
        return {"decision": "deny", "reason": reason}
    if verdict.updated_args is not None:
        return {"hookSpecificOutput": {"updatedInput": verdict.updated_args}}
    return {}


def _stop_gate(verdict: Verdict, event: str) -> dict[str, Any]:
    output: dict[str, Any] = {}
    stopped = stop_reason(verdict)
    if stopped is not None:
        output.update({"continue": False, "stopReason": stopped})
    elif verdict.refuses:
        output.update({"decision": "block", "reason": decision_reason(verdict)})
    context = for_the_model(verdict)
    if context:
        output["hookSpecificOutput"] = {"additionalContext": "\n".join(context)}
    return output
