"""The files of Factory Droid (`model.hosts`, a host derived from Claude Code): its settings
files are read as Claude Code's; its hooks.json is the same `hooks` object without the wrapper.

What Droid documents (docs.factory.ai/harness/hooks, "Configuration" and "Structure"), as
findings:

    hooks.json      `~/.factory/hooks.json` and a project's `.factory/hooks.json` are keyed
                    by event name (`{"PreToolUse": [...]}`): under a `hooks` wrapper Droid
                    finds no event and runs none of them (`factory-hooks-wrapper`).
    settings.json   "If hooks.json is absent, Droid also reads hook declarations from the
                    hooks key in the matching settings.json": beside a hooks.json they never
                    run (`factory-settings-ignored`), nor do they here.
"""

from __future__ import annotations

import os

from agenthooks.dialects.check import DialectChecker
from agenthooks.model.handlers import json_kind

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.model.handlers import Source

HOOKS_FILE = "hooks.json"


class FactoryChecker(DialectChecker):
    """Walks a Factory Droid hooks.json (a bare event map) or settings file (`hooks`)."""

    def document(self, doc: Any) -> None:
        if os.path.basename(self.source.file) != HOOKS_FILE:
            if self.hooks_file_beside(doc):
                return
            super().document(doc)
            return
        if not isinstance(doc, dict):
            self.add("settings-type", f"a Factory Droid hooks.json must be an object of "
                                      f"events, not {json_kind(doc)}", "")
            return
        if "hooks" in doc:
            self.add("factory-hooks-wrapper",
                     "Factory Droid's hooks.json is keyed by event name: under this `hooks` "
                     "wrapper (which only settings.json takes) it finds no event and runs "
                     "none of these hooks",
                     "/hooks", "key",
                     'move the events to the top level: {"PreToolUse": [...]}')
        self.events({event: listed for event, listed in doc.items() if event != "hooks"},
                    self.dialect_group, at="")

    def hooks_file_beside(self, doc: Any) -> bool:
        """Whether a settings file's `hooks` are shadowed by the hooks.json of its folder,
        which Droid reads instead (said once, at `/hooks`)."""
        beside = os.path.join(os.path.dirname(self.source.file), HOOKS_FILE)
        if not (isinstance(doc, dict) and "hooks" in doc and os.path.isfile(beside)):
            return False
        self.add("factory-settings-ignored",
                 "Factory Droid reads the hooks.json beside this file and ignores these: a "
                 "settings file's `hooks` count only where no hooks.json is beside it",
                 "/hooks", "key", "move these events into that hooks.json")
        return True


def read(doc: Any, source: Source, *, thorough: bool) -> DialectChecker:
    """Every finding of a Factory Droid file, and the handlers Droid would register."""
    from agenthooks.dialects import dialect_spec

    checker = FactoryChecker(source, dialect_spec("factory"), thorough=thorough)
    checker.document(doc)
    return checker
