"""How each host really matches a matcher, as data and one small function per host.

Claude Code: no matcher, `""` or `"*"` match everything; a matcher of only letters, digits,
`_`, `-`, spaces, `,` and `|` is an exact name or a list of names (`Edit|Write`,
`Edit, Write`); anything else is an unanchored JavaScript regex (`RegExp.test`), so `Edit.*`
matches `NotebookEdit` too. On FileChanged and StopFailure only letters, digits, `_` and `|`
make a list. Events that ignore matchers run every group.

Gemini CLI (hookPlanner.ts): the matcher is trimmed; `""` or `"*"` match everything; on tool
events it is an unanchored regex, or, when it does not compile, exact text; on SessionStart,
SessionEnd and PreCompress it is exact text, so `startup|resume` never matches; other events
ignore it.

Regexes are JavaScript's in both hosts; agenthooks runs them with Python's `re`, which agrees
on the patterns matchers use (named groups are translated). What only Python reads is a
syntax error to JavaScript's RegExp ("Invalid group", "Nothing to repeat"), so it does not
compile here either: a global inline flag (`(?i)`), `(?P<name>`, `(?P=name)`, `(?#...)`,
atomic groups and possessive quantifiers. (ES2025 modifier groups, `(?i:...)`, are read as
Python reads them: engines that predate them reject them, and reading them as a match is the
side a gate errs on.) hooks.json's own matchers are Python regexes (`python` selections).

`Selection` is the meaning of a matcher in a host-free form, which `convert` writes back in
another host's syntax: everything, a set of exact names, a regex that may match anywhere
(`search`), or one that must match the whole name (`full`).
"""

from __future__ import annotations

from agenthooks._lean.memo import memo
from agenthooks._lean.records import NamedTuple
from agenthooks.model.hosts import HOOKS_JSON_DIALECT
from agenthooks.model.matcher import (
    ALNUM,
    is_plain_name,
    named_alternatives,
    plain_names,
)
from agenthooks.sources.dialects import dialect_spec

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections.abc import Callable, Mapping
    from typing import Any, Literal

    from agenthooks.model.hosts import HostRow
    from agenthooks.model.toolwords import Word
    Form = Literal["all", "names", "search", "full", "never"]

# Claude Code's exact-name matchers, `[A-Za-z0-9_\-, |]*` and on some events `[A-Za-z0-9_|]*`,
# as sets of characters: reading a settings file's plain matchers never loads `re`.
CLAUDE_EXACT = frozenset(ALNUM + "_-, |")
CLAUDE_EXACT_NARROW = frozenset(ALNUM + "_|")
# `^name$`, `^(a|b)$`, `^(?:a|b)$`: a regex that is a list of exact names.
ANCHORED_NAMES = r"\^(?:\((?:\?:)?)?([A-Za-z0-9_\-]+(?:\|[A-Za-z0-9_\-]+)*)\)?\$"


class Selection(NamedTuple):
    form: Form
    names: tuple[str, ...] = ()
    pattern: str = ""
    python: bool = False  # the pattern is a Python regex (hooks.json), else JavaScript


ALL = Selection("all")


def js_regex(pattern: str) -> re.Pattern[str]:
    """A JavaScript regex as Python's `re` reads it; raises `re.error`."""
    return _js_regex(pattern)


@memo(1024)
def _js_regex(pattern: str) -> re.Pattern[str]:
    import re

    if _python_only(pattern):
        raise re.error("Python-only regex syntax: JavaScript's RegExp rejects it")
    return re.compile(re.sub(r"\(\?<(?![=!])", "(?P<", pattern))


_PYTHON_GROUP = r"\(\?(?:[aiLmsux-]+\)|P[<=]|#|>)"


def _python_only(pattern: str) -> bool:
    """Whether a pattern uses syntax only Python's `re` reads (see the module's docstring)."""
    import re

    python_group = re.compile(_PYTHON_GROUP)
    i, in_class, quantified = 0, False, False
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            i, quantified = i + 2, False
            continue
        if in_class or char == "[":
            in_class = (char == "[" and not in_class) or (in_class and char != "]")
            i, quantified = i + 1, False
            continue
        if pattern.startswith("(?", i):
            if python_group.match(pattern, i):
                return True
            i, quantified = i + 2, False
            continue
        if char == "+" and quantified:
            return True
        quantified = char in "*+?}"
        i += 1
    return False


def python_regex(pattern: str) -> re.Pattern[str]:
    """A hooks.json matcher's regex; raises `re.error`."""
    return _python_regex(pattern)


@memo(1024)
def _python_regex(pattern: str) -> re.Pattern[str]:
    import re

    return re.compile(pattern)


def regex_error(pattern: str, python: bool = False) -> str | None:
    if plain_names(pattern) is not None:  # literal text: a regex in every syntax
        return None
    import re

    try:
        (python_regex if python else js_regex)(pattern)
    except re.error as exc:
        return str(exc)
    except (RecursionError, OverflowError) as exc:  # a pattern nested beyond what re takes
        return str(exc) or type(exc).__name__
    return None


def command_regex_holds(pattern: str, tool: str | None, tool_input: Mapping[str, Any]) -> bool:
    """Whether a Factory Droid group's `commandRegex` lets its handlers run for this call: a
    call with no shell command is not filtered; else the (JavaScript) regex must match
    somewhere in the command."""
    command = tool_input.get("command")
    return not isinstance(command, str) or js_regex(pattern).search(command) is not None


