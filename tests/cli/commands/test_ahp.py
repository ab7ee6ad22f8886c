"""`agenthooks ahp`, a real backend process driven over its stdin and stdout as an AHP
harness drives one (the stdio binding: one JSON-RPC message per line, §17), with a real
hook in a temporary workspace. The cases (`ahp_cases/`) are request lines and the response
lines they must get."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from proctools import pids_with_argv

from tests.support import program_env

CASES = Path(__file__).resolve().parent / "ahp_cases"

# Denies `rm -rf`, asks for `sudo`, rewrites a bare `ls`, says nothing otherwise; reads the
# command from Claude Code's and Gemini CLI's `tool_input` and from Antigravity's
# `toolCall.args`.
GATE = """\
import json, sys
payload = json.load(sys.stdin)
args = payload.get("tool_input") or payload.get("toolCall", {}).get("args", {})
key = "command" if "command" in args else "CommandLine"
command = args.get(key) or ""
if "rm -rf" in command:
    print(json.dumps({"decision": "deny", "reason": "no recursive deletes: " + command}))
elif command.startswith("sudo"):
    print(json.dumps({"decision": "ask", "reason": "sudo needs a person"}))
elif command == "ls":
    print(json.dumps({"hookSpecificOutput": {"updatedInput": {**args, key: "ls -la"}}}))
else:
    print("{}")
"""


def gated(root: Path, *, gate: str = GATE, extra: dict[str, Any] | None = None) -> Path:
    """A workspace whose hooks.json runs `gate` before every tool."""
    (root / ".agents").mkdir(parents=True)
    (root / "gate.py").write_text(gate, encoding="utf-8")
    hooks: dict[str, Any] = {"gate": {"PreToolUse": [{"matcher": "", "hooks": [
        {"type": "command", "command": f"{sys.executable} {root / 'gate.py'}"}]}]}}
    hooks.update(extra or {})
    (root / ".agents" / "hooks.json").write_text(json.dumps(hooks), encoding="utf-8")
    return root


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return gated(tmp_path / "ws")


def backend(workspace: Path, data: bytes, *options: str,
            environ: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    """`agenthooks ahp` given `data` on stdin, then EOF."""
    return subprocess.run(
        [sys.executable, "-m", "agenthooks", "ahp", "--workspace", str(workspace), "--no-user",
         *options],
        input=data, capture_output=True, env=environ or program_env(), timeout=120, check=False)


def responses(out: bytes) -> list[dict[str, Any]]:
    """stdout as the binding frames it: each line one JSON-RPC object, nothing else."""
    text = out.decode("utf-8")
    assert text == "" or text.endswith("\n"), text
    return [json.loads(line) for line in text.splitlines()]


def matches(expected: dict[str, Any], got: dict[str, Any]) -> bool:
    """Equal, but for an expected error message `*`: any non-empty message."""
    error = expected.get("error")
    if isinstance(error, dict) and error.get("message") == "*":
        message = got.get("error", {}).get("message")
        if not (isinstance(message, str) and message):
            return False
        expected = {**expected, "error": {**error, "message": message}}
    return expected == got


def case_names() -> list[str]:
    return sorted(p.name.removesuffix(".in.jsonl") for p in CASES.glob("*.in.jsonl"))


@pytest.mark.program
@pytest.mark.parametrize("name", case_names())
def test_case(workspace: Path, name: str) -> None:
    done = backend(workspace, (CASES / f"{name}.in.jsonl").read_bytes())
    expected = [json.loads(line) for line in
                (CASES / f"{name}.out.jsonl").read_text(encoding="utf-8").splitlines()]
    got = responses(done.stdout)
    assert done.returncode == 0, done.stderr
    assert len(got) == len(expected), got
    for want, have in zip(expected, got, strict=True):
        assert matches(want, have), (want, have)
    assert b"Traceback" not in done.stderr


def intercept(event_id: str, command: str, *, name: str = "Bash") -> bytes:
    """One `hooks/intercept` line for a shell call."""
    return (json.dumps({
        "jsonrpc": "2.0", "id": event_id, "method": "hooks/intercept",
        "params": {"protocolVersion": "0.1", "capabilities": {"effects": ["deny"]}, "event": {
            "id": event_id, "source": "urn:uuid:0", "type": "tool.before",
            "time": "2026-08-24T08:51:14Z", "session": {"id": "s1"},
            "tool": {"callId": "c1", "name": name, "kind": "shell",
                     "input": {"command": command}}}},
    }) + "\n").encode()


def effects(response: dict[str, Any]) -> list[dict[str, Any]]:
    result = response["result"]
    assert result["protocolVersion"] == "0.1"
    found: list[dict[str, Any]] = result["effects"]
    return found


@pytest.mark.program
def test_persistent_backend_answers_each_line_before_the_next(workspace: Path) -> None:
    """A persistent backend: each response comes before the next request is written (the
    harness has one request outstanding: §17.2), and EOF ends it with status 0."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "agenthooks", "ahp", "--workspace", str(workspace),
         "--no-user"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=program_env())
    assert proc.stdin is not None and proc.stdout is not None
    try:
        said = []
        for event_id, command in (("e1", "rm -rf /"), ("e2", "git status"), ("e3", "rm -rf .")):
            proc.stdin.write(intercept(event_id, command))
            proc.stdin.flush()
            said.append(json.loads(proc.stdout.readline()))
        proc.stdin.close()
        assert proc.wait(timeout=60) == 0
        assert proc.stdout.read() == b""
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
    assert [r["id"] for r in said] == ["e1", "e2", "e3"]
    assert effects(said[0]) == [{"type": "deny", "reason": "no recursive deletes: rm -rf /"}]
    assert effects(said[1]) == []
    assert effects(said[2])[0]["type"] == "deny"


