"""One Mistral Vibe handler's answer, read with Vibe's own rules (PyPI mistral-vibe 3.0.3,
`mistralai_vibe_local_harness/vibe/_foreign_hooks.py`: `_run_command`, `_interpret_stdout`,
`_interpret_post_tool_stdout`, `_interpret_post_agent_stdout`, `_fail`, `_post_tool_fail`).

    exit 0, empty stdout     no opinion
    exit 0, a JSON object    `decision: "deny"` (exact) denies, its `reason` (else DEFAULT_REASONS);
                             `hook_specific_output.tool_input` (an object) rewrites pre_tool's
                             arguments whole; `hook_specific_output.additional_context` (text)
                             is context for the model on post_tool; `system_message` (text) is
                             for the user (not with a pre_tool deny, whose notice is Vibe's
                             own). Any other field or word ("DENY", "block", "allow",
                             camelCase `hookSpecificOutput`) is nothing.
    exit 0, anything else    a failure: "stdout did not match the hook response schema"
    other exits (2 too), a   a failure; stdout is not read
      signal, a timeout

A deny on pre_tool skips the call; on post_tool it replaces the result with the reason (the
engine's block after the tool ran); on post_agent it is a retry (Stop's "keep going"). A
failure lets everything through (a warning naming the hook), but for `strict = true`: on
pre_tool a deny whose reason is Vibe's failure reason (stderr, else stdout, else "exited with
code N"; "timed out"), on post_tool a blanked result, read as a block saying so. The result is
the same `Answer` every dialect's protocol gives, in the engine's words, so one merge reads it.
"""

from __future__ import annotations

from agenthooks._lean import jsontext
from agenthooks.model.events import block_decision
from agenthooks.model.handlers import Answer, Handler, failure, first_line, process_fields

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.executor import ProcessResult

# The reason of a deny that gives none (`_DEFAULT_DENY_REASON`, `_POST_TOOL_DENY_REASON`,
# `_POST_AGENT_DENY_REASON`).
DEFAULT_REASONS: dict[str, str] = {
    "pre_tool": "Blocked by a pre_tool hook.",
    "post_tool": "The tool result was blocked by a post_tool hook.",
    "post_agent": "A post_agent hook asked the agent to revise its response.",
}
# Where `strict = true` turns a failure into a deny (Vibe's config refuses it on post_agent).
STRICT_EVENTS = frozenset(("pre_tool", "post_tool"))
SCHEMA_MISMATCH = "stdout did not match the hook response schema"


def answer(handler: Handler, result: ProcessResult, event: str) -> Answer:
    """Interpret one finished Vibe handler; `event` is the engine's event."""
    common = process_fields(result)
    name = handler.hook or handler.command
    if result.status != "exited" or result.exit_code != 0:
        failed = failure(handler, result, name, common["stderr"])
        return _strict(handler, failed, event, _failure_reason(result, common))
    said, problem = _said(common["stdout"])
    if problem is not None:
        warning = f"hook {name!r}: {problem}, which Vibe counts as a failed hook; ignored"
        failed = Answer(handler, "ok", warning=warning, failed=True, **common)
        return _strict(handler, failed, event, problem)
    own = handler.event
    if said.get("decision") == "deny":
        reason = said.get("reason")
        return Answer(handler, "ok", output=_output(said, own, event, denied=True),
                      decision=block_decision(event),
                      reason=str(reason) if reason else DEFAULT_REASONS.get(own), **common)
    return Answer(handler, "ok", output=_output(said, own, event, denied=False), **common)


def _said(stdout: str) -> tuple[dict[str, Any], str | None]:
    """The JSON object of an exit 0 ({} for empty stdout), or Vibe's reason it is none."""
    text = stdout.strip()
    if not text:
        return {}, None
    try:
        parsed = jsontext.loads(text)
    except ValueError as exc:  # json.JSONDecodeError, whose message Vibe quotes
        return {}, f"{SCHEMA_MISMATCH}: {exc}"
    except RecursionError:
        return {}, f"{SCHEMA_MISMATCH}: nested too deeply"
    if not isinstance(parsed, dict):
        return {}, f"{SCHEMA_MISMATCH}: not an object"
    from agenthooks.jsonlimits import could_be_too_deep, depth_exceeds

    # What passes on to the merge and the host's answer stays within the nesting every other
    # answer is held to (`antigravity.parse_output`).
    if could_be_too_deep(text) and depth_exceeds(parsed):
        return {}, f"{SCHEMA_MISMATCH}: nested too deeply"
    return parsed, None


def _output(said: dict[str, Any], own: str, event: str, *, denied: bool
            ) -> dict[str, Any] | None:
    """What Vibe reads of an answer besides the deny, in the engine's fields: the rewrite
    (pre_tool, not beside a deny, which Vibe checks first), the context (post_tool, deny or
    not: Vibe appends it after the reason), the message for the user."""
    specific = said.get("hook_specific_output")
    specific = specific if isinstance(specific, dict) else {}
    engine: dict[str, Any] = {}
    rewritten = specific.get("tool_input")
    if own == "pre_tool" and not denied and isinstance(rewritten, dict):
        engine["updatedInput"] = rewritten
    context = _text(specific.get("additional_context"))
    if own == "post_tool" and context is not None:
        engine["additionalContext"] = context
    output: dict[str, Any] = {}
    message = _text(said.get("system_message"))
    if message is not None and not (denied and own == "pre_tool"):
        output["systemMessage"] = message
    if engine:
        output["hookSpecificOutput"] = {"hookEventName": event, **engine}
    return output or None


def _strict(handler: Handler, failed: Answer, event: str, reason: str) -> Answer:
    """A failed handler: let through (its warning stands), but under `strict = true`, where
    Vibe skips the call (pre_tool) or blanks the tool's result (post_tool)."""
    own = handler.event
    if ("strict", True) not in handler.options or own not in STRICT_EVENTS:
        return failed
    if own == "post_tool":
        name = handler.hook or handler.command
        reason = (f"The tool result was cleared: strict post_tool hook {name!r} failed: "
                  f"{first_line(reason)}")
    return failed._replace(decision=block_decision(event), reason=reason)


def _failure_reason(result: ProcessResult, common: dict[str, Any]) -> str:
    """Vibe's reason for a run that did not exit 0 (`_run_command`)."""
    if result.status == "timeout":
        return "timed out"
    if result.status == "not-started":
        return f"failed to start: {result.error or 'cannot start'}"
    # asyncio's returncode of a process killed by a signal is minus its number.
    code = result.exit_code if result.status == "exited" else -(result.signal or 0)
    return (common["stderr"].strip() or common["stdout"].strip()
            or f"exited with code {code}")


def _text(value: object) -> str | None:
    """A non-empty string, as Vibe takes `system_message` and `additional_context`."""
    return value if isinstance(value, str) and value else None
