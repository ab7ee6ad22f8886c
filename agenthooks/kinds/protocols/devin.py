"""One Devin CLI handler's answer: Claude Code's (`kinds.protocols.claude`), with the third word
of Devin's `decision`.

Devin CLI documents a command hook's JSON output as `decision` "approve", "block" or "deny"
with a `reason` (docs.devin.ai/cli/extensibility/hooks/overview, "Command Hooks"): Claude
Code's top-level words, and "deny", which Claude Code does not have and which Devin reads as
a block. Its exit codes are Claude Code's: 0 goes on, 2 blocks, another is an error that is
logged ("Exit Codes"). Everything else of the answer is read as Claude Code reads it, as
Devin runs Claude Code's hooks unchanged.
"""

from __future__ import annotations

from agenthooks.kinds.protocols.claude import answer as claude_code_answer
from agenthooks.kinds.protocols.claude import read_decision

TYPE_CHECKING = False
if TYPE_CHECKING:
    from agenthooks.executor import ProcessResult
    from agenthooks.model.handlers import Answer, Handler

DENY = "deny"  # Devin's `decision` word that Claude Code has not: a block


def answer(handler: Handler, result: ProcessResult, event: str) -> Answer:
    """Interpret one finished Devin CLI handler; `event` is the engine's event."""
    found = claude_code_answer(handler, result, event)
    output = found.output
    if found.decision is not None or not isinstance(output, dict) \
            or output.get("decision") != DENY:
        return found
    decision, reason, _ = read_decision({**output, "decision": "block"}, handler.event, event)
    if found.status == "ok":
        return found._replace(decision=decision, reason=reason, warning=None, failed=False)
    return found._replace(decision=decision, reason=reason)
