"""The final answer in Mistral Vibe's words (`agenthooks run EVENT --host vibe`).

Vibe reads one JSON object on stdout at exit 0 and nothing else: any other exit is a failed
hook, which it lets through unless the hook says `strict` (PyPI mistral-vibe 3.0.3,
`mistralai_vibe_local_harness/vibe/_foreign_hooks.py` `_run_command`, `_interpret_stdout`,
`_interpret_post_tool_stdout`, `_interpret_post_agent_stdout`). So the exit status is always
0 and everything is said in the JSON, whose only decision is `"deny"`:

    the verdict (combine.verdict)        Vibe's JSON
    pre_tool deny; ask; stopped          decision "deny" + reason: the call is skipped and
                                         the model gets the reason as its result (Vibe
                                         cannot ask, nor stop the agent: a gate that wanted
                                         either does not let the call through)
    pre_tool updated_args                hook_specific_output.tool_input (the arguments whole)
    post_tool block; stopped             decision "deny" + reason: the result is replaced
                                         with the reason
    post_tool context, injected, steps   hook_specific_output.additional_context
    post_agent "continue" (keep going)   decision "deny" + reason: a retry, the reason the
                                         feedback (a stop is what post_agent does anyway)
    message, notices, warnings; context  system_message, shown to the user alone
      the event cannot give the model
"""

from __future__ import annotations

from agenthooks.hosts.writers import (
    ASK_WORDS,
    HostAnswer,
    decision_reason,
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



def write(verdict: Verdict, event: str) -> HostAnswer:
    """The answer for Vibe's `event` (pre_tool, post_tool, post_agent); the exit status is
    always 0, the only one whose answer Vibe reads."""
    output: dict[str, Any] = {}
    specific: dict[str, Any] = {}
    context = for_the_model(verdict)
    reason = _deny_reason(verdict, event)
    if reason is not None:
        output["decision"] = "deny"
        output["reason"] = reason
    elif event == "pre_tool" and verdict.updated_args is not None:
        specific["tool_input"] = verdict.updated_args
    if event == "post_tool" and context:
        # Vibe appends it to the result, or after the reason of a deny.
        specific["additional_context"] = "\n".join(context)
        context = []
    if specific:
        output["hook_specific_output"] = specific
    message = for_the_user(verdict, joined(*context, verdict.message))
    if message is not None:
        output["system_message"] = message
    return HostAnswer(output, 0)


def _deny_reason(verdict: Verdict, event: str) -> str | None:
    """The reason of the deny Vibe is to get on `event`, None when it gets none."""
    if event == "post_agent":
        # A retry keeps the agent going: not when the answer says to stop.
        return decision_reason(verdict) if verdict.refuses and not verdict.stopped else None
    if event not in ("pre_tool", "post_tool"):
        return None
    if event == "post_tool" and verdict.word in ASK_WORDS and not verdict.refuses:
        return stop_reason(verdict)  # the call has run: there is nothing left to ask about
    return refusal(verdict, "Vibe")
