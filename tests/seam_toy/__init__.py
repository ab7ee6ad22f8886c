"""A host agenthooks does not have, added by table rows alone, for `tests/test_seams.py`.

Imported only in the subprocesses of that test (never by pytest itself: the rows would stay
for the rest of the session). Importing this package adds the toy host's rows before any
other table of agenthooks is built, as a host shipped in the package has them from the start:
its row in `model.hosts`, its words in the event and tool tables, its payload shape. The
modules its row names are `tests.seam_toy.dialect` (its files, as data) and
`tests.seam_toy.host` (their reader, its matchers, its protocol and its writer).

    toy    .toy/hooks.json: {"hooks": {"pre": [{"match": "sh", "command": "..."}]}}
           payload {"event": "pre", "tool": "sh", "input": {"line": ...}, "sid": ...}
           answer {"go": bool, "because": text}, exit 0
"""

from __future__ import annotations

import importlib
from typing import Any

from agenthooks.model import hosts

HERE = "tests.seam_toy.host"
hosts.HOST_TABLE = (*hosts.HOST_TABLE, hosts.HostRow(
    "toy", "Toy", "Toy", f"{HERE}:write", f"{HERE}:answer", f"{HERE}:selection",
    "tests.seam_toy.dialect:TOY", (".toy/hooks.json",), (".toy/hooks.json",)))


def _with_words(rows: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(row._replace(words={**row.words, "toy": "pre"}) if row.id == "tool.pre"
                 else row for row in rows)


def _with_names(rows: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(row._replace(names={**row.names, "toy": ("sh",)},
                              args={**row.args, "toy": {"command": "line"}})
                 if row.id == "shell" else row for row in rows)


_events = importlib.import_module("agenthooks.model.events")
_events.EVENT_TABLE = _with_words(_events.EVENT_TABLE)
_tools = importlib.import_module("agenthooks.model.tools")
_tools.TOOLS = _with_names(_tools.TOOLS)
_payloads = importlib.import_module("agenthooks.sources.payloads")
_payloads.SHAPES["toy"] = _payloads.Shape("event", None, "tool", "input",
                                          (("session_id", "sid"),), marker="sid")
