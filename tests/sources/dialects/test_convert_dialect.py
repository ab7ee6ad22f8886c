"""A Claude Code hook converted into hooks.json keeps gating: it is written with its host
(`dialect`), so agenthooks gives it Claude Code's payload, reads its answer with Claude Code's
rules and runs it in the project root, under every caller; where Antigravity itself would run
it with its own payload, convert says so."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.support import program, workspace

pytestmark = pytest.mark.program

# A gate in the style of Claude Code's docs: reads tool_input.command, keeps a log beside it
# (in the folder it runs in), blocks with exit 2 and its reason on stderr.
GATE = """import json, sys
data = json.load(sys.stdin)
open("gate.log", "a").write(data["tool_name"] + "\\n")
if data["tool_name"] == "Bash" and "rm -rf" in data["tool_input"]["command"]:
    print("rm -rf needs a human", file=sys.stderr)
    sys.exit(2)
"""
SETTINGS = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
    {"type": "command", "command": "python3 .claude/hooks/gate.py", "timeout": 30}]}]}}
CALLS: dict[str, tuple[str, dict[str, Any]]] = {
    "claude": ("PreToolUse", {"session_id": "s", "cwd": "/w", "hook_event_name": "PreToolUse",
                              "tool_name": "Bash", "tool_input": {"command": "rm -rf victim"}}),
    "gemini": ("BeforeTool", {"session_id": "s", "cwd": "/w", "hook_event_name": "BeforeTool",
                              "timestamp": "t", "tool_name": "run_shell_command",
                              "tool_input": {"command": "rm -rf victim"}}),
    "antigravity": ("PreToolUse", {"toolCall": {"name": "run_command",
                                                "args": {"CommandLine": "rm -rf victim"}}}),
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = workspace(tmp_path / "project", {".claude/hooks/gate.py": GATE,
                                             ".claude/settings.json": SETTINGS})
    (root / ".agents").mkdir()
    return root


def converted(project: Path, out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return program("convert", str(project / ".claude" / "settings.json"), "--to",
                   "antigravity", "-o", str(out), *extra, cwd=project)


@pytest.mark.parametrize("host", list(CALLS))
def test_a_converted_claude_gate_denies_with_its_reason_under_every_caller(
        project: Path, host: str) -> None:
    out = project / ".agents" / "agenthooks.json"
    done = converted(project, out)
    assert (done.returncode, done.stderr) == (0, "")
    (definition,) = json.loads(out.read_text()).values()
    assert definition["PreToolUse"][0]["hooks"] == [
        {"command": "python3 .claude/hooks/gate.py", "dialect": "claude"}]
    (project / ".claude" / "settings.json").unlink()  # only the converted file is left
    event, payload = CALLS[host]
    done = program("run", event, "--host", host, "--config", str(out), "--workspace",
                   str(project), "--no-user", stdin=json.dumps(payload), cwd=project)
    answer = json.loads(done.stdout)
    if host == "claude":
        specific = answer["hookSpecificOutput"]
        said = (specific["permissionDecision"], specific["permissionDecisionReason"])
    else:
        said = (answer["decision"], answer["reason"])
    assert said == ("deny", "rm -rf needs a human"), done.stderr
    # It read Claude Code's payload, and ran where Claude Code ran it: its log is there.
    assert (project / "gate.log").read_text() == "Bash\n"
    assert not (project / ".agents" / "gate.log").exists()
    planned = program("run", event, "--host", host, "--config", str(out), "--workspace",
                      str(project), "--no-user", "--dry-run", stdin=json.dumps(payload),
                      cwd=project)
    assert [h["cwd"] for h in json.loads(planned.stdout)["handlers"]] == [str(project)]


def test_into_a_hooks_json_antigravity_runs_itself_it_is_lossy(project: Path) -> None:
    out = project / ".agents" / "hooks.json"
    done = converted(project, out)
    assert (done.returncode, done.stdout) == (1, "")
    settings = project / ".claude" / "settings.json"
    first = done.stderr.splitlines()[0]
    assert first.startswith(f"{settings}:1:")
    assert "lossy: written for Claude Code's payload" in first
    assert "Antigravity runs .agents/hooks.json itself" in first
    assert not out.exists()
    assert converted(project, out, "--lossy").returncode == 0
    assert out.exists()


def test_validate_names_a_dialect_no_host_has(project: Path) -> None:
    file = project / ".agents" / "agenthooks.json"
    file.write_text(json.dumps({"g": {"Stop": [{"command": "true", "dialect": "claud"}]}}))
    done = program("validate", str(file), cwd=project)
    assert done.returncode == 1
    assert "error [handler-dialect] `dialect` 'claud' names no host; did you mean 'claude'?" \
        in done.stdout
