"""One Charm Crush handler's answer, read with Crush's own rules (charmbracelet/crush
internal/hooks/runner.go@37f36e9, internal/hooks/input.go@37f36e9 `parseStdout`, `aggregate`
in internal/hooks/hooks.go@37f36e9).

    exit 0      the whole stdout, trimmed, one JSON object, else no opinion (empty, text, a log
                line before the JSON, two objects); with a top-level `hookSpecificOutput`,
                only that is read, as Claude Code's: `permissionDecision` allow or deny ("ask"
                is none), `permissionDecisionReason`, `updatedInput`, `additionalContext`;
                else Crush's envelope: `version` (int), `decision` allow or deny in any case
                (another word is none), `halt` (bool: the turn stops, a deny with it or not),
                `reason` (with a deny or a halt), `context` (text, or texts joined by lines),
                `updated_input` (an object, or text holding one: a patch over the arguments'
                top-level keys). A field of the wrong type voids the whole envelope.
    exit 2      a deny, its reason stderr trimmed ("blocked by hook" when empty)
    exit 49     a deny that halts the turn, its reason stderr ("turn halted by hook")
    other       a failure (another exit, a signal, a timeout, no start): the call goes on

A halt is the engine's `continue: false` (the agent stops), as Claude Code's. An
`updated_input` is a patch, as Crush applies it: `hookSpecificOutput.inputPatch` in the
engine's words, laid over the arguments (`combine.verdict`). The result is the same `Answer`
every dialect's protocol gives, so one merge reads them all.
"""

from __future__ import annotations

from agenthooks._lean import jsontext
from agenthooks.model.events import block_decision
from agenthooks.model.handlers import Answer, Handler, failure, process_fields

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.executor import ProcessResult

DENY_EXIT = 2
HALT_EXIT = 49  # `HaltExitCode`
DENY_REASON = "blocked by hook"
HALT_REASON = "turn halted by hook"
DECISIONS = frozenset(("allow", "deny"))
# The envelope's typed fields: a value of another type voids it (JSON null is none).
_TYPES: dict[str, tuple[type, ...]] = {"version": (int,), "decision": (str,), "halt": (bool,),
                                       "reason": (str,)}


def answer(handler: Handler, result: ProcessResult, event: str) -> Answer:
    """Interpret one finished Crush handler; `event` is the engine's event."""
    common = process_fields(result)
    name = handler.hook or handler.command
    if result.status == "exited" and result.exit_code in (DENY_EXIT, HALT_EXIT):
        halts = result.exit_code == HALT_EXIT
        reason = common["stderr"].strip() or (HALT_REASON if halts else DENY_REASON)
        return Answer(handler, "blocked", decision=block_decision(event), reason=reason,
                      output={"continue": False, "stopReason": reason} if halts else None,
                      **common)
    if result.status != "exited" or result.exit_code != 0:
        return failure(handler, result, name, common["stderr"])
    said, problem = read_stdout(common["stdout"])
    if problem is not None:
        return Answer(handler, "ok", warning=f"hook {name!r} {problem}, which Crush reads as "
                                             "no opinion; ignored", failed=True, **common)
    word = said.get("decision")
    decision = (block_decision(event) if word == "deny"
                else word if word == "allow" and event == "PreToolUse" else None)
    halts = said.get("halt") is True
    reason = said.get("reason") if word == "deny" or halts else None
    output: dict[str, Any] = {}
    if halts:
        output["continue"] = False
        output["stopReason"] = reason or HALT_REASON
    specific: dict[str, Any] = {}
    if said.get("context"):
        specific["additionalContext"] = said["context"]
    if said.get("patch") is not None:
        specific["inputPatch"] = said["patch"]
    if specific:
        output["hookSpecificOutput"] = {"hookEventName": event, **specific}
    skipped = said.get("warning")
    return Answer(handler, "ok", output=output or None, decision=decision,
                  reason=reason if decision is not None else None,
                  warning=f"hook {name!r} gave {skipped}" if skipped else None, **common)


def read_stdout(stdout: str) -> tuple[dict[str, Any], str | None]:
    """What Crush reads of an exit 0's stdout, in plain words (`decision`, `halt`, `reason`,
    `context`, `patch`, a `warning`); and why it reads nothing of stdout that starts as JSON
    and is not one well-typed object (None for text, which no hook means as an answer)."""
    text = stdout.strip()
    if not text.startswith("{"):
        return {}, None
    try:
        parsed = jsontext.loads(text)
    except ValueError:
        return {}, "wrote stdout that is not one JSON object"
    except RecursionError:
        return {}, "wrote JSON nested too deeply"
    if not isinstance(parsed, dict):
        return {}, "wrote stdout that is not one JSON object"
    if "hookSpecificOutput" in parsed:
        return _claude(parsed["hookSpecificOutput"]), None
    for key, kinds in _TYPES.items():
        value = parsed.get(key)
        if value is not None and (not isinstance(value, kinds)
                                  or (key == "version" and isinstance(value, bool))):
            return {}, f"wrote `{key}` as {type(value).__name__}, which voids its whole answer"
    said: dict[str, Any] = {}
    word = parsed.get("decision")
    if isinstance(word, str) and word.lower() in DECISIONS:
        said["decision"] = word.lower()
    said["halt"] = parsed.get("halt") is True
    said["reason"] = parsed.get("reason")
    said["context"] = _context(parsed.get("context"))
    if parsed.get("updated_input") is not None:
        said["patch"], said["warning"] = _patch(parsed["updated_input"])
    return said, None


def _claude(specific: Any) -> dict[str, Any]:
    """Claude Code's `hookSpecificOutput`, as Crush reads it (its other fields unread)."""
    if not isinstance(specific, dict):
        return {}
    said: dict[str, Any] = {}
    word = specific.get("permissionDecision")
    if word in DECISIONS:
        said["decision"] = word
    reason = specific.get("permissionDecisionReason")
    said["reason"] = reason if isinstance(reason, str) else None
    context = specific.get("additionalContext")
    said["context"] = context if isinstance(context, str) else None
    if specific.get("updatedInput") is not None:
        said["patch"], said["warning"] = _patch(specific["updatedInput"])
    return said


def _context(value: Any) -> str | None:
    """Text, or texts joined by line breaks with the empty ones left out; other types none."""
    if isinstance(value, str):
        return value or None
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return "\n".join(item for item in value if item) or None
    return None


def _patch(value: Any) -> tuple[dict[str, Any] | None, str | None]:
    """A patch of the arguments: an object, or text holding one; else none, and why."""
    if isinstance(value, str):
        try:
            value = jsontext.loads(value)
        except (ValueError, RecursionError):
            value = None
    if isinstance(value, dict):
        return value, None
    return None, "an updated_input that is not an object, which Crush skips"
