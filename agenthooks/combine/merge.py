"""The merged answer of every handler of one event, in config order.

Answers arrive in config order (user file, then workspaces; in each file, in order), never in
completion order, so the merged text is the same on every run. Only handlers that exited 0 give
fields; an exit 2 counts as the event's blocking decision. `allow` is never invented on
PreToolUse: in Antigravity it auto-approves the call, so only a handler (or
`--default-decision`) may say it.
"""

from __future__ import annotations

from agenthooks.model.handlers import Answer
from agenthooks.model.hosts import host_row

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any
    Output = dict[str, Any]
    Merged = tuple[Output, list[str]]  # the answer, and warnings naming hooks
    DecisionMerger = Callable[[Sequence[Answer], str | None, Output], None]
    FieldMerger = Callable[[Sequence[Answer], Output, list[str]], None]

# (answers, --default-decision, answer being built): sets `decision` and `reason`.
# (answers that exited 0 with output, answer being built, warnings): sets the event's fields.

# PreToolUse decisions, least to most restrictive.
TOOL_DECISIONS: tuple[str, ...] = ("allow", "ask", "force_ask", "deny")
_RANK = {word: rank for rank, word in enumerate(TOOL_DECISIONS)}
# Claude Code's ranking (deny > defer > ask > allow): only for its own output (`--host
# claude`); elsewhere a Claude handler's "defer" is no opinion.
CLAUDE_TOOL_DECISIONS: tuple[str, ...] = ("allow", "ask", "force_ask", "defer", "deny")
# A host whose row says `ranks_defer` (Claude Code's, and those derived from it) ranks so.
_DEFER_RANK = {word: rank for rank, word in enumerate(CLAUDE_TOOL_DECISIONS)}

# Exactly one of these keys, with a value of that type, makes an injected step.
STEP_KINDS: dict[str, type] = {"toolCall": dict, "userMessage": str, "ephemeralMessage": str}
# PostInvocation's terminationBehavior, strongest first; "" means the default behaviour.
TERMINATION: tuple[str, ...] = ("terminate", "force_continue")

# What makes a merged answer block: (events, or None for every event; key; value; reason key).
_BLOCKING: tuple[tuple[tuple[str, ...] | None, str, object, str], ...] = (
    (("PreToolUse",), "decision", "deny", "reason"),
    (("Stop",), "decision", "continue", "reason"),
    (None, "decision", "block", "reason"),
    (None, "continue", False, "stopReason"),
)


def _blocking(event: str, merged: Output) -> list[tuple[str, object, str]]:
    """The rules of `_BLOCKING` that the merged answer meets: (key, value, reason key)."""
    return [
        (key, value, reason_key)
        for events, key, value, reason_key in _BLOCKING
        if (events is None or event in events) and key in merged and merged[key] == value
    ]


def blocks(event: str, merged: Output) -> bool:
    """Whether the merged answer stops what the event was about (agenthooks then exits 2)."""
    return bool(_blocking(event, merged))


def block_reasons(event: str, merged: Output) -> list[str]:
    """Why the merged answer blocks, for people on stderr; a placeholder when none was given."""
    found: list[str] = []
    for key, value, reason_key in _blocking(event, merged):
        reason = merged.get(reason_key)
        if isinstance(reason, str) and reason:
            found.append(reason)
        else:
            found.append(f"{event} blocked ({key}: {json_word(value)}, no reason given)")
    return found


def json_word(value: object) -> str:
    return "false" if value is False else str(value)


def _joined(texts: Sequence[str]) -> str | None:
    return "\n".join(texts) if texts else None


def _text(output: Output, key: str) -> str | None:
    value = output.get(key)
    return value if isinstance(value, str) and value else None


def _put(merged: Output, key: str, value: object) -> None:
    """Set `key` only when there is something to say: no empty keys in the answer."""
    if value not in (None, [], {}):
        merged[key] = value


# --- decisions ------------------------------------------------------------------------------


def _tool_decision(answers: Sequence[Answer], default: str | None, merged: Output,
                   rank: dict[str, int] = _RANK) -> None:
    given = [a for a in answers if a.decision in rank]
    if not given:
        if default is not None:
            merged["decision"] = default
        return
    winner = max((a.decision for a in given if a.decision), key=rank.__getitem__)
    merged["decision"] = winner
    _put(merged, "reason", _joined([a.reason for a in given if a.decision == winner and a.reason]))


def _single_decision(word: str) -> DecisionMerger:
    """Events whose only decision is one blocking word ("block", or "continue" on Stop)."""

    def merge_decision(answers: Sequence[Answer], default: str | None, merged: Output) -> None:
        deciders = [a for a in answers if a.decision == word]
        if deciders:
            merged["decision"] = word
            _put(merged, "reason", _joined([a.reason for a in deciders if a.reason]))

    return merge_decision


# --- event-specific fields ------------------------------------------------------------------


