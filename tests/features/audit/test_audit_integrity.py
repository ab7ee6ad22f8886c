"""The audit log never holds a run, never loses a record to a torn one, and is never reached
through a symbolic link; `agenthooks audit` never waits on a FIFO. Real `agenthooks run`
processes, a real lock holder, a real file size limit (RLIMIT_FSIZE)."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import support
from tests.conftest import Run

pytestmark = pytest.mark.program

GATE = "case \"$(cat)\" in *rm*) echo no rm >&2; exit 2;; esac"
HOLD_LOCK = """\
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT, 0o600)
fcntl.flock(fd, fcntl.LOCK_EX)
print("locked", flush=True)
time.sleep(120)
"""


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return support.workspace(tmp_path / "ws", {".agents/hooks.json": {
        "gate": {"PreToolUse": [{"matcher": "", "hooks": [{"command": GATE}]}]}}})


def payload(command: str) -> bytes:
    return json.dumps({"tool_name": "run_command", "tool_input": {"command": command}}).encode()


def run(workspace: Path, log: Path, command: str = "rm -rf /", *extra: str,
        file_size_limit: int | None = None) -> subprocess.CompletedProcess[bytes]:
    def limit() -> None:  # in the child only: the test process keeps its own limits
        if file_size_limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size_limit, file_size_limit))

    return subprocess.run([sys.executable, "-m", "agenthooks", "run", "PreToolUse",
                           "--audit", str(log), "--audit-payloads", *extra],
                          input=payload(command), capture_output=True, cwd=workspace,
                          timeout=60, check=False, preexec_fn=limit)


def denied(done: subprocess.CompletedProcess[bytes]) -> bool:
    return done.returncode == 2 and json.loads(done.stdout)["decision"] == "deny"


def lines(log: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in log.read_bytes().splitlines()]


@pytest.fixture
def lock_holder(tmp_path: Path) -> Iterator[tuple[Path, subprocess.Popen[str]]]:
    """Another process holding the log's lock until the test ends."""
    log = tmp_path / "audit.jsonl"
    holder = subprocess.Popen([sys.executable, "-c", HOLD_LOCK, str(log)],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        yield log, holder
    finally:
        holder.kill()
        holder.wait()


def test_a_held_lock_is_waited_for_briefly_then_a_warning(
    workspace: Path, lock_holder: tuple[Path, subprocess.Popen[str]]
) -> None:
    log, holder = lock_holder
    # Before the bound, this run waited for the holder: two minutes, past the timeout here.
    done = run(workspace, log)
    assert denied(done), done.stderr
    assert (f"agenthooks: warning: cannot write the audit log {log}: another process has "
            "held its lock for over 0.5 s; this event is not logged") in done.stderr.decode()
    assert log.read_bytes() == b""
    holder.kill()
    holder.wait()
    assert denied(run(workspace, log)) and len(lines(log)) == 1


def test_a_short_write_leaves_no_torn_record(workspace: Path, tmp_path: Path,
                                             agenthooks: Run) -> None:
    log = tmp_path / "audit.jsonl"
    assert denied(run(workspace, log))
    whole = log.read_bytes()
    # Room for 100 more bytes: the next record (its payload alone is longer) is cut short.
    done = run(workspace, log, "rm " + "x" * 2000, file_size_limit=len(whole) + 100)
    assert denied(done)  # the answer never changes
    stderr = done.stderr.decode()
    assert f"cannot write the audit log {log}: the disk took 100 of " in stderr
    assert "the partial record was removed" in stderr
    assert log.read_bytes() == whole  # cut back: nothing torn is left
    assert denied(run(workspace, log, "rm -r build"))
    summary = agenthooks("audit", str(log), "--format", "json")
    assert summary.code == 0 and json.loads(summary.out)["events"] == 2
    assert "skipped" not in summary.err


def test_a_record_is_never_glued_onto_a_torn_one(workspace: Path, tmp_path: Path,
                                                 agenthooks: Run) -> None:
    log = tmp_path / "audit.jsonl"
    assert denied(run(workspace, log))
    whole = log.read_bytes()
    log.write_bytes(whole + whole[:40])  # torn by a crash, or by a writer that did not cut back
    assert denied(run(workspace, log))
    assert log.read_bytes().count(b"\n") == 3  # the torn line ended, the new record whole
    summary = agenthooks("audit", str(log), "--format", "json")
    assert json.loads(summary.out)["events"] == 2
    assert "skipped 1 line that is not an audit record\n" in summary.err


def test_the_reader_skips_only_the_torn_part_of_a_line(tmp_path: Path, agenthooks: Run,
                                                       workspace: Path) -> None:
    log = tmp_path / "audit.jsonl"
    assert denied(run(workspace, log))
    whole = log.read_bytes()
    log.write_bytes(whole[:55] + whole + whole)  # the second record glued onto a torn first
    summary = agenthooks("audit", str(log), "--format", "json")
    assert json.loads(summary.out)["events"] == 2
    assert summary.err.endswith("skipped 1 line that is not an audit record\n")


def test_the_log_is_never_written_through_a_symbolic_link(workspace: Path,
                                                          tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.txt"
    target.write_text("keep\n")
    log = tmp_path / "audit.jsonl"
    log.symlink_to(target)
    done = run(workspace, log)
    assert denied(done)
    assert (f"agenthooks: warning: cannot write the audit log {log}: it is a symbolic link, "
            "which the log is never written through\n") in done.stderr.decode()
    assert target.read_text() == "keep\n"


def test_a_log_that_is_not_a_regular_file_is_not_written(workspace: Path) -> None:
    done = run(workspace, Path("/dev/null"))
    assert denied(done)
    assert ("cannot write the audit log /dev/null: it is a character device, not a regular "
            "file") in done.stderr.decode()


def test_audit_of_a_fifo_is_a_one_line_error(tmp_path: Path) -> None:
    fifo = tmp_path / "audit.fifo"
    os.mkfifo(fifo)
    # Before, this waited for a writer that never comes: the timeout here ended it.
    done = subprocess.run([sys.executable, "-m", "agenthooks", "audit", str(fifo)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1
    assert done.stderr == (f"agenthooks: error: cannot read the audit log {fifo}: it is a "
                           "FIFO, not a regular file\n")