@pytest.mark.program
def test_duplicate_delivery_gets_the_same_answer(workspace: Path) -> None:
    """A retry reuses the event's id; the backend answers it the same (§15)."""
    line = intercept("evt_dup", "rm -rf /")
    got = responses(backend(workspace, line + line).stdout)
    assert got[0] == got[1] and effects(got[0])[0]["type"] == "deny"


CRASHING = "import sys\nsys.exit(3)\n"


@pytest.mark.program
def test_a_failing_hook_denies_under_fail_closed_only(tmp_path: Path) -> None:
    """A hook that crashes: a warning on stderr and no effect; with --fail-closed (or
    AGENTHOOKS_FAIL_CLOSED=1), a deny. Never a traceback, never stdout but the answer."""
    root = gated(tmp_path / "ws", gate=CRASHING)
    line = intercept("evt_f", "git status")
    open_ = backend(root, line)
    assert effects(responses(open_.stdout)[0]) == []
    assert b"warning" in open_.stderr
    for options, environ in ((("--fail-closed",), None),
                             ((), program_env({"AGENTHOOKS_FAIL_CLOSED": "1"}))):
        closed = backend(root, line, *options, environ=environ)
        [deny] = effects(responses(closed.stdout)[0])
        assert deny["type"] == "deny" and deny["reason"]
        assert b"Traceback" not in closed.stderr


@pytest.mark.program
def test_a_broken_hook_file_is_an_error_or_a_deny(tmp_path: Path) -> None:
    """A hooks.json with errors runs nothing: under fail-closed that denies; else the
    answer has no effect and stderr names the file."""
    root = tmp_path / "ws"
    (root / ".agents").mkdir(parents=True)
    (root / ".agents" / "hooks.json").write_text('{"gate": {"PreToolUse": 3}}', "utf-8")
    line = intercept("evt_b", "ls")
    open_ = backend(root, line)
    assert effects(responses(open_.stdout)[0]) == []
    assert b"hooks.json" in open_.stderr
    closed = backend(root, line, "--fail-closed")
    assert effects(responses(closed.stdout)[0])[0]["type"] == "deny"


@pytest.mark.program
def test_what_hooks_print_never_reaches_stdout(tmp_path: Path) -> None:
    """A hook's stderr and agenthooks' warnings go to stderr; stdout holds the answer only."""
    noisy = 'import sys\nprint("noise on stderr", file=sys.stderr)\nprint("{}")\n'
    root = gated(tmp_path / "ws", gate=noisy)
    done = backend(root, intercept("evt_n", "ls") + b"\n   \n" + intercept("evt_m", "ls"))
    assert [r["id"] for r in responses(done.stdout)] == ["evt_n", "evt_m"]