# Each host's matcher semantics, as its row names them (`HostRow.selection`: the word of the
# host whose `sources/dialects/<id>.py` has them, its own or its parent's), once resolved.
SELECTIONS: dict[str, Callable[[str | None, str], Selection]] = {}


def selection(dialect: str, matcher: str | None, event: str) -> Selection:
    found = SELECTIONS.get(dialect)
    if found is None:
        from agenthooks.model.hosts import host_row

        row = host_row(dialect)
        if row is None:
            raise KeyError(dialect)
        found = SELECTIONS[dialect] = _selection_of(row)
    return found(matcher, event)


def _selection_of(row: HostRow) -> Callable[[str | None, str], Selection]:
    """A host's matcher semantics: its row's function, which a host derived from another
    (`model.hosts.derive`) shares with its parent, given the parent's word for the event."""
    from agenthooks.model.hosts import host_row, implementation, imported

    own = imported(implementation(row.selection, "agenthooks.sources.dialects.{}", "selection"))
    parent = host_row(row.derived_from) if row.derived_from else None
    if parent is None or parent.selection != row.selection:
        return own  # type: ignore[no-any-return]
    from agenthooks.model.events import counterpart

    def in_parent_words(matcher: str | None, event: str) -> Selection:
        return selection(parent.id, matcher, counterpart(event, row.id, parent.id) or event)

    return in_parent_words


def selects(chosen: Selection, value: str | None) -> bool:
    """Whether a selection picks a value (a tool name, a SessionStart source...).

    With no value known, only a selection of everything picks.
    """
    if chosen.form == "all":
        return True
    if value is None or chosen.form == "never":
        return False
    if chosen.form == "names":
        return value in chosen.names
    literals = plain_names(chosen.pattern)
    if literals is not None:  # `a|b` of plain names: what a regex search or full match finds
        if chosen.form == "search":
            return any(literal in value for literal in literals)
        return value in literals
    pattern = (python_regex if chosen.python else js_regex)(chosen.pattern)
    if chosen.form == "search":
        return pattern.search(value) is not None
    return pattern.fullmatch(value) is not None


def matches(dialect: str, matcher: str | None, event: str, value: str | None) -> bool:
    """Whether a host runs a group with this matcher for this value of the event."""
    return selects(selection(dialect, matcher, event), value)


def simplify(chosen: Selection) -> Selection:
    """A regex that is really a list of names (`^(a|b)$`, `^(?:p)$`) in its plainer form."""
    if chosen.form not in ("search", "full"):
        return chosen
    pattern = chosen.pattern
    if chosen.form == "full" and is_plain_name(pattern):
        return Selection("names", (pattern,))
    import re

    found = re.fullmatch(ANCHORED_NAMES, pattern)
    if found is not None:
        return Selection("names", tuple(found.group(1).split("|")))
    if chosen.form == "search" and pattern.startswith("^(?:") and pattern.endswith(")$"):
        inner = pattern[4:-2]
        if _balanced(inner, chosen.python):
            return simplify(chosen._replace(form="full", pattern=inner))
    if chosen.form == "full" and pattern.startswith(".*(?:") and pattern.endswith(").*"):
        inner = pattern[5:-3]
        if _balanced(inner, chosen.python):
            return chosen._replace(form="search", pattern=inner)
    return chosen


def _balanced(pattern: str, python: bool = False) -> bool:
    """Whether a regex's parentheses pair up on their own (so wrapping it changes nothing)."""
    depth = 0
    escaped = False
    for char in pattern:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0 and regex_error(pattern, python) is None


def tool_words(dialect: str, matcher: str | None, event: str) -> list[Word]:
    """What a tool matcher's literal names say in a file of `dialect` (`model.toolwords`):
    another host's name, a misspelling...; [] where the event matches no tool name, or the
    matcher holds no plain name."""
    from agenthooks.model.toolwords import words

    if matcher is None:
        return []
    if dialect == HOOKS_JSON_DIALECT:
        from agenthooks.model.events import TOOL_EVENTS

        return words(dialect, named_alternatives(matcher) if event in TOOL_EVENTS else ())
    spec = dialect_spec(dialect)
    if spec.events.get(event) != "tool_name":
        return []
    chosen = simplify(selection(dialect, matcher, event))
    names = list(chosen.names) if chosen.form == "names" else (
        named_alternatives(chosen.pattern) if chosen.form in ("search", "full") else [])
    return words(dialect, names, anywhere=chosen.form == "search",
                 also=spec.matcher_aliases)


def describe(chosen: Selection) -> str:
    """How a selection matches, in words, for messages and `list`."""
    if chosen.form == "all":
        return "every value"
    if chosen.form == "never":
        if regex_error(chosen.pattern, chosen.python) is None:  # a value it cannot match
            return "nothing (the event has no value to match)"
        return "nothing (the regex does not compile)"
    if chosen.form == "names":
        return "exactly " + " or ".join(chosen.names)
    if chosen.form == "search":
        return f"any name that contains a match of /{chosen.pattern}/"
    return f"names that match /{chosen.pattern}/ whole"
