"""The final answer in Cline's words (`agenthooks run EVENT --host cline`).

Cline (cline@3.0.65, @cline/core 0.0.86 `parseHookControl`; measured with cline 3.0.65) reads
the stdout of its PreToolUse and PostToolUse hooks alone, never their exit code, and a hook
file can end the whole run but not skip one call (`skip` is for in-process hooks). So the exit
status is always 0 and everything is said in one JSON object:

    the verdict (combine.verdict)      Cline's JSON
    PreToolUse deny; ask; stopped      {"cancel": true, "errorMessage": reason}: the call is
                                       not made and the run ends, the reason in Cline's log
                                       (~/.cline/data/logs/cline.log) alone (Cline cannot ask
                                       from a hook, nor refuse one call and go on)
    PostToolUse stopped                {"cancel": true, "errorMessage": reason}: the run ends
    PostToolUse block                  the reason as context: the call ran already, and a
                                       block feeds its reason back (Claude Code's meaning)
    a rewrite (PreToolUse)             "overrideInput": the whole input, in Cline's names
    context for the model              "contextModification": a user message after the
                                       tool's result
    any other event                    {} (Cline runs it detached and reads nothing)
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

GATE = "PreToolUse"
AFTER = "PostToolUse"


def write(verdict: Verdict, event: str) -> HostAnswer:
    """The answer for Cline's `event`; the exit status is always 0."""
    if event not in (GATE, AFTER):
        return HostAnswer({}, 0)
    ends = refusal(verdict, "Cline") if event == GATE else stop_reason(verdict)
    if ends is not None:
        return HostAnswer({"cancel": True, "errorMessage": ends}, 0)
    output: dict[str, Any] = {}
    texts = for_the_model(verdict)
    if event == AFTER and verdict.refuses:
        texts = [decision_reason(verdict), *texts]
    if texts:
        output["contextModification"] = "\n".join(texts)
    if event == GATE and verdict.updated_args is not None:
        output["overrideInput"] = verdict.updated_args
    return HostAnswer(output, 0)
