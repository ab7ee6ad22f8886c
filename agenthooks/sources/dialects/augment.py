"""What an Augment (Auggie) matcher selects: its files are Claude Code's (`model.hosts`, a host
derived from it), its matchers are not.

Read in @augmentcode/auggie 0.36.0 (augment.mjs: `f7n`, `aao`, and the group schema `znt`,
`O6`), as the docs' "Structure" table says (docs.augmentcode.com/cli/hooks):

    ""  ".*"     every tool, an MCP tool included
    "mcp:*"      every MCP tool
    "mcp:<re>"   the MCP tools whose name `<re>` finds
    "<re>"       the other tools whose name `<re>` finds, anywhere in it (a JavaScript
                 `RegExp.test`); never an MCP tool, whatever `<re>` says
    not a regex  the event's whole entry in that file is rejected (`"*"` among them): no
                 group of it runs

The events other than PreToolUse and PostToolUse take no matcher: their groups' schema drops
it, and they run for every event.

Augment names an MCP tool `<tool>_<server>` (`createNamespacedToolName`: each part's
characters outside `[A-Za-z0-9_-]` made `_`, 64 characters at most), which a built-in's name
can look like (`view_tasklist`), and marks the call with `is_mcp_tool`. A name alone does not
say it, so here an MCP tool is one named as the hosts that spell MCP names with a prefix do
(`mcp__server__tool`, `mcp_server_tool`), which is how another host's call reaches Augment's
handlers; `mcp:<regex>` is tested against that name, not against Augment's `<tool>_<server>`.
"""

from __future__ import annotations

from agenthooks.sources.dialects import dialect_spec
from agenthooks.sources.dialects.matching import ALL, Selection, regex_error, simplify

MCP = "mcp:"
# How every host that spells MCP tool names starts them (`model.tools._MCP_STYLE`).
MCP_NAME = "mcp_"


def selection(matcher: str | None, event: str) -> Selection:
    """What an Augment matcher selects on an event (its word: `PreToolUse`)."""
    if not matcher or matcher == ".*" or dialect_spec("augment").events.get(event) is None:
        return ALL
    if matcher == MCP + "*":
        return Selection("search", pattern=f"^{MCP_NAME}")
    if regex_error(matcher) is not None:
        return Selection("never", pattern=matcher)
    if matcher.startswith(MCP):
        body = matcher[len(MCP):]
        if regex_error(body) is not None:
            return Selection("never", pattern=matcher)
        # `[\s\S]*?` may match nothing, so a `^` in the body still means the name's start.
        return Selection("search", pattern=rf"^(?={MCP_NAME})[\s\S]*?(?:{body})")
    plain = simplify(Selection("search", pattern=matcher))
    if plain.form == "names" and not any(name.startswith(MCP_NAME) for name in plain.names):
        return plain  # `^view$`: whole names, none of them an MCP tool's
    return Selection("search", pattern=rf"^(?!{MCP_NAME})[\s\S]*?(?:{matcher})")
