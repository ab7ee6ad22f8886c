"""Tool-name matchers: a Python regex that must match the whole tool name.

`"run_command"` matches run_command only, never `mcp_x_run_command_v2`: unlike Claude Code and
Gemini CLI, matchers here are anchored at both ends (`re.fullmatch`). `""`, `"*"` and no
matcher at all match every tool.

A plain name that is another host's name for a tool of the tool table (`Bash`,
`run_shell_command`), alone, in a list or beside a pattern (`Bash|mcp__.*`), selects that tool,
whatever host calls it: hooks.json runs under every
host, and its matchers are compared with the tool's name in hooks.json's words
(`plan.select.tool_in`), so the name stands for every host's name of its tool.
"""

from __future__ import annotations

from agenthooks._lean.memo import memo
from agenthooks.model.hosts import HOOKS_JSON_DIALECT

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    MatchFn = Callable[[str], bool]

# Plain names and `a|b|c` lists of plain names need no regex engine at all, and a run whose
# matchers are all such names never imports `re` (with `enum` and `functools` behind it,
# about 25 million instructions, two thirds of the interpreter's own start). That reading is
# `re.fullmatch`'s: tests/shipped/test_lean_differential.py compares the two, and the
# selection that rules patterns out before compiling them (`plan.select.selects`), over
# generated patterns and names in a fresh interpreter of every supported Python.
ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
# The characters of a plain name, `[A-Za-z0-9_-]`: no regex reads any of them otherwise.
NAME_CHARS = frozenset(ALNUM + "_-")


def _match_all(tool: str) -> bool:
    return True


def matches_everything(matcher: str | None) -> bool:
    return matcher is None or matcher in ("", "*")


def is_plain_name(text: str) -> bool:
    """Whether `text` is a non-empty run of `[A-Za-z0-9_-]` (`re.fullmatch` of that class)."""
    return bool(text) and NAME_CHARS.issuperset(text)


def plain_names(matcher: str) -> list[str] | None:
    """The names of `a|b|c` when each is a plain name, else None."""
    names = matcher.split("|")
    return names if all(map(is_plain_name, names)) else None


def named_alternatives(pattern: str) -> list[str]:
    """The alternatives at the top level of a regex that are plain names: every name of
    `a|b|c`, `Bash` and `Grep` of `Bash|Grep|mcp__.*` (see `alternatives`)."""
    return [name for name in alternatives(pattern) or () if is_plain_name(name)]


def alternatives(pattern: str) -> list[str] | None:
    """A regex split at the `|` of its top level: `Bash`, `Grep` and `mcp__.*` of
    `Bash|Grep|mcp__.*`. A `|` escaped, in a class or in a group splits nothing; None for a
    pattern with an inline flag (`(?i)`), which may change what a name in it matches, or an
    unclosed class."""
    found = []
    start = depth = 0
    at = 0
    while at < len(pattern):
        char = pattern[at]
        if char == "\\":
            at += 1
        elif char == "[":
            at = _class_end(pattern, at)
            if at < 0:
                return None
        elif char == "(":
            if pattern.startswith("(?", at) and pattern[at + 2:at + 3] not in (":", "=", "!", "<"):
                return None
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "|" and depth == 0:
            found.append(pattern[start:at])
            start = at + 1
        at += 1
    found.append(pattern[start:])
    return found


def in_hooks_json_pattern(pattern: str, *, keep: bool = True) -> str:
    """A hooks.json regex with each name at its top level standing for its tool as a list's
    names do (`in_hooks_json_words`): `Bash|mcp__.*` matches `run_command` too."""
    parts = alternatives(pattern)
    if parts is None or not any(map(is_plain_name, parts)):
        return pattern
    return "|".join("|".join(in_hooks_json_words([part], keep=keep)) if is_plain_name(part)
                    else part for part in parts)


def _class_end(pattern: str, at: int) -> int:
    """The index of the `]` that closes the class opened at `at`; -1 when none does."""
    at += 1 + (pattern[at + 1:at + 2] == "^")
    at += pattern[at:at + 1] == "]"  # a `]` first in a class is plain
    while at < len(pattern) and pattern[at] != "]":
        at += 1 + (pattern[at] == "\\")
    return at if at < len(pattern) else -1


@memo(4096)
def compile_matcher(matcher: str | None) -> MatchFn:
    """A predicate on tool names; raises `re.error` when the matcher is not a valid regex."""
    if matches_everything(matcher):
        return _match_all
    assert matcher is not None
    names = plain_names(matcher)
    if names is not None:
        return frozenset(in_hooks_json_words(names)).__contains__
    import re

    # Names beside a pattern (`Bash|Grep|mcp__.*`) stand for their tools as a list's do.
    meant = in_hooks_json_pattern(matcher)
    if meant != matcher:
        re.compile(matcher)  # an error is said of the matcher as written
    pattern = re.compile(meant)
    return lambda tool: pattern.fullmatch(tool) is not None


def in_hooks_json_words(names: list[str], *, keep: bool = True) -> list[str]:
    """Plain names as hooks.json knows their tools: another host's name for a tool stands for
    that tool (`model.tools.as_named_by`), compared with the call's tool in hooks.json's
    words (`plan.select.tool_in`). `keep`: the names as written too."""
    from agenthooks.model.tools import as_named_by

    return as_named_by(names, HOOKS_JSON_DIALECT, keep=keep)


def matcher_error(matcher: str) -> str | None:
    """Why a matcher does not compile, or None when it does."""
    import re

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
