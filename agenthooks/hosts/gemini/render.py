"""The final answer in Gemini CLI's words (`agenthooks run EVENT --host gemini`).

Gemini CLI parses stdout as JSON at exit 0, "preferred for all logic" (its hooks reference,
docs/hooks/reference.md of google-gemini/gemini-cli), so the answer is said there:

    the verdict (combine.verdict)  Gemini CLI's JSON
    a deny or block                decision "deny" + reason (the events of DECISION_EVENTS:
                                   BeforeTool refuses the call, AfterTool hides the result,
                                   BeforeAgent drops the prompt, AfterAgent retries)
    PreToolUse ask / allow         decision "ask" / "allow" (BeforeTool)
    updated_args                   hookSpecificOutput.tool_input (BeforeTool)
    stopped (continue false)       continue false + stopReason
    injected, steps, context       hookSpecificOutput.additionalContext (CONTEXT_EVENTS),
                                   else systemMessage
    message, notices, warnings     systemMessage: the handlers' message, skipped files, then
                                   agenthooks' warnings (a handler that timed out or crashed,
                                   one that cannot run here)

Gemini CLI's lifecycle events (SessionStart, SessionEnd, Notification, PreCompress) are
advisory and ignore `decision`: a block there exits 2 with the reason on stderr, the exit code
its reference gives for a block.
"""

from __future__ import annotations

from agenthooks.hosts.writers import HostAnswer, common_fields, decision_reason

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.combine.verdict import Verdict


# Events whose `decision: "deny"` blocks (the reference's "Relevant output fields").
DECISION_EVENTS = frozenset(("BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent",
                             "BeforeModel", "AfterModel"))
# Events whose hookSpecificOutput.additionalContext reaches the model.
CONTEXT_EVENTS = frozenset(("SessionStart", "BeforeAgent", "AfterTool"))
# The engine's PreToolUse words that are not a block, in Gemini CLI's `decision`.
TOOL_DECISIONS: dict[str, str] = {"ask": "ask", "force_ask": "ask", "allow": "allow"}


def write(verdict: Verdict, event: str) -> HostAnswer:
    """The answer for Gemini CLI's `event` and the exit status."""
    output: dict[str, Any] = {}
    specific: dict[str, Any] = {}
    code = 0
    word = verdict.word
    if verdict.refuses:
        if event in DECISION_EVENTS:
            output["decision"] = "deny"
            output["reason"] = decision_reason(verdict)
        else:
            code = 2  # the reasons are on stderr already (report.run.write_result)
    elif event == "BeforeTool" and word is not None and word in TOOL_DECISIONS:
        output["decision"] = TOOL_DECISIONS[word]
        if verdict.reason:
            output["reason"] = verdict.reason
    if event == "BeforeTool" and verdict.updated_args is not None and not verdict.blocked:
        specific["tool_input"] = verdict.updated_args
    return common_fields(verdict, event, output, specific, CONTEXT_EVENTS, code)
