"""`agenthooks schema`: print the JSON Schema of hooks.json, for editors and other validators."""

from __future__ import annotations

import sys

from agenthooks.config.schema import schema_text


def print_schema() -> int:
    text = schema_text()
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0
