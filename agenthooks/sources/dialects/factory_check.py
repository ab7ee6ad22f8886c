"""The files of Factory Droid (`model.hosts`, a host derived from Claude Code): its settings
files are read as Claude Code's; its hooks.json is the same `hooks` object without the wrapper.

What Droid documents (docs.factory.ai/harness/hooks, "Configuration" and "Structure"), as
findings:

    hooks.json      `~/.factory/hooks.json` and a project's `.factory/hooks.json` are keyed
                    by event name (`{"PreToolUse": [...]}`): under a `hooks` wrapper Droid
                    finds no event and runs none of them (`factory-hooks-wrapper`, said by
                    the walker of every such file, `Dialect.bare_files`).
    settings.json   "If hooks.json is absent, Droid also reads hook declarations from the
                    hooks key in the matching settings.json": beside a hooks.json they never
                    run (`factory-settings-ignored`), nor do they here.
    commandRegex    a matcher group's filter on the shell command (Factory-AI/factory@0a475b8
                    .factory/settings.json: `{"matcher": "Execute", "commandRegex": ...}`):
                    its handlers run for a call whose command it matches, or that has no
                    command (`sources.dialects.matching.command_regex_holds`). [unverified: the
                    stored pages do not describe it; rulesync@cfebcd7 quotes Droid's
                    reference: "It matches the actual shell command string when Droid has
                    one. Invalid regex values are skipped", read here as the filter skipped:
                    the group runs for every call its matcher selects
                    (`factory-command-regex-invalid`).]
"""

from __future__ import annotations

import os

from agenthooks.model.handlers import json_kind
from agenthooks.sources.dialects.check import DialectChecker
from agenthooks.sources.dialects.load import shadowing
from agenthooks.sources.dialects.matching import regex_error

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.model.handlers import Handler, Source
    from agenthooks.sources.dialects.spec import HandlerType

HOOKS_FILE = "hooks.json"
COMMAND_REGEX = "commandRegex"
# How a handler's `commandRegex` is tested at each call (`Handler.condition_test`).
COMMAND_TEST = "agenthooks.sources.dialects.matching:command_regex_holds"


class FactoryChecker(DialectChecker):
    """Walks a Factory Droid hooks.json (a bare event map) or settings file (`hooks`)."""

    command_regex: str | None = None  # the `commandRegex` of the group being read

    def document(self, doc: Any) -> None:
        # its hooks.json is a bare event map (`Dialect.bare_files`), read by the walker
        if os.path.basename(self.source.file) != HOOKS_FILE and self.hooks_file_beside(doc):
            return
        super().document(doc)

    def hooks_file_beside(self, doc: Any) -> bool:
        """Whether a settings file's `hooks` are shadowed by the hooks.json of its folder,
        which Droid reads instead (said once, at `/hooks`)."""
        if not (isinstance(doc, dict) and "hooks" in doc) or not shadowing(self.source):
            return False
        self.add("factory-settings-ignored",
                 "Factory Droid reads the hooks.json beside this file and ignores these: a "
                 "settings file's `hooks` count only where no hooks.json is beside it",
                 "/hooks", "key", "move these events into that hooks.json")
        return True

    def dialect_group(self, event: str, group: Any, pointer: str) -> None:
        self.command_regex = None
        if isinstance(group, dict) and COMMAND_REGEX in group:
            self.command_regex = self.group_filter(group[COMMAND_REGEX],
                                                   f"{pointer}/{COMMAND_REGEX}")
        super().dialect_group(event, group, pointer)

    def group_filter(self, pattern: Any, pointer: str) -> str | None:
        """A group's `commandRegex` as Droid reads it; None where it filters nothing."""
        error = (f"not {json_kind(pattern)}" if not isinstance(pattern, str)
                 else regex_error(pattern))
        if error is not None:
            self.add("factory-command-regex-invalid",
                     f"commandRegex must be a regex ({error}): Droid skips it, and runs "
                     "these hooks for every call the matcher selects", pointer)
            return None
        return pattern or None

    def dialect_record(self, event: str, matcher: str | None, sequential: bool,
                       handler: dict[str, Any], spec: HandlerType, text: str, timeout: float,
                       pointer: str) -> Handler:
        found = super().dialect_record(event, matcher, sequential, handler, spec, text,
                                       timeout, pointer)
        if self.command_regex is None:
            return found
        return found._replace(condition=self.command_regex, condition_test=COMMAND_TEST)


def read(doc: Any, source: Source, *, thorough: bool) -> DialectChecker:
    """Every finding of a Factory Droid file, and the handlers Droid would register."""
    from agenthooks.sources.dialects import dialect_spec

    checker = FactoryChecker(source, dialect_spec("factory"), thorough=thorough)
    checker.document(doc)
    return checker
