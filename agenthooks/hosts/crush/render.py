"""The final answer in Charm Crush's words (`agenthooks run PreToolUse --host crush`).

Crush reads an exit 0's stdout as one JSON object, its own envelope (charmbracelet/crush
internal/hooks/input.go@37f36e9 `parseStdout`); exit 2 and 49 say less (a reason on stderr
alone). So the exit status is always 0 and everything is said in the envelope:

    the verdict (combine.verdict)       Crush's envelope
    deny                                `"decision": "deny"` + `reason`: the call is not run,
                                        the model gets "Tool call blocked by hook. Reason: ..."
    ask                                 a deny whose reason says so: Crush cannot ask from a
                                        hook ("ask" is no opinion to it), and a gate that
                                        wanted a person's yes does not let the call through
    stopped (`continue: false`)         `"halt": true` + `reason`: the turn ends (a deny too)
    allow                               `"decision": "allow"`: Crush's permission prompt is
                                        skipped (`--yolo` and `allowed_tools` come first)
    updated_args                        `updated_input` (the arguments whole, which Crush lays
                                        over its own: a key a hook removed stays)
    context, message, warnings          `context`, appended to the tool's result for the
                                        model: Crush shows a hook's user nothing, and drops
                                        the context of a call it denies
"""

from __future__ import annotations

from agenthooks.hosts.writers import (
    ASK_WORDS,
    HostAnswer,
    for_the_model,
    for_the_user,
    joined,
    refusal,
    stop_reason,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.combine.verdict import Verdict

VERSION = 1


def write(verdict: Verdict, event: str) -> HostAnswer:
    """The answer for Crush's `event` (PreToolUse, its only one); the exit status is always 0."""
    output: dict[str, Any] = {"version": VERSION}
    notes = for_the_user(verdict, verdict.message)
    if verdict.refuses or verdict.word in ASK_WORDS or verdict.stopped:
        output["decision"] = "deny"
        reason = refusal(verdict, "Crush")
        also = stop_reason(verdict) if reason != stop_reason(verdict) else None
        output["reason"] = joined(reason, also, notes)
        if verdict.stopped:
            output["halt"] = True
        return HostAnswer(output, 0)
    if verdict.word == "allow":
        output["decision"] = "allow"
    if verdict.updated_args is not None:
        output["updated_input"] = verdict.updated_args
    context = joined(*for_the_model(verdict), notes)
    if context is not None:
        output["context"] = context
    return HostAnswer(output, 0)
