"""`agenthooks test` says each case as it finishes (in the order of the report, which is the
same as when written at the end), with a progress line on a terminal."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.support import workspace

pytestmark = pytest.mark.program

# The second case's hook waits until the test has seen the first case's line.
WAITS = "#!/bin/sh\ncat >/dev/null\nwhile [ ! -e \"$RELEASE\" ]; do sleep 0.05; done\n"
FIXTURE = """\
cases:
  - {name: quick, event: PreToolUse, tool: read_file, expect: {decision: null}}
  - {name: waits, event: PreToolUse, tool: run_command, expect: {decision: null}}
"""


def _workspace(root: Path) -> Path:
    workspace(root, {
        ".agents/waits.sh": WAITS,
        ".agents/hooks.json": {"waits": {"PreToolUse": [
            {"matcher": "run_command", "hooks": [{"command": "./waits.sh", "timeout": 60}]}]}},
        ".agents/tests/t.hooktest.yaml": FIXTURE})
    (root / ".agents" / "waits.sh").chmod(0o755)
    return root


def _start(workspace: Path, release: Path, **streams: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(REPO), "RELEASE": str(release)}
    return subprocess.Popen([sys.executable, "-m", "agenthooks", "test", "-j", "2"],
                            cwd=workspace, env=env, **streams)  # type: ignore[call-overload]


def _read_until(fd: int, wanted: bytes, seen: bytes = b"") -> bytes:
    deadline = time.monotonic() + 30
    while wanted not in seen:
        assert time.monotonic() < deadline, f"never saw {wanted!r} in {seen!r}"
        ready, _, _ = select.select([fd], [], [], 0.5)
        if ready:
            chunk = os.read(fd, 4096)
            assert chunk, f"ended before {wanted!r}: {seen!r}"
            seen += chunk
    return seen


def test_each_case_is_said_as_it_finishes(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path / "ws")
    release = tmp_path / "release"
    process = _start(workspace, release, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert process.stdout is not None
        seen = _read_until(process.stdout.fileno(), b"quick (")
        assert b"waits" not in seen and process.poll() is None  # said before the end
        release.touch()
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, err
    text = (seen + out).decode()
    assert "\x1b" not in text and "\r" not in text  # plain lines off a terminal
    lines = text.splitlines()
    assert lines[0] == ".agents/tests/t.hooktest.yaml"
    assert lines[1].startswith("  ✓ quick (") and lines[2].startswith("  ✓ waits (")
    assert lines[3].startswith("2 passed, 0 failed (2 cases in 1 file)")


def test_a_terminal_gets_a_progress_line(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path / "ws")
    release = tmp_path / "release"
    main, secondary = pty.openpty()
    fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 0, 0))
    process = _start(workspace, release, stdin=secondary, stdout=secondary, stderr=secondary)
    os.close(secondary)
    try:
        seen = _read_until(main, b"[1/2] 0 failed; last: quick")
        release.touch()
        seen = _read_until(main, b"2 passed", seen)
        assert process.wait(timeout=60) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(main)
    text = seen.decode()
    assert "\r\x1b[K" in text  # the progress line is rewritten, then cleared
    final = text.replace("\r\n", "\n").split("\r\x1b[K")[-1]
    assert "[1/2]" not in final and "✓ waits" in final
