"""What every hook-file format shares to read a file: its bytes and text (`text`), where each
key stands (`jsonpos`), the cache of checked files (`cache`, read back by `entries`), the walk
that checks a hook document (`check`: hooks.json's rules, which each host's checker extends),
what a missing script does (`missing`) and hook entries in TOML (`toml`). The formats
(`sources.hooksjson`, `sources.dialects`, `sources.markdown`) import this and never each
other."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from agenthooks.model.hosts import HostRow


def dialect_path(row: HostRow) -> str:
    """The "module:NAME" of a host's files' `Dialect`, which its row names by a host's word
    (`HostRow.dialect`: `sources/dialects/<id>.py`'s `<ID>`), or a host from outside the
    package by "module:NAME"."""
    from agenthooks.model.hosts import implementation

    word = row.dialect or ""
    return implementation(word, "agenthooks.sources.dialects.{}", word.upper())

