"""The event's one answer and decision (the verdict), in the engine's terms.

Command handlers are merged by `merge` (parallel, most restrictive first); the in-process
fold (`combine.fold`) comes first and either ends the event with a terminal decision or adds
a yes, messages and rewritten arguments to the handlers' merged answer. The result is one
`Verdict` record; every host's writer (`hosts.writers.WRITERS`) renders that record, and
`engine_answer` renders it in the engine's own words (Antigravity's hooks.json), which is what
`agenthooks run` prints without `--host`:

    decision        engine_answer says
    deny            PreToolUse "decision": "deny"; Stop "decision": "continue"; else "block"
    ask             PreToolUse "decision": "ask" ("force_ask" when forced)
    replace         like deny, the reason carrying the supplied result
    approve         PreToolUse "decision": "allow", unless a handler said more
    modify          PreToolUse hookSpecificOutput.updatedInput (dropped when the answer blocks)
    inject          injectSteps ephemeralMessage on PreInvocation/PostInvocation, else
                    systemMessage
"""

from __future__ import annotations

from agenthooks._lean.records import NamedTuple
from agenthooks.combine.failclosed import deny_for_failures
from agenthooks.combine.fold import Folded
from agenthooks.combine.merge import block_reasons, blocks, merge
from agenthooks.model.decision import Decision
from agenthooks.model.events import block_decision
from agenthooks.model.handlers import Answer

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any
    ArgsBack = Callable[[str, dict[str, Any]], dict[str, Any]]

# Where injected messages go: as steps on the model-call events, else as a message.
INJECT_STEP_EVENTS = frozenset(("PreInvocation", "PostInvocation"))
# Decision words that refuse what the event was about (`continue` is Stop's "not yet").
BLOCK_WORDS = frozenset(("deny", "block", "continue"))


class Verdict(NamedTuple):
    """The event's one answer, field by field, for every host's writer.

    `word` is the decision word per the event (PreToolUse deny/ask/force_ask/allow, Stop
    continue, else block) and `reason` the reason given with it; `blocked` says whether the
    answer blocks, by its word or by `stopped` (`continue: false`: the whole agent stops, for
    `stop_reason`). `message` is the handlers' message for the user, `context` their text for
    the model, `injected` the in-process hooks' messages for the model. `updated_args` are
    rewritten arguments in the caller's names (None when the answer blocks). `steps` (the
    handlers' injectSteps), `termination` (terminationBehavior) and `permission_overrides` are
    Antigravity's own fields, kept as data; `deferred` says a handler answered Claude Code's
    permissionDecision "defer". `notices` (skipped files, untrusted workspaces) follow the
    message; `warnings` are agenthooks' warnings the notices do not name already.
    """

    event: str
    decision: Decision = Decision.allow()
    word: str | None = None
    reason: str | None = None
    blocked: bool = False
    stopped: bool = False
    stop_reason: str | None = None
    suppress_output: bool = False
    message: str | None = None
    context: str | None = None
    injected: tuple[str, ...] = ()
    updated_args: dict[str, Any] | None = None
    permission_overrides: tuple[str, ...] = ()
    steps: tuple[dict[str, Any], ...] = ()
    termination: str | None = None
    deferred: bool = False
    notices: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()

    @property
    def refuses(self) -> bool:
        """Whether the decision word blocks (not only `continue: false`)."""
        return self.blocked and self.word in BLOCK_WORDS


class Rendered(NamedTuple):
    output: dict[str, Any]
    blocked: bool
    decision: Decision
    updated_args: dict[str, Any] | None
    warnings: list[str]
    injected: tuple[str, ...]
    verdict: Verdict | None = None


def render(
    event: str,
    folded: Folded,
    answers: Sequence[Answer],
    *,
    default_decision: str | None = None,
    failures: Sequence[str] = (),
    args_back: ArgsBack | None = None,
    base_args: dict[str, Any] | None = None,
) -> Rendered:
    """The one answer for the event. `failures` (fail-closed) turn it into a deny.
    `args_back(dialect, args)` puts arguments a handler rewrote in its own host's names
    back into the caller's; `base_args`, the call's arguments, are what a patch of them
    (`inputPatch`) is laid over."""
    warnings: list[str] = []
    if folded.terminal is not None:
        said = terminal_output(event, folded.terminal, folded.terminal_hook or "?")
        updated = None
    else:
        default = None if folded.approval is not None else default_decision
        said, warnings = merge(event, answers, default_decision=default)
        said = _with_approval(event, said, folded.approval)
        updated = _handler_args(answers, warnings, args_back,
                                folded.args if folded.args is not None else base_args)
        updated = folded.args if updated is None else updated
    if failures:
        said = deny_for_failures(said, failures)
    blocked = blocks(event, said)
    if blocked:
        updated = None  # rewritten arguments mean nothing for a call that does not happen
    verdict = _read(event, said)._replace(
        decision=_final(event, said, blocked, folded, updated), blocked=blocked,
        injected=folded.injected, updated_args=updated, deferred=_deferred(answers))
    return Rendered(engine_answer(verdict), blocked, verdict.decision, updated, warnings,
                    folded.injected, verdict)


