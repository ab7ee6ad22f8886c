"""The final answer in JetBrains Junie's words (`agenthooks run EVENT --host junie`).

Junie (junie.jetbrains.com/docs/junie-cli-hooks.html, the page of 10 July 2026) reads one flat
JSON object at exit 0:

    the verdict (combine.verdict)            Junie's JSON
    PreToolUse deny; stopped                 decision "deny" + reason
    PreToolUse ask                           decision "ask" + reason: Junie asks the user
    PreToolUse updated_args                  updatedInput (the arguments whole)
    PreToolUse, UserPromptSubmit context     additionalContext
    UserPromptSubmit block                   decision "block" + reason
    Stop "continue" (keep going)             decision "block" + reason
    Stop stopped                             continue false + stopReason
    Stop context; message                    additionalContext; systemMessage
    PermissionRequest deny                   decision "deny" + reason
    PermissionRequest allow                  {} at exit 0, which approves the dialog
    PermissionRequest, nothing decided       exit 1: at exit 0 without a deny Junie would
                                             approve the dialog; a hook that fails leaves it
                                             to the user, as when no hook matches
"""

from __future__ import annotations

from agenthooks.hosts.writers import (
    ASK_WORDS,
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

# The exit status that leaves Junie's permission dialog to the user.
NO_OPINION = 1


def write(verdict: Verdict, event: str) -> HostAnswer:
    """The answer for Junie's `event` and the exit status."""
    if event == "PermissionRequest":
        return _permission(verdict)
    output: dict[str, Any] = {}
    if event == "PreToolUse":
        output = _gate(verdict)
    elif event == "UserPromptSubmit" and (verdict.refuses or verdict.stopped):
        output = {"decision": "block",
                  "reason": stop_reason(verdict) or decision_reason(verdict)}
    elif event == "Stop":
        output = _stop(verdict)
    context = for_the_model(verdict)
    if context and event in ("PreToolUse", "UserPromptSubmit", "Stop"):
        output["additionalContext"] = "\n".join(context)
    return HostAnswer(output, 0)


def _gate(verdict: Verdict) -> dict[str, Any]:
    if verdict.refuses:
        return {"decision": "deny", "reason": decision_reason(verdict)}
    stopped = stop_reason(verdict)
    if stopped is not None:
        return {"decision": "deny", "reason": stopped}
    output: dict[str, Any] = {}
    if verdict.word in ASK_WORDS:
        output.update({"decision": "ask", "reason": decision_reason(verdict)})
    if verdict.updated_args is not None:
        output["updatedInput"] = verdict.updated_args
    return output


def _stop(verdict: Verdict) -> dict[str, Any]:
    stopped = stop_reason(verdict)
    output: dict[str, Any] = {}
    if stopped is not None:
        output.update({"continue": False, "stopReason": stopped})
    elif verdict.refuses:
        output.update({"decision": "block", "reason": decision_reason(verdict)})
    message = joined(verdict.message, *verdict.notices)
    if message:
        output["systemMessage"] = message
    return output


def _permission(verdict: Verdict) -> HostAnswer:
    if verdict.refuses or verdict.stopped:
        return HostAnswer({"decision": "deny",
                           "reason": stop_reason(verdict) or decision_reason(verdict)}, 0)
    if verdict.word == "allow":
        return HostAnswer({}, 0)
    return HostAnswer({}, NO_OPINION)
