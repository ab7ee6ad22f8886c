"""The audit log of `agenthooks run`: its records, concurrent writers, and a log that fails."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests import support

from .conftest import agenthooks_run

pytestmark = pytest.mark.program

KEYS = {"time", "event", "tool", "decision", "reason", "blocked", "workspace",
        "payload_sha256", "ms", "hooks"}
GATE = "case \"$(cat)\" in *rm*) echo no rm >&2; exit 2;; esac"
PYTHON_HOOKS = '''\
from agenthooks import Decision


def register(hooks):
    @hooks.decide("PreToolUse")
    def py_gate(ctx):
        return Decision.allow()
'''
MARKDOWN_HOOK = '''\
---
event: tool.pre
script: |
  def handle(event, payload):
      return allow()
---
'''


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A workspace with a command handler, a Markdown hook and a Python hook module."""
    return support.workspace(tmp_path / "ws", {
        ".agents/hooks.json": {
            "gate": {"PreToolUse": [{"matcher": "run_command", "hooks": [{"command": GATE}]}]},
            "slow-fail": {"PreToolUse": [
                {"matcher": "run_command", "hooks": [{"command": "exit 7"}]}]}},
        ".harness/hooks/md_gate.md": MARKDOWN_HOOK,
        "pyhooks.py": PYTHON_HOOKS})


def payload_bytes(command: str) -> bytes:
    # Odd spacing on purpose: the hash is of the bytes received, not of a re-serialization.
    head = '{ "tool_name" : "run_command",  "tool_input": {"command": "'
    return (head + command + '"}}\n').encode()


def run_bytes(data: bytes, *args: str, cwd: Path,
              env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "agenthooks", "run", *args], input=data,
                          capture_output=True, cwd=cwd, timeout=60, check=False,
                          env={**os.environ, **(env or {})})