def decided(event: str, decision: Decision, warnings: Sequence[str] = ()) -> Verdict:
    """The verdict of a decision made without running the event (agenthooks' own error under
    --fail-closed), as a terminal decision of the fold would say it."""
    said = terminal_output(event, decision, "agenthooks") if decision.terminal else {}
    return _read(event, said)._replace(decision=decision, blocked=blocks(event, said),
                                       warnings=tuple(warnings))


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
    from agenthooks.model.payload import dumps

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
                  args_back: ArgsBack | None,
                  base_args: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """Arguments a handler rewrote (updatedInput, or Gemini's tool_input); the last one wins,
    in the caller's argument names. A patch (Charm Crush's `updated_input`, `inputPatch` in
    the engine's words) is laid over the arguments so far, top-level keys alone, as Crush
    does: over the last rewrite, else over `base_args`, the call's own."""
    found = None
    for a in answers:
        specific = a.output.get("hookSpecificOutput") if a.status == "ok" and a.output else None
        if not isinstance(specific, dict):
            continue
        for key in ("updatedInput", "tool_input", "inputPatch"):
            if key not in specific:
                continue
            if isinstance(specific[key], dict):
                given = specific[key] if args_back is None \
                    else args_back(a.handler.dialect, specific[key])
                found = {**(found if found is not None else base_args or {}), **given} \
                    if key == "inputPatch" else given
            else:
                warnings.append(f"hook {a.hook!r}: hookSpecificOutput.{key} must be an object; "
                                "ignored")
    return found


def _deferred(answers: Sequence[Answer]) -> bool:
    """Whether a handler answered Claude Code's permissionDecision "defer": no opinion to the
    engine, but Claude Code ranks it below deny and above ask, so its writer needs to know."""
    for a in answers:
        specific = a.output.get("hookSpecificOutput") if a.status == "ok" and a.output else None
        if isinstance(specific, dict) and specific.get("permissionDecision") == "defer":
            return True
    return False


def _read(event: str, said: dict[str, Any]) -> Verdict:
    """The fields of the merged answer (merge's words) as a verdict; `decision`, `blocked`,
    `injected` and `updated_args` are the caller's to fill in."""
    specific = said.get("hookSpecificOutput")
    return Verdict(
        event, word=said.get("decision"), reason=said.get("reason"),
        stopped=said.get("continue") is False, stop_reason=said.get("stopReason"),
        suppress_output=said.get("suppressOutput") is True, message=said.get("systemMessage"),
        context=specific.get("additionalContext") if isinstance(specific, dict) else None,
        permission_overrides=tuple(said.get("permissionOverrides", ())),
        steps=tuple(said.get("injectSteps", ())), termination=said.get("terminationBehavior"),
    )


# --- the engine's own answer (Antigravity's hooks.json words) --------------------------------


def engine_answer(verdict: Verdict) -> dict[str, Any]:
    """The verdict in the engine's words: what `agenthooks run` prints without `--host` and
    `--host antigravity` writes. Keys come in the order the merge gives them, then what the
    engine adds (injected messages, rewritten arguments, notices), so the text is stable."""
    output: dict[str, Any] = {}
    _put(output, "decision", verdict.word)
    _put(output, "reason", verdict.reason)
    _put(output, "permissionOverrides", list(verdict.permission_overrides) or None)
    _put(output, "injectSteps", list(verdict.steps) or None)
    _put(output, "terminationBehavior", verdict.termination)
    _put(output, "systemMessage", verdict.message)
    if verdict.stopped:
        output["continue"] = False
        _put(output, "stopReason", verdict.stop_reason)
    if verdict.suppress_output:
        output["suppressOutput"] = True
    if verdict.context is not None:
        output["hookSpecificOutput"] = {"hookEventName": verdict.event,
                                        "additionalContext": verdict.context}
    _add_injected(verdict.event, output, verdict.injected)
    if verdict.updated_args is not None and verdict.event == "PreToolUse":
        specific = output.setdefault("hookSpecificOutput", {"hookEventName": verdict.event})
        specific["updatedInput"] = verdict.updated_args
    for notice in verdict.notices:
        given = output.get("systemMessage")
        output["systemMessage"] = f"{given}\n{notice}" if given else notice
    return output


def _put(output: dict[str, Any], key: str, value: object) -> None:
    if value is not None:
        output[key] = value


def _add_injected(event: str, output: dict[str, Any], injected: Sequence[str]) -> None:
    if not injected:
        return
    if event in INJECT_STEP_EVENTS:
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

