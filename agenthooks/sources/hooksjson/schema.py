"""The JSON Schema of hooks.json: where it is, its text, and its findings on a document.

The file is built from the tables by `agenthooks.schemagen` (`agenthooks schema --write
schemas`) and shipped in the wheel, so that `validate` reads it without building it. The
schema describes the file's shape for editors and for `validate`; the rules it cannot
express live in `agenthooks.sources.reading.check`. jsonschema is imported only inside
`schema_errors`: it costs more than the rest of `agenthooks run`, which never needs it for a valid
file.
"""



from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from agenthooks.errors import ConfigError
from agenthooks.model.handlers import escape, json_kind

SCHEMA_NAME = "hooks.schema.json"
_MAX_VALUE = 40  # characters of an offending value quoted in a message

_TYPE_NAMES = {
    "object": "an object",
    "array": "a list",
    "string": "a string",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
}


def schema_path() -> Path:
    """The schema file: inside the installed package, else at the root of a source checkout."""
    package = Path(__file__).resolve().parents[2]  # the `agenthooks` package directory
    candidates = (
        package / "schemas" / SCHEMA_NAME,  # a wheel (hatch force-include puts it here)
        package.parent / "schemas" / SCHEMA_NAME,  # a source checkout or editable install
    )
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    raise ConfigError(f"{SCHEMA_NAME} not found (looked for {' and '.join(map(str, candidates))})")


def schema_text() -> str:
    """The schema exactly as shipped."""
    return schema_path().read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    """The parsed schema, read once per process."""
    loaded: dict[str, Any] = json.loads(schema_text())
    return loaded


def _pointer(error: Any) -> str:
    return "".join(f"/{escape(str(part))}" for part in error.absolute_path)




def _quote(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, float) else repr(value)
    return text if len(text) <= _MAX_VALUE else text[: _MAX_VALUE - 1] + "…"


def _where(error: Any) -> str:
    path = list(error.absolute_path)
    if path and isinstance(path[-1], str):
        return f"`{path[-1]}`"
    return "the top level" if not path else "this item"


def _message(error: Any) -> str:
    """One short line: jsonschema's own messages quote whole objects, which can be huge."""
    validator = error.validator
    expected = error.validator_value
    if validator == "type":
        names = [expected] if isinstance(expected, str) else list(expected)
        wanted = " or ".join(_TYPE_NAMES.get(name, name) for name in names)
        return f"{_where(error)} must be {wanted}, not {json_kind(error.instance)}"
    if validator == "enum":
        choices = ", ".join(json.dumps(choice) for choice in expected)
        return f"{_where(error)} must be one of {choices}, not {_quote(error.instance)}"
    if validator == "const":
        return f"{_where(error)} must be {json.dumps(expected)}, not {_quote(error.instance)}"
    if validator == "minimum":
        return f"{_where(error)} must be at least {expected}, not {_quote(error.instance)}"
    if validator == "maximum":
        return f"{_where(error)} must be at most {expected}, not {_quote(error.instance)}"
    if validator == "minLength":
        return f"{_where(error)} must not be empty"
    if validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = set(error.schema.get("properties", {}))
        extra = ", ".join(repr(key) for key in error.instance if key not in allowed)
        return f"unknown key(s) {extra}; allowed: {', '.join(sorted(allowed))}"
    # `required` and the rest already say it in one short line without quoting the instance.
    return " ".join(error.message.split())


def schema_errors(doc: Any) -> list[tuple[str, str]]:
    """(JSON pointer, one-line message) for each place where `doc` breaks the schema."""
    # Typed as Any whether or not jsonschema's stubs are installed.
    from jsonschema.exceptions import best_match  # type: ignore[import-untyped,unused-ignore]
    from jsonschema.validators import (  # type: ignore[import-untyped,unused-ignore]
        validator_for,
    )

    validator = validator_for(schema())(schema())  # the draft its `$schema` names
    found: list[tuple[str, str]] = []
    for error in validator.iter_errors(doc):
        # An anyOf/oneOf failure lists why each branch failed; the best match is the one
        # the author most likely meant, and the only one worth a line.
        shown = best_match(error.context) if error.context else error
        item = (_pointer(shown), _message(shown))
        if item not in found:  # two branches (a $ref and an if/then) may say the same thing
            found.append(item)
    return found
