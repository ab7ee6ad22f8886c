"""`agenthooks run -v`: every handler and every in-process hook (Markdown, Python), each with
its decision and time, and a last line that counts both."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.support import program, workspace

pytestmark = pytest.mark.program

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
    return workspace(root, {
        ".agents/hooks.json": {
            "say": {"PreToolUse": [{"matcher": "", "hooks": [{"command": "true"}]}]}},
        ".harness/hooks/guard.md": GUARD,
        "pyhooks.py": PYTHON_HOOKS})


def _run(cwd: Path, payload: dict[str, object], *args: str) -> subprocess.CompletedProcess[str]:
    # The workspace's own folder on the path too: its Python hook module is imported.
    return program("run", "PreToolUse", "-v", "--no-user", *args, stdin=json.dumps(payload),
                   cwd=cwd, env={"PYTHONPATH": os.pathsep.join([str(REPO), str(cwd)])})


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


def test_a_terminal_gets_the_table_folded_at_separators(tmp_path: Path) -> None:
    """On a narrow terminal a long command folds after a blank or a `/`, never inside a word."""
    import fcntl
    import pty
    import struct
    import termios

    workspace = _workspace(tmp_path / "ws")
    command = "true --an-option-that-is-long /a/rather/long/path/to/somewhere/else"
    (workspace / ".agents" / "hooks.json").write_text(json.dumps(
        {"say": {"PreToolUse": [{"matcher": "", "hooks": [{"command": command}]}]}}))
    main, secondary = pty.openpty()
    fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 70, 0, 0))
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("COLUMNS", None)
    payload = tmp_path / "call.json"
    payload.write_text(json.dumps({"toolCall": {"name": "run_command", "args": {}}}))
    with payload.open() as stdin:
        process = subprocess.Popen(
            [sys.executable, "-m", "agenthooks", "run", "PreToolUse", "-v", "--no-user"],
            stdin=stdin, stdout=subprocess.DEVNULL, stderr=secondary, cwd=workspace, env=env)
    os.close(secondary)
    output = b""
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:
            break
        if not chunk:
            break
        output += chunk
    process.wait(timeout=30)
    os.close(main)
    text = output.decode().replace("\r\n", "\n")
    table = [line for line in text.splitlines() if not line.startswith("agenthooks: ")]
    assert all(len(line) <= 70 for line in table), text
    start, end = table[0].index("command"), table[0].index("status")
    say = next(i for i, line in enumerate(table) if line.startswith("say "))
    cells = [table[say][start:end].strip()]
    cells += [line[start:end].strip() for line in table[say + 1:] if not line[:start].strip()]
    assert len(cells) > 1, text  # folded
    position = 0
    for cell in cells:  # the lines are the command, cut only after a blank or a `/`
        position = command.index(cell, position) + len(cell)
        assert position == len(command) or command[position - 1] == "/" or \
            command[position] == " ", (cell, cells)
