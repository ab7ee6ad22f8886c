"""One Copilot CLI handler's answer (github/docs@05da5bc
content/copilot/reference/hooks-reference.md: "Progress messages", "Exit codes for command
hooks", each event's decision control).

    stdout     lines that are one `{"type": "progress", ...}` object each are dropped; the
               rest is one JSON object (empty or not JSON: no output)
    exit 0     preToolUse `permissionDecision` allow|deny|ask, `permissionDecisionReason`,
               `modifiedArgs`; agentStop/subagentStop `decision: "block"` + `reason` (one more
               turn); permissionRequest `behavior` allow|deny + `message`; `additionalContext`
    exit 2     preToolUse and permissionRequest: a deny, whatever stdout says; postToolUseFailure:
               stdout is context; elsewhere a warning
    other      preToolUse: a deny ("Denied by preToolUse hook (hook errored)"); elsewhere the
               hook failed and the run goes on; a timeout always goes on, preToolUse too

Copilot's answer is read into the words the hooks.json protocol reads, which then reads it.
A PascalCase event's hook is a Claude Code handler that Copilot reads with these rules too
(`claude_answer`).
"""

from __future__ import annotations

from agenthooks._lean import jsontext
from agenthooks.kinds.protocols.antigravity import answer as hooks_json_answer
from agenthooks.kinds.protocols.claude import answer as claude_code_answer
from agenthooks.model.events import block_decision
from agenthooks.model.handlers import Answer, Handler, process_fields

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.executor import ProcessResult

# The engine's names of the events where a non-zero exit denies.
DENY_ON_EXIT = frozenset(("PreToolUse", "PermissionRequest"))
ERRORED = "Denied by preToolUse hook (hook errored)"


def answer(handler: Handler, result: ProcessResult, event: str) -> Answer:
    """Interpret one finished Copilot handler for the engine's `event`."""
    stdout = without_progress(result.stdout.decode("utf-8", "replace"))
    if result.status != "exited":  # a timeout, a signal, no start: the run goes on
        return hooks_json_answer(handler, result, event)
    if result.exit_code == 0:
        return hooks_json_answer(handler, result._replace(
            stdout=_in_engine_words(stdout, event)), event)
    if result.exit_code == 2 and event in DENY_ON_EXIT:
        said = _parsed(stdout) or {}
        reason = said.get("permissionDecisionReason") or said.get("message")
        found = hooks_json_answer(handler, result._replace(stdout=b""), event)
        return found._replace(reason=reason if isinstance(reason, str) and reason.strip()
                              else found.reason)
    if result.exit_code == 2 and event == "ToolError":
        context = {"hookSpecificOutput": {"additionalContext": stdout}} if stdout else {}
        return hooks_json_answer(handler, result._replace(
            stdout=jsontext.dumps(context).encode(), exit_code=0), event)
    if event == "PreToolUse":
        common = process_fields(result)
        return Answer(handler, "blocked", decision=block_decision(event), reason=ERRORED,
                      warning=f"hook {handler.hook!r} exited {result.exit_code}", **common)
    found = hooks_json_answer(handler, result._replace(exit_code=1), event)
    return found._replace(exit_code=result.exit_code)


def claude_answer(handler: Handler, result: ProcessResult, event: str) -> Answer:
    """A Copilot file's PascalCase hook: a Claude Code handler, which Copilot also reads with
    its own rules (measured with copilot 1.0.102, tests/e2e/test_copilot_rules.py): its
    top-level `permissionDecision` and `modifiedArgs` count beside Claude Code's
    `hookSpecificOutput`, the more restrictive decision winning; on preToolUse an exit other
    than 0 and 2 denies (hook errored); a timeout lets the call through, as on every event."""
    claude = claude_code_answer(handler, result, event)
    if result.status != "exited" or result.exit_code == 2:
        return claude
    own = answer(handler, result, event)
    if result.exit_code != 0:
        return own if own.status == "blocked" else claude
    return own if _restriction(own.decision, event) > _restriction(claude.decision, event) \
        else claude


def _restriction(decision: str | None, event: str) -> int:
    """How far a decision holds the call back: a block, then ask, then any other word."""
    if decision is None:
        return 0
    if decision in ("deny", "block") or decision == block_decision(event):
        return 3
    return 2 if decision == "ask" else 1


def without_progress(stdout: str) -> str:
    """stdout without its progress lines, trimmed."""
    kept = [line for line in stdout.splitlines() if not _is_progress(line)]
    return "\n".join(kept).strip()


def _is_progress(line: str) -> bool:
    text = line.strip()
    if not (text.startswith("{") and text.endswith("}")):
        return False
    said = _parsed(text)
    return said is not None and said.get("type") == "progress"


def _parsed(text: str) -> dict[str, Any] | None:
    try:
        said = jsontext.loads(text)
    except ValueError:
        return None
    return said if isinstance(said, dict) else None


def _in_engine_words(stdout: str, event: str) -> bytes:
    """Copilot's answer as the hooks.json protocol reads it; output that is not one JSON
    object is no output, as Copilot reads it."""
    said = _parsed(stdout) if stdout else None
    if said is None:
        return b""
    return jsontext.dumps(in_engine_words(said, event)).encode("utf-8")


def in_engine_words(said: dict[str, Any], event: str) -> dict[str, Any]:
    """Copilot's fields renamed into the engine's."""
    out: dict[str, Any] = {}
    specific: dict[str, Any] = {}
    if event == "PreToolUse":
        _put(out, "decision", said.get("permissionDecision"))
        _put(out, "reason", said.get("permissionDecisionReason"))
        if isinstance(said.get("modifiedArgs"), dict):
            specific["updatedInput"] = said["modifiedArgs"]
    elif event == "PermissionRequest":
        behavior = said.get("behavior")
        _put(out, "decision", "block" if behavior == "deny" else behavior)
        _put(out, "reason", said.get("message"))
    elif event in ("Stop", "SubagentStop") and said.get("decision") == "block":
        out["decision"] = "continue" if event == "Stop" else "block"
        _put(out, "reason", said.get("reason"))
    if isinstance(said.get("additionalContext"), str) and said["additionalContext"].strip():
        specific["additionalContext"] = said["additionalContext"]
    if specific:
        out["hookSpecificOutput"] = {"hookEventName": event, **specific}
    return out


def _put(output: dict[str, Any], key: str, value: object) -> None:
    if value is not None:
        output[key] = value
