"""The events a Markdown hook names: each file's word and the engine's event.

The words are the event table's (`agenthooks.model.events.MARKDOWN_WORDS`, printed in
docs/markdown-hooks.md). `custom.<name>` words are valid too; such hooks run only through the
API.
"""

from __future__ import annotations

from agenthooks.model.events import MARKDOWN_WORDS

CUSTOM_PREFIX = "custom."


def is_custom(word: str) -> bool:
    return word.startswith(CUSTOM_PREFIX) and len(word) > len(CUSTOM_PREFIX)


def engine_event(word: str) -> str | None:
    """The engine event of a file's word; None for a custom event (or an unknown word)."""
    return MARKDOWN_WORDS.get(word)


def event_meant(word: str) -> str | None:
    """The event word an unknown word stands for or misspells, as `event_hint` names it;
    None when nothing is close."""
    from agenthooks.model.eventnames import did_you_mean
    from agenthooks.model.events import ALIASES, find_row, foreign_events

    event = ALIASES.get(word, foreign_events().get(word, word))
    row = find_row(event) if event in MARKDOWN_WORDS.values() else None
    return row.id if row is not None else did_you_mean(word, list(MARKDOWN_WORDS))


def event_hint(word: str) -> str:
    """What to write instead of an unknown event word."""
    from agenthooks.model.eventnames import did_you_mean
    from agenthooks.model.events import ALIASES, find_row, foreign_events

    # A hooks.json name, another host's or an adk-fluent alias written where a word belongs.
    event = ALIASES.get(word, foreign_events().get(word, word))
    row = find_row(event) if event in MARKDOWN_WORDS.values() else None
    if row is not None:
        return f"{word} is a hooks.json event name; a Markdown hook writes {row.id!r}"
    guess = did_you_mean(word, list(MARKDOWN_WORDS))
    if guess is not None:
        return f"did you mean {guess!r}?"
    return "known events: " + ", ".join(MARKDOWN_WORDS) + ", or custom.<name>"
