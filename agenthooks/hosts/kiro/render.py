"""The final answer in Kiro's words (`agenthooks run EVENT --host kiro`).

Kiro reads a hook's exit code and its text, never a JSON answer (kiro.dev/docs/cli/v3/hooks,
"Two action types": 0 success, 2 a block on PreToolUse, UserPromptSubmit and PreTaskExec,
stderr the reason for the model; kiro.dev/docs/cli/hooks: stdout of an exit 0 is context on
SessionStart and UserPromptSubmit). The reason of a block is on stderr, which `run` writes
before the answer. So:

    the verdict (combine.verdict)         Kiro
    deny, block, stop, ask on a trigger   exit 2 (Kiro cannot ask from a hook: an ask is the
      that can block                      block it would be, and a gate that wanted a person's
                                          yes does not let the call through)
    context, message, warnings on         exit 0, the text on stdout, which Kiro adds to the
      SessionStart, UserPromptSubmit      model's context
    anything else                         exit 0, nothing on stdout (Kiro shows a hook's stdout
                                          to no one there)
"""

from __future__ import annotations

from agenthooks.hosts.writers import ASK_WORDS, HostAnswer, for_the_model, for_the_user, joined

TYPE_CHECKING = False
if TYPE_CHECKING:
    from agenthooks.combine.verdict import Verdict

BLOCKS = frozenset(("PreToolUse", "UserPromptSubmit", "PreTaskExec"))
CONTEXT = frozenset(("SessionStart", "UserPromptSubmit"))


def write(verdict: Verdict, event: str) -> HostAnswer:
    """The answer for Kiro's `event` and the exit status; stdout is text, never JSON."""
    refused = verdict.refuses or verdict.stopped or verdict.word in ASK_WORDS
    if event in BLOCKS and refused:
        return HostAnswer({}, 2, "")
    if event not in CONTEXT:
        return HostAnswer({}, 0, "")
    text = joined(*for_the_model(verdict), for_the_user(verdict, verdict.message))
    return HostAnswer({}, 0, text + "\n" if text else "")
