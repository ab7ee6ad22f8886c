"""The rules of Codex's hooks.json (`sources.dialects.codex`): one walk over a parsed document.

What Codex does with a file (openai/codex `codex-rs/config/src/hooks.rs`,
`codex-rs/hooks/src/engine/discovery.rs`, `codex-rs/hooks/src/events/common.rs`), as findings:

    files              `.codex/hooks.json`, and the inline `[hooks]` of `.codex/config.toml`
                       (`sources.dialects.codex_toml`), in the project and in the user's folder
    top level          only `hooks`: any other key fails the whole file (`deny_unknown_fields`),
                       and so does a value of the wrong type anywhere (serde), a handler without
                       a known `type`, or a `timeout` that is not a whole number of seconds
    events             an unknown event name is skipped without a word (`codex-unknown-event`)
    matchers           `*`, empty or none: everything; only ASCII letters, digits, `_`, `|`:
                       exact names (`apply_patch` also answers to `Edit` and `Write`; a server's
                       `mcp__memory` alone names no tool: `matcher-mcp-server`); else a
                       regex searched anywhere, and one that does not compile skips its group;
                       UserPromptSubmit, Stop and Interrupt drop the matcher (`flat-matcher`)
    handlers           `prompt` and `agent` parse, then are skipped with a warning
    trust              a hook whose hash the user's config.toml does not record as trusted is
                       skipped without a word (`codex-untrusted-hook`); a project's `.codex/` is
                       read only in a project Codex trusts (`codex-project-untrusted`)
"""

from __future__ import annotations

import os

from agenthooks.model.handlers import Handler, Source, escape, json_kind
from agenthooks.sources.dialects.check import DialectChecker, freeze, runs_as
from agenthooks.sources.dialects.codex import CODEX, EVENTS, SHUTDOWN_EVENTS, TOP_KEYS, selection
from agenthooks.sources.dialects.matching import regex_error

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.sources.dialects.spec import HandlerType

WHOLE_FILE = "Codex fails to parse the whole file and runs none of its hooks"


