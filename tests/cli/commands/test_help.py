"""The program's help names every host of the host table."""

from __future__ import annotations

from agenthooks.model.hosts import HOST_TABLE


def test_the_help_names_every_host(agenthooks) -> None:
    done = agenthooks("--help")
    assert done.code == 0
    text = " ".join(done.out.split())  # click wraps the paragraph
    for row in HOST_TABLE:
        assert row.name in text, row.name
        assert row.id in text, row.id
