"""The table of what each host can enforce: keyed by the host table and the events table,
every fact with a source, consistent with what the host modules do, and a derived host
stating only its differences."""

from __future__ import annotations

import pytest

from agenthooks.model import capabilities as caps
from agenthooks.model.events import find_row
from agenthooks.model.hosts import host_ids, lineage
from tests.docs.pages import section

FAILURES = {caps.OPEN, caps.CLOSED, caps.VARIES, None}


def test_every_host_has_its_failure_facts_with_sources() -> None:
    """A host derived from another may state none of its own: it shows its parent's, and
    says so."""
    roots = {host for host in host_ids() if len(lineage(host)) == 1}
    assert roots <= set(caps.HOST_FACTS) <= set(host_ids())
    for host in set(host_ids()) - set(caps.HOST_FACTS):
        assert caps.host_facts(host) is not None, host
        assert "not checked against" in caps.inherited_note(host), host
    for host, facts in caps.HOST_FACTS.items():
        assert facts.on_timeout in FAILURES and facts.on_error in FAILURES, host
        assert all((facts.fail_switch_cite, facts.on_timeout_cite, facts.on_error_cite)), host


@pytest.mark.parametrize("host", host_ids())
def test_the_events_of_a_host_are_exactly_its_words_in_the_events_table(host: str) -> None:
    """A fact for an event the host has no word for, or an event of the host without its
    facts, is a mistake in one table or the other."""
    words = set(caps.host_words(host))
    if host not in caps.EVENT_FACTS:  # a derived host: its parent's facts, for its words
        assert len(lineage(host)) > 1
        assert set(caps.events_of_host(host)) <= words
        return
    stated = set(caps.EVENT_FACTS[host])
    assert stated == words, (sorted(stated - words), sorted(words - stated))


def test_every_event_fact_names_a_source_and_known_values() -> None:
    for host, events in caps.EVENT_FACTS.items():
        for event, facts in events.items():
            assert facts.cite, (host, event)
            assert facts.on_error in FAILURES, (host, event)
            assert all(v in (True, False, None) for v in (facts.block, facts.rewrite,
                                                          facts.context))


def _words(host: str, predicate: str) -> set[str]:
    return {cap.word for cap in caps.capabilities((host,)) if getattr(cap, predicate) is True
            and cap.word is not None}


def test_blocking_agrees_with_the_host_modules() -> None:
    """The exit-2 blocking events each host's protocol reads are the table's blocking events
    (Codex's PostToolUse exit 2 replaces what the model hears: the tool already ran)."""
    from agenthooks.kinds.protocols.claude import BLOCKS as CLAUDE
    from agenthooks.kinds.protocols.codex import BLOCKS as CODEX
    from agenthooks.sources.dialects.cursor import BLOCKING_EVENTS

    assert _words("claude", "block") == CLAUDE
    assert _words("codex", "block") == CODEX - {"PostToolUse"}
    assert _words("cursor", "block") == BLOCKING_EVENTS


@pytest.mark.parametrize("host", ["claude", "codex", "cursor", "gemini", "copilot"])
def test_context_covers_where_the_host_writer_puts_context(host: str) -> None:
    from agenthooks.model.hosts import imported

    module = imported(f"agenthooks.hosts.{host}.render:CONTEXT_EVENTS")
    assert module <= _words(host, "context")


def test_init_puts_fail_closed_only_where_the_host_can_block() -> None:
    from agenthooks.cli.commands.init import FAIL_CLOSED, WIRING

    for wiring in WIRING.values():
        for event in wiring.events:
            if FAIL_CLOSED in event.flags:
                row = find_row(event.word)
                assert row is not None
                assert caps.can_block(wiring.host, row.id) is True, (wiring.host, event.word)


@pytest.mark.parametrize(("host", "event", "expected"), [
    ("claude", "tool.pre", (True, True, True, caps.OPEN, caps.OPEN, 'onFailure: "block"')),
    ("claude", "tool.post", (False, True, True, caps.OPEN, caps.OPEN, 'onFailure: "block"')),
    ("copilot", "tool.pre", (True, True, False, caps.OPEN, caps.CLOSED, None)),
    ("copilot", "tool.post", (False, True, True, caps.OPEN, caps.OPEN, None)),
    ("codex", "tool.post", (False, False, True, caps.OPEN, caps.OPEN, None)),
    ("cursor", "agent.stop", (False, False, False, caps.OPEN, caps.OPEN, "failClosed: true")),
    ("gemini", "tool.pre", (True, True, False, caps.OPEN, caps.VARIES, None)),
    ("antigravity", "session.start", (None, None, None, None, None, None)),
])
def test_a_capability_resolves_host_and_event_facts(host: str, event: str,
                                                    expected: tuple[object, ...]) -> None:
    cap = caps.capability(host, event)
    assert cap is not None
    assert (cap.block, cap.rewrite, cap.context, cap.on_timeout, cap.on_error,
            cap.fail_switch) == expected
    assert cap.cites and all(cap.cites)


def test_unknown_hosts_and_events_have_no_capability() -> None:
    assert caps.capability("nohost", "tool.pre") is None
    assert caps.capability("claude", "model.pre") is None
    assert caps.can_block("gemini", "claude.Setup") is None


def test_a_derived_host_states_only_its_differences(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every lookup walks the host's lineage (`model.hosts.lineage`): a fact the derived host
    does not state is its parent's."""
    chains = {"fork": ("fork", "claude")}
    monkeypatch.setattr(caps, "lineage", lambda host: chains.get(host, (host,)))
    monkeypatch.setitem(caps.EVENT_FACTS, "fork", {
        "tool.post": caps.EventFacts(True, False, True, "fork docs, PostToolUse")})
    post = caps.capability("fork", "tool.post")
    pre = caps.capability("fork", "tool.pre")
    assert post is not None and pre is not None
    assert (post.block, post.cites[0]) == (True, "fork docs, PostToolUse")
    assert (pre.block, pre.fail_switch) == (True, 'onFailure: "block"')
    assert caps.capability("nofork", "tool.pre") is None


def test_the_docs_table_is_the_generated_one() -> None:
    """docs/hosts.md holds `agenthooks hosts --format markdown` between its markers; to
    regenerate it, paste that output there."""
    assert section("host-capabilities") == caps.markdown_table(), (
        "regenerate docs/hosts.md's table: agenthooks hosts --format markdown")


def test_the_summary_line_says_each_fact() -> None:
    cap = caps.capability("codex", "tool.pre")
    assert cap is not None
    assert caps.summary(cap, "Codex") == (
        "Codex can block here: yes; rewrite: yes; context: yes; on timeout: fails open; on "
        "another exit code: fails open; fail-closed switch: none")