def records(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_one_record_per_event_with_exactly_the_settled_keys(workspace: Path,
                                                           tmp_path: Path) -> None:
    log = tmp_path / "logs" / "audit.jsonl"  # its folder is made on first use
    data = payload_bytes("rm -rf /")
    done = run_bytes(data, "PreToolUse", "--audit", str(log), "--python", "pyhooks:register",
                     cwd=workspace)
    assert done.returncode == 2, done.stderr
    (record,) = records(log)
    assert set(record) == KEYS
    assert record["event"] == "PreToolUse" and record["tool"] == "run_command"
    assert record["decision"] == "deny" and record["blocked"] is True
    assert record["reason"] == json.loads(done.stdout)["reason"]
    assert record["workspace"] == os.path.realpath(workspace)
    assert record["payload_sha256"] == hashlib.sha256(data).hexdigest()
    assert str(record["time"]).endswith("Z") and str(record["time"])[10] == "T"
    assert isinstance(record["ms"], float) and record["ms"] > 0
    hooks = {h["name"]: h for h in record["hooks"]}  # type: ignore[attr-defined]
    assert hooks["gate"] == {**hooks["gate"], "kind": "command", "status": "blocked",
                             "decision": "deny"}
    assert hooks["slow-fail"] == {**hooks["slow-fail"], "kind": "command", "status": "warning",
                                  "decision": None}
    assert hooks["md_gate"] == {**hooks["md_gate"], "kind": "markdown", "status": "ok",
                                "decision": None}
    assert hooks["py_gate"] == {**hooks["py_gate"], "kind": "decide", "status": "ok",
                                "decision": None}
    assert all(set(h) == {"name", "kind", "status", "decision", "ms"} for h in hooks.values())


def test_the_payload_only_with_audit_payloads(workspace: Path, tmp_path: Path) -> None:
    log = tmp_path / "audit.jsonl"
    data = payload_bytes("ls")
    run_bytes(data, "PreToolUse", "--audit", str(log), cwd=workspace)
    run_bytes(data, "PreToolUse", "--audit", str(log), "--audit-payloads", cwd=workspace)
    first, second = records(log)
    assert "payload" not in first
    assert second["payload"] == data.decode() and set(second) == KEYS | {"payload"}


def test_the_environment_and_the_user_config_turn_it_on(workspace: Path, tmp_path: Path,
                                                        xdg: Path) -> None:
    from_env = tmp_path / "env.jsonl"
    run_bytes(payload_bytes("ls"), "Stop", cwd=workspace,
              env={"AGENTHOOKS_AUDIT_LOG": str(from_env)})
    assert [r["event"] for r in records(from_env)] == ["Stop"]
    config = xdg / "config" / "agenthooks" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('audit_log = "from-file.jsonl"\n')
    run_bytes(b"{}", "Stop", cwd=workspace)
    assert [r["event"] for r in records(config.parent / "from-file.jsonl")] == ["Stop"]
    run_bytes(b"{}", "Stop", cwd=workspace, env={"AGENTHOOKS_AUDIT_LOG": "no"})
    assert len(records(config.parent / "from-file.jsonl")) == 1


def test_fifty_concurrent_runs_write_fifty_whole_lines(workspace: Path, tmp_path: Path) -> None:
    log = tmp_path / "audit.jsonl"
    # A long reason and the payload itself make each line several kilobytes.
    payloads = [payload_bytes(f"echo {i} " + "x" * 3000) for i in range(50)]

    def one(data: bytes) -> int:
        return run_bytes(data, "PreToolUse", "--audit", str(log), "--audit-payloads",
                         cwd=workspace).returncode

    with ThreadPoolExecutor(max_workers=50) as pool:
        codes = list(pool.map(one, payloads))
    assert codes == [0] * 50
    lines = log.read_bytes().split(b"\n")
    assert lines[-1] == b"" and len(lines) == 51
    found = [json.loads(line) for line in lines[:-1]]  # every line parses
    assert sorted(r["payload_sha256"] for r in found) == \
        sorted(hashlib.sha256(p).hexdigest() for p in payloads)


@pytest.mark.parametrize("closed", [False, True])
def test_an_unwritable_log_is_a_warning_never_a_changed_answer(
    workspace: Path, tmp_path: Path, closed: bool
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    log = blocker / "audit.jsonl"  # ENOTDIR whoever runs the test, root included
    extra = ["--fail-closed"] if closed else []
    # `exit 7` is a failure, which denies "ls" too under fail-closed.
    for command, code in (("ls", 2 if closed else 0), ("rm -rf /", 2)):
        data = payload_bytes(command)
        plain = run_bytes(data, "PreToolUse", *extra, cwd=workspace)
        audited = run_bytes(data, "PreToolUse", *extra, "--audit", str(log), cwd=workspace)
        assert (audited.returncode, audited.stdout) == (plain.returncode, plain.stdout)
        assert audited.returncode == code
        warning = f"agenthooks: warning: cannot write the audit log {log}: Not a directory\n"
        assert audited.stderr.decode() == plain.stderr.decode() + warning


def test_a_fifo_with_no_reader_does_not_hang_the_run(workspace: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "audit.fifo"
    os.mkfifo(fifo)
    done = run_bytes(payload_bytes("rm -rf /"), "PreToolUse", "--audit", str(fifo),
                     cwd=workspace)
    assert done.returncode == 2 and json.loads(done.stdout)["decision"] == "deny"
    assert f"cannot write the audit log {fifo}: it is a FIFO, not a regular file" in \
        done.stderr.decode()


def test_a_fail_closed_deny_of_agenthooks_own_error_is_audited(workspace: Path,
                                                              tmp_path: Path) -> None:
    log = tmp_path / "audit.jsonl"
    done = run_bytes(b"not json", "PreToolUse", "--fail-closed", "--audit", str(log),
                     cwd=workspace)
    assert done.returncode == 2
    (record,) = records(log)
    assert record["decision"] == "deny" and record["blocked"] is True
    assert record["payload_sha256"] == hashlib.sha256(b"not json").hexdigest()


@pytest.mark.parametrize(("args", "imported"), [([], False), (["--audit", "AUDIT"], True)])
def test_the_audit_module_loads_only_when_auditing(workspace: Path, tmp_path: Path,
                                                   args: list[str], imported: bool) -> None:
    args = [str(tmp_path / "a.jsonl") if a == "AUDIT" else a for a in args]
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "agenthooks", "run",
                           "Stop", *args], stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, cwd=workspace, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert (" agenthooks.features.audit\n" in done.stderr) is imported
    assert " hashlib\n" not in done.stderr or imported


def test_run_helper_still_works(workspace: Path) -> None:
    assert agenthooks_run("Stop", cwd=workspace).returncode == 0