@pytest.mark.program
def test_observe_runs_the_events_hooks_and_answers_nothing(tmp_path: Path) -> None:
    """hooks/observe is a notification: the PostToolUse hooks run, nothing is written."""
    seen = tmp_path / "seen.json"
    record = f"cat > {seen}"
    root = gated(tmp_path / "ws", extra={"log": {"PostToolUse": [{"matcher": "", "hooks": [
        {"type": "command", "command": record}]}]}})
    note = json.dumps({"jsonrpc": "2.0", "method": "hooks/observe", "params": {
        "protocolVersion": "0.1", "event": {
            "id": "evt_after", "source": "urn:uuid:0", "type": "tool.after",
            "time": "2026-08-24T08:51:15Z", "session": {"id": "s1"},
            "tool": {"callId": "c1", "name": "Bash", "kind": "shell",
                     "input": {"command": "git status"}, "output": {"exitCode": 0}}}}})
    done = backend(root, note.encode() + b"\n")
    assert done.stdout == b"" and done.returncode == 0
    payload = json.loads(seen.read_text(encoding="utf-8"))
    assert payload["tool_name"] == "Bash"
    assert payload["tool_input"] == {"command": "git status"}
    assert payload["session_id"] == "s1"


@pytest.mark.program
def test_tool_names_reads_names_as_one_hosts(tmp_path: Path) -> None:
    """--tool-names gemini: the harness's `run_shell_command` is Gemini CLI's, and a hook
    matching Claude Code's `Bash` selects it; without a matching name nothing runs."""
    root = tmp_path / "ws"
    (root / ".agents").mkdir(parents=True)
    (root / ".agents" / "hooks.json").write_text(json.dumps({"gate": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command":
                                       'echo \'{"decision": "deny", "reason": "no shell"}\''}]}]}}),
        "utf-8")
    line = intercept("evt_t", "ls", name="run_shell_command")
    named = backend(root, line, "--tool-names", "gemini")
    assert effects(responses(named.stdout)[0]) == [{"type": "deny", "reason": "no shell"}]
    other = backend(root, intercept("evt_u", "ls", name="browse"))
    assert effects(responses(other.stdout)[0]) == []


@pytest.mark.program
def test_a_notification_is_never_answered(workspace: Path) -> None:
    """An intercept without id cannot be answered (§8.4): nothing on stdout, a note on
    stderr."""
    line = json.loads(intercept("evt_x", "rm -rf /"))
    del line["id"]
    done = backend(workspace, (json.dumps(line) + "\n").encode())
    assert done.stdout == b"" and done.returncode == 0
    assert b"hooks/intercept notification" in done.stderr


@pytest.mark.program
def test_untrusted_hooks_do_not_run_and_deny_under_fail_closed(workspace: Path) -> None:
    """--require-trust: a workspace never trusted runs nothing (no effect, said on stderr);
    with --fail-closed that is a deny."""
    line = intercept("evt_t", "rm -rf /")
    open_ = backend(workspace, line, "--require-trust")
    assert effects(responses(open_.stdout)[0]) == []
    assert b"trust" in open_.stderr
    closed = backend(workspace, line, "--require-trust", "--fail-closed")
    assert effects(responses(closed.stdout)[0])[0]["type"] == "deny"


SLOW = """\
import pathlib, sys, time
pathlib.Path(sys.argv[1]).write_text("started")
time.sleep(60)
"""


@pytest.mark.program
def test_sigterm_ends_the_backend_and_its_hooks(tmp_path: Path) -> None:
    """SIGTERM while a hook runs: the hook's process group is killed, and the backend exits
    143 without writing anything to stdout."""
    started = tmp_path / "started"
    root = tmp_path / "ws"
    (root / ".agents").mkdir(parents=True)
    (root / "slow.py").write_text(SLOW, encoding="utf-8")
    (root / ".agents" / "hooks.json").write_text(json.dumps({"slow": {"PreToolUse": [
        {"matcher": "", "hooks": [{"type": "command", "timeout": 120, "command":
                                   f"exec {sys.executable} {root / 'slow.py'} {started}"}]}]}}),
        "utf-8")
    proc = subprocess.Popen(
        [sys.executable, "-m", "agenthooks", "ahp", "--workspace", str(root), "--no-user"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=program_env())
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write(intercept("evt_s", "ls"))
        proc.stdin.flush()
        deadline = time.monotonic() + 60
        while not started.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert started.exists()
        argv = [sys.executable, str(root / "slow.py"), str(started)]
        assert pids_with_argv(argv)
        proc.terminate()
        assert proc.wait(timeout=30) == 143
        assert proc.stdout.read() == b""
        deadline = time.monotonic() + 10
        while pids_with_argv(argv) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not pids_with_argv(argv)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
