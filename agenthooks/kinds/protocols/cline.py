"""One Cline hook's answer, read with Cline's own rules (cline@3.0.65: @cline/core 0.0.86
dist/index.js `runSubprocessEvent`, `parseHookControlOutput`, `createHookConfigFileHooks`;
@cline/agents 0.0.86 dist/index.js `prepareToolExecution`; measured with cline 3.0.65).

Cline reads stdout alone, never the exit code, and only of PreToolUse and PostToolUse hooks
(the others run detached, their answers unread):

    the answer          stdout trimmed: the last line starting `HOOK_CONTROL<tab>`, what
                        follows it; else the whole of stdout; empty is no answer. It must be
                        JSON: anything else is logged and the hook passed over, as a hook that
                        times out (120 s) or cannot start is
    `cancel: true`      ends the whole run (the task): the call is not made and no other
                        model turn follows; `errorMessage`, else the context, is its reason,
                        written to Cline's log alone
    `context`           text for the model (`contextModification` where `context` is no text;
                        `errorMessage` where neither is and nothing cancels), a user message
                        `<hook_context source="PreToolUse" ...>` after the tool's result, cut
                        at 50,000 characters
    `overrideInput`     PreToolUse: the tool's whole input, in place of the model's
    another field       `review` and anything else: nothing in the CLI

An exit code that is not 0 with nothing on stdout is no answer to Cline; here it is a warning
too (a deny under --fail-closed), as a gate that crashed. The result is the same `Answer`
every dialect's protocol gives, so one merge reads them all.
"""

from __future__ import annotations

from agenthooks._lean import jsontext
from agenthooks.jsonlimits import could_be_too_deep
from agenthooks.model.events import block_decision
from agenthooks.model.handlers import Answer, Handler, failure, process_fields

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.executor import ProcessResult

CONTROL = "HOOK_CONTROL\t"
GATE = "PreToolUse"
AWAITED = frozenset((GATE, "PostToolUse"))
CONTEXT_LIMIT = 50_000  # `MAX_HOOK_CONTEXT_SIZE`
CUT = f"\n[hook context truncated: exceeded {CONTEXT_LIMIT} characters]"
# What a run is told when a hook ends it with no reason (`ControlledStopError`'s default).
STOPPED = "Run stopped by runtime control"


def control_text(stdout: str) -> str:
    """What Cline parses of a hook's stdout: the last `HOOK_CONTROL\\t` line's rest (each line
    trimmed first), else the whole of it, trimmed."""
    whole = stdout.strip()
    lines = [line.strip() for line in whole.split("\n")]
    marked = [line[len(CONTROL):] for line in lines if line.startswith(CONTROL)]
    return marked[-1] if marked else whole


def parse(stdout: str) -> tuple[Any, bool]:
    """(the value Cline reads of stdout, whether it is JSON); `{}` for an empty stdout."""
    text = control_text(stdout)
    if not text:
        return {}, True
    if could_be_too_deep(text):
        from agenthooks.sources.reading.jsonpos import too_deep_at

        if too_deep_at(text) is not None:
            return None, False
    try:
        return jsontext.loads(text), True
    except (ValueError, RecursionError):
        return None, False


def fields(said: Any) -> tuple[bool, str | None, str | None, Any]:
    """(cancels, its reason, the context, the override or `...` for none) as Cline reads an
    answer (`parseHookControl`): a value that is no object says nothing."""
    if not isinstance(said, dict):
        return False, None, None, ...
    context = said.get("context") if isinstance(said.get("context"), str) else \
        said.get("contextModification") if isinstance(said.get("contextModification"), str) \
        else None
    message = said.get("errorMessage")
    message = message if isinstance(message, str) and message.strip() else None
    cancels = said.get("cancel") is True
    override = said.get("overrideInput", ...)
    if cancels:
        return True, message or context, None, override
    return False, None, cut(context if context is not None else message), override


def cut(context: str | None) -> str | None:
    """The context as Cline gives it: cut at CONTEXT_LIMIT characters, with its note."""
    if context is None or len(context) <= CONTEXT_LIMIT:
        return context
    return context[:CONTEXT_LIMIT] + CUT


def answer(handler: Handler, result: ProcessResult, event: str) -> Answer:
    """Interpret one finished Cline hook; `event` is the engine's event."""
    common = process_fields(result)
    name = handler.hook or handler.command
    if result.status in ("timeout", "not-started"):
        return failure(handler, result, name, common["stderr"])
    if handler.event not in AWAITED:
        return Answer(handler, "ok", **common)
    said, readable = parse(common["stdout"])
    if not readable:
        return Answer(handler, "ok", warning=f"hook {name!r} wrote stdout that is not JSON "
                                             "(nor a HOOK_CONTROL line of JSON): Cline logs it "
                                             "and goes on without it", failed=True, **common)
    cancels, reason, context, override = fields(said)
    if cancels:
        why = reason or STOPPED
        stops = {"continue": False, "stopReason": why}
        decision = block_decision(event) if handler.event == GATE else None
        return Answer(handler, "ok", output=stops, decision=decision, reason=why, **common)
    specific: dict[str, Any] = {}
    notes: list[str] = []
    if context is not None and context.strip():
        specific["additionalContext"] = context
    if override is not ... and handler.event == GATE:
        if isinstance(override, dict):
            specific["updatedInput"] = override
        else:
            notes.append("overrideInput is not an object: Cline gives it to the tool as its "
                         "whole input, which then fails; ignored here")
    if result.status == "exited" and result.exit_code != 0 and not common["stdout"].strip():
        notes.append(f"exited {result.exit_code} and said nothing: Cline reads no exit code "
                     "and goes on as if it had not run")
    if result.status == "signaled" and not common["stdout"].strip():
        return failure(handler, result, name, common["stderr"])
    output: dict[str, Any] | None = {
        "hookSpecificOutput": {"hookEventName": event, **specific}} if specific else None
    return Answer(handler, "ok", output=output,
                  warning=f"hook {name!r} " + "; ".join(notes) if notes else None,
                  failed=bool(notes), **common)
