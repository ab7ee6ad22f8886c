"""One Augment handler's answer, read with Augment's own rules (@augmentcode/auggie 0.36.0,
augment.mjs `wao`, `OIt`, `zIt`).

    exit 0      stdout is read when it is a JSON object that Augment's schema takes; plain
                text is nothing
    exit 2      a block on PreToolUse (reason: the JSON's, else stderr); elsewhere nothing
                more than an exit 0, its JSON still read
    other       a non-blocking error: Augment reads no JSON then, and the call goes on

Decisions: PreToolUse `hookSpecificOutput.permissionDecision` (allow, deny, ask); Stop's and
PostToolUse's `hookSpecificOutput.decision: "block"`; no top-level `decision`. An answer that
fails the schema (a hookSpecificOutput under another event's name, PromptSubmit's included, a
permissionDecision "defer") is dropped whole, as Augment drops it. Context is
`additionalContext` at the top level, or in hookSpecificOutput on PostToolUse and
SessionStart; the result is the same `Answer` every dialect's protocol gives, its context in
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

# hookSpecificOutput.hookEventName values Augment's schema takes, and what each may decide.
SPECIFIC_EVENTS = frozenset(("PreToolUse", "PostToolUse", "Stop", "SessionStart", "SessionEnd",
                             "Notification"))
PERMISSION_WORDS: dict[str, str] = {"allow": "allow", "deny": "deny", "ask": "ask"}
NESTED_BLOCK = frozenset(("PostToolUse", "Stop"))


def answer(handler: Handler, result: ProcessResult, event: str) -> Answer:
    """Interpret one finished Augment handler; `event` is the engine's event."""
    common = process_fields(result)
    name = handler.hook or handler.command
    own = handler.event
    if result.status != "exited" or result.exit_code not in (0, 2):
        return failure(handler, result, name, common["stderr"])
    output, problem = _read(common["stdout"], own)
    warning = f"hook {name!r} {problem}; ignored" if problem else None
    decision, reason = read_decision(output, own, event)
    if result.exit_code == 2:
        if own == "PreToolUse":
            reason = reason or common["stderr"].strip() or f"hook {name} blocked (exit 2)"
            return Answer(handler, "blocked", output=output, decision=block_decision(event),
                          reason=reason, **common)
        warning = warning or f"hook {name!r} exited 2, which Augment reads as a block on " \
                             "PreToolUse alone"
        return Answer(handler, "warning", output=output, decision=decision, reason=reason,
                      warning=warning, **common)
    return Answer(handler, "ok", output=output, decision=decision, reason=reason,
                  warning=warning, failed=warning is not None, **common)


def _read(stdout: str, own: str) -> tuple[dict[str, Any] | None, str | None]:
    """The answer in the shape every protocol gives, or None and why Augment drops it."""
    if not stdout.strip().startswith("{"):
        return None, None
    try:
        output = parse_output(stdout)
    except MalformedOutput as exc:
        return None, f"wrote malformed JSON: {exc}"
    assert output is not None
    specific = output.get("hookSpecificOutput")
    if specific is not None:
        # A handler's JSON may hold any value here (a list is no key of a table).
        named = specific.get("hookEventName") if isinstance(specific, dict) else None
        if not isinstance(named, str) or named not in SPECIFIC_EVENTS:
            return None, (f"answered with hookSpecificOutput for {named!r}, which Augment's "
                          "schema does not take, so Augment drops the whole answer")
        word = specific.get("permissionDecision")
        if word is not None and (named != "PreToolUse" or not isinstance(word, str)
                                 or word not in PERMISSION_WORDS):
            return None, (f"gave permissionDecision {word!r}, which Augment's schema does not "
                          "take, so Augment drops the whole answer")
    context = _context(output, own)
    if context is not None:
        nested = dict(specific) if isinstance(specific, dict) else {"hookEventName": own}
        output = {**output, "hookSpecificOutput": {**nested, "additionalContext": context}}
    return output, None


def _context(output: dict[str, Any], own: str) -> str | None:
    """What reaches the model: hookSpecificOutput's on PostToolUse and SessionStart, else the
    top-level additionalContext."""
    specific = output.get("hookSpecificOutput")
    nested = specific.get("additionalContext") if isinstance(specific, dict) else None
    if own in ("PostToolUse", "SessionStart") and isinstance(nested, str) and nested:
        return nested
    top = output.get("additionalContext")
    return top if isinstance(top, str) and top else None


def read_decision(output: dict[str, Any] | None, own: str, event: str
                  ) -> tuple[str | None, str | None]:
    """(decision in the engine's words, its reason) of an Augment answer."""
    specific = output.get("hookSpecificOutput") if output else None
    if not isinstance(specific, dict) or specific.get("hookEventName") != own:
        return None, None
    if own == "PreToolUse" and specific.get("permissionDecision") in PERMISSION_WORDS:
        return (PERMISSION_WORDS[specific["permissionDecision"]],
                _reason(specific.get("permissionDecisionReason")))
    if own in NESTED_BLOCK and specific.get("decision") == "block":
        return block_decision(event), _reason(specific.get("reason"))
    return None, None


def _reason(value: object) -> str | None:
    return value if isinstance(value, str) and value.strip() else None
