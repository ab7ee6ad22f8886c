"""The sample workspace, wired into each host exactly as README.md shows.

Its safety gate (.agents/hooks.json, matcher run_command) refuses `rm -rf` and allows read-only
commands: the refused call must not run and its reason must reach the model; the allowed one
must run and its output reach the model.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.conftest import REPO, Hosts, stream_text, tool_turn, wired_workspace

REFUSAL = "Refusing to run a recursive force delete: rm -rf build"


@pytest.mark.parametrize("host", ["claude", "gemini", "codex", "copilot"])
def test_readme_wiring_denies_and_allows(hosts: Hosts, tmp_path: Path, host: str) -> None:
    workspace = wired_workspace(tmp_path, host, source=REPO / "sample_hooks")
    (workspace / "build").mkdir()
    (workspace / "build" / "app.pyc").write_text("compiled", "utf-8")

    run = hosts.run(host, workspace, "Clean the build, then list src.",
                    [tool_turn(host, "rm -rf build", "ls src"), {"text": "Cleaned and listed."}])

    assert (workspace / "build" / "app.pyc").exists(), run.describe()
    assert len(run.main_requests) == 2, run.describe()
    denied, listed = run.tool_results(run.main_requests[1])
    assert denied["error"], denied
    assert REFUSAL in denied["text"], denied
    assert not listed["error"], listed
    assert "app.py" in listed["text"], listed
    assert REFUSAL in stream_text(run)