class CodexChecker(DialectChecker):
    """Walks a Codex hooks.json."""

    unknown_rule = "codex-unknown-event"

    def document(self, doc: Any) -> None:
        if not isinstance(doc, dict):
            self.add("settings-type", f'a Codex hooks.json must be an object {{"hooks": '
                                      f"{{...}}}}, not {json_kind(doc)}", "")
            return
        for key in doc:
            if key not in TOP_KEYS:
                self.add("codex-root-key", f"unknown top-level key {key!r}: {WHOLE_FILE} "
                                           '(it reads only "hooks")', "/" + escape(key), "key")
        hooks = doc.get("hooks", {})
        self.events(hooks, self.dialect_group)
        if isinstance(hooks, dict) and self.thorough and self.source.file:
            self.trust(hooks)

    def matcher(self, event: str, matcher: str, pointer: str) -> None:
        if matcher in ("", "*"):
            return
        if EVENTS[event] is None:
            if self.thorough:
                self.add("flat-matcher", f"{event} ignores matchers: Codex drops {matcher!r} "
                                         f"and runs these handlers on every {event}", pointer,
                         "key")
            return
        chosen = selection(matcher, event)
        if chosen.form == "never":
            self.add("codex-matcher-skipped", f"matcher {matcher!r} is not a valid regex "
                                      f"({regex_error(matcher)}): Codex skips this group with "
                                      "a warning", pointer)
        elif chosen.form == "names" and self.thorough:
            # Codex names MCP tools mcp__<server>__<tool> (developers.openai.com/codex/hooks)
            # and compares a plain name list exactly, as Claude Code does.
            self.mcp_server_only(chosen.names, pointer)

    def dialect_handler(self, event: str, matcher: str | None, sequential: bool, handler: Any,
                        pointer: str) -> None:
        kind = handler.get("type") if isinstance(handler, dict) else None
        if kind in ("prompt", "agent"):
            if self.thorough:
                self.add("handler-host-only", f"Codex parses {kind} handlers and skips them "
                                              f"('{kind} hooks are not supported yet'): this "
                                              "handler never runs", pointer + "/type")
            return
        super().dialect_handler(event, matcher, sequential, handler, pointer)

    def dialect_record(self, event: str, matcher: str | None, sequential: bool,
                       handler: dict[str, Any], spec: HandlerType, text: str, timeout: float,
                       pointer: str) -> Handler:
        options = tuple(sorted((key, freeze(value)) for key, value in handler.items()
                               if key not in ("type", "timeout", spec.field)))
        # Codex keeps no matcher on the events that drop it (it runs them on every call).
        kept = matcher if EVENTS[event] is not None else None
        return Handler(source=self.source, hook="", event=event, matcher=kept, command=text,
                       timeout=timeout, kind="command", enabled=True, pointer=pointer,
                       dialect="codex", options=options, **runs_as(CODEX, event, handler))

    def timeout(self, event: str, handler: dict[str, Any], pointer: str) -> float:
        """Whole seconds (a u64): anything else fails the file; 0 counts as 1 s."""
        if "timeout" not in handler:
            return CODEX.default_timeout
        value = handler["timeout"]
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            shown = value if isinstance(value, (int, float)) else json_kind(value)
            self.add("timeout-invalid", f"timeout must be a whole number of seconds, not "
                                        f"{shown}: {WHOLE_FILE}", pointer + "/timeout")
            return CODEX.default_timeout
        if event in SHUTDOWN_EVENTS and value > 3 and self.thorough:
            self.add("codex-shutdown-timeout", f"Codex stops {event} hooks after a few "
                                               f"seconds whatever their timeout ({value} s "
                                               "here)", pointer + "/timeout")
        self.large_seconds(value, pointer + "/timeout", named="timeout", counted="Codex")
        return float(max(value, 1))

    # --- Codex's own trust ---------------------------------------------------------------------

    def trust(self, hooks: dict[str, Any]) -> None:
        from agenthooks.sources.dialects import codex_trust as trust

        try:
            config = trust.read_toml(os.path.join(trust.codex_home(), "config.toml"))
        except trust.CodexTrustError:
            return  # the user's config is Codex's to complain about
        recorded = trust.states(config)
        for hook, status in trust.skipped(trust.hooks_of(codex_path(self.source), hooks),
                                          recorded):
            again = " since it was trusted" if status == trust.MODIFIED else ""
            why = "it changed" + again if again else "its hash is not recorded as trusted"
            self.add("codex-untrusted-hook", f"Codex skips this hook without a word: {why} in "
                                             f"{trust.codex_home()}/config.toml; review it, then "
                                             "run `agenthooks trust --host codex` (or pass "
                                             "--dangerously-bypass-hook-trust)",
                     f"/hooks/{escape(hook.event)}/{hook.group}/hooks/{hook.handler}/command")
        if hooks and not self.user_file() and not project_trusted(self.source, config):
            self.add("codex-project-untrusted", "Codex reads a project's .codex/ folder only in "
                                                "a project it trusts: run `codex exec --trust` "
                                                "here, or add [projects.\"<root>\"] trust_level "
                                                '= "trusted" to config.toml', "/hooks", "key")

    def resolve(self, path: str) -> str | None:
        """A script path: relative ones from the project root; Codex sets no project-dir
        variable, so one that starts with a variable cannot be known offline."""
        return None if path.startswith("$") else super().resolve(path)

    def user_file(self) -> bool:
        from agenthooks.sources.dialects.codex_trust import codex_home

        folder = os.path.realpath(os.path.dirname(self.source.file))
        return folder == os.path.realpath(codex_home())


def codex_path(source: Source) -> str:
    """The file's path as Codex writes it in a trust key: $CODEX_HOME's as Codex resolves
    it, a project's through its real path."""
    from agenthooks.sources.dialects.codex_trust import codex_home

    home = codex_home()
    folder = os.path.realpath(os.path.dirname(source.file))
    if folder == os.path.realpath(home):
        return os.path.join(home, os.path.basename(source.file))
    return os.path.join(folder, os.path.basename(source.file))


def project_trusted(source: Source, config: dict[str, Any] | None) -> bool:
    """Whether the user's config.toml trusts the project holding this `.codex/` folder (or
    a folder above it: Codex's project root is found upward)."""
    return folder_trusted(os.path.dirname(os.path.dirname(os.path.realpath(source.file))),
                          config)


def folder_trusted(folder: str, config: dict[str, Any] | None) -> bool:
    """Whether config.toml's `[projects]` trusts `folder` or a folder above it."""
    projects = config.get("projects") if config else None
    if not isinstance(projects, dict):
        return False
    while True:
        entry = projects.get(folder)
        if isinstance(entry, dict) and entry.get("trust_level") == "trusted":
            return True
        parent = os.path.dirname(folder)
        if parent == folder:
            return False
        folder = parent


def read(doc: Any, source: Source, *, thorough: bool) -> DialectChecker:
    checker = CodexChecker(source, CODEX, thorough=thorough)
    checker.document(doc)
    return checker