def _permission_overrides(ok: Sequence[Answer], merged: Output, warnings: list[str]) -> None:
    union: dict[str, None] = {}  # a dict keeps insertion order
    for a in ok:
        assert a.output is not None
        value = a.output.get("permissionOverrides")
        if value is None:
            continue
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            warnings.append(
                f"hook {a.hook!r}: permissionOverrides must be a list of strings; ignored"
            )
            continue
        union.update(dict.fromkeys(value))
    _put(merged, "permissionOverrides", list(union))


def _inject_steps(ok: Sequence[Answer], merged: Output, warnings: list[str]) -> None:
    steps: list[Any] = []
    for a in ok:
        assert a.output is not None
        value = a.output.get("injectSteps")
        if value is None:
            continue
        if not isinstance(value, list):
            warnings.append(f"hook {a.hook!r}: injectSteps must be a list; ignored")
            continue
        for index, step in enumerate(value):
            if valid_step(step):
                steps.append(step)
            else:
                warnings.append(
                    f"hook {a.hook!r}: injectSteps[{index}] must hold exactly one of toolCall "
                    f"(an object), userMessage or ephemeralMessage (a string); dropped"
                )
    _put(merged, "injectSteps", steps)


def valid_step(step: object) -> bool:
    if not isinstance(step, dict):
        return False
    kinds = [key for key in STEP_KINDS if key in step]
    return len(kinds) == 1 and isinstance(step[kinds[0]], STEP_KINDS[kinds[0]])


def _termination(ok: Sequence[Answer], merged: Output, warnings: list[str]) -> None:
    said: set[str] = set()
    for a in ok:
        assert a.output is not None
        value = a.output.get("terminationBehavior")
        if value is None or value == "":
            continue
        if value in TERMINATION:
            said.add(value)
        else:
            warnings.append(
                f"hook {a.hook!r}: terminationBehavior {value!r} is not one of "
                f"{', '.join(TERMINATION)}; ignored"
            )
    for word in TERMINATION:
        if word in said:
            merged["terminationBehavior"] = word
            break


# Per event: how the decision merges, then the event's own fields, in output order.
EVENT_RULES: dict[str, tuple[DecisionMerger, tuple[FieldMerger, ...]]] = {
    "PreToolUse": (_tool_decision, (_permission_overrides,)),
    "PostToolUse": (_single_decision("block"), ()),
    "PreInvocation": (_single_decision("block"), (_inject_steps,)),
    "PostInvocation": (_single_decision("block"), (_inject_steps, _termination)),
    "Stop": (_single_decision("continue"), ()),
    "SessionStart": (_single_decision("block"), ()),
    # Events of the Python API (no hooks.json key): shell hooks may still block them.
    "ToolError": (_single_decision("block"), ()),
    "SessionEnd": (_single_decision("block"), ()),
}


# A harness's own `custom.<name>` events: a block is their only decision.
_CUSTOM_RULES: tuple[DecisionMerger, tuple[FieldMerger, ...]] = (_single_decision("block"), ())


# --- common fields (seed 001) ---------------------------------------------------------------


def _common(ok: Sequence[Answer], event: str, merged: Output) -> None:
    outputs = [a.output for a in ok if a.output is not None]
    _put(merged, "systemMessage", _joined([t for o in outputs if (t := _text(o, "systemMessage"))]))
    stoppers = [o for o in outputs if o.get("continue") is False]
    if stoppers:
        merged["continue"] = False
        _put(merged, "stopReason", _joined([t for o in stoppers if (t := _text(o, "stopReason"))]))
    if any(o.get("suppressOutput") is True for o in outputs):
        merged["suppressOutput"] = True
    context = _joined([
        t
        for o in outputs
        if isinstance(specific := o.get("hookSpecificOutput"), dict)
        and (t := _text(specific, "additionalContext"))
    ])
    if context is not None:
        # Claude Code requires hookEventName in hookSpecificOutput; the others ignore it.
        merged["hookSpecificOutput"] = {"hookEventName": event, "additionalContext": context}


def _ranks_defer(host: str) -> bool:
    row = host_row(host)
    return row is not None and row.ranks_defer


def merge(event: str, answers: Sequence[Answer], *, default_decision: str | None = None,
          host: str | None = None) -> Merged:
    """The one answer for `event` from every handler's answer, given in config order.

    `default_decision` (PreToolUse only) fills in a decision when no handler gave one.
    A `host` whose row says `ranks_defer` (Claude Code) ranks `defer` (deny > defer > ask >
    allow); otherwise `defer` is no opinion. Fields come from every answer with output: an
    exit 0's, and the JSON a Claude Code handler wrote with another exit code, which that
    host honours.
    """
    decide, fields = EVENT_RULES.get(event, _CUSTOM_RULES)
    ok = [a for a in answers if a.output is not None]
    merged: Output = {}
    warnings: list[str] = []
    default = default_decision if event == "PreToolUse" else None
    if decide is _tool_decision and host is not None and _ranks_defer(host):
        _tool_decision(answers, default, merged, _DEFER_RANK)
    else:
        decide(answers, default, merged)
    for merge_field in fields:
        merge_field(ok, merged, warnings)
    _common(ok, event, merged)
    return merged, warnings
