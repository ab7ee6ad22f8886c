"""One Codex handler's answer, read with Codex's own rules (openai/codex
`codex-rs/hooks/src/engine/output_parser.rs`, `events/*.rs`; developers.openai.com/codex/hooks).

    exit 0      stdout is JSON when it starts with `{`, read as Claude Code's fields are
                (`hookSpecificOutput.permissionDecision`, legacy `decision: "block"` +
                `reason`, `continue`, `systemMessage`, `additionalContext`); plain text is
                context on SessionStart and UserPromptSubmit, and on Stop a failure (Stop
                hooks must print JSON)
    exit 2      a block only with text on stderr, which is the reason; an exit 2 with an
                empty stderr blocks nothing; stdout is not read
    other       a failure: the call goes on (Codex fails open on every failure)

What Codex refuses in an answer makes the hook a failure, not a decision, and the call goes
on: `permissionDecision: "ask"`, a `deny` or `block` without a non-empty reason, `allow`
without `updatedInput`, and `continue: false` on PreToolUse or PermissionRequest.
"""

from __future__ import annotations

from agenthooks.kinds.protocols.antigravity import MalformedOutput, parse_output
from agenthooks.kinds.protocols.claude import read_decision
from agenthooks.model.events import block_decision
from agenthooks.model.handlers import Answer, Handler, failure, process_fields

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.executor import ProcessResult

# Events on which an exit 2 with text on stderr blocks (stops the call, the prompt, or keeps
# the agent going on Stop); on PostToolUse the text replaces what the model hears.
BLOCKS = frozenset(("PreToolUse", "PermissionRequest", "UserPromptSubmit", "Stop",
                    "SubagentStop", "PostToolUse"))
# Events whose plain stdout on exit 0 is context for the model.
CONTEXT_EVENTS = frozenset(("SessionStart", "UserPromptSubmit", "SubagentStart"))
# Events whose exit 0 must print JSON or nothing.
JSON_ONLY = frozenset(("Stop", "SubagentStop"))
# Events that cannot stop the whole agent from their answer.
NO_CONTINUE = frozenset(("PreToolUse", "PermissionRequest"))


def answer(handler: Handler, result: ProcessResult, event: str) -> Answer:
    """Interpret one finished Codex handler; `event` is the engine's event."""
    common = process_fields(result)
    stdout, stderr = common["stdout"], common["stderr"]
    name = handler.hook or handler.command
    own = handler.event
    if result.status == "exited" and result.exit_code == 2:
        if own in BLOCKS and stderr.strip():
            return Answer(handler, "blocked", decision=block_decision(event),
                          reason=stderr.strip(), **common)
        why = "an empty stderr" if own in BLOCKS else f"exit 2, which is not a block on {own}"
        return Answer(handler, "warning", warning=f"hook {name!r} exited 2 with {why}: Codex "
                      "blocks nothing", failed=True, **common)
    if result.status != "exited" or result.exit_code != 0:
        return failure(handler, result, name, stderr)
    text = stdout.strip()
    if not text:
        return Answer(handler, "ok", **common)
    if not text.startswith("{"):
        if own in JSON_ONLY:
            return _refused(handler, common, name, f"printed text, not JSON, on {own}")
        output = ({"hookSpecificOutput": {"hookEventName": own, "additionalContext": text}}
                  if own in CONTEXT_EVENTS else None)
        return Answer(handler, "ok", output=output, **common)
    try:
        output = parse_output(stdout) or {}
    except MalformedOutput as exc:
        return _refused(handler, common, name, f"wrote malformed JSON: {exc}")
    refused = refusal(output, own)
    if refused is not None:
        return _refused(handler, common, name, refused)
    decision, reason, unknown = read_decision(output, own, event)
    if unknown is not None:
        return _refused(handler, common, name, f"gave decision {unknown!r}, unknown for {own}")
    return Answer(handler, "ok", output=output, decision=decision, reason=reason, **common)


def refusal(output: dict[str, Any], own: str) -> str | None:
    """Why Codex would reject this answer as invalid (the hook then fails), or None."""
    if own in NO_CONTINUE and output.get("continue") is False:
        return f"returned continue:false, which {own} does not support"
    specific = output.get("hookSpecificOutput")
    specific = specific if isinstance(specific, dict) else {}
    word = specific.get("permissionDecision") if own == "PreToolUse" else None
    if word == "ask":
        return "returned permissionDecision ask, which Codex does not support"
    if word == "allow" and specific.get("updatedInput") is None:
        return "returned permissionDecision allow without updatedInput, which Codex refuses"
    if word == "deny" and not _text(specific.get("permissionDecisionReason")):
        return "denied without a permissionDecisionReason, which Codex refuses"
    if output.get("decision") == "block" and not _text(output.get("reason")):
        return "returned decision block without a reason, which Codex refuses"
    return None


def _text(value: object) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _refused(handler: Handler, common: dict[str, Any], name: str, why: str) -> Answer:
    return Answer(handler, "warning", warning=f"hook {name!r} {why}; Codex counts the hook as "
                  "failed and goes on", failed=True, **common)
