"""JSON Schemas of every hook file agenthooks reads, built from the tables `validate` uses.

One row per file kind: its schema's file name, the host whose files it describes, and the
builder: hooks.json's, then each host's whose `Dialect.schema` says what its schema is, so that
a host's schema is stated on its own row. `agenthooks schema` prints or writes them;
`schemas/` at the root of the repository holds them as built, and a test rebuilds them and
compares byte for byte. A schema rejects what `validate` reports as an error in such a file
and nothing it only warns about; what a schema cannot express is left to `validate`.
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
    # "module:function" returning the schema, given the host's `Dialect` (hooks.json's: nothing)
    build: str


_HOOKS_JSON = SchemaFile("hooks.schema.json", HOOKS_JSON_DIALECT, "hooks.json",
                         "agenthooks.schemagen.hooksjson:build")


def _host_files() -> tuple[SchemaFile, ...]:
    """A row per host whose `Dialect.schema` says what its files' schema is, in table order."""
    from agenthooks.sources.dialects import every_dialect_spec

    return tuple(
        SchemaFile(facts["file"], dialect.name, facts["what"],
                   "agenthooks.schemagen.hostfiles:" + facts.get("build", "settings"))
        for dialect in every_dialect_spec().values() if (facts := dialect.schema))


SCHEMA_FILES: tuple[SchemaFile, ...] = (_HOOKS_JSON, *_host_files())


def schema_file(host: str) -> SchemaFile:
    """The row of a host's files."""
    return next(row for row in SCHEMA_FILES if row.host == host)


def build(row: SchemaFile) -> dict[str, Any]:
    from agenthooks.model.hosts import imported

    builder = imported(row.build)
    if row.host == HOOKS_JSON_DIALECT:  # the one format without a `Dialect`
        schema: dict[str, Any] = builder()
    else:
        from agenthooks.sources.dialects import dialect_spec

        schema = builder(dialect_spec(row.host))
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
