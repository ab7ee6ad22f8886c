"""The schema files in schemas/ are what the tables build, byte for byte, and each is a
well-formed draft-07 schema that documents every key it names."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from agenthooks import schemagen
from agenthooks.schemagen.parts import BASE, DRAFT

REPO = Path(__file__).resolve().parent.parent.parent
ROWS = schemagen.SCHEMA_FILES
IDS = [row.name for row in ROWS]


@pytest.mark.parametrize("row", ROWS, ids=IDS)
def test_the_committed_file_is_what_the_tables_build(row: schemagen.SchemaFile) -> None:
    committed = (REPO / "schemas" / row.name).read_bytes()
    assert committed == schemagen.text(row).encode("utf-8"), (
        f"schemas/{row.name} is stale: run `agenthooks schema --write schemas`")


def test_schemas_holds_no_other_file() -> None:
    assert sorted(p.name for p in (REPO / "schemas").iterdir()) == sorted(IDS)


def test_one_schema_per_host() -> None:
    """Every host with hook files has one; OpenCode, whose hooks are plugins, has none, nor
    Cline, whose hooks are scripts."""
    from agenthooks.model.hosts import dialect_ids, has_no_files, host_row, in_scripts

    assert sorted(row.host for row in ROWS) == sorted(
        host for host in dialect_ids()
        if not has_no_files(host_row(host)) and not in_scripts(host_row(host)))


def test_a_derived_host_states_its_own_schema() -> None:
    """A derived host's `Dialect.schema` is its row's alone: OpenCode, which states none, does
    not describe Claude Code's settings as its own."""
    from agenthooks.sources.dialects import dialect_spec

    assert dialect_spec("claude").schema is not None
    assert dialect_spec("opencode").schema is None
    assert schemagen.schema_file("qwen").name == "qwen-settings.schema.json"


@pytest.mark.parametrize("row", ROWS, ids=IDS)
def test_each_is_draft_07_with_a_stable_id(row: schemagen.SchemaFile) -> None:
    schema = schemagen.build(row)
    assert schema["$schema"] == DRAFT == "http://json-schema.org/draft-07/schema#"
    assert schema["$id"] == BASE + row.name == f"https://agenthooks.dev/schemas/{row.name}"
    assert schema["title"] and schema["description"]
    jsonschema.Draft7Validator.check_schema(schema)


def _documented(node: Any, where: str) -> list[tuple[str, Any]]:
    """Every definition and property, anywhere in a schema."""
    found: list[tuple[str, Any]] = []
    if isinstance(node, dict):
        for key in ("definitions", "properties"):
            for name, child in node.get(key, {}).items():
                found.append((f"{where}/{key}/{name}", child))
        for key, child in node.items():
            found.extend(_documented(child, f"{where}/{key}"))
    elif isinstance(node, list):
        for index, child in enumerate(node):
            found.extend(_documented(child, f"{where}/{index}"))
    return found


@pytest.mark.parametrize("row", ROWS, ids=IDS)
def test_each_describes_every_key(row: schemagen.SchemaFile) -> None:
    schema = schemagen.build(row)
    missing = [where for where, child in _documented(schema, "#")
               if isinstance(child, dict) and "description" not in child
               and set(child) != {"$ref"}  # the definition it names is described
               and "/if/properties/" not in where]  # a condition, not a key
    assert missing == []


@pytest.mark.parametrize("row", ROWS, ids=IDS)
def test_no_reference_has_siblings_draft_07_would_ignore(row: schemagen.SchemaFile) -> None:
    def walk(node: Any) -> list[dict[str, Any]]:
        if isinstance(node, dict):
            return ([node] if "$ref" in node and len(node) > 1 else []) + [
                hit for child in node.values() for hit in walk(child)]
        if isinstance(node, list):
            return [hit for child in node for hit in walk(child)]
        return []

    assert walk(schemagen.build(row)) == []


def test_the_docs_table_is_the_tables() -> None:
    docs = (REPO / "docs" / "schemas.md").read_text(encoding="utf-8")
    assert schemagen.markdown_table() in docs


def test_the_vscode_example_names_every_schema_and_glob() -> None:
    docs = (REPO / "docs" / "schemas.md").read_text(encoding="utf-8")
    start = docs.index('"json.schemas"')
    settings = json.loads("{" + docs[start:docs.index("\n```", start)] + "}")
    assert {entry["url"].rsplit("/", 1)[1]: tuple(entry["fileMatch"])
            for entry in settings["json.schemas"]} == {
        row.name: schemagen.file_match(row) for row in ROWS if schemagen.file_match(row)}
