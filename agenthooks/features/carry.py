"""A matcher carried into another dialect so that it selects exactly the same tools.

`convert` rewrites a matcher's meaning (`matching.Selection`) in the target's syntax, with
each tool named as the target names it. Whether the result selects the same tools is
checked, not assumed: over a corpus of names (every host's tool names in `model.tools`,
MCP names in each host's spelling, case variants, names with regex metacharacters, the
pattern's own words, and each of these inside longer names), each name the target host may
call must be selected exactly when the source's matcher selects that call in its own words
(`model.tools.tool_name`). A name that is a known tool, an MCP tool or neither on one side
and another kind on the other is not one tool and is left out. Names are single lines: no
host names a tool with a line break (where `.` and `$` read differently).

A regex cannot always be carried by renaming the tools it names (`Edit.*` selects Claude
Code's MultiEdit and NotebookEdit, which Gemini CLI's `replace.*` does not). Then the
matcher is rebuilt: the target's known tools whose source counterpart the regex selects are
listed, those it would select wrongly are excluded, and every other name is left to the
source regex itself (`^(?:replace)$|Edit.*`). A Python regex (hooks.json) going to a
JavaScript host is respelled (`python_to_js`: JavaScript has no inline flags, so a leading
`(?i)` is spelled out letter by letter, `[bB][aA]...`). What still selects differently is
reported with the first name on which it differs.
"""

from __future__ import annotations

import re
from functools import lru_cache

from agenthooks._lean.records import NamedTuple
from agenthooks.model.hosts import COMMON_SHAPE, HOOKS_JSON_DIALECT
from agenthooks.model.tools import (
    DIALECTS,
    TOOLS,
    filled,
    mcp_name,
    mcp_parts,
    mcp_tool_only,
    tool_for,
    tool_name,
)
from agenthooks.sources.dialects import matching
from agenthooks.sources.dialects.matching import Selection

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    Render = Callable[[Selection, str, str], "list[str | None] | None"]

_MCP_SAMPLES = (("memory", "create_entities"), ("github", "get_issue"), ("fs", "read_file"),
                ("my-server", "run"))
_ODD_NAMES = ("", " ", "a.b", "a|b", "a+b", "(x)", "[x]", "x$", "^x", "x*", "a\\b", "?",
              "{1}", "a{,2}", "mcp", "mcp_", "mcp__", "x")
_WORDS = re.compile(r"[A-Za-z0-9_\-]+")
_SYNTAX = re.compile(r"[\\^$.*+?()\[\]{}|]")


class Carried(NamedTuple):
    matchers: list[str | None] | None  # None: the target has no way to say it
    difference: str | None  # where the written matchers select differently; None: exactly


def carry(chosen: Selection, first: Selection, source: str, target: str, event: str,
          tools: bool, render: Render) -> Carried:
    """The target's matchers for what `chosen` selects on `source`: `first` (the selection
    with its tool names renamed) when that is exact, else a rebuilt regex."""
    candidates = [first]
    if chosen.form == "names" and tools:
        candidates.append(_every_name(chosen, first, source, target))
    if chosen.form in ("search", "full"):
        candidates += rebuilt(chosen, source, target, tools)
    fallback: Carried | None = None
    for candidate in candidates:
        matchers = render(candidate, target, event)
        if matchers is None:
            continue
        difference = _difference(chosen, matchers, source, target, event, tools)
        if difference is None:
            return Carried(matchers, None)
        if fallback is None or candidate is not first:
            fallback = Carried(matchers, difference)
    return fallback if fallback is not None else Carried(None, None)


# --- rebuilding a regex ----------------------------------------------------------------------


def _every_name(chosen: Selection, first: Selection, source: str, target: str) -> Selection:
    """A list of names with every target name of each tool (Claude Code's Bash and
    PowerShell are both Antigravity's run_command)."""
    names = list(first.names)
    for name in known_names(target):
        if name not in names and tool_name(name, target, source) in chosen.names:
            names.append(name)
    return first._replace(names=tuple(names))



def rebuilt(chosen: Selection, source: str, target: str, tools: bool) -> list[Selection]:
    found = []
    for pattern in _spellings(chosen, source, target, tools):
        selection = _construction(chosen, pattern, source, target, tools)
        if selection is not None:
            found.append(selection)
    return found


