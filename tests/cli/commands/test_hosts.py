"""`agenthooks hosts`: the capability table as text, JSON and Markdown, of every host or one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agenthooks.model import capabilities as caps
from agenthooks.model.hosts import host_ids


def test_text_prints_each_host_and_its_events(agenthooks) -> None:
    done = agenthooks("hosts", "--host", "copilot")
    assert done.code == 0, done.err
    lines = done.out.splitlines()
    assert lines[0].split() == ["HOST", "FAIL-CLOSED", "SWITCH", "ON", "TIMEOUT", "ON",
                                "ANOTHER", "EXIT"]
    assert lines[1].split() == ["GitHub", "Copilot", "CLI", "none", "fails", "open", "fails",
                                "open"]
    pre = next(line for line in lines if " preToolUse " in line).split()
    assert pre[3:] == ["tool.pre", "preToolUse", "yes", "yes", "no", "fails", "closed"]
    assert "Claude Code" not in done.out


def test_json_names_a_source_for_every_fact(agenthooks) -> None:
    done = agenthooks("hosts", "--format", "json")
    assert done.code == 0, done.err
    report = json.loads(done.out)
    assert [row["host"] for row in report["hosts"]] == list(host_ids())
    assert all(all(row["sources"].values()) for row in report["hosts"])
    assert len(report["capabilities"]) == len(caps.capabilities())
    claude_stop = next(row for row in report["capabilities"]
                       if (row["host"], row["event"]) == ("claude", "agent.stop"))
    assert (claude_stop["word"], claude_stop["block"], claude_stop["onTimeout"]) == (
        "Stop", True, "open")
    assert claude_stop["sources"] and all(claude_stop["sources"])


def test_markdown_is_the_docs_table(agenthooks) -> None:
    done = agenthooks("hosts", "--format", "markdown")
    assert done.code == 0 and done.out == caps.markdown_table()
    one = agenthooks("hosts", "--format", "markdown", "--host", "gemini")
    assert "Gemini CLI" in one.out and "Cursor" not in one.out


def test_an_unknown_host_is_a_usage_error(agenthooks) -> None:
    done = agenthooks("hosts", "--host", "zed")
    assert done.code == 2 and "zed" in done.err


@pytest.mark.program
def test_a_host_derived_by_one_row_has_its_parents_capabilities(tmp_path: Path) -> None:
    """The toy host derived from Claude Code (`tests.seam_derived`) states no capability: it
    has Claude Code's, under its own words, and none for the event it dropped."""
    from tests.test_seams import derived_cli

    done = derived_cli(tmp_path, "hosts", "--host", "toyc", "--format", "json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["hosts"][0]["failSwitch"] == 'onFailure: "block"'
    rows = {row["event"]: row for row in report["capabilities"]}
    assert (rows["turn.start"]["word"], rows["turn.start"]["block"]) == ("BeforePrompt", True)
    assert rows["tool.pre"]["word"] == "PreToolUse" and rows["tool.pre"]["rewrite"] is True
    assert "compact.pre" not in rows and "toyc.Idle" not in rows
    explained = derived_cli(tmp_path, "explain", "BeforePrompt", "--host", "toyc")
    assert explained.returncode == 0, explained.stderr
    assert explained.stdout.splitlines()[1].startswith("Toy Code can block here: yes;")
