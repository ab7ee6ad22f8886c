"""The event table: each dialect's word and its row, the lists derived from it, the Markdown
words, hints for another host's word, and the hosts' own tables keyed by its words."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterable

import pytest

from agenthooks.model.events import (
    ALIASES,
    ALL_EVENTS,
    API_EVENTS,
    DIALECTS,
    EVENT_TABLE,
    EVENTS,
    FLAT_EVENTS,
    MARKDOWN_TOOL_WORDS,
    MARKDOWN_WORDS,
    TOOL_CALL_EVENTS,
    TOOL_EVENTS,
    any_dialect_event,
    block_decision,
    counterpart,
    events_of,
    filled,
    find_row,
    foreign_events,
    host_only_event,
    is_tool_event,
    markdown_words_table,
    other_host_hint,
    row_of,
    word_of,
)
from agenthooks.sources.dialects.cursor import EVENTS as CURSOR_EVENTS

filled()  # every derived host's words, which a run fills for the hosts it involves alone
WORDS = [
    pytest.param(dialect, word, row, id=f"{dialect}:{word}")
    for row in EVENT_TABLE
    for dialect, word in row.words.items()
]


@pytest.mark.parametrize(("dialect", "word", "row"), WORDS)
def test_every_word_maps_to_its_row_and_back(dialect: str, word: str, row: object) -> None:
    assert row_of(dialect, word) is row
    assert word_of(dialect, row) == word  # type: ignore[arg-type]
    assert word in events_of(dialect)


def test_a_word_two_hosts_share_names_one_meaning() -> None:
    rows: dict[str, set[str]] = {}
    for row in EVENT_TABLE:
        for dialect in DIALECTS:
            if dialect in row.words:
                rows.setdefault(row.words[dialect], set()).add(row.id)
    assert {word: ids for word, ids in rows.items() if len(ids) > 1} == {}


def test_ids_and_engine_events_are_unique_and_hooks_json_says_the_engines_word() -> None:
    assert len({row.id for row in EVENT_TABLE}) == len(EVENT_TABLE)
    engines = [row.engine for row in EVENT_TABLE if row.engine]
    assert len(set(engines)) == len(engines)
    for row in EVENT_TABLE:
        assert row.words.get("antigravity") in (None, row.engine)
        assert set(row.words) <= {*DIALECTS, "adk"}


def test_the_derived_lists() -> None:
    assert TOOL_EVENTS == ("PreToolUse", "PostToolUse")
    assert FLAT_EVENTS == ("PreInvocation", "PostInvocation", "Stop", "SessionStart")
    assert EVENTS == TOOL_EVENTS + FLAT_EVENTS
    assert API_EVENTS == ("ToolError", "SessionEnd")
    assert ALL_EVENTS == EVENTS + API_EVENTS
    assert frozenset(("PreToolUse", "PostToolUse", "ToolError")) == TOOL_CALL_EVENTS
    assert [e for e in ALL_EVENTS if is_tool_event(e)] == ["PreToolUse", "PostToolUse"]
    assert ALIASES == {
        "pre_tool_use": "PreToolUse", "post_tool_use": "PostToolUse", "tool_error": "ToolError",
        "pre_model": "PreInvocation", "post_model": "PostInvocation",
        "session_start": "SessionStart", "session_end": "SessionEnd",
    }


def test_each_hosts_words() -> None:
    assert events_of("antigravity") == (
        "PreToolUse", "PostToolUse", "PreInvocation", "PostInvocation", "Stop", "SessionStart")
    assert events_of("gemini") == (
        "BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent", "SessionStart", "SessionEnd",
        "PreCompress", "Notification", "BeforeModel", "AfterModel", "BeforeToolSelection")
    assert len(events_of("claude")) == 29
    assert set(events_of("cursor")) == set(CURSOR_EVENTS)
    assert events_of("cursor")[:3] == ("preToolUse", "postToolUse", "postToolUseFailure")


def test_the_markdown_words() -> None:
    assert MARKDOWN_WORDS == {
        "tool.pre": "PreToolUse", "tool.post": "PostToolUse", "error": "ToolError",
        "turn.start": "PreInvocation", "turn.end": "PostInvocation", "agent.stop": "Stop",
        "session.start": "SessionStart", "session.end": "SessionEnd",
    }
    assert frozenset(("tool.pre", "tool.post", "error")) == MARKDOWN_TOOL_WORDS


def test_the_readme_prints_the_markdown_words() -> None:
    from tests.test_readme_rules import section

    assert section("markdown-events") == markdown_words_table()


@pytest.mark.parametrize(("event", "decision"), [
    ("PreToolUse", "deny"), ("Stop", "continue"), ("PostToolUse", "block"),
    ("SessionStart", "block"), ("ToolError", "block"), ("PreCompact", "block"),
])
def test_what_a_block_means(event: str, decision: str) -> None:
    assert block_decision(event) == decision


@pytest.mark.parametrize(("event", "source", "target", "word"), [
    ("BeforeTool", "gemini", "claude", "PreToolUse"),
    ("UserPromptSubmit", "claude", "antigravity", "PreInvocation"),
    ("PreCompact", "claude", "gemini", "PreCompress"),
    ("PostToolUseFailure", "claude", "gemini", None),
    ("Nope", "claude", "gemini", None),
])
def test_counterpart(event: str, source: str, target: str, word: str | None) -> None:
    assert counterpart(event, source, target) == word


@pytest.mark.parametrize(("name", "row_id"), [
    ("PreToolUse", "tool.pre"), ("tool.pre", "tool.pre"), ("BeforeTool", "tool.pre"),
    ("ToolError", "error"), ("PostToolUseFailure", "error"), ("PreCompress", "compact.pre"),
    ("SubagentStop", "claude.SubagentStop"), ("pre_tool_use", None), ("Nope", None),
])
def test_find_row(name: str, row_id: str | None) -> None:
    row = find_row(name)
    assert (row.id if row else None) == row_id


@pytest.mark.parametrize(("name", "only", "engine"), [
    ("PreCompact", "PreCompact", "PreCompact"),
    ("PreCompress", "PreCompact", "PreCompact"),
    ("BeforeModel", "BeforeModel", "BeforeModel"),
    ("SubagentStop", "SubagentStop", "SubagentStop"),
    ("Notification", "Notification", "Notification"),
    ("BeforeTool", None, "PreToolUse"),
    ("PostToolUseFailure", None, "ToolError"),
    ("PreInvocation", None, "PreInvocation"),
    ("pre_tool_use", None, None),
    ("Nope", None, None),
])
def test_host_only_and_any_dialect_events(name: str, only: str | None,
                                          engine: str | None) -> None:
    assert host_only_event(name) == only
    assert any_dialect_event(name) == engine


def test_another_hosts_word_names_the_nearest_hooks_json_event() -> None:
    assert foreign_events() == {
        "BeforeTool": "PreToolUse", "AfterTool": "PostToolUse",
        "PostToolUseFailure": "PostToolUse", "BeforeModel": "PreInvocation",
        "BeforeAgent": "PreInvocation", "UserPromptSubmit": "PreInvocation",
        "AfterModel": "PostInvocation", "AfterAgent": "Stop", "SubagentStop": "Stop",
        # Cursor's camelCase words, as people copy them into a hooks.json.
        "preToolUse": "PreToolUse", "postToolUse": "PostToolUse",
        "postToolUseFailure": "PostToolUse", "beforeSubmitPrompt": "PreInvocation",
        "stop": "Stop", "sessionStart": "SessionStart", "subagentStop": "Stop",
        # Copilot CLI's.
        "userPromptSubmitted": "PreInvocation", "agentStop": "Stop",
        # Windsurf's.
        "pre_user_prompt": "PreInvocation", "post_cascade_response": "Stop",
        # rulesync's.
        "preModelInvocation": "PreInvocation", "postModelInvocation": "PostInvocation",
        # Augment's.
        "PromptSubmit": "PreInvocation",
        # Mistral Vibe's.
        "pre_tool": "PreToolUse", "post_tool": "PostToolUse", "post_agent": "Stop",
        # Cline's.
        "TaskStart": "SessionStart", "TaskResume": "SessionStart", "TaskComplete": "Stop",
    }


@pytest.mark.parametrize(("event", "dialect", "hint"), [
    ("BeforeTool", "claude", "BeforeTool is Gemini CLI's name; Claude Code calls it 'PreToolUse'"),
    ("PreToolUse", "gemini", "PreToolUse is Claude Code's name; Gemini CLI calls it 'BeforeTool'"),
    ("PreCompact", "antigravity",
     "PreCompact is Claude Code's event, with no counterpart in hooks.json"),
    ("PreInvocation", "gemini",
     "PreInvocation is hooks.json's name; Gemini CLI calls it 'BeforeAgent'"),
    ("Nope", "claude", None),
])
def test_other_host_hint(event: str, dialect: str, hint: str | None) -> None:
    assert other_host_hint(event, dialect) == hint


@pytest.mark.parametrize(("name", "hint"), [
    ("BeforeTool", "BeforeTool is another host's event name; here it is 'PreToolUse'"),
    ("PreTooluse", "did you mean 'PreToolUse'?"),
    ("Stopp", "did you mean 'Stop'?"),
    ("Xyzzy", "known events: PreToolUse, PostToolUse, PreInvocation"),
])
def test_did_you_mean_for_an_event(name: str, hint: str) -> None:
    from agenthooks.model.eventnames import unknown_event_hint

    assert hint in unknown_event_hint(name)


@pytest.mark.parametrize(("word", "hint"), [
    ("PreToolUse", "PreToolUse is a hooks.json event name; a Markdown hook writes 'tool.pre'"),
    ("BeforeTool", "BeforeTool is a hooks.json event name; a Markdown hook writes 'tool.pre'"),
    ("pre_tool_use", "a Markdown hook writes 'tool.pre'"),
    ("tool.pr", "did you mean 'tool.pre'?"),
    ("xyzzy", "known events: tool.pre, tool.post, error, turn.start"),
])
def test_did_you_mean_for_a_markdown_word(word: str, hint: str) -> None:
    from agenthooks.sources.markdown.events import event_hint

    assert hint in event_hint(word)


# --- the hosts' own tables are keyed by words the table knows ----------------------------------


def _host_tables() -> Iterable[tuple[str, str, Iterable[str]]]:
    """(what, dialect, the event words it names) for each per-host table of events."""
    from agenthooks.combine.merge import EVENT_RULES
    from agenthooks.hosts.claude import render as claude_render
    from agenthooks.hosts.gemini import render as gemini_render
    from agenthooks.kinds.inprocess.call import _EVENT_ONLY
    from agenthooks.kinds.policy import EVENTS as POLICY_EVENTS
    from agenthooks.kinds.protocols import claude as claude_protocol
    from agenthooks.kinds.protocols import gemini as gemini_protocol
    from agenthooks.kinds.protocols.antigravity import DECISION_WORDS
    from agenthooks.sources.dialects.claude import CLAUDE
    from agenthooks.sources.dialects.gemini import GEMINI

    yield "sources.dialects.claude EVENTS", "claude", CLAUDE.events
    yield "sources.dialects.claude exact_events", "claude", CLAUDE.exact_events
    yield "sources.dialects.gemini EVENTS", "gemini", GEMINI.events
    yield "sources.dialects.gemini exact_events", "gemini", GEMINI.exact_events
    yield "kinds.protocols.claude BLOCKS", "claude", claude_protocol.BLOCKS
    yield "kinds.protocols.claude EXIT_2_ELSEWHERE", "claude", claude_protocol.EXIT_2_ELSEWHERE
    yield "kinds.protocols.claude CONTEXT_EVENTS", "claude", claude_protocol.CONTEXT_EVENTS
    yield "hosts.claude.render BLOCK_EVENTS", "claude", claude_render.BLOCK_EVENTS
    yield "hosts.claude.render CONTEXT_EVENTS", "claude", claude_render.CONTEXT_EVENTS
    yield "kinds.protocols.gemini CHAINED", "gemini", gemini_protocol.CHAINED
    yield "hosts.gemini.render DECISION_EVENTS", "gemini", gemini_render.DECISION_EVENTS
    yield "hosts.gemini.render CONTEXT_EVENTS", "gemini", gemini_render.CONTEXT_EVENTS
    yield "kinds.protocols.antigravity DECISION_WORDS", "engine", DECISION_WORDS
    yield "combine.merge EVENT_RULES", "engine", EVENT_RULES
    yield ("kinds.inprocess.call _EVENT_ONLY", "engine",
           {e for es in _EVENT_ONLY.values() for e in es})
    yield "policy EVENTS", "engine", POLICY_EVENTS


def test_every_host_table_names_events_of_the_table() -> None:
    engine = {row.engine for row in EVENT_TABLE if row.engine}
    unknown = {
        what: sorted(set(words) - (engine if dialect == "engine" else set(events_of(dialect))))
        for what, dialect, words in _host_tables()
    }
    assert {what: words for what, words in unknown.items() if words} == {}


def test_each_dialect_knows_exactly_the_tables_words() -> None:
    from agenthooks.kinds.protocols.antigravity import DECISION_WORDS
    from agenthooks.sources.dialects.claude import EVENTS as CLAUDE_EVENTS
    from agenthooks.sources.dialects.gemini import EVENTS as GEMINI_EVENTS

    assert set(CLAUDE_EVENTS) == set(events_of("claude"))
    assert set(GEMINI_EVENTS) == set(events_of("gemini"))
    assert set(DECISION_WORDS) == set(ALL_EVENTS)


def test_a_derived_hosts_words_are_its_rows_else_its_parents() -> None:
    """Filled when first asked (`filled`), a derived host's words are the cells
    `model.hosts.Derived` gives: its row's where it states one, else its parent's; the words
    a row holds already stay."""
    from tests.support import REPO

    code = (
        "from agenthooks.model import events\n"
        "from agenthooks.model.hosts import Derived\n"
        "before = {r.id: dict(r.words) for r in events.EVENT_TABLE}\n"
        "events.filled()\n"
        "derived = Derived('event_words')\n"
        "wrong = [r.id for r in events.EVENT_TABLE\n"
        "         if dict(r.words) != {**before[r.id], **derived.cells(before[r.id], r.id)}]\n"
        "print(wrong)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=REPO, check=False, timeout=60)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr


def test_a_run_fills_the_words_of_the_hosts_it_asks_for_alone() -> None:
    """In a fresh interpreter, asking for one derived host's words fills it and its parents,
    the same words every host's fill gives."""
    from tests.support import REPO

    code = (
        "from agenthooks.model import events\n"
        "asked = {r.id: events.word_of('qwen', r) for r in events.EVENT_TABLE}\n"
        "others = {r.id for r in events.EVENT_TABLE if 'grok' in r.words}\n"
        "events.filled()\n"
        "print(asked == {r.id: r.words.get('qwen') for r in events.EVENT_TABLE},"
        " others <= {r.id for r in events.EVENT_TABLE if r.id.startswith('rulesync.')},"
        " any('grok' in r.words for r in events.EVENT_TABLE))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=REPO, check=False, timeout=60)
    assert done.stdout.split() == ["True", "True", "True"], done.stderr
