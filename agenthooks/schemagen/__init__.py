"""JSON Schemas of every hook file agenthooks reads, built from the tables `validate` uses.

One row per file kind: its schema's file name, the host whose files it describes, and the
builder. `agenthooks schema` prints or writes them; `schemas/` at the root of the repository
holds them as built, and a test rebuilds them and compares byte for byte. A schema rejects
what `validate` reports as an error in such a file and nothing it only warns about; what a
schema cannot express is left to `validate`.
"""

from __future__ import annotations

import json
from typing import Any

from agenthooks._lean.records import NamedTuple
from agenthooks.model.hosts import HOOKS_JSON_DIALECT, host_row


class SchemaFile(NamedTuple):
    name: str  # the file name under schemas/, the last part of its `$id`
    host: str  # the host (`model.hosts`) whose files it describes
    what: str  # the file kind, as the docs table says it
    build: str  # "module:function" returning the schema


SCHEMA_FILES: tuple[SchemaFile, ...] = (
    SchemaFile("hooks.schema.json", HOOKS_JSON_DIALECT, "hooks.json",
               "agenthooks.schemagen.hooksjson:build"),
    SchemaFile("claude-settings.schema.json", "claude", "Claude Code settings (`hooks`)",
               "agenthooks.schemagen.hostfiles:claude"),
    SchemaFile("gemini-settings.schema.json", "gemini", "Gemini CLI settings (`hooks`)",
               "agenthooks.schemagen.hostfiles:gemini"),
    SchemaFile("cursor-hooks.schema.json", "cursor", "Cursor hooks.json",
               "agenthooks.schemagen.hostfiles:cursor"),
    SchemaFile("codex-hooks.schema.json", "codex", "Codex hooks.json",
               "agenthooks.schemagen.hostfiles:codex"),
    SchemaFile("copilot-hooks.schema.json", "copilot", "Copilot CLI hooks files",
               "agenthooks.schemagen.hostfiles:copilot"),
    SchemaFile("windsurf-hooks.schema.json", "windsurf", "Windsurf hooks.json",
               "agenthooks.schemagen.hostfiles:windsurf"),
    SchemaFile("rulesync-hooks.schema.json", "rulesync", "rulesync `.rulesync/hooks.jsonc`",
               "agenthooks.schemagen.hostfiles:rulesync"),
    SchemaFile("qwen-settings.schema.json", "qwen", "Qwen Code settings (`hooks`)",
               "agenthooks.schemagen.hostfiles:qwen"),
    SchemaFile("factory-hooks.schema.json", "factory",
               "Factory Droid hooks.json and settings (`hooks`)",
               "agenthooks.schemagen.hostfiles:factory"),
    SchemaFile("augment-settings.schema.json", "augment", "Augment settings (`hooks`)",
               "agenthooks.schemagen.hostfiles:augment"),
    SchemaFile("kimi-config.schema.json", "kimi", "Kimi Code config.toml (`[[hooks]]`)",
               "agenthooks.schemagen.hostfiles:kimi"),
    SchemaFile("deepagents-hooks.schema.json", "deepagents", "deepagents-code hooks.json",
               "agenthooks.schemagen.hostfiles:deepagents"),
    SchemaFile("vibe-hooks.schema.json", "vibe", "Mistral Vibe hooks.toml (`[[hooks]]`)",
               "agenthooks.schemagen.hostfiles:vibe"),
    SchemaFile("grok-hooks.schema.json", "grok", "Grok Build hook files (.grok/hooks/*.json)",
               "agenthooks.schemagen.hostfiles:grok"),
    SchemaFile("crush.schema.json", "crush", "Charm Crush crush.json (`hooks`)",
               "agenthooks.schemagen.hostfiles:crush"),
    SchemaFile("junie-config.schema.json", "junie", "JetBrains Junie config.json (`hooks`)",
               "agenthooks.schemagen.hostfiles:junie"),
    SchemaFile("goose-hooks.schema.json", "goose",
               "Goose plugin hooks (.agents/plugins/*/hooks/hooks.json)",
               "agenthooks.schemagen.hostfiles:goose"),
    SchemaFile("devin-hooks.schema.json", "devin",
               "Devin CLI hooks.v1.json and config.json (`hooks`)",
               "agenthooks.schemagen.hostfiles:devin"),
    SchemaFile("kiro-hooks.schema.json", "kiro", "Kiro hooks files (.kiro/hooks/*.json)",
               "agenthooks.schemagen.hostfiles:kiro"),
)


def schema_file(host: str) -> SchemaFile:
    """The row of a host's files."""
    return next(row for row in SCHEMA_FILES if row.host == host)


def build(row: SchemaFile) -> dict[str, Any]:
    from agenthooks.model.hosts import imported

    schema: dict[str, Any] = imported(row.build)()
    return schema


def text(row: SchemaFile) -> str:
    """The schema as its file holds it."""
    return json.dumps(build(row), indent=2, ensure_ascii=False) + "\n"


def file_match(row: SchemaFile) -> tuple[str, ...]:
    """Globs of the files a schema is for (VS Code's `fileMatch`, SchemaStore's catalog):
    the host's project and user files of JSON (`model.hosts`). Its machine-wide files are
    left out: an editor reads a glob that starts with `/` from the workspace folder."""
    if row.host == HOOKS_JSON_DIALECT:
        from agenthooks.schemagen.hooksjson import file_match as hooks_json_files

        return hooks_json_files()
    host = host_row(row.host)
    assert host is not None
    relative = (*host.project_files, *host.user_files)
    return tuple(dict.fromkeys("**/" + path for path in relative
                               if path.endswith((".json", ".jsonc"))))


def markdown_table() -> str:
    """The table of schemas docs/schemas.md prints."""
    lines = ["| File | Schema | fileMatch |", "|---|---|---|"]
    for row in SCHEMA_FILES:
        globs = ", ".join(f"`{glob}`" for glob in file_match(row)) or "- (a TOML file)"
        lines.append(f"| {row.what} | `schemas/{row.name}` | {globs} |")
    return "\n".join(lines) + "\n"
