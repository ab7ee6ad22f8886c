"""`agenthooks run --record DIR` and `agenthooks test --replay DIR`, with real processes: a
real hook denies, each host's run is recorded, the recordings replay under every host, and an
edited hook shows up as a changed decision under each of them. Recording never changes an
answer: the bytes on stdout and the exit status are compared with a run that does not record.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from agenthooks.model.hosts import host_ids

pytestmark = pytest.mark.program

GATE = """\
#!/bin/sh
if grep -q 'rm -rf'; then
  echo "the gate refuses rm -rf" >&2
  exit 2
fi
exit 0
"""
OPEN_GATE = "#!/bin/sh\ncat >/dev/null\nexit 0\n"
DENIED = "rm -rf /tmp/build"
ALLOWED = "ls -la"


def host_payload(host: str, workspace: Path, command: str) -> tuple[str, dict[str, Any]]:
    """The event word and payload each host sends before a shell command (its own docs'
    field names; see agenthooks.sources.payloads)."""
    where = str(workspace)
    payloads: dict[str, tuple[str, dict[str, Any]]] = {
        "antigravity": ("PreToolUse", {
            "conversationId": "c1", "workspacePaths": [where],
            "toolCall": {"name": "run_command", "args": {"CommandLine": command}}}),
        "claude": ("PreToolUse", {
            "hook_event_name": "PreToolUse", "session_id": "s1", "cwd": where,
            "permission_mode": "default", "tool_name": "Bash",
            "tool_input": {"command": command}}),
        "gemini": ("BeforeTool", {
            "hook_event_name": "BeforeTool", "session_id": "s1", "cwd": where,
            "timestamp": "2026-01-01T00:00:00Z", "tool_name": "run_shell_command",
            "tool_input": {"command": command}}),
        "cursor": ("preToolUse", {
            "hook_event_name": "preToolUse", "conversation_id": "c1", "cursor_version": "1.7.0",
            "workspace_roots": [where], "tool_name": "Shell",
            "tool_input": {"command": command}}),
        "codex": ("PreToolUse", {
            "hook_event_name": "PreToolUse", "session_id": "s1", "turn_id": "t1", "cwd": where,
            "tool_name": "Bash", "tool_input": {"command": command}}),
        "copilot": ("preToolUse", {
            "sessionId": "s1", "timestamp": 1767225600000, "cwd": where, "toolName": "bash",
            "toolArgs": json.dumps({"command": command})}),
        "windsurf": ("pre_run_command", {
            "agent_action_name": "pre_run_command", "trajectory_id": "t1",
            "execution_id": "e1", "timestamp": "2026-01-01T00:00:00Z",
            "tool_info": {"command_line": command, "cwd": where}}),
        "qwen": ("PreToolUse", {
            "hook_event_name": "PreToolUse", "session_id": "s1", "cwd": where,
            "permission_mode": "default", "tool_name": "run_shell_command",
            "tool_input": {"command": command}}),
        # Factory-AI/factory .factory/hooks/guard_execute.py@7fe9976 reads these fields.
        "factory": ("PreToolUse", {
            "hook_event_name": "PreToolUse", "session_id": "s1", "cwd": where,
            "permission_mode": "auto-medium", "tool_name": "Execute",
            "tool_input": {"command": command}}),
    }
    return payloads[host]


def test_every_host_has_a_payload_here(tmp_path: Path) -> None:
    for host in host_ids():
        host_payload(host, tmp_path, DENIED)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A workspace whose hooks.json runs a real gate script on every PreToolUse."""
    root = tmp_path / "project"
    scripts = root / ".agents" / "scripts"
    scripts.mkdir(parents=True)
    set_gate(root, GATE)
    (root / ".agents" / "hooks.json").write_text(json.dumps({"gate": {"PreToolUse": [
        {"matcher": "", "hooks": [{"command": "./scripts/gate.sh", "timeout": 30}]}]}}))
    return root


def set_gate(root: Path, script: str) -> None:
    gate = root / ".agents" / "scripts" / "gate.sh"
    gate.write_text(script)
    gate.chmod(gate.stat().st_mode | stat.S_IXUSR)


