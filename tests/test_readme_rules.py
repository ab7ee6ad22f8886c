"""The documentation lists every rule id and every event, so users can look up what they see."""

from __future__ import annotations

import re

from agenthooks.model.events import EVENTS
from agenthooks.model.rules import RULES
from tests.docs.pages import README, docs_text, section

__all__ = ["README", "docs_text", "section"]  # imported from here by other tests


def test_every_rule_is_in_the_rule_table() -> None:
    rows = dict(re.findall(r"^\| `([a-z-]+)` \| (error|warning|note) \|", section("validate"),
                           re.M))
    assert set(rows) == set(RULES)
    assert {rule: rows[rule] for rule in RULES} == {r.id: r.severity for r in RULES.values()}


def test_every_event_is_in_the_format_reference() -> None:
    format_section = section("format")
    for event in EVENTS:
        assert f"| `{event}` |" in format_section
