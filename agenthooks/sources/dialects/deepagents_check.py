"""The rules of deepagents-code's hooks.json (`sources.dialects.deepagents`): Claude Code's
walker, with what deepagents-code reads otherwise as findings.

    async       `async: true` is refused and its handler skipped: it never runs
                (`deepagents-async`)
    matchers    a matcher on UserPromptSubmit or Stop drops its group (`matcher-never-runs`);
                a regex Python cannot compile drops it too (`matcher-regex`); its own name
                of a tool its hooks see by Claude Code's (`execute` for Bash) selects nothing
                (`matcher-misspelt`)
    onFailure   deepagents-code has no fail-closed switch: a failing hook lets the call
                through (`option-ignored`)
"""

from __future__ import annotations

from agenthooks.sources.dialects.check import DialectChecker
from agenthooks.sources.dialects.deepagents import NO_VALUE, selection

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.model.handlers import Source


# Its tools' own names -> the names its hooks see them by (hooks/tools.py `_NATIVE_TO_WIRE`).
WIRE_NAMES = {"execute": "Bash", "write_file": "Write", "edit_file": "Edit",
              "read_file": "Read", "glob": "Glob", "grep": "Grep", "ls": "LS"}


class DeepagentsChecker(DialectChecker):
    """Walks a deepagents-code hooks.json as Claude Code's, with its own refusals."""

    def host_tool_words(self, dialect: str, event: str, matcher: str, pointer: str) -> None:
        super().host_tool_words(dialect, event, matcher, pointer)
        chosen = selection(matcher, event)
        said = any(f.pointer == pointer and f.rule.startswith("matcher-")
                   for f in self.findings)
        native = [name for name in chosen.names if name in WIRE_NAMES]
        if chosen.form != "names" or said or not native or not self.thorough:
            return
        for name in native:
            self.add("matcher-misspelt", f"deepagents-code's hooks see its {name!r} tool as "
                                         f"{WIRE_NAMES[name]!r}: a matcher of {name!r} never "
                                         "selects it", pointer,
                     fix=matcher.replace(name, WIRE_NAMES[name]))

    def names_or_regex_matcher(self, event: str, matcher: str, pointer: str) -> None:
        if event in NO_VALUE and selection(matcher, event).form == "never":
            self.add("matcher-never-runs", f"deepagents-code drops a {event} group with a "
                                           f"matcher ({event} has no value to match): "
                                           f"{matcher!r} makes these hooks never run", pointer,
                     "key", "remove the matcher")
            return
        super().names_or_regex_matcher(event, matcher, pointer)

    def dialect_handler(self, event: str, matcher: str | None, sequential: bool, handler: Any,
                        pointer: str) -> None:
        if isinstance(handler, dict):
            if handler.get("async") is True:
                self.add("deepagents-async", "deepagents-code refuses `async: true` (\"async "
                                             "command hooks are not yet supported\") and skips "
                                             "this handler: it never runs",
                         pointer + "/async", "key", "remove `async`")
                return
            if "onFailure" in handler:
                self.add("option-ignored", "deepagents-code has no `onFailure`: a hook that "
                                           "fails, times out or exits otherwise than 0 or 2 "
                                           "lets the call through",
                         pointer + "/onFailure", "key")
                handler = {key: value for key, value in handler.items() if key != "onFailure"}
        super().dialect_handler(event, matcher, sequential, handler, pointer)


def read(doc: Any, source: Source, *, thorough: bool) -> DialectChecker:
    """Every finding of a deepagents-code hooks.json, and the handlers it would run."""
    from agenthooks.sources.dialects import dialect_spec

    checker = DeepagentsChecker(source, dialect_spec("deepagents"), thorough=thorough)
    checker.document(doc)
    return checker
