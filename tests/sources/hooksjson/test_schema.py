"""The JSON Schema and the rules in code must agree on which files are valid.

For every good and bad file (and a few inline variants), jsonschema finds the document valid
exactly when the code alone (`check_file(schema=False)`) reports no error, except for what
the schema cannot express, listed in SCHEMA_BLIND with the reason.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from agenthooks.model.events import EVENTS, FLAT_EVENTS, TOOL_EVENTS
from agenthooks.sources.hooksjson.loader import check_file
from agenthooks.sources.hooksjson.schema import schema_errors, schema_path, schema_text
from agenthooks.sources.paths import sources_for_paths

HERE = Path(__file__).parent
BAD = HERE / "bad"
GOOD = HERE / "good"
REPO = HERE.parents[2]

# What the schema cannot see, so the code must (and does) report it alone.
SCHEMA_BLIND = {
    "json-syntax": "the text does not parse, so there is no document to validate",
    "json-constant": "NaN and Infinity are read as numbers before the schema sees them",
    "bom": "a byte-order mark is gone once the text is decoded",
    "encoding": "the bytes do not decode, so there is no document",
    "unreadable": "there is no file",
    "format-ambiguous": "a hook named `hooks` is valid hooks.json: whether it is one, only "
                        "its place or --dialect says",
    "matcher-regex": "JSON Schema's `format: regex` is ECMA 262 and not asserted; ours is Python",
    "timeout-float": "JSON Schema's integer accepts 5.0; Antigravity's loader does not",
    "command-blank": "minLength counts blanks; a command of spaces runs nothing",
    "prompt-blank": "minLength counts blanks; a prompt of spaces asks nothing",
}
# What only the schema sees: the `schema` rule is the net for shapes the rules in code leave
# to it (a prompt handler's `model`, which agenthooks never uses since it skips prompts).
CODE_BLIND = {"schema"}

VARIANTS: dict[str, Any] = {
    "timeout-float": {"a": {"Stop": [{"command": "x", "timeout": 5.0}]}},
    "timeout-string": {"a": {"Stop": [{"command": "x", "timeout": "10"}]}},
    "timeout-zero": {"a": {"Stop": [{"command": "x", "timeout": 0}]}},
    "timeout-negative": {"a": {"Stop": [{"command": "x", "timeout": -3}]}},
    "timeout-bool": {"a": {"Stop": [{"command": "x", "timeout": True}]}},
    "timeout-too-large": {"a": {"Stop": [{"command": "x", "timeout": 2147483648}]}},
    "timeout-max": {"a": {"Stop": [{"command": "x", "timeout": 2147483647}]}},
    "command-blank": {"a": {"Stop": [{"command": "  \t"}]}},
    "command-empty": {"a": {"Stop": [{"command": ""}]}},
    "command-not-string": {"a": {"Stop": [{"command": ["ls"]}]}},
    "prompt-blank": {"a": {"Stop": [{"type": "prompt", "prompt": " "}]}},
    "prompt-with-command-key": {"a": {"Stop": [{"type": "prompt", "prompt": "p", "command": 1}]}},
    "command-with-model-key": {"a": {"Stop": [{"command": "x", "model": 1}]}},
    "flat-group-with-command": {"a": {"Stop": [{"command": "x", "hooks": []}]}},
    "flat-prompt-group": {"a": {"Stop": [{"type": "prompt", "prompt": "p", "hooks": []}]}},
    "flat-matcher-not-string": {"a": {"Stop": [{"command": "x", "matcher": 3}]}},
    "tool-handler-with-hooks": {"a": {"PreToolUse": [{"command": "x", "hooks": []}]}},
    "tool-handler-only-type": {"a": {"PreToolUse": [{"type": "command"}]}},
    "tool-hooks-of-groups": {"a": {"PreToolUse": [{"hooks": [{"hooks": []}]}]}},
    "event-null": {"a": {"Stop": None}},
    "hooks-not-list": {"a": {"PostToolUse": [{"hooks": {"command": "x"}}]}},
    "type-null": {"a": {"Stop": [{"type": None, "command": "x"}]}},
    "enabled-null": {"a": {"enabled": None}},
    "top-level-string": "hooks",
    "no-events": {"a": {}},
}


def _cases() -> list[tuple[str, Path | None]]:
    files = sorted(GOOD.glob("*.json")) + sorted(BAD.glob("*.json"))
    cases: list[tuple[str, Path | None]] = [(f"{p.parent.name}/{p.stem}", p) for p in files]
    cases += [(f"bad/{p.name}", p) for p in sorted(BAD.iterdir()) if p.is_dir()]
    cases.append(("good/sample_hooks", REPO / "sample_hooks"))
    cases += [(f"variant/{name}", None) for name in VARIANTS]
    return cases


def _document(name: str, path: Path | None, tmp_path: Path) -> tuple[Any, Path]:
    if path is None:
        doc = VARIANTS[name.split("/", 1)[1]]
        path = tmp_path / "hooks.json"
        path.write_text(json.dumps(doc))
        return doc, path
    file = path if path.is_file() else next(path.glob("*/hooks.json"))
    try:
        return json.loads(file.read_text(encoding="utf-8")), path
    except ValueError:
        return None, path


def _rule_of(name: str) -> str:
    return name.split("/", 1)[1]


@pytest.mark.parametrize(("name", "path"), _cases(), ids=[name for name, _ in _cases()])
def test_schema_and_code_agree(name: str, path: Path | None, tmp_path: Path) -> None:
    doc, target = _document(name, path, tmp_path)
    rule = _rule_of(name)
    sources, _ = sources_for_paths([str(target)])
    code_errors = list(check_file(sources[0], schema=False).errors)
    if doc is None:  # not JSON: only the code can say so
        assert rule in SCHEMA_BLIND
        assert [d.rule for d in code_errors] == [rule]
        return
    schema_valid = not schema_errors(doc)
    if rule in SCHEMA_BLIND:
        # Keep the list honest: each entry must really be a case the schema lets through.
        assert code_errors, f"{name}: the code reports nothing"
        if rule != "json-constant":
            assert schema_valid, f"{name}: the schema catches it after all; drop it from the list"
        return
    if rule in CODE_BLIND:
        assert not schema_valid and not code_errors
        # ...and validate still reports it, through the schema.
        assert [d.rule for d in check_file(sources[0]).errors] == ["schema"]
        return
    assert schema_valid == (not code_errors), (
        f"{name}: schema says {'valid' if schema_valid else schema_errors(doc)}, "
        f"code says {[d.rule for d in code_errors] or 'valid'}"
    )


def test_good_files_are_valid_for_the_schema_and_the_code() -> None:
    for path in sorted(GOOD.glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        assert schema_errors(doc) == [], path
        sources, _ = sources_for_paths([str(path)])
        assert check_file(sources[0]).ok, path


def test_schema_is_draft_07_with_an_id() -> None:
    schema = json.loads(schema_text())
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    assert schema["$id"] == "https://agenthooks.dev/schemas/hooks.schema.json"
    assert schema["title"]
    jsonschema.Draft7Validator.check_schema(schema)


def test_schema_names_every_event_with_its_shape() -> None:
    schema = json.loads(schema_text())
    definition = schema["definitions"]["definition"]
    assert definition["additionalProperties"] is False
    assert set(definition["properties"]) == {"enabled", *EVENTS}
    for event in TOOL_EVENTS:
        assert definition["properties"][event]["items"]["$ref"] == "#/definitions/group"
    for event in FLAT_EVENTS:
        assert definition["properties"][event]["items"]["$ref"] == "#/definitions/flatHandler"


def _subschemas(node: Any, where: str) -> list[tuple[str, dict[str, Any]]]:
    """Every schema object that documents something: definitions and properties."""
    found: list[tuple[str, dict[str, Any]]] = []
    if isinstance(node, dict):
        for key in ("definitions", "properties"):
            for name, child in node.get(key, {}).items():
                found.append((f"{where}/{key}/{name}", child))
        for key, child in node.items():
            found.extend(_subschemas(child, f"{where}/{key}"))
    return found


def test_schema_describes_everything() -> None:
    schema = json.loads(schema_text())
    assert schema["description"]
    undocumented = [
        where for where, child in _subschemas(schema, "#") if "description" not in child
    ]
    assert undocumented == []


def test_schema_defaults_match_the_code() -> None:
    handler = json.loads(schema_text())["definitions"]["handler"]
    assert handler["properties"]["timeout"]["default"] == 30
    assert handler["properties"]["timeout"]["maximum"] == 2**31 - 1
    assert handler["properties"]["type"]["default"] == "command"


def test_schema_path_points_at_the_shipped_file(repo: Path) -> None:
    assert schema_path().is_file()
    assert schema_text() == (repo / "schemas" / "hooks.schema.json").read_text(encoding="utf-8")


def test_schema_errors_are_short_pointed_lines() -> None:
    huge = {"command": "x" * 5000, "timeout": "10"}
    errors = schema_errors({"a": {"Stop": [huge], "Stopp": []}, "b": 3})
    assert ("/a/Stop/0/timeout", "`timeout` must be a whole number, not a string") in errors
    assert ("/b", "`b` must be an object, not a number") in errors
    assert any(pointer == "/a" and "'Stopp'" in message for pointer, message in errors)
    assert all("\n" not in message and len(message) < 200 for _, message in errors)


def test_schema_pointers_escape_slashes_and_tildes() -> None:
    errors = schema_errors({"a/b~c": {"enabled": 1}})
    assert errors == [("/a~1b~0c/enabled", "`enabled` must be true or false, not a number")]
