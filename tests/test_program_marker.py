"""The `program` marker's check (tests/program_marker.py): which processes run agenthooks, and a
test that starts one without the marker fails, in a pytest session of its own."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from program_marker import starts_program

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(("argv", "runs"), [
    ([sys.executable, "-m", "agenthooks", "run", "Stop"], True),
    (["python3", "-I", "-X", "importtime", "-m", "agenthooks.hosts.codex.notify"], True),
    ([sys.executable, "-I", str(REPO / "bin" / "agenthooks"), "validate"], True),
    (["/venv/bin/agenthooks", "list"], True),
    (["sh", "-c", "cd x && agenthooks run PreToolUse --host claude"], True),
    (["bash", "-e", "-c", "FOO=1 /opt/bin/agenthooks validate\n"], True),
    ("python3 -m agenthooks validate", True),
    ([sys.executable, "-m", "pre_commit", "try-repo", "."], False),
    ([sys.executable, "-c", "import agenthooks"], False),
    ([sys.executable, str(REPO / "scripts" / "bench")], False),
    (["ruff", "check", "agenthooks"], False),
    (["sh", "-c", "echo agenthooks is a word here"], False),
    ([], False),
])
def test_what_runs_the_program(argv: object, runs: bool) -> None:
    assert starts_program(argv) is runs


INNER = '''
import subprocess, sys
import pytest

def test_unmarked():
    subprocess.run([sys.executable, "-m", "agenthooks", "--version"], check=True)

@pytest.mark.program
def test_marked():
    subprocess.run([sys.executable, "-m", "agenthooks", "--version"], check=True)

def test_something_else():
    subprocess.run([sys.executable, "-c", "pass"], check=True)
'''


def test_an_unmarked_test_that_starts_the_program_fails(tmp_path: Path) -> None:
    (tmp_path / "test_inner.py").write_text(INNER)
    tests = str(REPO / "tests")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([tests, str(REPO)])}
    env.pop("AGENTHOOKS_TEST_INSTALLED", None)
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "program_marker",
                           "-p", "no:cacheprovider", "-o", "markers=program: runs agenthooks",
                           "-q", "-rE", "test_inner.py"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
                          check=False)
    # Its body passes; its teardown is the error.
    last = done.stdout.splitlines()[-1]
    assert last.startswith("3 passed, 1 error in "), done.stdout + done.stderr
    assert "ERROR test_inner.py::test_unmarked - Failed: this test starts the agenthooks" \
        in done.stdout
    assert "but is not marked `program`" in done.stdout
