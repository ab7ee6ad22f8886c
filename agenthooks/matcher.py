"""Tool-name matchers: a Python regex that must match the whole tool name.

`"run_command"` matches run_command only, never `mcp_x_run_command_v2`: unlike Claude Code and
Gemini CLI, matchers here are anchored at both ends (`re.fullmatch`). `""`, `"*"` and no
matcher at all match every tool.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

# Plain names and `a|b|c` lists of plain names need no regex engine at all.
_NAMES = re.compile(r"[A-Za-z0-9_\-]+(?:\|[A-Za-z0-9_\-]+)*")

MatchFn = Callable[[str], bool]


def _match_all(tool: str) -> bool:
    return True


def matches_everything(matcher: str | None) -> bool:
    return matcher is None or matcher in ("", "*")


@lru_cache(maxsize=4096)
def compile_matcher(matcher: str | None) -> MatchFn:
    """A predicate on tool names; raises `re.error` when the matcher is not a valid regex."""
    if matches_everything(matcher):
        return _match_all
    assert matcher is not None
    if _NAMES.fullmatch(matcher):
        names = frozenset(matcher.split("|"))
        return names.__contains__
    pattern = re.compile(matcher)
    return lambda tool: pattern.fullmatch(tool) is not None


def matcher_error(matcher: str) -> str | None:
    """Why a matcher does not compile, or None when it does."""
    try:
        compile_matcher(matcher)
    except re.error as exc:
        return str(exc)
    return None


def handler_matches(matcher: str | None, event_is_tool: bool, tool: str | None) -> bool:
    """Whether a handler's matcher selects `tool`; flat events ignore matchers.

    With no tool name known, only match-all matchers select.
    """
    if not event_is_tool or matches_everything(matcher):
        return True
    if tool is None:
        return False
    return compile_matcher(matcher)(tool)
