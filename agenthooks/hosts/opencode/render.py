"""The final answer in the words of agenthooks' OpenCode plugin (`agenthooks run EVENT --host
opencode`, from `plugin.js` beside this module).

OpenCode 1.x runs no hook command: a plugin's `tool.execute.before` and `tool.execute.after`
are awaited in its process (measured with opencode 1.18.33; anomalyco/opencode@03eeb9f
packages/opencode/src/session/tools.ts). The plugin blocks a call by throwing an Error, whose
message is what the model gets as the tool's result; it rewrites one by replacing the keys of
`output.args`; after the call it appends text to `output.output` (an MCP tool's
`output.content`). There is no ask from a plugin (`permission.ask` is typed but never called
in 1.18.33, anomalyco/opencode issue #7006). So the plugin reads one small JSON object, and
the exit status is always 0 (any other status, or anything but that object, is agenthooks
failing, which the plugin takes for a deny before the call and ignores after it):

    the verdict (combine.verdict)            the plugin's JSON
    PreToolUse deny; ask; stopped            {"decision": "deny", "reason": ...}: the plugin
                                             throws the reason (OpenCode cannot ask a person
                                             from a plugin, nor stop the agent: a gate that
                                             wanted either does not let the call through)
    PreToolUse updated_args                  {"args": {...}}: the whole argument object, which
                                             replaces the call's
    PostToolUse context, injected text,      {"context": "..."}: appended to the tool's result
    a refusal's or stop's reason             (the call has run: what refused it is said)
    anything else                            {}
"""

from __future__ import annotations

from agenthooks.hosts.writers import (
    HostAnswer,
    decision_reason,
    for_the_model,
    joined,
    refusal,
    stop_reason,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.combine.verdict import Verdict


def write(verdict: Verdict, event: str) -> HostAnswer:
    """The answer for the plugin's `event`; the exit status is always 0."""
    if event == "PreToolUse":
        return HostAnswer(_gate(verdict), 0)
    if event == "PostToolUse":
        said = joined(decision_reason(verdict) if verdict.refuses else None,
                      stop_reason(verdict), *for_the_model(verdict))
        return HostAnswer({"context": said} if said else {}, 0)
    return HostAnswer({}, 0)


def _gate(verdict: Verdict) -> dict[str, Any]:
    reason = refusal(verdict, "OpenCode", "a plugin")
    if reason is not None:
        return {"decision": "deny", "reason": reason}
    if verdict.updated_args is not None:
        return {"args": verdict.updated_args}
    return {}
