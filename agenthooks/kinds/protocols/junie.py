"""One JetBrains Junie handler's answer, read with Junie's own rules
(junie.jetbrains.com/docs/junie-cli-hooks.html, the page of 10 July 2026: each event's
"Output", "Exit codes" and "Limitations").

    exit 2          a block, whatever was written: the call denied (PreToolUse,
                    PermissionRequest), the prompt refused (UserPromptSubmit), the agent kept
                    going (Stop); its reason stderr
    exit 0          stdout read as one flat JSON object: `decision` ("allow", "ask", "block",
                    "deny"; Stop and UserPromptSubmit read "block"), `reason`, `updatedInput`
                    (PreToolUse: the arguments whole), `additionalContext` (for the model),
                    `continue: false` with `stopReason` and `systemMessage` (Stop alone);
                    stdout that is not JSON is context for the model on PreToolUse
    another exit    a failure, and everything goes on; but on Stop with `blockOnError: true`,
                    which keeps the agent going with stdout and stderr as the reason

Junie reads no `hookSpecificOutput` but Stop's `additionalContext` [unverified: third parties
disagree on whether its PreToolUse takes Claude Code's `permissionDecision`; read here as the
nothing its documentation says it is]. StopFailure's answer is ignored. The result is the same
`Answer` every dialect's protocol gives, in the engine's words, so one merge reads them all.
"""

from __future__ import annotations

from agenthooks.kinds.protocols.antigravity import MalformedOutput, parse_output
from agenthooks.model.events import block_decision
from agenthooks.model.handlers import Answer, Handler, failure, process_fields

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.executor import ProcessResult

# Each event's decision words, in the engine's.
WORDS: dict[str, dict[str, str]] = {
    "PreToolUse": {"allow": "allow", "ask": "ask", "block": "deny", "deny": "deny"},
    "PermissionRequest": {"block": "deny", "deny": "deny"},
    "UserPromptSubmit": {"block": "block"},
    "Stop": {"block": "block"},
}
OBSERVED = frozenset(("StopFailure",))  # its output and exit code are ignored


def answer(handler: Handler, result: ProcessResult, event: str) -> Answer:
    """Interpret one finished Junie handler; `event` is the engine's event."""
    common = process_fields(result)
    name = handler.hook or handler.command
    own = handler.event
    if own in OBSERVED:
        return Answer(handler, "ok", **common)
    if result.status == "exited" and result.exit_code == 2:
        reason = common["stderr"].strip() or f"hook {name!r} blocked (exit 2)"
        return Answer(handler, "blocked", decision=_engine("block", own, event), reason=reason,
                      **common)
    if result.status != "exited" or result.exit_code != 0:
        failed = failure(handler, result, name, common["stderr"])
        if own == "Stop" and ("blockOnError", True) in handler.options:
            reason = "\n".join(text for text in (common["stdout"].strip(),
                                                 common["stderr"].strip()) if text)
            return failed._replace(decision=block_decision(event),
                                   reason=reason or f"hook {name!r} failed")
        return failed
    said, problem = _said(common["stdout"], own)
    if problem is not None:
        return Answer(handler, "ok", warning=f"hook {name!r} {problem}; ignored", failed=True,
                      **common)
    word = said.get("decision")
    decision = _engine(word, own, event) if isinstance(word, str) else None
    reason = said.get("reason") if isinstance(said.get("reason"), str) else None
    return Answer(handler, "ok", output=_output(said, own, event, decision), decision=decision,
                  reason=reason if decision is not None else None, **common)


def _engine(word: str, own: str, event: str) -> str | None:
    found = WORDS.get(own, {}).get(word)
    if found in ("block", "deny") and own != "PreToolUse":
        return block_decision(event)
    return found


def _said(stdout: str, own: str) -> tuple[dict[str, Any], str | None]:
    """The flat JSON object of an exit 0, or PreToolUse's plain text as its context."""
    text = stdout.strip()
    if not text:
        return {}, None
    if not text.startswith("{"):
        return ({"additionalContext": text}, None) if own == "PreToolUse" else ({}, None)
    try:
        output = parse_output(text)
    except MalformedOutput as exc:
        return {}, f"wrote malformed JSON: {exc}"
    return output or {}, None


def _output(said: dict[str, Any], own: str, event: str, decision: str | None
            ) -> dict[str, Any] | None:
    """What Junie reads of an answer besides its decision, in the engine's fields."""
    specific: dict[str, Any] = {}
    rewritten = said.get("updatedInput")
    if own == "PreToolUse" and decision in (None, "allow", "ask") and isinstance(rewritten, dict):
        specific["updatedInput"] = rewritten
    context = said.get("additionalContext")
    nested = said.get("hookSpecificOutput")
    if own == "Stop" and not isinstance(context, str) and isinstance(nested, dict):
        context = nested.get("additionalContext")
    if own in ("PreToolUse", "UserPromptSubmit", "Stop") and isinstance(context, str) \
            and context.strip():
        specific["additionalContext"] = context
    output: dict[str, Any] = {}
    if own == "Stop":
        if said.get("continue") is False:
            output["continue"] = False
            if isinstance(said.get("stopReason"), str):
                output["stopReason"] = said["stopReason"]
        if isinstance(said.get("systemMessage"), str) and said["systemMessage"]:
            output["systemMessage"] = said["systemMessage"]
    if specific:
        output["hookSpecificOutput"] = {"hookEventName": event, **specific}
    return output or None
