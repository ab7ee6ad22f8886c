"""The events a Markdown hook names, as data: each file's word and the engine's event.

`custom.<name>` words are valid too; such hooks run only through the API.
"""

from __future__ import annotations

# The file's word → the hooks.json (engine) event it runs on. Printed in the README.
EVENT_WORDS: dict[str, str] = {
    "tool.pre": "PreToolUse",
    "tool.post": "PostToolUse",
    "turn.start": "PreInvocation",
    "turn.end": "PostInvocation",
    "agent.stop": "Stop",
    "session.start": "SessionStart",
    "session.end": "SessionEnd",
    "error": "ToolError",
}
# The other way round, for hints: a hooks.json name written where a word belongs.
WORD_OF_EVENT: dict[str, str] = {event: word for word, event in EVENT_WORDS.items()}
CUSTOM_PREFIX = "custom."
# Events whose payload names a tool: the script sees payload["name"] and payload["args"].
TOOL_WORDS: frozenset[str] = frozenset(("tool.pre", "tool.post", "error"))


def is_custom(word: str) -> bool:
    return word.startswith(CUSTOM_PREFIX) and len(word) > len(CUSTOM_PREFIX)


def engine_event(word: str) -> str | None:
    """The engine event of a file's word; None for a custom event (or an unknown word)."""
    return EVENT_WORDS.get(word)


def event_hint(word: str) -> str:
    """What to write instead of an unknown event word."""
    from agenthooks.events import ALIASES, FOREIGN_EVENTS, did_you_mean

    event = ALIASES.get(word, FOREIGN_EVENTS.get(word, word))
    if event in WORD_OF_EVENT:
        return f"{word} is a hooks.json event name; a Markdown hook writes {WORD_OF_EVENT[event]!r}"
    guess = did_you_mean(word, list(EVENT_WORDS))
    if guess is not None:
        return f"did you mean {guess!r}?"
    return "known events: " + ", ".join(EVENT_WORDS) + ", or custom.<name>"
