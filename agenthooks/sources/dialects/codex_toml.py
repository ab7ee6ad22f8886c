"""Codex's inline hooks: the `[hooks]` tables of a `config.toml`, read as the document a
hooks.json would be (`{"hooks": {...}}`), with the place of each table and key for findings.

Codex reads hooks from the `hooks` table of every config layer's config.toml beside its
hooks.json (openai/codex `codex-rs/hooks/src/engine/discovery.rs`,
`load_toml_hooks_from_layer`), written as arrays of tables:

    [[hooks.PreToolUse]]
    matcher = "Bash"
    [[hooks.PreToolUse.hooks]]
    type = "command"
    command = "agenthooks run PreToolUse --host codex --fail-closed"

`hooks.state` is Codex's trust record (`sources.dialects.codex_trust`), not an event. A
config.toml that is not TOML stops Codex altogether. The TOML itself is read as every host's
is (`sources.reading.toml`).
"""

from __future__ import annotations

from agenthooks.sources.reading.toml import load_toml, may_hold_hooks, positions

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.model.handlers import Diagnostic, Source


def parse(source: Source, text: str) -> tuple[Any, Any, list[Diagnostic], str] | None:
    """(document, positions, findings, text) of a config.toml; None for any other file (a
    hooks.json, read as JSON)."""
    if not source.file.endswith(".toml"):
        return None
    if not may_hold_hooks(text):
        # Most config.toml files hold no hooks: they cost a scan, not a TOML parser, on every
        # run that finds one (the user's ~/.codex/config.toml under any host), and give no
        # document to check.
        return None, None, [], text
    config, found = load_toml(source, text, "Codex does not start with this config.toml")
    if config is None:
        return None, None, found, text
    table = config.get("hooks")
    events = ({key: value for key, value in table.items() if key != "state"}
              if isinstance(table, dict) else None)
    document = {} if events is None else {"hooks": events}
    return document, positions(text), [], text
