"""hooks.json's matchers (`HostRow.selection` of its row): anchored Python regexes over any
host's name for a tool. The format itself is read by `sources.hooksjson`."""

from __future__ import annotations

from agenthooks.model.matcher import in_hooks_json_pattern, in_hooks_json_words, plain_names
from agenthooks.sources.dialects.matching import ALL, Selection


def selection(matcher: str | None, event: str) -> Selection:
    """What a hooks.json matcher selects (anchored: `re.fullmatch`); flat events ignore it."""
    from agenthooks.model.events import TOOL_EVENTS

    if event not in TOOL_EVENTS or matcher in (None, "", "*"):
        return ALL
    assert matcher is not None
    names = plain_names(matcher)
    if names is not None:  # any host's name for a tool selects it (`matcher`)
        return Selection("names", tuple(in_hooks_json_words(names, keep=False)))
    return Selection("full", pattern=in_hooks_json_pattern(matcher, keep=False), python=True)
