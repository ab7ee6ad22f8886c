"""The files of JetBrains Junie CLI (`model.hosts`, a host derived from Claude Code): its
user config.json's `hooks` are read as Claude Code's groups; what differs is said here.

What Junie documents (junie.jetbrains.com/docs/junie-cli-hooks.html, the page of 10 July
2026, "Merging hooks", each event's section, "Limitations"), as findings:

    a project's      `<project>/.junie/config.json`'s hooks are "ignored by default for safety"
    .junie/          and run only when the file is passed with --config-location: listed here,
    config.json      none of them run (`junie-project-hooks-ignored`)
    PermissionRequest  a hook that exits 0 without a blocking decision approves the dialog, so
                     a hook that only looks (logs, notifies) approves every permission Junie
                     asks for (`junie-permission-approves`), unless it runs `async`
    blockOnError     read on Stop alone; `async` changes nothing on SessionStart, SessionEnd and
                     StopFailure, which run in the background already (`option-ignored`)
"""

from __future__ import annotations

from agenthooks.model.hosts import host_row
from agenthooks.sources.dialects.check import DialectChecker

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.model.handlers import Handler, Source
    from agenthooks.sources.dialects.spec import HandlerType

BLOCK_ON_ERROR = "blockOnError"
ALREADY_IN_BACKGROUND = frozenset(("SessionStart", "SessionEnd", "StopFailure"))


class JunieChecker(DialectChecker):
    """Walks a Junie config.json's `hooks`."""

    def document(self, doc: Any) -> None:
        super().document(doc)
        row = host_row(self.dialect.name)
        if self.source.level == "workspace" and self.handlers and row is not None \
                and not row.project_hooks_run:
            count = len(self.handlers)
            what = ("its one handler never runs; move it" if count == 1
                    else f"its {count} handlers never run; move them")
            self.add("junie-project-hooks-ignored",
                     "Junie runs no hook of a project's .junie/config.json unless the file is "
                     f"passed with --config-location: {what} to ~/.junie/config.json",
                     "/hooks", "key")
            self.handlers.clear()

    def dialect_record(self, event: str, matcher: str | None, sequential: bool,
                       handler: dict[str, Any], spec: HandlerType, text: str, timeout: float,
                       pointer: str) -> Handler:
        if self.thorough:
            self.junie_options(event, handler, pointer)
        return super().dialect_record(event, matcher, sequential, handler, spec, text,
                                      timeout, pointer)

    def junie_options(self, event: str, handler: dict[str, Any], pointer: str) -> None:
        if event == "PermissionRequest" and handler.get("async") is not True:
            self.add("junie-permission-approves",
                     "a PermissionRequest hook that exits 0 without a blocking decision "
                     "approves Junie's permission dialog: unless it denies, this hook "
                     'approves every permission Junie asks for: give a hook that only watches '
                     '"async": true', pointer)
        if BLOCK_ON_ERROR in handler and event != "Stop":
            self.add("option-ignored", f"`{BLOCK_ON_ERROR}` is read on Stop alone: on {event} "
                                       "a failed hook lets everything through all the same",
                     f"{pointer}/{BLOCK_ON_ERROR}", "key")
        if "async" in handler and event in ALREADY_IN_BACKGROUND:
            self.add("option-ignored", f"{event} hooks run in the background already: `async` "
                                       "changes nothing", f"{pointer}/async", "key")


def read(doc: Any, source: Source, *, thorough: bool) -> DialectChecker:
    """Every finding of a Junie config.json, and the handlers Junie would register."""
    from agenthooks.sources.dialects import dialect_spec

    checker = JunieChecker(source, dialect_spec("junie"), thorough=thorough)
    checker.document(doc)
    return checker
