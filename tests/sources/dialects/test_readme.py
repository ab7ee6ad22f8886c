"""The README prints the cross-dialect event table and the rules of Claude Code and Gemini CLI
files, as the code has them."""

from __future__ import annotations

import re

from agenthooks.model.events import events_of, markdown_table
from agenthooks.model.rules import DIALECT_RULES
from agenthooks.sources.dialects.claude import EVENTS as CLAUDE_EVENTS
from agenthooks.sources.dialects.gemini import EVENTS as GEMINI_EVENTS
from tests.test_readme_rules import section


def test_the_event_table_is_printed() -> None:
    assert markdown_table() in section("dialects")


def test_every_dialect_rule_is_in_its_table() -> None:
    rows = dict(re.findall(r"^\| `([a-z-]+)` \| (error|warning|note) \|", section("dialects"),
                           re.M))
    assert rows == {rule.id: rule.severity for rule in DIALECT_RULES.values()}


def test_the_event_table_knows_every_event_of_each_host() -> None:
    assert set(events_of("claude")) == set(CLAUDE_EVENTS)
    assert set(events_of("gemini")) == set(GEMINI_EVENTS)
    text = section("dialects")
    for event in CLAUDE_EVENTS:
        assert f"`{event}`" in text


def test_the_payload_and_tool_tables_are_printed() -> None:
    from agenthooks.model.tools import markdown_table as tools
    from agenthooks.sources.payloads import markdown_table as payloads
    from tests.docs.pages import docs_text

    text = docs_text()
    assert payloads() in text
    assert tools() in text
