"""The pieces every generated schema is made of: its header, typed fields, event lists.

The schemas are draft-07, the version SchemaStore recommends because every editor reads it:
no `$ref` has siblings (draft-07 ignores them), so a reference that needs a description is
wrapped in `allOf`.
"""

from __future__ import annotations

from typing import Any

from agenthooks.model.eventnames import INT32_MAX
from agenthooks.model.events import row_of
from agenthooks.sources.dialects.spec import Dialect

TYPE_CHECKING = False
if TYPE_CHECKING:
    from agenthooks.sources.dialects.spec import SchemaFacts

DRAFT = "http://json-schema.org/draft-07/schema#"
BASE = "https://agenthooks.dev/schemas/"
# No NUL: no shell can receive one (`command-unrunnable`).
NO_NUL = "^[^\\u0000]*$"
# What `url-scheme` accepts: an http or https URL, in any case, after blanks.
HTTP_URL = "^\\s*[Hh][Tt][Tt][Pp][Ss]?:"

# `Dialect.option_types`' words, as schemas (`sources.dialects.check._type_ok`).
OPTION_TYPES: dict[str, dict[str, Any]] = {
    "boolean": {"type": "boolean"},
    "string": {"type": "string"},
    "strings": {"type": "array", "items": {"type": "string"}},
    "object": {"type": "object"},
    "string-map": {"type": "object", "additionalProperties": {"type": "string"}},
}


def facts(dialect: Dialect) -> SchemaFacts:
    """What the dialect's `Dialect.schema` says of its schema (nothing when it has none)."""
    return dialect.schema or {}


def header(name: str, title: str, description: str) -> dict[str, Any]:
    """The keys a schema file starts with."""
    return {"$schema": DRAFT, "$id": BASE + name, "title": title, "description": description}


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/definitions/{name}"}


def described_ref(name: str, description: str) -> dict[str, Any]:
    """A reference with a description of its own (draft-07 ignores a `$ref`'s siblings)."""
    return {"description": description, "allOf": [ref(name)]}


def text(description: str) -> dict[str, Any]:
    """A string field that must not be empty (`command-missing`, `field-missing`...)."""
    return {"description": description, "type": "string", "minLength": 1}


def typed(kind: str, description: str) -> dict[str, Any]:
    """An option of one of `Dialect.option_types`' types."""
    return {"description": description, **OPTION_TYPES[kind]}


def list_of(description: str, items: dict[str, Any]) -> dict[str, Any]:
    return {"description": description, "type": "array", "items": items}


def when_type(kind: str, then: dict[str, Any], *, default: bool = False) -> dict[str, Any]:
    """`then` for a handler of one `type`; the default type also when `type` is absent."""
    condition: dict[str, Any] = {"properties": {"type": {"const": kind}}}
    if not default:
        condition["required"] = ["type"]
    return {"if": condition, "then": then}


def seconds_limit(dialect: Dialect) -> int:
    """The largest timeout `validate` takes: a count of milliseconds within int32, in the
    dialect's unit."""
    return INT32_MAX if dialect.timeout_unit < 1 else INT32_MAX // 1000


def event_text(dialect: Dialect, event: str) -> str:
    """What an event is (its row of `model.events`) and what its matchers are matched
    against (the dialect's table)."""
    row = row_of(dialect.name, event)
    meaning = row.meaning if row is not None else event
    said = meaning[:1].upper() + meaning[1:] + "."
    target = dialect.events.get(event)
    if target is None:
        return said + " Matchers are ignored: its handlers run on every " + event + "."
    exact = facts(dialect).get("exact", "") if event in dialect.exact_events else ""
    if target == "tool_name":
        return said + f" Matchers select tools by name{exact}."
    if target.startswith("="):
        return said + f" Matchers are matched against the word `{target[1:]}`."
    return said + f" Matchers are matched against the payload's `{target}`{exact}."
