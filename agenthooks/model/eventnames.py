"""Event names as users write them: checking a name, and hints for a wrong one.

The events themselves, and every list of them, are the table in `agenthooks.model.events`.
"""

from __future__ import annotations

from agenthooks.model.events import ALIASES, ALL_EVENTS, EVENTS, foreign_events, host_only_event

DEFAULT_TIMEOUT = 30
INT32_MAX = 2**31 - 1


def did_you_mean(word: str, choices: tuple[str, ...] | list[str]) -> str | None:
    """The closest choice to a misspelt word, or None when nothing is close."""
    lowered = {c.lower(): c for c in choices}
    if word.lower() in lowered:
        return lowered[word.lower()]
    import difflib

    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return close[0] if close else None


def event_meant(name: str, choices: tuple[str, ...] = EVENTS) -> str | None:
    """The event an unknown name stands for (another host's word) or misspells; None when
    nothing is close: what `unknown_event_hint` names, for an editor's quick fix."""
    foreign = foreign_events()
    if name in foreign:
        return foreign[name]
    return did_you_mean(name, choices)


def unknown_event_hint(name: str, choices: tuple[str, ...] = EVENTS) -> str:
    """The part of an unknown-event message that tells the user what to write instead."""
    foreign = foreign_events()
    if name in foreign:
        return f"{name} is another host's event name; here it is {foreign[name]!r}"
    guess = did_you_mean(name, choices)
    if guess:
        return f"did you mean {guess!r}?"
    return "known events: " + ", ".join(c for c in choices if c not in ALIASES)


CUSTOM_PREFIX = "custom."


def is_custom_event(name: str) -> bool:
    """`custom.<name>`: an event of the harness's own, run only through the Python API."""
    return name.startswith(CUSTOM_PREFIX) and len(name) > len(CUSTOM_PREFIX)


def check_event(event: str) -> str:
    """The canonical name of an event, an alias or any dialect's word for it (`agenthooks
    run BeforeTool` is PreToolUse: one row of the event table); `UnknownEvent` (a
    ValueError) otherwise."""
    try:
        return canonical_event(event)
    except ValueError:
        from agenthooks.model.events import any_dialect_event

        found = any_dialect_event(event)
        if found is None:
            raise
        return found


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
