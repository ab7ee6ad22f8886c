"""One deepagents-code handler's answer: Claude Code's (`kinds.protocols.claude`), read with what
deepagents-code 0.2.2 does otherwise (deepagents_code/hooks/reducer.py):

    updatedInput    not applied, and it drops the same answer's allow or ask ("updatedInput
                    is not supported"); a deny stands
    defer           ignored: no opinion

    other exits     a failure whose stdout is not read (`hooks/runner.py` `nonzero_exit`),
                    where Claude Code honours the JSON of any exit

A timeout, a crash or another exit code lets the call through: deepagents-code has no
fail-closed switch.
"""

from __future__ import annotations

from agenthooks.kinds.protocols import claude

TYPE_CHECKING = False
if TYPE_CHECKING:
    from agenthooks.executor import ProcessResult
    from agenthooks.model.handlers import Answer, Handler

DROPPED_WITH_REWRITE = frozenset(("allow", "ask"))


def answer(handler: Handler, result: ProcessResult, event: str) -> Answer:
    """Interpret one finished deepagents-code handler; `event` is the engine's event."""
    found = claude.answer(handler, result, event)
    if result.status != "exited" or result.exit_code not in (0, 2):
        return found._replace(output=None, decision=None, reason=None)
    specific = (found.output or {}).get("hookSpecificOutput")
    if isinstance(specific, dict) and "updatedInput" in specific:
        kept = {key: value for key, value in specific.items() if key != "updatedInput"}
        dropped = found.decision in DROPPED_WITH_REWRITE
        found = found._replace(
            output={**(found.output or {}), "hookSpecificOutput": kept},
            decision=None if dropped else found.decision,
            reason=None if dropped else found.reason,
            warning=f"hook {handler.hook or handler.command!r} gave updatedInput, which "
                    "deepagents-code does not apply" + (
                        f" and for which it drops the hook's {found.decision}" if dropped
                        else ""))
    if found.decision == "defer":
        found = found._replace(decision=None, reason=None)
    return found