def environment(**extra: str) -> dict[str, str]:
    """The test's environment (its HOME is a temporary one) without agenthooks' settings."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("AGENTHOOKS_")}
    return {**env, **extra}


def agenthooks(*args: str, payload: bytes = b"", cwd: Path,
               env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "agenthooks", *args], input=payload,
                          capture_output=True, cwd=cwd, env=env or environment(), timeout=120,
                          check=False)


def run_as(host: str, workspace: Path, command: str, *extra: str,
           env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    event, payload = host_payload(host, workspace, command)
    return agenthooks("run", event, "--host", host, *extra,
                      payload=json.dumps(payload).encode(), cwd=workspace, env=env)


def fixtures_in(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.hooktest.json"))


# -- the answer is the same, recorded or not


@pytest.mark.parametrize("host", host_ids())
@pytest.mark.parametrize("command", [DENIED, ALLOWED])
def test_recording_leaves_the_answer_byte_for_byte(host: str, command: str, workspace: Path,
                                                   tmp_path: Path) -> None:
    plain = run_as(host, workspace, command)
    assert plain.returncode in (0, 2), plain.stderr
    flagged = run_as(host, workspace, command, "--record", str(tmp_path / "by-flag"))
    from_env = run_as(host, workspace, command,
                      env=environment(AGENTHOOKS_RECORD=str(tmp_path / "by-env")))
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    unwritable = run_as(host, workspace, command, "--record", str(blocker / "sub"))
    for recorded in (flagged, from_env, unwritable):
        assert recorded.stdout == plain.stdout
        assert recorded.returncode == plain.returncode
    assert flagged.stderr == plain.stderr == from_env.stderr
    assert len(fixtures_in(tmp_path / "by-flag")) == 1
    assert len(fixtures_in(tmp_path / "by-env")) == 1
    # The failure to record is one line of warning, after what the run itself said.
    assert unwritable.stderr.startswith(plain.stderr)
    warning = unwritable.stderr[len(plain.stderr):].decode()
    assert warning.count("\n") == 1
    assert warning.startswith(f"agenthooks: warning: cannot record the payload in {blocker}")


def test_a_bad_redact_pattern_records_nothing_and_answers_as_ever(workspace: Path,
                                                                   tmp_path: Path) -> None:
    plain = run_as("claude", workspace, DENIED)
    bad = run_as("claude", workspace, DENIED, "--record", str(tmp_path / "rec"),
                 "--redact", "(unclosed")
    assert (bad.stdout, bad.returncode) == (plain.stdout, plain.returncode)
    assert b"cannot record the payload" in bad.stderr
    assert fixtures_in(tmp_path / "rec") == []


def test_record_off_in_the_environment(workspace: Path, tmp_path: Path) -> None:
    done = run_as("claude", workspace, DENIED, env=environment(AGENTHOOKS_RECORD="0"),)
    assert done.returncode in (0, 2)
    assert not (workspace / "0").exists()


def test_concurrent_runs_write_one_file_each(workspace: Path, tmp_path: Path) -> None:
    folder = tmp_path / "rec"
    event, payload = host_payload("claude", workspace, DENIED)
    processes = [subprocess.Popen(
        [sys.executable, "-m", "agenthooks", "run", event, "--host", "claude", "--record",
         str(folder)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        cwd=workspace, env=environment()) for _ in range(6)]
    for process in processes:
        process.communicate(json.dumps(payload).encode(), timeout=120)
    files = fixtures_in(folder)
    assert len(files) == 6
    for file in files:
        assert json.loads(file.read_text())["cases"][0]["expect"]["decision"] == "deny"
        assert stat.S_IMODE(file.stat().st_mode) == 0o600


# -- what is recorded


def test_the_recorded_fixture(workspace: Path, tmp_path: Path) -> None:
    folder = tmp_path / "rec"
    command = f"{DENIED} && GITHUB_TOKEN=ghp_0123456789abcdefghijABCDEFGHIJ0123 ./deploy"
    done = run_as("claude", workspace, command, "--record", str(folder), "--redact", "deploy")
    assert done.returncode == 0  # Claude Code reads the deny from the JSON
    [file] = fixtures_in(folder)
    assert file.name.split("-")[1:3] == ["claude", "PreToolUse"]
    document = json.loads(file.read_text())
    assert document["workspace"] == os.path.relpath(workspace, folder)
    [case] = document["cases"]
    assert case["host"] == "claude"
    assert case["event"] == "PreToolUse"
    assert case["payload"]["tool_input"]["command"] == (
        f"{DENIED} && GITHUB_TOKEN=[REDACTED] ./[REDACTED]")
    assert case["expect"] == {"decision": "deny", "blocked": True,
                              "reason": "the gate refuses rm -rf"}


# -- replay


def replay(folder: Path, cwd: Path, *extra: str) -> subprocess.CompletedProcess[bytes]:
    return agenthooks("test", "--replay", str(folder), *extra, cwd=cwd)


def test_a_recording_replays_under_every_host(workspace: Path, tmp_path: Path) -> None:
    folder = tmp_path / "rec"
    assert run_as("claude", workspace, DENIED, "--record", str(folder)).returncode == 0
    done = replay(folder, tmp_path)
    out = done.stdout.decode()
    assert done.returncode == 0, out + done.stderr.decode()
    hosts = len(host_ids())
    assert f"{hosts} passed, 0 failed ({hosts} cases in 1 file)" in out
    assert "[claude] (" in out
    for host in host_ids():
        if host != "claude":
            assert f"[as {host}] (" in out


def test_an_edited_hook_is_a_change_under_every_host(workspace: Path, tmp_path: Path) -> None:
    folder = tmp_path / "rec"
    assert run_as("claude", workspace, DENIED, "--record", str(folder)).returncode == 0
    set_gate(workspace, OPEN_GATE)
    done = replay(folder, tmp_path, "--format", "json")
    assert done.returncode == 1, done.stderr.decode()
    report = json.loads(done.stdout)
    assert report["failed"] == len(host_ids())
    by_host = {case["name"].rsplit("[", 1)[1]: case for case in report["cases"]}
    assert set(by_host) == {"claude]", *(f"as {h}]" for h in host_ids() if h != "claude")}
    for case in report["cases"]:
        assert {"field": "decision", "expected": "deny", "actual": None, "note": ""} in (
            case["mismatches"])
    assert by_host["as gemini]"]["event"] == "BeforeTool"
    assert by_host["as gemini]"]["host"] == "gemini"
    text = replay(folder, tmp_path).stdout.decode()
    assert "agenthooks run BeforeTool --host gemini: exit 0" in text


def test_recordings_of_every_host_replay_under_every_host(workspace: Path,
                                                          tmp_path: Path) -> None:
    folder = tmp_path / "rec"
    for host in host_ids():
        assert run_as(host, workspace, DENIED, "--record", str(folder)).returncode in (0, 2)
    # Antigravity runs hooks.json itself: under its --host nothing was left to decide, which
    # the other hosts' replays would call a change. Its payload without --host is the gate's.
    [nothing] = folder.glob("*-antigravity-*")
    assert json.loads(nothing.read_text())["cases"][0]["expect"]["decision"] is None
    nothing.unlink()
    event, payload = host_payload("antigravity", workspace, DENIED)
    assert agenthooks("run", event, "--record", str(folder), payload=json.dumps(payload).encode(),
                      cwd=workspace).returncode == 2
    assert len(fixtures_in(folder)) == len(host_ids())
    done = replay(folder, tmp_path, "--format", "json")
    report = json.loads(done.stdout)
    failed = [(case["name"], case["mismatches"]) for case in report["cases"]
              if not case["passed"]]
    assert failed == []
    assert report["passed"] == len(host_ids()) ** 2
    assert done.returncode == 0


def test_a_recorded_fixture_runs_under_its_host_without_replay(workspace: Path,
                                                               tmp_path: Path) -> None:
    folder = tmp_path / "rec"
    assert run_as("gemini", workspace, DENIED, "--record", str(folder)).returncode == 0
    done = agenthooks("test", str(folder), "--format", "json", cwd=tmp_path)
    report = json.loads(done.stdout)
    assert done.returncode == 0, report
    [case] = report["cases"]
    assert (case["host"], case["event"], case["passed"]) == ("gemini", "BeforeTool", True)


def test_record_and_replay_do_not_go_together(tmp_path: Path) -> None:
    done = agenthooks("test", "--record", "--replay", "x.json", cwd=tmp_path)
    assert done.returncode == 2
    assert b"give one" in done.stderr


def test_an_unknown_host_in_a_fixture_is_an_error(workspace: Path, tmp_path: Path) -> None:
    fixture = tmp_path / "bad.hooktest.json"
    fixture.write_text(json.dumps({"workspace": str(workspace), "cases": [
        {"name": "x", "host": "claud", "event": "PreToolUse", "expect": {"decision": "deny"}}]}))
    done = agenthooks("test", str(fixture), cwd=tmp_path)
    assert done.returncode == 2
    assert b"unknown host 'claud'; did you mean 'claude'?" in done.stderr


def test_a_handlers_own_run_does_not_record_what_it_was_given(workspace: Path,
                                                              tmp_path: Path) -> None:
    """AGENTHOOKS_RECORD reaches the handlers; an `agenthooks run` one starts was not sent by
    the host, and is not recorded (a --record on its own command line would be)."""
    (workspace / ".agents" / "empty.json").write_text("{}")
    set_gate(workspace, f"""#!/bin/sh
