"""`agenthooks list` shows Markdown hooks and --python hooks beside the handlers."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from agenthooks.cli.commands.list import list_handlers, reads_only_the_name


def test_list_json_rows_for_markdown_hooks(agenthooks, samples: Path, isolated: Path,
                                           monkeypatch) -> None:
    shutil.copytree(samples / ".harness", isolated / ".harness")
    outcome = agenthooks("list", "--format", "json", "--event", "PreToolUse",
                         "--tool", "run_command")
    rows = [row for row in json.loads(outcome.out) if row.get("kind") == "markdown"]
    assert [(r["hook"], r["priority"], r["conditional"]) for r in rows] == [
        ("audit_tool_pre", 1, False), ("command_guard", 10, False), ("redact_secrets", 20, False),
    ]  # path_guard and meta_tool_guard: their `when` rules run_command out
    guard = rows[1]
    assert guard["event"] == "PreToolUse" and guard["source_event"] == "tool.pre"
    assert guard["source"] == ".harness/hooks/command_guard.md"
    assert guard["when"].startswith('payload["name"] in')


def test_a_when_that_needs_the_payload_is_conditional(agenthooks, isolated: Path) -> None:
    folder = isolated / ".harness" / "hooks"
    folder.mkdir(parents=True)
    (folder / "c.md").write_text(
        "---\nevent: tool.pre\nwhen: payload['args'].get('command', '').startswith('rm')\n"
        "script: |\n"
        "  def handle(event, payload):\n      return block('x')\n---\n", encoding="utf-8")
    outcome = agenthooks("list", "--event", "tool.pre", "--tool", "Bash")
    assert "(conditional)" in outcome.out and outcome.code == 0


def test_reads_only_the_name() -> None:
    assert reads_only_the_name('payload["name"] == "x"')
    assert reads_only_the_name("payload.get('name') in TOOLS")
    assert not reads_only_the_name('payload["args"]["x"] == 1')
    assert not reads_only_the_name("is_shell(payload)")


def test_list_python_hooks_by_name(isolated: Path, capsys, monkeypatch) -> None:
    (isolated / "mypolicy.py").write_text(
        "from agenthooks import Hooks, Decision\n"
        "hooks = Hooks()\n"
        "@hooks.decide('PreToolUse', tool='run_.*', priority=5)\n"
        "def no_rm(ctx):\n    return None\n"
        "@hooks.inspect('Stop')\n"
        "def audit(ctx):\n    return None\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(isolated))
    assert list_handlers(python=["mypolicy:hooks"], fmt="json", no_user=True) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["hook"], r["kind"], r["event"], r["priority"], r["tool"], r["source"])
            for r in rows] == [
        ("no_rm", "decide", "PreToolUse", 5, "run_.*", "--python mypolicy:hooks"),
        ("audit", "inspect", "Stop", 0, None, "--python mypolicy:hooks"),
    ]
    assert list_handlers(python=["mypolicy:hooks"], tool="view", no_user=True) == 0
    assert "no_rm" not in capsys.readouterr().out
