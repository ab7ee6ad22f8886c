"""One Kimi Code handler's answer, read with Kimi Code's own rules (@moonshot-ai/kimi-code 2.1.0,
externalHooks `internal/runHook.ts` `resultFromExitCode`, `structuredOutput`;
`internal/userPrompt.ts`).

    exit 2      a block, its reason stderr ("Blocked by <event> hook" when empty)
    exit 0      stdout read as one JSON object: `hookSpecificOutput.permissionDecision:
                "deny"` blocks (its reason `permissionDecisionReason`); `message` (or
                hookSpecificOutput's) is the hook's message; on UserPromptSubmit that
                message, else the plain stdout, is context for the model
    other       a failure, and the call goes on: no JSON is read

A block counts on PreToolUse, Stop and UserPromptSubmit, the events Kimi Code waits on to
decide (`triggerBlock`); on the others it changes nothing. Kimi Code reads no top-level
`decision`, no "ask" and no rewritten input: such an answer is read as the nothing it is
there. The result is the same `Answer` every dialect's protocol gives, its context in
hookSpecificOutput, so that one merge reads them all.
"""

from __future__ import annotations

from agenthooks.kinds.protocols.antigravity import MalformedOutput, parse_output
from agenthooks.model.events import block_decision
from agenthooks.model.handlers import Answer, Handler, failure, process_fields

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.executor import ProcessResult

BLOCKS = frozenset(("PreToolUse", "Stop", "UserPromptSubmit"))
CONTEXT_EVENT = "UserPromptSubmit"


def answer(handler: Handler, result: ProcessResult, event: str) -> Answer:
    """Interpret one finished Kimi Code handler; `event` is the engine's event."""
    common = process_fields(result)
    name = handler.hook or handler.command
    own = handler.event
    if result.status != "exited" or result.exit_code not in (0, 2):
        return failure(handler, result, name, common["stderr"])
    if result.exit_code == 2:
        reason = common["stderr"].strip() or f"Blocked by {own} hook"
        if own in BLOCKS:
            return Answer(handler, "blocked", decision=block_decision(event), reason=reason,
                          **common)
        return Answer(handler, "warning", warning=f"hook {name!r} exited 2, which Kimi Code "
                                                  f"reads as a block on {', '.join(sorted(BLOCKS))}"
                                                  " alone", **common)
    said, problem = _said(common["stdout"])
    blocked = said.get("block") is True
    output = _output(said, own, common["stdout"])
    if blocked and own in BLOCKS:
        return Answer(handler, "ok", output=output, decision=block_decision(event),
                      reason=said.get("reason") or f"Blocked by {own} hook", **common)
    warning = f"hook {name!r} {problem}; ignored" if problem else None
    return Answer(handler, "ok", output=output, warning=warning, failed=warning is not None,
                  **common)


def _said(stdout: str) -> tuple[dict[str, Any], str | None]:
    """What Kimi Code reads of a JSON answer: `block`, `reason`, `message`; and why it reads
    nothing of stdout that starts as JSON and is not."""
    text = stdout.strip()
    if not text.startswith("{"):
        return {}, None
    try:
        output = parse_output(text)
    except MalformedOutput as exc:
        return {}, f"wrote malformed JSON: {exc}"
    assert output is not None
    specific = output.get("hookSpecificOutput")
    specific = specific if isinstance(specific, dict) else {}
    said: dict[str, Any] = {}
    message = _text(output.get("message")) or _text(specific.get("message"))
    if message:
        said["message"] = message
    if specific.get("permissionDecision") == "deny":
        said["block"] = True
        reason = specific.get("permissionDecisionReason")
        if isinstance(reason, str) and reason.strip():
            said["reason"] = reason.strip()
    return said, None


def _output(said: dict[str, Any], own: str, stdout: str) -> dict[str, Any] | None:
    """The answer in the shape every protocol gives: UserPromptSubmit's message (else its
    whole stdout) as context for the model, another event's message for the user."""
    message = said.get("message")
    if own == CONTEXT_EVENT and not said.get("block"):
        text = message or stdout.strip()  # JSON without a message too, as Kimi Code does
        if text:
            return {"hookSpecificOutput": {"hookEventName": own, "additionalContext": text}}
        return None
    return {"systemMessage": message} if message else None


def _text(value: object) -> str | None:
    """A message as Kimi Code's schema takes it: text, or a number or boolean as text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        value = int(value)  # JavaScript's String(1.0) is "1"
    if isinstance(value, (int, float, str)):
        return str(value) if str(value).strip() else None
    return None
