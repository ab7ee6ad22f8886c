"""What the literal names of a tool matcher mean, read against the tool table (`model.tools`).

A matcher written with a plain name (`Bash`, `Edit|Write`) selects a tool only if the name is
one the host calls a tool. Each name is one of:

- the host's own name for a tool (or, where the host matches anywhere in the name, a part of
  one): fine;
- another host's exact name for a tool of the table (`run_shell_command` in Claude Code's
  file): every such name means one tool (no name of the table means two), so hooks.json,
  whose handlers run under every host, selects that tool by it (`matcher-other-host`, a
  note); a host's own file is matched by that host, which never calls a tool so
  (`matcher-wrong-host`, an error, naming the host's own word; said only where the table
  gives the host its own name for that tool);
- a near miss of a known name, a difference of case or one or two letters (`Run_Command`,
  `run_comand`): an error naming the name meant (`matcher-misspelt`); in hooks.json any
  host's name, in a host's own file that host's own;
- anything else: a custom or MCP tool agenthooks cannot know, a warning in hooks.json
  (`matcher-unknown-tool`). A host's own file is not warned about: the table holds the tools
  its hosts share, not every tool a host has.

Names that look like MCP tools (`mcp__`, `mcp_`) and Antigravity's browser family (`browser_`)
are left alone.
"""

from __future__ import annotations

from agenthooks._lean.records import NamedTuple
from agenthooks.model.hosts import HOOKS_JSON_DIALECT, HOST_TABLE
from agenthooks.model.tools import FAMILIES, TOOLS, Tool, every_name, filled, tool_named

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

_MCP_PREFIXES = ("mcp_", "MCP:")


class Word(NamedTuple):
    """One finding about one name of a matcher: its rule and its message."""

    rule: str
    name: str
    message: str
    meant: str | None = None  # the name to write instead, when the finding names one

    def fixed(self, matcher: str) -> str | None:
        """`matcher` with this name replaced by the one meant (an editor's quick fix);
        None when no name is meant."""
        if self.meant is None:
            return None
        import re

        return re.sub(rf"(?<![\w.]){re.escape(self.name)}(?![\w.])",
                      lambda _: str(self.meant), matcher)


def _by_any_name() -> dict[str, Tool]:
    return {name: tool for tool in TOOLS for name in every_name(tool)}


def _host(dialect: str) -> str:
    return next((row.name for row in HOST_TABLE if row.id == dialect), dialect)


def _hosts_calling(tool: Tool, name: str) -> str:
    filled()
    hosts = [_host(dialect) for dialect, names in tool.names.items() if name in names]
    return " and ".join(hosts) if len(hosts) < 3 else ", ".join(hosts[:-1]) + " and " + hosts[-1]


def own_names(dialect: str) -> tuple[str, ...]:
    """The names a host calls its tools in the table."""
    filled(dialect)
    return tuple(name for tool in TOOLS for name in tool.names.get(dialect, ()))


def distance(a: str, b: str) -> int:
    """Edit distance with adjacent swaps (optimal string alignment), case-blind."""
    a, b = a.lower(), b.lower()
    before: list[int] = []
    row = list(range(len(b) + 1))
    for i, char in enumerate(a, 1):
        above, before, row = before, row, [i] + [0] * len(b)
        for j, other in enumerate(b, 1):
            row[j] = min(before[j] + 1, row[j - 1] + 1, before[j - 1] + (char != other))
            if i > 1 and j > 1 and char == b[j - 2] and a[i - 2] == other:
                row[j] = min(row[j], above[j - 2] + 1)
    return row[-1]


def _allowed(name: str) -> int:
    """How far a misspelling may be from the name meant: case alone for short names."""
    return 0 if len(name) < 4 else 1 if len(name) < 8 else 2


def near_miss(name: str, known: Iterable[str]) -> str | None:
    """The known name `name` misspells (same letters but case, or within a letter or two of
    a long enough name), the closest first; None when none is that close."""
    scored = sorted((distance(name, other), other) for other in known if other != name)
    return next((other for score, other in scored if score <= _allowed(other)), None)


def words(dialect: str, names: Iterable[str], *, anywhere: bool = False,
          also: Iterable[str] = ()) -> list[Word]:
    """The findings about a tool matcher's literal names in a file of `dialect`
    ("antigravity": hooks.json). `anywhere`: the host finds the name anywhere in a tool's
    name (an unanchored regex); `also`: more names the host selects tools by (Codex's
    matcher aliases)."""
    own = (*own_names(dialect), *also)
    skipped = _MCP_PREFIXES + FAMILIES.get(dialect, ())
    found = []
    for name in names:
        if not name or name.startswith(skipped):
            continue
        if name in own or (anywhere and any(name in known for known in own)):
            continue
        word = _word(dialect, name, own)
        if word is not None:
            found.append(word)
    return found


def _word(dialect: str, name: str, own: tuple[str, ...]) -> Word | None:
    tool = tool_named(name)
    if tool is not None:
        return _other_host(dialect, name, tool)
    hooks_json = dialect == HOOKS_JSON_DIALECT
    # A host's own file is held to its own names only: the table does not hold every tool of
    # every host, and another host's name close to one of this host's tools may be its own.
    meant = near_miss(name, _by_any_name() if hooks_json else own)
    if meant is not None:
        return _misspelt(dialect, name, meant)
    if hooks_json:
        return Word("matcher-unknown-tool", name, (
            f"no host calls a tool {name!r}: this matcher selects only a tool of that very "
            "name (an MCP or custom tool passes through unchanged)"))
    return None


def _other_host(dialect: str, name: str, tool: Tool) -> Word | None:
    whose = _hosts_calling(tool, name)
    if dialect == HOOKS_JSON_DIALECT:
        here = tool.names.get(HOOKS_JSON_DIALECT)
        also = f" (`{here[0]}` here)" if here else ""
        return Word("matcher-other-host", name, (
            f"{name!r} is {whose}'s name for the {tool.id} tool: it selects that tool{also} "
            "under every host"))
    host = _host(dialect)
    filled(dialect)
    mine = tool.names.get(dialect)
    if mine:
        return Word("matcher-wrong-host", name, (
            f"{name!r} is {whose}'s name for the {tool.id} tool; {host} calls it {mine[0]!r}, "
            f"so {host} never selects it by this matcher: write {mine[0]!r}"), mine[0])
    return None  # a tool the table gives this host no name for: it may have one all the same


def _misspelt(dialect: str, name: str, meant: str) -> Word:
    tool = tool_named(meant)
    filled(dialect)
    mine = tool.names.get(dialect) if tool is not None else None
    if dialect != HOOKS_JSON_DIALECT and mine and meant not in mine:
        meant = mine[0]
    what = f" ({tool.id} tool)" if tool is not None else ""
    nobody = ("no host calls a tool" if dialect == HOOKS_JSON_DIALECT
              else f"{_host(dialect)} calls no tool")
    return Word("matcher-misspelt", name, (
        f"{nobody} {name!r}, so this matcher never selects it: did you mean {meant!r}{what}?"),
        meant)
