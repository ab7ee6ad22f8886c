"""One Cursor handler's answer (cursor.com/docs/hooks, "Exit code behavior", each event's
"Output"; mirror mehmetbaykar/cursor-docs-skill@1cc1c99 skills/cursor-docs/references/hooks.md).

    exit 0   stdout is a JSON object: `permission` allow|deny|ask (preToolUse, subagentStart,
             beforeShellExecution, beforeMCPExecution, beforeReadFile, beforeTabFileRead),
             `user_message` (for the user), `agent_message` (for the agent, with a deny),
             `updated_input` (preToolUse), `additional_context` (postToolUse, sessionStart),
             `followup_message` (stop, subagentStop: keep going), `continue: false`
             (beforeSubmitPrompt: the prompt is not sent). Claude Code's answers
             (`hookSpecificOutput.permissionDecision`, `decision: "block"` on stop) are read
             too, as Cursor reads them (cursor.com/docs/reference/third-party-hooks).
    exit 2   a deny ("equivalent to returning permission: deny")
    else     the hook failed and the action proceeds; so do a timeout and output that is not
             JSON, unless the handler says `failClosed: true`, when each of these denies.

Cursor's answer is read into the words the hooks.json protocol reads (`decision`, `reason`,
`systemMessage`, `hookSpecificOutput`), which then reads it.
"""

from __future__ import annotations

from agenthooks._lean import jsontext
from agenthooks.kinds.protocols.antigravity import answer as hooks_json_answer
from agenthooks.model.events import block_decision
from agenthooks.model.handlers import Answer, Handler, process_fields

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.executor import ProcessResult

# The engine's events on which Cursor's `permission` decides (its other words of those rows,
# subagentStart and the before* events of its own, are named after Cursor).
PERMISSION_EVENTS = frozenset(("PreToolUse", "SubagentStart", "beforeShellExecution",
                               "beforeMCPExecution", "beforeReadFile", "beforeTabFileRead"))
# Where `failClosed` can block (the engine's names of Cursor's blocking events).
FAIL_CLOSED_EVENTS = PERMISSION_EVENTS | {"PreInvocation"}
# Where `followup_message` keeps the agent going.
FOLLOWUP_EVENTS = frozenset(("Stop", "SubagentStop"))


def fails_closed(handler: Handler, event: str) -> bool:
    """Whether the handler says `failClosed: true` on an event it can block."""
    return ("failClosed", True) in handler.options and event in FAIL_CLOSED_EVENTS


def answer(handler: Handler, result: ProcessResult, event: str) -> Answer:
    """Interpret one finished Cursor handler for the engine's `event`."""
    if result.status == "exited" and result.exit_code == 0:
        stdout = result.stdout.decode("utf-8", "replace").strip()
        if stdout and not stdout.startswith("{"):
            found = _not_json(handler, result)
        else:
            found = hooks_json_answer(handler, result._replace(
                stdout=_in_engine_words(stdout, event)), event)
    elif result.status == "exited" and result.exit_code == 2:
        found = hooks_json_answer(handler, result._replace(stdout=b""), event)
        found = found._replace(reason=_message(result.stdout) or found.reason)
    else:
        found = hooks_json_answer(handler, result, event)
    if found.failed and fails_closed(handler, event):
        return _closed(found, event)
    return found


def _not_json(handler: Handler, result: ProcessResult) -> Answer:
    warning = (f"hook {handler.hook!r} wrote text that is not a JSON object, which Cursor "
               "counts as a failed hook; ignored")
    return Answer(handler, "ok", warning=warning, failed=True, **process_fields(result))


def _closed(found: Answer, event: str) -> Answer:
    """A failed handler that says `failClosed`: the deny Cursor gives it."""
    why = found.warning or f"hook {found.hook!r} failed"
    return found._replace(decision=block_decision(event),
                          reason=f"{why} (failClosed: the action is blocked)")


def _message(stdout: bytes) -> str | None:
    """The message a deny by exit 2 carries in stdout's JSON, if any."""
    try:
        said = jsontext.loads(stdout or b"{}")
    except ValueError:
        return None
    if not isinstance(said, dict):
        return None
    text = said.get("agent_message") or said.get("user_message")
    return text if isinstance(text, str) and text.strip() else None


def _in_engine_words(stdout: str, event: str) -> bytes:
    """Cursor's answer as the hooks.json protocol reads it; text that does not parse is left
    for it to report."""
    try:
        said = jsontext.loads(stdout) if stdout else None
    except ValueError:
        return stdout.encode("utf-8")
    if not isinstance(said, dict):
        return stdout.encode("utf-8")
    return jsontext.dumps(in_engine_words(said, event)).encode("utf-8")


def in_engine_words(said: dict[str, Any], event: str) -> dict[str, Any]:
    """Cursor's fields renamed into the engine's; Claude Code's fields kept as they are."""
    out = {key: value for key, value in said.items() if key not in _CURSOR_FIELDS}
    reason = _text(said.get("agent_message")) or _text(said.get("user_message"))
    permission = said.get("permission")
    if permission is not None and event in PERMISSION_EVENTS and "decision" not in out:
        out["decision"] = permission
        _put(out, "reason", reason)
    followup = _text(said.get("followup_message"))
    if followup is not None and event in FOLLOWUP_EVENTS and "decision" not in out:
        out["decision"] = "continue" if event == "Stop" else "block"
        out["reason"] = followup
    if said.get("continue") is False and event == "PreInvocation":
        out["decision"] = "block"
        _put(out, "reason", reason)
    user = _text(said.get("user_message"))
    if user is not None and user != out.get("reason"):
        out["systemMessage"] = user
    specific: dict[str, Any] = {}
    if isinstance(said.get("updated_input"), dict) and event == "PreToolUse":
        specific["updatedInput"] = said["updated_input"]
    context = _text(said.get("additional_context"))
    if context is not None:
        specific["additionalContext"] = context
    given = out.get("hookSpecificOutput")
    if specific and (given is None or isinstance(given, dict)):
        # Claude Code's own nested answer, if the handler gave one, and Cursor's fields.
        out["hookSpecificOutput"] = {"hookEventName": event, **(given or {}), **specific}
    return out


# Cursor's own answer fields, and `continue`, which Cursor reads only on beforeSubmitPrompt
# (its examples write `"continue": true` everywhere; the engine's `continue: false` would
# stop the whole agent).
_CURSOR_FIELDS = frozenset(("permission", "user_message", "agent_message", "updated_input",
                            "additional_context", "followup_message", "continue",
                            "updated_mcp_tool_output", "env", "pluginPaths"))


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def _put(output: dict[str, Any], key: str, value: object) -> None:
    if value is not None:
        output[key] = value
