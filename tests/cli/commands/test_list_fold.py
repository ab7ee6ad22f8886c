"""`agenthooks list` on a terminal: long cells fold at separators, never inside a word;
`--wide` keeps one line per row; `--format json` is the same rows as data."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from agenthooks.report.fold import column_widths, fold, pieces
from tests.conftest import REPO, Run
from tests.support import workspace

pytestmark = pytest.mark.program


@pytest.mark.parametrize(("text", "expected"), [
    ("./scripts/safety_gate.py --strict", ["./", "scripts/", "safety_gate.py ", "--strict"]),
    ("write_to_file|replace_file_content", ["write_to_file|", "replace_file_content"]),
    ("a && b; c", ["a && ", "b; ", "c"]),
    ("lint-on-write", ["lint-on-write"]),
    ("", []),
])
def test_pieces(text: str, expected: list[str]) -> None:
    assert pieces(text) == expected


@pytest.mark.parametrize(("text", "width", "lines"), [
    ("./scripts/safety_gate.py --strict", 40, ["./scripts/safety_gate.py --strict"]),
    ("./scripts/safety_gate.py --strict", 20, ["./scripts/", "safety_gate.py", "--strict"]),
    ("./scripts/safety_gate.py", 3, ["./", "scripts/", "safety_gate.py"]),  # never cut inside
    ("$CLAUDE_PROJECT_DIR/.agents/x.py", 21, ["$CLAUDE_PROJECT_DIR/", ".agents/x.py"]),
])
def test_fold(text: str, width: int, lines: list[str]) -> None:
    assert fold(text, width) == lines


def test_widths_never_go_below_a_columns_longest_piece() -> None:
    headers = ("SOURCE", "COMMAND")
    rows = [(".agents/hooks.json", "./scripts/a_very_long_script_name.py --flag")]
    assert column_widths(headers, rows, 200) == [18, 43]
    assert column_widths(headers, rows, 40) == [12, 26]
    assert column_widths(headers, rows, 10) == [10, 26]  # too narrow: pieces stay whole


LONG = "./scripts/a_rather_long_gate_script_name.py --with-an-option --and-another-one"


def _workspace(root: Path) -> Path:
    (root / ".agents" / "scripts").mkdir(parents=True)
    return workspace(root, {".agents/hooks.json": {"gate-with-a-long-name": {
        "PreToolUse": [{"matcher": "run_command|write_to_file|replace_file_content",
                        "hooks": [{"command": LONG}]}]}}})


def _on_terminal(cwd: Path, columns: int, *args: str) -> str:
    main, secondary = pty.openpty()
    fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("COLUMNS", None)
    process = subprocess.Popen([sys.executable, "-m", "agenthooks", "list", "--no-user", *args],
                               stdin=secondary, stdout=secondary, stderr=secondary, cwd=cwd,
                               env=env)
    os.close(secondary)
    output = b""
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:  # the other end closed
            break
        if not chunk:
            break
        output += chunk
    process.wait(timeout=30)
    os.close(main)
    return output.decode().replace("\r\n", "\n")


def test_a_narrow_terminal_folds_at_separators(tmp_path: Path) -> None:
    text = _on_terminal(_workspace(tmp_path / "ws"), 120)  # the table is 200 wide unfolded
    lines = text.splitlines()
    assert all(len(line) <= 120 for line in lines), text
    assert len(lines) > 3
    words = text.split()
    for word in ("./scripts/", "a_rather_long_gate_script_name.py", "--with-an-option",
                 "--and-another-one", "gate-with-a-long-name", "replace_file_content"):
        assert word in words, (word, text)


def test_wide_keeps_each_row_on_one_line(tmp_path: Path) -> None:
    text = _on_terminal(_workspace(tmp_path / "ws"), 80, "--wide")
    [row] = [line for line in text.splitlines() if "gate-with-a-long-name" in line]
    assert LONG in row and "run_command|write_to_file|replace_file_content" in row


def test_json(agenthooks: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(_workspace(tmp_path / "ws"))
    done = agenthooks("list", "--no-user", "--format", "json")
    [row] = json.loads(done.out)
    assert (row["hook"], row["command"], row["source"]) == (
        "gate-with-a-long-name", LONG, ".agents/hooks.json")