def _spellings(chosen: Selection, source: str, target: str, tools: bool) -> list[str]:
    """The source pattern in the target's regex language, and with MCP names respelled."""
    pattern = chosen.pattern
    to_python = target == HOOKS_JSON_DIALECT
    if chosen.python and not to_python:
        pattern = python_to_js(pattern) or pattern
    elif not chosen.python and to_python:
        pattern = re.sub(r"\(\?<(?![=!])", "(?P<", pattern)
    found = [pattern]
    if tools:
        respelled = mcp_respelled(pattern, source, target)
        if respelled != pattern:
            found.append(respelled)
    return found


def _construction(chosen: Selection, pattern: str, source: str, target: str,
                  tools: bool) -> Selection | None:
    python = target == HOOKS_JSON_DIALECT
    try:
        own = (matching.python_regex if python else matching.js_regex)(pattern)
    except (re.error, RecursionError, OverflowError):
        return None
    full = chosen.form == "full"

    def by_pattern(name: str) -> bool:
        return (own.fullmatch(name) if full else own.search(name)) is not None

    listed, excluded = [], []
    for name in known_names(target) if tools else ():
        wanted = matching.selects(chosen, tool_name(name, target, source))
        if wanted and not by_pattern(name):
            listed.append(re.escape(name))
        elif by_pattern(name) and not wanted:
            excluded.append(re.escape(name))
    body = f"(?:{pattern})"
    if excluded:
        guard = "(?!(?:" + "|".join(excluded) + ")$)"
        body = f"{guard}{body}" if full else f"^{guard}[\\s\\S]*?{body}"
    if listed:
        names = "|".join(listed)
        body = f"(?:{names})|{body}" if full else f"^(?:{names})$|{body}"
    return Selection(chosen.form, pattern=body, python=python)


def python_to_js(pattern: str) -> str | None:
    """A Python regex (hooks.json) as a JavaScript one; None when that cannot be done
    safely. Leading flags: `i` spells each ASCII letter in both cases (`[bB]`), `x` drops
    blanks and comments, `s` and `a` change nothing on single-line ASCII names; named groups
    are respelled."""
    found = re.match(r"\(\?([aiLmsux]+)\)", pattern)
    flags = set(found.group(1)) if found else set()
    if flags - {"i", "a", "s", "x"}:
        return None
    rest = pattern[found.end():] if found else pattern
    rest = re.sub(r"\(\?P<", "(?<", rest)
    rest = re.sub(r"\(\?P=(\w+)\)", r"\\k<\1>", rest)
    if "x" in flags:
        rest = _unverbose(rest)
    if "i" in flags:
        folded = _fold(rest)
        if folded is None:
            return None
        rest = folded
    return rest if matching.regex_error(rest) is None else None


def _unverbose(pattern: str) -> str:
    out, i, in_class = [], 0, False
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            out.append(pattern[i:i + 2])
            i += 2
            continue
        if in_class or char == "[":
            in_class = (char == "[" and not in_class) or (in_class and char != "]")
            out.append(char)
        elif char == "#":
            end = pattern.find("\n", i)
            i = len(pattern) if end < 0 else end
            continue
        elif not char.isspace():
            out.append(char)
        i += 1
    return "".join(out)


def _fold(pattern: str) -> str | None:
    if "[" in pattern or "(?<" in pattern or "\\k<" in pattern:
        return None
    out, i = [], 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            if pattern[i + 1:i + 2] in ("x", "u", "N", "p", "P", "c"):
                return None  # a letter by its code: not folded here
            out.append(pattern[i:i + 2])
            i += 2
            continue
        out.append(f"[{char.lower()}{char.upper()}]" if char.isascii() and char.isalpha()
                   else char)
        i += 1
    return "".join(out)


