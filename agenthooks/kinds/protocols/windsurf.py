"""One Windsurf handler's answer (docs.windsurf.com/windsurf/cascade/hooks, "How Hooks Work",
"Exit Codes").

    exit 0   the action proceeds; stdout is output to show (`show_output`), never read as an
             answer
    exit 2   a pre-hook blocks the action, its stderr the reason; after the action (post_*)
             nothing can be blocked: a failed hook, as Windsurf logs it
    else     "hook error": logged, and the action proceeds; so do a timeout and a crash
"""

from __future__ import annotations

from agenthooks.model.events import block_decision
from agenthooks.model.handlers import Answer, Handler, failure, process_fields

TYPE_CHECKING = False
if TYPE_CHECKING:
    from agenthooks.executor import ProcessResult

# The engine's names of Windsurf's pre-hooks (its pre_* words: PreToolUse for its read,
# write and command events, PreInvocation for pre_user_prompt, its own pre_mcp_tool_use).
BLOCKING_EVENTS = frozenset(("PreToolUse", "PreInvocation", "pre_mcp_tool_use"))


def answer(handler: Handler, result: ProcessResult, event: str) -> Answer:
    """Interpret one finished Windsurf handler for the engine's `event`."""
    common = process_fields(result)
    if result.status == "exited" and result.exit_code == 0:
        return Answer(handler, "ok", **common)
    if result.status == "exited" and result.exit_code == 2 and event in BLOCKING_EVENTS:
        reason = common["stderr"].strip() or f"hook {handler.hook!r} blocked (exit 2)"
        return Answer(handler, "blocked", decision=block_decision(event), reason=reason,
                      **common)
    return failure(handler, result, handler.hook, common["stderr"])
