"""The final answer in Windsurf's words (`agenthooks run EVENT --host windsurf`).

Windsurf reads a hook's exit code, not its stdout (docs.windsurf.com/windsurf/cascade/hooks,
"Exit Codes": 0 the action proceeds, 2 a pre-hook blocks it, anything else is logged and the
action proceeds); the reason for a block is what the hook wrote on stderr, which `run`
writes before the answer. So:

    the verdict (combine.verdict)        Windsurf
    deny, block, stop, ask on a pre_*    exit 2 (Windsurf has no ask: an ask is the block
      event                              it would be, as the rule-writers for it do [3p])
    anything else                        exit 0; stdout is `{}`, which it shows only where
                                         a handler says `show_output`
"""

from __future__ import annotations

from agenthooks.hosts.writers import ASK_WORDS, HostAnswer

TYPE_CHECKING = False
if TYPE_CHECKING:
    from agenthooks.combine.verdict import Verdict



def write(verdict: Verdict, event: str) -> HostAnswer:
    """The answer for Windsurf's `event` and the exit status."""
    if not event.startswith("pre_"):
        return HostAnswer({}, 0)
    refused = verdict.refuses or verdict.stopped or verdict.word in ASK_WORDS
    return HostAnswer({}, 2 if refused else 0)
