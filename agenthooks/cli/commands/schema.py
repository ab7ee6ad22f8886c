"""`agenthooks schema`: the JSON Schemas of every hook file, for editors and other validators.

Without options it prints hooks.json's; `--host` picks another host's files; `--write DIR`
writes them all (or the `--host` one) into DIR, as `schemas/` of the repository holds them;
`--check DIR` says which files of DIR differ from what the tables build (exit 1).
"""

from __future__ import annotations

import os
import sys

from agenthooks import schemagen
from agenthooks.model.hosts import HOOKS_JSON_DIALECT


def print_schema(host: str | None = None) -> int:
    sys.stdout.write(schemagen.text(schemagen.schema_file(host or HOOKS_JSON_DIALECT)))
    return 0


def _rows(host: str | None) -> tuple[schemagen.SchemaFile, ...]:
    return schemagen.SCHEMA_FILES if host is None else (schemagen.schema_file(host),)


def write_schemas(folder: str, host: str | None = None) -> int:
    """Write each schema into `folder` (made when missing); print the paths written."""
    os.makedirs(folder, exist_ok=True)
    for row in _rows(host):
        path = os.path.join(folder, row.name)
        with open(path, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(schemagen.text(row))
        print(path)
    return 0


def check_schemas(folder: str, host: str | None = None) -> int:
    """1 when a schema file of `folder` is missing or differs from what the tables build."""
    stale = []
    for row in _rows(host):
        path = os.path.join(folder, row.name)
        try:
            with open(path, encoding="utf-8", newline="") as stream:
                current = stream.read()
        except OSError:
            current = None
        if current != schemagen.text(row):
            stale.append(path)
    for path in stale:
        print(f"{path}: out of date; run `agenthooks schema --write {folder}`", file=sys.stderr)
    return 1 if stale else 0
