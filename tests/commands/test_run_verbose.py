"""`agenthooks run -v`: every handler and every in-process hook (Markdown, Python), each with
its decision and time, and a last line that counts both."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO

GUARD = """\
---
event: tool.pre
script: |
  def handle(event, payload):
      if "rm -rf" in str(payload["args"]):
          return block("no rm -rf")
      return allow()
---
# guard
"""

PYTHON_HOOKS = """\
def register(hooks):
    @hooks.decide("PreToolUse")
    def noted(ctx):
        return None
"""


def _workspace(root: Path) -> Path:
    (root / ".agents").mkdir(parents=True)
    (root / ".agents" / "hooks.json").write_text(json.dumps(
        {"say": {"PreToolUse": [{"matcher": "", "hooks": [{"command": "true"}]}]}}))
    (root / ".harness" / "hooks").mkdir(parents=True)
    (root / ".harness" / "hooks" / "guard.md").write_text(GUARD)
    (root / "pyhooks.py").write_text(PYTHON_HOOKS)
    return root


def _run(cwd: Path, payload: dict[str, object], *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(cwd)])}
    return subprocess.run(
        [sys.executable, "-m", "agenthooks", "run", "PreToolUse", "-v", "--no-user", *args],
        input=json.dumps(payload), capture_output=True, text=True, cwd=cwd, env=env,
        check=False)


def _rows(stderr: str) -> dict[str, list[str]]:
    lines = stderr.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("hook "))
    return {line.split()[0]: line.split() for line in lines[header + 1:]
            if not line.startswith("agenthooks: ")}


def test_every_kind_of_hook_is_a_row(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path / "ws")
    call = {"toolCall": {"name": "run_command", "args": {"CommandLine": "ls"}}}
    done = _run(workspace, call, "--python", "pyhooks:register")
    assert done.returncode == 0, done.stderr
    rows = _rows(done.stderr)
    assert rows["say"][1:3] == ["true", "ok"]
    assert rows["guard"][1:3] == ["(markdown)", "ok"]
    assert rows["noted"][1:4] == ["(python", "decide)", "ok"]
    assert done.stderr.splitlines()[-1] == (
        "agenthooks: PreToolUse (run_command): 1 handler, 2 in-process hooks, not blocked, exit 0")


def test_a_markdown_hook_that_blocks_says_so(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path / "ws")
    call = {"toolCall": {"name": "run_command", "args": {"CommandLine": "rm -rf /"}}}
    done = _run(workspace, call)
    assert done.returncode == 2
    assert _rows(done.stderr)["guard"][-1] == "deny"
    assert done.stderr.splitlines()[-1].endswith("in-process hook, blocked, exit 2")


def test_nothing_ran(tmp_path: Path) -> None:
    done = _run(tmp_path, {})
    assert "agenthooks: no handler or hook ran" in done.stderr.splitlines()
    assert done.stderr.splitlines()[-1] == "agenthooks: PreToolUse: 0 handlers, not blocked, exit 0"
