"""The event's one answer and decision (the verdict), in the engine's words (Antigravity's).

Command handlers are merged by `merge` (parallel, most restrictive first); the in-process
fold (`combine.fold`) comes first and either ends the event with a terminal decision or adds
a yes, messages and rewritten arguments to the handlers' merged answer:

    decision        rendered as
    deny            PreToolUse "decision": "deny"; Stop "decision": "continue"; else "block"
    ask             PreToolUse "decision": "ask" ("force_ask" when forced)
    replace         like deny, the reason carrying the supplied result
    approve         PreToolUse "decision": "allow", unless a handler said more
    modify          PreToolUse hookSpecificOutput.updatedInput (dropped when the answer blocks)
    inject          injectSteps ephemeralMessage on PreInvocation/PostInvocation, else
                    systemMessage
"""

from __future__ import annotations

from collections.abc import Sequence

from agenthooks.combine.failclosed import deny_for_failures
from agenthooks.combine.fold import Folded
from agenthooks.combine.merge import block_reasons, blocks, merge
from agenthooks.decision import Decision
from agenthooks.hosts.antigravity.protocol import Answer
from agenthooks.model.events import block_decision

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, NamedTuple
    ArgsBack = Callable[[str, dict[str, Any]], dict[str, Any]]
else:
    from agenthooks._records import NamedTuple

# Where injected messages go: as steps on the model-call events, else as a message.
_INJECT_STEP_EVENTS = frozenset(("PreInvocation", "PostInvocation"))


class Rendered(NamedTuple):
    output: dict[str, Any]
    blocked: bool
    decision: Decision
    updated_args: dict[str, Any] | None
    warnings: list[str]
    injected: tuple[str, ...]


def render(
    event: str,
    folded: Folded,
    answers: Sequence[Answer],
    *,
    default_decision: str | None = None,
    failures: Sequence[str] = (),
    args_back: ArgsBack | None = None,
) -> Rendered:
    """The one answer for the event. `failures` (fail-closed) turn it into a deny.
    `args_back(dialect, args)` puts arguments a handler rewrote in its own host's names
    back into the caller's."""
    warnings: list[str] = []
    if folded.terminal is not None:
        output = terminal_output(event, folded.terminal, folded.terminal_hook or "?")
        updated = None
    else:
        default = None if folded.approval is not None else default_decision
        output, warnings = merge(event, answers, default_decision=default)
        output = _with_approval(event, output, folded.approval)
        updated = _handler_args(answers, warnings, args_back)
        updated = folded.args if updated is None else updated
    if failures:
        output = deny_for_failures(output, failures)
    blocked = blocks(event, output)
    if blocked:
        updated = None  # rewritten arguments mean nothing for a call that does not happen
    _add_injected(event, output, folded.injected)
    if updated is not None and event == "PreToolUse":
        specific = output.setdefault("hookSpecificOutput", {"hookEventName": event})
        specific["updatedInput"] = updated
    decision = _final(event, output, blocked, folded, updated)
    return Rendered(output, blocked, decision, updated, warnings, folded.injected)


def terminal_output(event: str, decision: Decision, hook: str) -> dict[str, Any]:
    if decision.kind == "ask":
        word = "force_ask" if decision.force else "ask"
        return {"decision": word, "reason": decision.reason or f"hook {hook!r} asks"}
    if decision.kind == "replace":
        return {"decision": block_decision(event),
                "reason": f"hook {hook!r} supplied the result: {_text(decision.output)}"}
    reason = decision.reason or f"denied by hook {hook!r}"
    return {"decision": block_decision(event), "reason": reason}


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    from agenthooks.payload import dumps

    try:
        return dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def _with_approval(event: str, output: dict[str, Any], approval: Decision | None) -> dict[str, Any]:
    """An in-process approve counts as one more handler saying allow."""
    if approval is None or event != "PreToolUse":
        return output
    word = output.get("decision")
    if word is None:
        head: dict[str, Any] = {"decision": "allow"}
        if approval.reason:
            head["reason"] = approval.reason
        return {**head, **output}
    if word == "allow" and approval.reason:
        reasons = [approval.reason, *([output["reason"]] if "reason" in output else [])]
        return {"decision": "allow", "reason": "\n".join(reasons),
                **{k: v for k, v in output.items() if k not in ("decision", "reason")}}
    return output


def _handler_args(answers: Sequence[Answer], warnings: list[str],
                  args_back: ArgsBack | None) -> dict[str, Any] | None:
    """Arguments a handler rewrote (updatedInput, or Gemini's tool_input); the last one wins,
    in the caller's argument names."""
    found = None
    for a in answers:
        specific = a.output.get("hookSpecificOutput") if a.status == "ok" and a.output else None
        if not isinstance(specific, dict):
            continue
        for key in ("updatedInput", "tool_input"):
            if key not in specific:
                continue
            if isinstance(specific[key], dict):
                found = specific[key] if args_back is None \
                    else args_back(a.handler.dialect, specific[key])
            else:
                warnings.append(f"hook {a.hook!r}: hookSpecificOutput.{key} must be an object; "
                                "ignored")
    return found


def _add_injected(event: str, output: dict[str, Any], injected: Sequence[str]) -> None:
    if not injected:
        return
    if event in _INJECT_STEP_EVENTS:
        steps = [{"ephemeralMessage": message} for message in injected]
        output["injectSteps"] = steps + list(output.get("injectSteps", []))
    else:
        given = output.get("systemMessage")
        output["systemMessage"] = "\n".join([*injected, *([given] if given else [])])


def _final(
    event: str, output: dict[str, Any], blocked: bool, folded: Folded,
    updated: dict[str, Any] | None,
) -> Decision:
    """The strongest outcome of the event, in the engine's words."""
    if folded.terminal is not None:
        return folded.terminal
    if blocked:
        return Decision.deny("\n".join(block_reasons(event, output)))
    word = output.get("decision") if event == "PreToolUse" else None
    reason = output.get("reason")
    if word in ("ask", "force_ask"):
        return Decision.ask(reason or "", force=word == "force_ask")
    if word == "allow":
        return Decision.approve(reason)
    if updated is not None:
        return Decision.modify(updated)
    if folded.injected:
        return Decision.inject("\n".join(folded.injected))
    return Decision.allow()
