"""The events of the hooks.json format, as data.

Tool events take matcher groups (`{"matcher", "hooks"}`); flat events take handlers directly.
"""

from __future__ import annotations

TOOL_EVENTS: tuple[str, ...] = ("PreToolUse", "PostToolUse")
FLAT_EVENTS: tuple[str, ...] = ("PreInvocation", "PostInvocation", "Stop", "SessionStart")
EVENTS: tuple[str, ...] = TOOL_EVENTS + FLAT_EVENTS
# Events with no hooks.json key, run by in-process hooks (the Python API, `--python`).
API_EVENTS: tuple[str, ...] = ("ToolError", "SessionEnd")
ALL_EVENTS: tuple[str, ...] = EVENTS + API_EVENTS
# Events whose payload names a tool (matchers, argument globs, `ctx.tool_name`).
TOOL_CALL_EVENTS: frozenset[str] = frozenset(("PreToolUse", "PostToolUse", "ToolError"))

# adk-fluent's event names, accepted wherever an event is named (registration and `run`).
ALIASES: dict[str, str] = {
    "pre_tool_use": "PreToolUse",
    "post_tool_use": "PostToolUse",
    "tool_error": "ToolError",
    "pre_model": "PreInvocation",
    "post_model": "PostInvocation",
    "session_start": "SessionStart",
    "session_end": "SessionEnd",
}

# Event names other hosts use, mapped to the nearest event of this format, so that a file
# written for Gemini CLI or Claude Code gets a hint rather than only "unknown event".
FOREIGN_EVENTS: dict[str, str] = {
    "BeforeTool": "PreToolUse",
    "AfterTool": "PostToolUse",
    "PostToolUseFailure": "PostToolUse",
    "BeforeModel": "PreInvocation",
    "BeforeAgent": "PreInvocation",
    "UserPromptSubmit": "PreInvocation",
    "AfterModel": "PostInvocation",
    "AfterAgent": "Stop",
    "SubagentStop": "Stop",
}

DEFAULT_TIMEOUT = 30
INT32_MAX = 2**31 - 1


def is_tool_event(event: str) -> bool:
    return event in TOOL_EVENTS


def did_you_mean(word: str, choices: tuple[str, ...] | list[str]) -> str | None:
    """The closest choice to a misspelt word, or None when nothing is close."""
    lowered = {c.lower(): c for c in choices}
    if word.lower() in lowered:
        return lowered[word.lower()]
    import difflib

    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return close[0] if close else None


def unknown_event_hint(name: str, choices: tuple[str, ...] = EVENTS) -> str:
    """The part of an unknown-event message that tells the user what to write instead."""
    if name in FOREIGN_EVENTS:
        return f"{name} is another host's event name; here it is {FOREIGN_EVENTS[name]!r}"
    guess = did_you_mean(name, choices)
    if guess:
        return f"did you mean {guess!r}?"
    return "known events: " + ", ".join(c for c in choices if c not in ALIASES)


CUSTOM_PREFIX = "custom."


def is_custom_event(name: str) -> bool:
    """`custom.<name>`: an event of the harness's own, run only through the Python API."""
    return name.startswith(CUSTOM_PREFIX) and len(name) > len(CUSTOM_PREFIX)


def host_only_event(name: str) -> str | None:
    """The engine's name of an event only Claude Code or Gemini CLI have (PreCompact,
    Notification, BeforeModel, SubagentStop...): Claude Code's word, else Gemini CLI's; any
    dialect's word is accepted (PreCompress is PreCompact). None for other names."""
    from agenthooks.dialects.events import EVENT_TABLE

    for row in EVENT_TABLE:
        if row.engine is None and name in (row.claude, row.gemini):
            return row.claude or row.gemini
    return None


def any_dialect_event(name: str) -> str | None:
    """The engine's event for any dialect's word of a row (BeforeTool is PreToolUse)."""
    from agenthooks.dialects.events import EVENT_TABLE

    for row in EVENT_TABLE:
        if name in (row.claude, row.gemini, row.antigravity):
            return row.engine or row.claude or row.gemini
    return None


def canonical_event(name: str) -> str:
    """The event a name or alias stands for; raises `UnknownEvent` with a did-you-mean.

    Events of Claude Code or Gemini CLI alone are their own (`host_only_event`); another
    host's word for an event this format has (BeforeTool) is an error with a hint here, and
    accepted by `agenthooks run` (`any_dialect_event`).
    """
    if name in ALL_EVENTS or is_custom_event(name):
        return name
    found = ALIASES.get(name) or host_only_event(name)
    if found is not None:
        return found
    from agenthooks.errors import UnknownEvent

    hint = unknown_event_hint(name, ALL_EVENTS + tuple(ALIASES))
    raise UnknownEvent(f"unknown event {name!r}: {hint}")
