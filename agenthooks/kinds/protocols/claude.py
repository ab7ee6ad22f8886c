"""One Claude Code handler's answer, read with Claude Code's own rules (its 2026 reference).

    exit 0      stdout is JSON when it starts with `{`; else plain text, which is context for
                the model on UserPromptSubmit and SessionStart (`additionalContext`) and
                nothing elsewhere
    exit 2      a block on the events of `BLOCKS` (reason: the JSON's, else stderr); elsewhere
                stderr goes where `EXIT_2_ELSEWHERE` says (PostToolUse: to the model)
    other       a non-blocking error
    any exit    a valid JSON object on stdout is honoured

The result is the same `Answer` the hooks.json protocol gives, its decision in the engine's
words for the engine's event, so one merge reads every dialect. `permissionDecision: defer`
is kept as the decision "defer", which the merge ranks only for Claude Code's own output.
"""

from __future__ import annotations

from agenthooks.kinds.protocols.antigravity import MalformedOutput, parse_output
from agenthooks.model.events import block_decision
from agenthooks.model.handlers import Answer, Handler, failure, process_fields

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.executor import ProcessResult

# Events on which exit 2 blocks (the exit-code table of Claude Code's hooks reference).
BLOCKS: frozenset[str] = frozenset((
    "PreToolUse", "PermissionRequest", "UserPromptSubmit", "UserPromptExpansion", "Stop",
    "SubagentStop", "TeammateIdle", "TaskCreated", "TaskCompleted", "ConfigChange",
    "PreCompact", "Elicitation", "ElicitationResult", "WorktreeCreate", "PostToolBatch",
))
# Where stderr of an exit 2 goes on the other events: to the model, or shown to the user.
EXIT_2_ELSEWHERE: dict[str, str] = {"PostToolUse": "model", "PostToolUseFailure": "model"}
# Events on which plain stdout of an exit 0 is context for the model.
CONTEXT_EVENTS: frozenset[str] = frozenset(("UserPromptSubmit", "SessionStart"))

# hookSpecificOutput.permissionDecision, in the engine's words ("defer": see the docstring).
PERMISSION_WORDS: dict[str, str] = {"allow": "allow", "deny": "deny", "ask": "ask",
                                    "defer": "defer"}
# The deprecated top-level `decision` on PreToolUse.
LEGACY_TOOL_WORDS: dict[str, str] = {"approve": "allow", "block": "deny"}


def context(event: str, text: str) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}


def answer(handler: Handler, result: ProcessResult, event: str) -> Answer:
    """Interpret one finished Claude Code handler; `event` is the engine's event."""
    common = process_fields(result)
    stdout, stderr = common["stdout"], common["stderr"]
    name = handler.hook or handler.command
    own = handler.event
    output: dict[str, Any] | None = None
    malformed = None
    if stdout.strip().startswith("{"):
        try:
            output = parse_output(stdout)
        except MalformedOutput as exc:
            malformed = f"hook {name!r} wrote malformed JSON: {exc}; ignored"
    exited = result.status == "exited"
    if exited and result.exit_code == 0:
        text = stdout.strip()
        if output is None and text and malformed is None and own in CONTEXT_EVENTS:
            output = context(own, text)
        decision, reason, unknown = read_decision(output, own, event)
        warning = malformed or (f"hook {name!r} gave decision {unknown!r}, unknown for {own}; "
                                "ignored" if unknown is not None else None)
        return Answer(handler, "ok", output=output, decision=decision, reason=reason,
                      warning=warning, failed=warning is not None, **common)
    if exited and result.exit_code == 2:
        return _exit_2(handler, output, own, event, name, common)
    decision, reason, _ = read_decision(output, own, event)
    failed = failure(handler, result, name, stderr)
    return failed._replace(output=output, decision=decision, reason=reason)


def _exit_2(handler: Handler, output: dict[str, Any] | None, own: str, event: str,
            name: str, common: dict[str, Any]) -> Answer:
    stderr = common["stderr"].strip()
    decision, reason, _ = read_decision(output, own, event)
    if own in BLOCKS:
        reason = reason or stderr or f"hook {name} blocked (exit 2)"
        return Answer(handler, "blocked", output=output, decision=block_decision(event),
                      reason=reason, **common)
    if stderr:
        given = dict(output or {})
        if EXIT_2_ELSEWHERE.get(own) == "model":
            specific = given.get("hookSpecificOutput")
            before = specific.get("additionalContext") if isinstance(specific, dict) else None
            text = f"{before}\n{stderr}" if isinstance(before, str) and before else stderr
            given["hookSpecificOutput"] = {**(specific if isinstance(specific, dict) else {}),
                                           **context(own, text)["hookSpecificOutput"]}
        else:
            before = given.get("systemMessage")
            given["systemMessage"] = f"{before}\n{stderr}" if before else stderr
        output = given
    warning = f"hook {name!r} exited 2, which is not a block on {own}"
    return Answer(handler, "warning", output=output, decision=decision, reason=reason,
                  warning=warning, **common)


def read_decision(
    output: dict[str, Any] | None, own: str, event: str
) -> tuple[str | None, str | None, str | None]:
    """(decision in the engine's words, its reason, an unknown word) of a Claude answer.

    `own` is Claude Code's event name, `event` the engine's. On PreToolUse
    `hookSpecificOutput.permissionDecision` wins over the deprecated `decision`.
    """
    if not output:
        return None, None, None
    specific = output.get("hookSpecificOutput")
    if own == "PreToolUse" and isinstance(specific, dict) \
            and specific.get("permissionDecision") not in (None, ""):
        word = specific["permissionDecision"]
        decision = PERMISSION_WORDS.get(word) if isinstance(word, str) else None
        if decision is None:
            return None, None, str(word)
        return decision, _reason(specific.get("permissionDecisionReason")), None
    if own == "PermissionRequest" and isinstance(specific, dict) \
            and isinstance(specific.get("decision"), dict):
        # {"behavior": "allow" | "deny", "message": ...}: a deny blocks the request.
        verdict = specific["decision"]
        if verdict.get("behavior") == "deny":
            return block_decision(event), _reason(verdict.get("message")), None
        return None, None, None
    word = output.get("decision")
    if word in (None, ""):
        return None, None, None
    reason = _reason(output.get("reason"))
    if own == "PreToolUse":
        decision = LEGACY_TOOL_WORDS.get(word) if isinstance(word, str) else None
        return (decision, reason, None) if decision else (None, None, str(word))
    if word == "block":
        return block_decision(event), reason, None
    if word == "approve":
        return None, None, None
    return None, None, str(word)


def _reason(value: object) -> str | None:
    return value if isinstance(value, str) and value.strip() else None