cat >/dev/null
echo '{{}}' | "{sys.executable}" -m agenthooks run Stop --config empty.json >/dev/null
exit 0
""")
    folder = tmp_path / "rec"
    done = run_as("claude", workspace, ALLOWED, env=environment(AGENTHOOKS_RECORD=str(folder)))
    assert done.returncode == 0, done.stderr
    [file] = fixtures_in(folder)
    assert json.loads(file.read_text())["cases"][0]["event"] == "PreToolUse"


PYTHON_GATE = """\
from agenthooks import Decision


def register(hooks):
    @hooks.decide("PreToolUse")
    def gate(ctx):
        print("printed while deciding")
        return Decision.deny("python says no")
"""


@pytest.mark.parametrize("host", ["claude", "gemini"])
def test_a_run_with_python_hooks_records_from_its_kept_child(host: str, workspace: Path,
                                                             tmp_path: Path) -> None:
    (workspace / "gate.py").write_text(PYTHON_GATE)
    plain = run_as(host, workspace, ALLOWED, "--python", "gate:register")
    folder = tmp_path / "rec"
    recorded = run_as(host, workspace, ALLOWED, "--python", "gate:register",
                      "--record", str(folder))
    assert (recorded.stdout, recorded.returncode) == (plain.stdout, plain.returncode)
    assert b"python says no" in plain.stdout
    [file] = fixtures_in(folder)
    expect = json.loads(file.read_text())["cases"][0]["expect"]
    assert expect == {"decision": "deny", "blocked": True, "reason": "python says no"}