def mcp_respelled(pattern: str, source: str, target: str) -> str:
    """MCP prefixes in a pattern in the target's spelling (`mcp__s__` and `mcp_s_`)."""
    here, there = mcp_name(source, "SERVER", "TOOL"), mcp_name(target, "SERVER", "TOOL")
    if here == there or HOOKS_JSON_DIALECT in (source, target):
        return pattern
    if "SERVER" not in there:
        return pattern  # the target names no server (Cursor's `MCP:<tool>`)
    new_left, new_middle = there.split("SERVER")[0], there.split("SERVER")[1].split("TOOL")[0]
    if "SERVER" not in here:  # `MCP:<tool>` names the tool of any server
        return re.sub(re.escape(here.split("TOOL")[0]),
                      lambda _: re.escape(new_left) + r"[\w.:-]+?" + re.escape(new_middle),
                      pattern)
    left, middle = here.split("SERVER")[0], here.split("SERVER")[1].split("TOOL")[0]
    prefix = re.escape(left) + r"(?:([A-Za-z0-9\-]+)" + re.escape(middle) + ")?"
    return re.sub(prefix, lambda m: new_left + (m.group(1) + new_middle if m.group(1) else ""),
                  pattern)


# --- the check -------------------------------------------------------------------------------


@lru_cache(maxsize=8)
def known_names(dialect: str) -> tuple[str, ...]:
    filled(dialect)
    return tuple(sorted({name for tool in TOOLS for name in tool.names.get(dialect, ())}))


@lru_cache(maxsize=1)
def _base_names() -> frozenset[str]:
    filled()
    names = {name for tool in TOOLS for names in tool.names.values() for name in names}
    names.update(mcp_name(dialect, server, tool)
                 for server, tool in _MCP_SAMPLES for dialect in DIALECTS)
    names.update(_ODD_NAMES)
    return frozenset(names)


def probes(patterns: list[str]) -> list[str]:
    """The names two matchers are compared on (see the module's docstring)."""
    found = set(_base_names())
    for pattern in patterns:
        found.add(pattern)
        found.add(_SYNTAX.sub("", pattern))
        found.update(_WORDS.findall(pattern))
    varied: set[str] = set()
    for name in found:
        varied.update((name, name.lower(), name.upper(), name.swapcase(), name.capitalize(),
                       f"x{name}", f"{name}_v2", f"mcp_x_{name}_v2"))
    return sorted(varied)


def _difference(chosen: Selection, matchers: list[str | None], source: str, target: str,
                event: str, tools: bool) -> str | None:
    """Where the target's matchers select otherwise than `chosen`; None when they agree."""
    selections = [matching.selection(target, matcher, event) for matcher in matchers]
    patterns = [chosen.pattern, *chosen.names, *(m for m in matchers if m is not None)]
    try:
        for here, there in _pairs(probes(patterns), source, target, tools):
            picked = matching.selects(chosen, here)
            if picked != any(matching.selects(s, there) for s in selections):
                where = f" ({here!r} here)" if here != there else ""
                return (f"{there!r}{where} would {'not ' if picked else ''}be selected "
                        f"there")
    except (re.error, RecursionError, OverflowError) as exc:
        return f"its regex does not compile there ({exc})"
    return None


def _pairs(names: list[str], source: str, target: str,
           tools: bool) -> list[tuple[str, str]]:
    """(source name, target name) of each probe the target host may call: after conversion
    the hook runs under the target, so each target name is compared with the source name
    it translates to."""
    if not tools:
        return [(name, name) for name in names]
    pairs = []
    for name in names:
        here = tool_name(name, target, source)
        if _kind(target, name) == _kind(source, here):
            pairs.append((here, name))
    return pairs


def _kind(dialect: str, name: str) -> str:
    """A known tool, an MCP tool, or another name, on one host. A name of one kind on one
    side and another on the other (Gemini CLI's unknown `Bash`, Claude Code's `Bash`) is not
    one tool. A host whose MCP spelling is unknown passes MCP names through unchanged."""
    if tool_for(dialect, name) is not None:
        return "tool"
    if mcp_parts(dialect, name) is not None:
        return "mcp"
    prefix = mcp_tool_only(dialect)
    if prefix is not None and name.startswith(prefix) and len(name) > len(prefix):
        return "mcp"
    if mcp_parts(dialect, mcp_name(dialect, "s", "t")) is None:
        return "mcp" if mcp_parts(COMMON_SHAPE, name) is not None else "other"
    return "other"
