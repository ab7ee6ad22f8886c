"""A gate in .agents/hooks.json, written for Antigravity's shell tool, guards every host's shell.

The matcher says `run_command`, Antigravity's name; under Claude Code the call is `Bash`, under
Gemini CLI `run_shell_command`, and the gate must still see it, deny it, and have its reason
reach the model.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.conftest import (
    Hosts,
    hooks_json_handler,
    lines,
    rm_gate,
    stream_text,
    tool_turn,
    wired_workspace,
)


@pytest.mark.parametrize("host", ["claude", "gemini", "codex", "copilot"])
def test_run_command_gate_blocks_rm_rf(hosts: Hosts, tmp_path: Path, host: str) -> None:
    workspace = wired_workspace(tmp_path, host)
    hooks_json_handler(workspace, "gate", rm_gate("GATE-7Q"))
    (workspace / "build").mkdir()
    (workspace / "build" / "out.o").write_text("object", "utf-8")

    run = hosts.run(host, workspace, "Clean the build.",
                    [tool_turn(host, "rm -rf build"), {"text": "The build is clean."}])

    calls = [json.loads(line) for line in lines(workspace / "gate-calls.jsonl")]
    assert calls == [{"command": "rm -rf build"}], run.describe()
    assert (workspace / "build" / "out.o").exists(), run.describe()
    assert len(run.main_requests) == 2, run.describe()
    [outcome] = run.tool_results(run.main_requests[1])
    assert outcome["error"], outcome
    assert "GATE-7Q: recursive delete refused" in outcome["text"], outcome
    assert "GATE-7Q" in stream_text(run)
