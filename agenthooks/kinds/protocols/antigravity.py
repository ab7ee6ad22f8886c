"""One handler's answer: what its exit status and output mean under the exit-code protocol.

Exit 0: stdout is the answer (a JSON object; anything else becomes a `systemMessage`). Exit 2:
a block whose reason is stderr. Anything else (another exit code, a signal, a timeout, a command
that cannot start) is a non-blocking warning and the output is ignored. Decision words are
normalised per event here, so the merge only ever sees this format's own words. The record it
gives, and the helpers every protocol shares, are `model.handlers`'s.
"""

from __future__ import annotations

from agenthooks._lean import jsontext
from agenthooks.model.events import ALL_EVENTS, DEFAULT_BLOCK, block_decision
from agenthooks.model.handlers import Answer, Handler, failure, process_fields

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.executor import ProcessResult


# Decision words a handler may write, per event, and what each means here. None means the word
# is known and asks for nothing (e.g. "allow" on Stop lets the agent stop, as it would anyway);
# a word missing from an event's table is unknown there: a warning, and ignored.
_TOOL_WORDS: dict[str, str | None] = {
    "allow": "allow",
    "approve": "allow",  # Gemini CLI, Claude Code
    "deny": "deny",
    "block": "deny",  # Gemini CLI, Claude Code
    "ask": "ask",
    "force_ask": "force_ask",
}
# On Stop, Claude Code and Gemini CLI write "block"/"deny" for "do not stop yet".
_STOP_WORDS: dict[str, str | None] = {
    "continue": "continue",
    "block": "continue",
    "deny": "continue",
    "allow": None,
    "approve": None,
}
_OTHER_WORDS: dict[str, str | None] = {
    "block": "block",
    "deny": "block",
    "allow": None,
    "approve": None,
}
# Per engine event, the words its `decision` takes: those of what a block means there.
_WORDS_OF_BLOCK: dict[str, dict[str, str | None]] = {
    "deny": _TOOL_WORDS, "continue": _STOP_WORDS, DEFAULT_BLOCK: _OTHER_WORDS}
DECISION_WORDS: dict[str, dict[str, str | None]] = {
    event: _WORDS_OF_BLOCK[block_decision(event)] for event in ALL_EVENTS}
# Claude Code's hookSpecificOutput.permissionDecision; "defer" means "no opinion".
_PERMISSION_WORDS: dict[str, str | None] = {**_TOOL_WORDS, "defer": None}


def answer(handler: Handler, result: ProcessResult, event: str) -> Answer:
    """Interpret one finished process under the exit-code protocol for `event`."""
    common = process_fields(result)
    stdout, stderr = common["stdout"], common["stderr"]
    name = handler.hook
    if result.status == "exited" and result.exit_code == 0:
        try:
            output = parse_output(stdout)
        except MalformedOutput as exc:
            cut = " (cut at 1 MiB)" if result.stdout_truncated else ""
            warning = f"hook {name!r} wrote malformed JSON{cut}: {exc}; ignored"
            return Answer(handler, "ok", warning=warning, failed=True, **common)
        decision, reason, unknown = read_decision(output, event)
        notes = []
        if unknown is not None:
            notes.append(f"gave decision {unknown!r}, unknown for {event}; ignored")
        if result.stdout_truncated:
            # The answer was cut at the limit, so it is likely not the JSON that was meant.
            notes.append("wrote more than 1 MiB on stdout; the rest was dropped")
        return Answer(
            handler, "ok", output=output, decision=decision, reason=reason,
            warning=f"hook {name!r} " + "; ".join(notes) if notes else None,
            failed=unknown is not None, **common,
        )
    if result.status == "exited" and result.exit_code == 2:
        reason = stderr.strip() or f"hook {name} blocked (exit 2)"
        return Answer(handler, "blocked", decision=block_decision(event), reason=reason,
                      **common)
    return failure(handler, result, name, stderr)


class MalformedOutput(ValueError):
    """Output that starts like a JSON object but is not one agenthooks can take."""


def _reject_constant(word: str) -> Any:
    raise ValueError(f"{word} is not valid JSON")


def parse_output(stdout: str) -> dict[str, Any] | None:
    """An exit 0's answer: a JSON object as is, nothing for empty stdout, else a message.

    Output that starts with `{` must be a strict JSON object (no NaN, no integer beyond
    Python's digit limit, nesting within `jsonlimits.MAX_DEPTH`): anything else raises
    `MalformedOutput`, since a cut or mistyped answer must not pass for a message.
    """
    from agenthooks.jsonlimits import MAX_DEPTH, could_be_too_deep, depth_exceeds

    text = stdout.strip()
    if not text:
        return None
    if text[0] != "{":
        return {"systemMessage": text}
    too_deep = f"nests deeper than {MAX_DEPTH} levels"
    try:
        value = jsontext.loads(text, parse_constant=_reject_constant)
    except RecursionError:
        raise MalformedOutput(too_deep) from None
    except ValueError as exc:
        raise MalformedOutput(str(exc)) from None
    if not isinstance(value, dict):  # e.g. `{} []`, which json rejects anyway
        raise MalformedOutput("not a JSON object")
    if could_be_too_deep(text) and depth_exceeds(value):
        raise MalformedOutput(too_deep)
    return value


