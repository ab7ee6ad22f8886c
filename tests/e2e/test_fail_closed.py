"""--fail-closed: a broken .agents/hooks.json denies the tool call instead of letting it run."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.conftest import Hosts, stream_text, tool_turn, wired_workspace


@pytest.mark.parametrize("host", ["claude", "gemini", "codex", "copilot"])
def test_broken_hooks_json_denies_the_tool_call(hosts: Hosts, tmp_path: Path, host: str) -> None:
    workspace = wired_workspace(tmp_path, host)
    (workspace / ".agents").mkdir()
    # Cut off mid-object: no hook in it can run, so nothing can vouch for the call.
    (workspace / ".agents" / "hooks.json").write_text('{"gate": {"PreToolUse": [', "utf-8")

    run = hosts.run(host, workspace, "Make a file.",
                    [tool_turn(host, "echo hi > made.txt"), {"text": "Could not make it."}])

    assert not (workspace / "made.txt").exists(), run.describe()
    assert len(run.main_requests) == 2, run.describe()
    [outcome] = run.tool_results(run.main_requests[1])
    assert outcome["error"], outcome
    assert "fail-closed" in outcome["text"], outcome
    assert ".agents/hooks.json" in outcome["text"], outcome
    assert "fail-closed" in stream_text(run)
