"""The final answer in Goose's words (`agenthooks run EVENT --host goose`).

Goose (measured with goose 1.52.0; block/goose crates/goose/src/hooks/mod.rs
`classify_output`) decides on PreToolUse and Stop alone and reads nothing of another event's
answer. `{"decision": "block", "reason": ...}` on stdout blocks whatever the exit code, and
an exit 0 with empty stdout allows, so the exit status is always 0 and a deny is said in that
JSON alone:

    the verdict (combine.verdict)            Goose's JSON
    PreToolUse deny; ask; stopped            decision "block" + reason: the call is not run,
                                             the model gets "Tool call denied by policy hook
                                             `<plugin>`: <reason>. Do not retry..." (Goose
                                             cannot ask from a hook, nor stop the agent from
                                             a gate: a gate that wanted either does not let
                                             the call through)
    Stop "continue" (keep going)             decision "block" + reason: Goose's hidden user
                                             message "Stop hook `<plugin>` blocked ending this
                                             turn: <reason>", and the loop goes on (8 times
                                             in a row at most, GOOSE_STOP_HOOK_BLOCK_CAP)
    anything else                            {} (no context, rewrite or message reaches
                                             Goose from a hook)
"""

from __future__ import annotations

from agenthooks.hosts.writers import HostAnswer, decision_reason, refusal

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.combine.verdict import Verdict


def write(verdict: Verdict, event: str) -> HostAnswer:
    """The answer for Goose's `event`; the exit status is always 0."""
    if event == "PreToolUse":
        return HostAnswer(_gate(verdict), 0)
    if event == "Stop" and verdict.refuses:
        return HostAnswer({"decision": "block", "reason": decision_reason(verdict)}, 0)
    return HostAnswer({}, 0)


def _gate(verdict: Verdict) -> dict[str, Any]:
    reason = refusal(verdict, "Goose")
    return {"decision": "block", "reason": reason} if reason is not None else {}