def json_object(stdout: str) -> dict[str, Any] | None:
    """stdout's JSON object as a host that reads nothing else takes it (Grok Build's and
    Goose's serde): None for empty stdout, text that is not one, or one `parse_output`
    refuses."""
    if not stdout.strip().startswith("{"):
        return None
    try:
        return parse_output(stdout)
    except MalformedOutput:
        return None


def read_decision(
    output: dict[str, Any] | None, event: str
) -> tuple[str | None, str | None, str | None]:
    """(decision in this format's words, its reason, the word if unknown for the event).

    `decision` and, on PreToolUse, Claude Code's `hookSpecificOutput.permissionDecision`
    (with `permissionDecisionReason`) are both read, the more restrictive winning (a script
    from any host's docs gates alike). An empty word is no word.

    On PreToolUse the Antigravity CLI's other vocabulary is read too: `{"allowTool": false,
    "denyReason": ...}` (google-gemini/gemini-cli@a69d422
    docs/resources/migrating-to-antigravity-cli.md, "Hooks"), where Antigravity's hooks page
    says `{"decision": "deny", "reason": ...}`. `allowTool: false` denies whatever `decision`
    says (the more restrictive answer wins, so a gate written for either version never lets a
    tool through that it meant to stop); `allowTool: true` is an allow where no `decision`
    says more. A value that is not a boolean is reported, as an unknown word is.
    """
    decision, reason, unknown = _decision_word(output, event)
    if event != "PreToolUse" or not output or "allowTool" not in output:
        return decision, reason, unknown
    allow_tool = output["allowTool"]
    if not isinstance(allow_tool, bool):
        return decision, reason, unknown or f"allowTool: {jsontext.dumps(allow_tool)}"
    if allow_tool is False:
        why = output.get("denyReason")
        if not (isinstance(why, str) and why.strip()):
            why = reason if decision == "deny" else None
        return "deny", why, unknown
    if decision is None and unknown is None:
        return "allow", None, None
    return decision, reason, unknown


# How restrictive each decision is: where a handler answers in two vocabularies at once
# (`decision` and Claude Code's `permissionDecision`), the more restrictive answer is taken.
_RESTRICTION: dict[str, int] = {"allow": 0, "ask": 1, "force_ask": 2, "deny": 3,
                                "continue": 3, "block": 3}


def _decision_word(
    output: dict[str, Any] | None, event: str
) -> tuple[str | None, str | None, str | None]:
    """`read_decision` for `decision` (Antigravity's and Gemini CLI's words, Claude Code's
    `block`) and, on PreToolUse, Claude Code's `hookSpecificOutput.permissionDecision` and
    Copilot CLI's top-level `permissionDecision` (with `permissionDecisionReason`): a script
    written for any of these hosts is read, and where several are given the most restrictive
    wins. An empty word is no word."""
    if not output:
        return None, None, None
    found = [_word(output.get("decision"), output.get("reason"),
                   DECISION_WORDS.get(event, _OTHER_WORDS))]
    specific = output.get("hookSpecificOutput")
    if event == "PreToolUse" and isinstance(specific, dict):
        found.append(_word(specific.get("permissionDecision"),
                           specific.get("permissionDecisionReason", output.get("reason")),
                           _PERMISSION_WORDS))
    if event == "PreToolUse" and "permissionDecision" in output:  # Copilot CLI's, top level
        found.append(_word(output.get("permissionDecision"),
                           output.get("permissionDecisionReason", output.get("reason")),
                           _PERMISSION_WORDS))
    unknown = next((word for _, _, word in found if word is not None), None)
    known = [(decision, reason) for decision, reason, _ in found if decision is not None]
    if not known:
        return None, None, unknown
    decision, reason = max(known, key=lambda pair: _RESTRICTION.get(pair[0], 3))
    return decision, reason, unknown


def _word(word: Any, reason: Any, words: dict[str, str | None]
          ) -> tuple[str | None, str | None, str | None]:
    """(decision, its reason, the word if unknown) of one vocabulary's answer."""
    if word is None or word == "":
        return None, None, None
    if not isinstance(word, str) or word not in words:
        return None, None, word if isinstance(word, str) else jsontext.dumps(word)
    decision = words[word]
    if decision is None:
        return None, None, None
    return decision, reason if isinstance(reason, str) and reason.strip() else None, None
