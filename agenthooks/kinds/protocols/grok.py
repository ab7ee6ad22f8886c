"""One Grok Build handler's answer, read with Grok's own rules (xai-org/grok-build@19d42e3,
crates/codegen/xai-grok-hooks/src/runner/command.rs `parse_blocking_result`,
`parse_stop_result`; runner/mod.rs `GateHookJson`, `StopHookJson`).

PreToolUse (a gate):

    stdout JSON with `decision`   "deny" (and, in Grok 1.0.41, Claude Code's "block" and
      or `hookSpecificOutput`     `permissionDecision: "deny"`) denies on any exit code, its
                                  `reason` (else stderr's first line, else "denied by hook");
                                  "allow" or none allows,
                                  `hookSpecificOutput.updatedInput` (an object) rewriting the
                                  arguments, but on exit 2, which denies; any other word
                                  ("ask", "Deny") is a failure, whatever the exit
    exit 0                        allows
    exit 2                        denies, its reason stderr's first non-empty line (256
                                  characters at most)
    other exits, a timeout        a failure, and the call goes on

Stop and SubagentStop: stdout that parses as JSON wins over the exit code: `decision:
"block"` keeps the agent going with its `reason`, "approve" or none is nothing, any other word
a failure; `continue: false` ends the turn (`stopReason`); `hookSpecificOutput.additionalContext`
is fed back. Without JSON, exit 0 is nothing, exit 2 keeps it going with the whole of stderr,
another exit is a failure. On every other event Grok reads nothing of an answer. The result is
the same `Answer` every dialect's protocol gives, so one merge reads them all.
"""

from __future__ import annotations

from agenthooks.kinds.protocols.antigravity import json_object
from agenthooks.model.events import block_decision
from agenthooks.model.handlers import Answer, Handler, failure, process_fields

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.executor import ProcessResult

GATE = "PreToolUse"
# Its gate's words for a deny: "deny" (`gate_json_to_decision`), and Claude Code's "block"
# and `hookSpecificOutput.permissionDecision: "deny"`, which Grok 1.0.41 also reads as one
# (measured: the model gets "Hook denied: <reason>").
DENY_WORDS = frozenset(("deny", "block"))
STOP_GATES = frozenset(("Stop", "SubagentStop"))
REASON_LIMIT = 256  # `MAX_STDERR_LINE_CHARS`


def answer(handler: Handler, result: ProcessResult, event: str) -> Answer:
    """Interpret one finished Grok Build handler; `event` is the engine's event."""
    common = process_fields(result)
    name = handler.hook or handler.command
    own = handler.event
    if result.status != "exited":
        return failure(handler, result, name, common["stderr"])
    if own == GATE:
        return _gate(handler, result.exit_code, common, event, name)
    if own in STOP_GATES:
        return _stop_gate(handler, result.exit_code, common, event, name)
    return Answer(handler, "ok", **common)


def _gate(handler: Handler, code: int | None, common: dict[str, Any], event: str,
          name: str) -> Answer:
    stderr = common["stderr"]
    said = _object(common["stdout"])
    if said is not None and (said.get("decision") is not None
                             or said.get("hookSpecificOutput") is not None):
        decision = said.get("decision")
        specific = said.get("hookSpecificOutput") or {}
        if specific.get("permissionDecision") == "deny":
            decision, said = "deny", {**said, "reason": specific.get("permissionDecisionReason")}
        if decision in DENY_WORDS:
            reason = said.get("reason")
            reason = (reason if isinstance(reason, str) and reason.strip()
                      else first_line(stderr) or f"denied by hook {name!r}")
            return Answer(handler, "ok", decision=block_decision(event), reason=reason,
                          **common)
        if decision not in ("allow", None):
            return _unknown_word(handler, decision, common, name)
        if code != 2:
            return Answer(handler, "ok", output=_rewrite(said, event), **common)
    if code == 0:
        return Answer(handler, "ok", **common)
    if code == 2:
        return Answer(handler, "blocked", decision=block_decision(event),
                      reason=first_line(stderr) or f"denied by hook {name!r} (exit code 2)",
                      **common)
    return Answer(handler, "ok", warning=f"hook {name!r} failed with exit code {code}: Grok "
                                         "lets the call through", failed=True, **common)


def _stop_gate(handler: Handler, code: int | None, common: dict[str, Any], event: str,
               name: str) -> Answer:
    said = _object(common["stdout"])
    if said is not None:
        decision = said.get("decision")
        if decision not in ("block", "approve", None):
            return _unknown_word(handler, decision, common, name)
        output = _stop_output(said, event)
        if decision == "block":
            reason = said.get("reason")
            reason = (reason if isinstance(reason, str) and reason.strip()
                      else f"Blocked by stop hook {name!r}")
            return Answer(handler, "ok", output=output, decision=block_decision(event),
                          reason=reason, **common)
        return Answer(handler, "ok", output=output, **common)
    if code == 0:
        return Answer(handler, "ok", **common)
    if code == 2:
        feedback = common["stderr"].strip() or f"Blocked by stop hook {name!r} (exit code 2)"
        return Answer(handler, "blocked", decision=block_decision(event), reason=feedback,
                      **common)
    return Answer(handler, "ok", warning=f"hook {name!r} failed with exit code {code}: Grok "
                                         "lets the agent stop", failed=True, **common)


def _object(stdout: str) -> dict[str, Any] | None:
    """The JSON object of a trimmed stdout as serde reads Grok's answer types, None when it
    is not one (a field of the wrong type included: serde fails the whole object)."""
    parsed = json_object(stdout)
    if parsed is None:
        return None
    typed = {"decision": str, "reason": str, "stopReason": str, "continue": bool,
             "hookSpecificOutput": dict}
    for key, kind in typed.items():
        if parsed.get(key) is not None and not isinstance(parsed[key], kind):
            return None
    return parsed


def _rewrite(said: dict[str, Any], event: str) -> dict[str, Any] | None:
    specific = said.get("hookSpecificOutput") or {}
    rewritten = specific.get("updatedInput")
    if not isinstance(rewritten, dict):
        return None
    return {"hookSpecificOutput": {"hookEventName": event, "updatedInput": rewritten}}


def _stop_output(said: dict[str, Any], event: str) -> dict[str, Any] | None:
    output: dict[str, Any] = {}
    if said.get("continue") is False:
        output["continue"] = False
        if isinstance(said.get("stopReason"), str):
            output["stopReason"] = said["stopReason"]
    context = (said.get("hookSpecificOutput") or {}).get("additionalContext")
    if isinstance(context, str) and context.strip():
        output["hookSpecificOutput"] = {"hookEventName": event, "additionalContext": context}
    return output or None


def _unknown_word(handler: Handler, word: object, common: dict[str, Any], name: str) -> Answer:
    return Answer(handler, "ok", warning=f"hook {name!r} answered decision {word!r}, which Grok "
                                         "does not know: a failed hook, and it lets everything "
                                         "through", failed=True, **common)


def first_line(stderr: str) -> str | None:
    """stderr's first non-empty line, trimmed, cut at REASON_LIMIT characters with `…`."""
    line = next((each.strip() for each in stderr.splitlines() if each.strip()), None)
    if line is None or len(line) <= REASON_LIMIT:
        return line
    return line[:REASON_LIMIT] + "\u2026"
