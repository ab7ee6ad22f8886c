"""Stop / AfterAgent: a hook that asks the agent to keep going gets exactly one more model call."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.conftest import (
    Hosts,
    final_answer,
    hooks_json,
    lines,
    wired_workspace,
    write_json,
    write_script,
)

# Asks once (it keeps a count in the workspace), so a second stop is let through.
KEEP_GOING = """#!/usr/bin/env python3
import json, os, sys

sys.stdin.read()
count = os.path.join(os.environ["GEMINI_PROJECT_DIR"], "stop-calls.txt")
with open(count, "a+") as f:
    f.seek(0)
    seen = len(f.read().splitlines())
    f.write("stop\\n")
if seen == 0:
    print(json.dumps({"decision": "continue", "reason": "KEEP-GOING-3J: run the tests first"}))
else:
    print("{}")
"""


@pytest.mark.parametrize("host", ["claude", "gemini", "codex", "copilot"])
def test_continue_gets_one_more_model_call(hosts: Hosts, tmp_path: Path, host: str) -> None:
    workspace = wired_workspace(tmp_path, host)
    write_script(workspace / ".agents" / "scripts" / "keep_going.py", KEEP_GOING)
    write_json(workspace / ".agents" / "hooks.json", hooks_json(
        keep_going={"Stop": [{"type": "command", "command": "./scripts/keep_going.py"}]}))

    run = hosts.run(host, workspace, "Fix the bug.",
                    [{"text": "First answer."}, {"text": "Second answer, tests run."}],)

    assert len(run.main_requests) == 2, run.describe()
    assert "KEEP-GOING-3J" not in run.prompt_text(run.main_requests[0])
    assert "KEEP-GOING-3J: run the tests first" in run.prompt_text(run.main_requests[1])
    assert lines(workspace / "stop-calls.txt") == ["stop", "stop"], run.describe()
    assert final_answer(run).endswith("Second answer, tests run."), run.describe()
