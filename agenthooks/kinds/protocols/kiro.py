"""One Kiro hook's answer, read with Kiro's own rules (kiro.dev/docs/cli/v3/hooks, "Two action
types", "Trigger reference"; kiro.dev/docs/cli/hooks, "Hook output" and each hook type's "Exit
Code Behavior", aws/amazon-q-developer-cli@35b5266 docs/hooks.md).

    exit 0   success; stdout is added to the model's context on SessionStart and
             UserPromptSubmit (as text: Kiro reads no JSON answer), and read as nothing
             elsewhere
    exit 2   a block on PreToolUse, UserPromptSubmit and PreTaskExec, its stderr the reason
             given to the model; elsewhere a failed hook, its stderr a warning
    else     a failed hook: its stderr is shown as a warning and the action goes on; so do a
             timeout and a crash
"""

from __future__ import annotations

from agenthooks.model.events import block_decision
from agenthooks.model.handlers import Answer, Handler, failure, process_fields

TYPE_CHECKING = False
if TYPE_CHECKING:
    from agenthooks.executor import ProcessResult

# Kiro's triggers an exit 2 blocks ("Can block?"), and those whose stdout is context.
BLOCKS = frozenset(("PreToolUse", "UserPromptSubmit", "PreTaskExec"))
CONTEXT = frozenset(("SessionStart", "UserPromptSubmit"))


def answer(handler: Handler, result: ProcessResult, event: str) -> Answer:
    """Interpret one finished Kiro hook; `event` is the engine's event."""
    common = process_fields(result)
    own = handler.event
    if result.status == "exited" and result.exit_code == 0:
        text = common["stdout"].strip()
        output = ({"hookSpecificOutput": {"hookEventName": own, "additionalContext": text}}
                  if text and own in CONTEXT else None)
        return Answer(handler, "ok", output=output, **common)
    if result.status == "exited" and result.exit_code == 2 and own in BLOCKS:
        reason = common["stderr"].strip() or f"hook {handler.hook!r} blocked (exit 2)"
        return Answer(handler, "blocked", decision=block_decision(event), reason=reason,
                      **common)
    return failure(handler, result, handler.hook or handler.command, common["stderr"])
