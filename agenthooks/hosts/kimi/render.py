"""The final answer in Kimi Code's words (`agenthooks run EVENT --host kimi`).

Kimi Code (@moonshot-ai/kimi-code 2.1.0, externalHooks `internal/runHook.ts`,
`internal/userPrompt.ts`) decides on PreToolUse, Stop and UserPromptSubmit alone, and reads
a block from exit 2 with the reason on stderr, which `run` writes before the answer. It has no
"ask", no rewritten input and no way to stop the agent:

    the verdict (combine.verdict)           Kimi Code
    deny, block, ask on PreToolUse; a       exit 2 (an ask is the block it would be: Kimi
      block on Stop or UserPromptSubmit;      Code cannot ask, and a gate that wanted a
      stopped, but on Stop                    person's word does not let the call through)
    context, injected text, message on      exit 0 with {"message": ...}, which Kimi Code
      UserPromptSubmit                        adds to the conversation for the model
    anything else                           exit 0 and {} (Kimi Code shows no message of
                                            another event)

A rewrite of the arguments cannot be said: `run` warns that it goes unheeded
(`model.capabilities`).
"""

from __future__ import annotations

from agenthooks.hosts.writers import ASK_WORDS, HostAnswer, for_the_model, for_the_user, joined

TYPE_CHECKING = False
if TYPE_CHECKING:
    from agenthooks.combine.verdict import Verdict

BLOCKS = frozenset(("PreToolUse", "Stop", "UserPromptSubmit"))
CONTEXT_EVENT = "UserPromptSubmit"


def write(verdict: Verdict, event: str) -> HostAnswer:
    """The answer for Kimi Code's `event` and the exit status."""
    if event in BLOCKS and refused(verdict, event):
        return HostAnswer({}, 2)
    if event != CONTEXT_EVENT:
        return HostAnswer({}, 0)
    message = for_the_user(verdict, joined(*for_the_model(verdict), verdict.message))
    return HostAnswer({"message": message} if message else {}, 0)


def refused(verdict: Verdict, event: str) -> bool:
    """Whether Kimi Code is to block: a refusal, an ask it cannot put to anyone, or an agent
    to stop (but on Stop, where blocking keeps the agent going)."""
    return (verdict.refuses or verdict.word in ASK_WORDS
            or (verdict.stopped and event != "Stop"))
