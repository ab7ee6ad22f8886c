"""The files of Augment (`model.hosts`, a host derived from Claude Code), read as Claude Code's
with Augment's one trap of its own, as findings (@augmentcode/auggie 0.36.0, augment.mjs `f7n`;
docs.augmentcode.com/cli/hooks, "Structure"):

    augment-mcp-matcher  a tool matcher without the `mcp:` prefix never matches an MCP tool:
                         `mcp__github__.*` or `Bash|mcp_.*` selects no MCP call, and the gate
                         on it never runs; `mcp:*` and `mcp:<regex>` do.
    matcher-regex        a matcher that is not a regex (`*` among them) fails the schema of
                         its event's entry, which Augment then ignores whole (`Cgi`).
    augment-cursor-event Cursor's event words (`beforeShellExecution`...), which Augment takes
                         only in a file with none of its own events, and then reads as its own
                         event with Claude Code's tool names as the matcher (`jpi`, `emi`):
                         `Bash`, `Read`, `Edit|Write` and `MCP:.*` select none of its tools,
                         so they never run; beside its own events, none does.
    augment-cursor-stop  `stop` alone, which does run there, as Stop: agenthooks does not read
                         it (its flat entries are no matcher groups).
"""

from __future__ import annotations

from agenthooks.sources.dialects.augment import MCP, MCP_NAME, selection
from agenthooks.sources.dialects.check import DialectChecker
from agenthooks.sources.dialects.matching import regex_error

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.model.handlers import Source


# Cursor's words Augment takes in place of its own (`jpi`): its event, and the matcher it gives.
CURSOR_EVENTS: dict[str, tuple[str, str]] = {
    "beforeShellExecution": ("PreToolUse", "Bash"), "beforeMCPExecution": ("PreToolUse", "MCP:.*"),
    "beforeReadFile": ("PreToolUse", "Read"), "afterFileEdit": ("PostToolUse", "Edit|Write"),
    "afterShellExecution": ("PostToolUse", "Bash"),
    "afterMCPExecution": ("PostToolUse", "MCP:.*"), "stop": ("Stop", ""),
}


class AugmentChecker(DialectChecker):
    """Walks an Augment settings file."""

    own_events = False  # whether the file's `hooks` has any of Augment's own events

    def events(self, hooks: Any, each: Any, at: str = "/hooks") -> None:
        self.own_events = isinstance(hooks, dict) and any(
            event in self.dialect.events for event in hooks)
        super().events(hooks, each, at)

    def known_event(self, event: str, pointer: str) -> bool:
        if event not in CURSOR_EVENTS:
            return super().known_event(event, pointer)
        native, matcher = CURSOR_EVENTS[event]
        rule = "augment-cursor-event"
        if self.own_events:
            what = "beside its own events Augment runs none of these"
        elif matcher:
            what = (f"Augment reads it as {native} matching {matcher!r}, which selects none of "
                    "its tools, so these never run")
        else:  # they run there, unread here
            rule, what = "augment-cursor-stop", f"Augment runs these as {native}, and agenthooks " \
                                                "does not read them"
        self.add(rule, f"{event!r} is Cursor's event: {what}; write them as groups under "
                       f"{native}", pointer, "key")
        return False

    def matcher(self, event: str, matcher: str, pointer: str) -> None:
        takes = self.dialect.events.get(event) is not None
        if takes and selection(matcher, event).form == "never":
            body = matcher[len(MCP):] if matcher.startswith(MCP) else matcher
            self.add("matcher-regex", f"matcher {matcher!r} is not a valid regex "
                                      f"({regex_error(body)}): Augment rejects this file's whole "
                                      f"{event} entry and runs none of its groups", pointer,
                     fix=".*" if matcher == "*" else None)
            return
        if takes and matcher.startswith(MCP):  # its own form, a regex after the prefix
            return
        super().matcher(event, matcher, pointer)
        if takes and MCP_NAME in matcher:
            # how to anchor a pattern that never selects an MCP tool is no advice
            self.findings = [f for f in self.findings
                             if not (f.rule == "matcher-unanchored" and f.pointer == pointer)]
            self.add("augment-mcp-matcher",
                     f"Augment matches {matcher!r} against its other tools alone: without "
                     f"the `{MCP}` prefix no MCP tool is ever selected, so this gate never "
                     "runs for one", pointer,
                     fix=f"write '{MCP}*' for every MCP tool, or '{MCP}<regex>', in a group of "
                         "its own")


def read(doc: Any, source: Source, *, thorough: bool) -> DialectChecker:
    """Every finding of an Augment settings file, and the handlers Augment would register."""
    from agenthooks.sources.dialects import dialect_spec

    checker = AugmentChecker(source, dialect_spec("augment"), thorough=thorough)
    checker.document(doc)
    return checker
