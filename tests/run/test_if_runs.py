"""Claude Code's `if` under real `agenthooks run --host claude` runs: a deny gate with
`"if": "Bash(rm *)"` starts for every way of writing an `rm` the issue lists, path rules
anchor where Claude Code anchors them, and a handler that can only approve stays out of a
call it cannot decide."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support import denied, program

pytestmark = pytest.mark.program

DENY_RM = {"type": "command", "if": "Bash(rm *)",
           "command": "echo 'no rm here' >&2; exit 2"}


def settings(project: Path, hooks: dict[str, Any]) -> None:
    path = project / ".claude" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"hooks": hooks}), encoding="utf-8")


def run(project: Path, event: str, tool: str, arguments: dict[str, Any],
        cwd: Path | None = None) -> dict[str, Any]:
    payload = {"hook_event_name": event, "tool_name": tool, "tool_input": arguments,
               "cwd": str(cwd or project), "session_id": "s-1"}
    done = program("run", event, "--host", "claude", "--config", ".claude/settings.json",
                   stdin=json.dumps(payload), cwd=project)
    assert done.returncode == 0, done.stderr
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    return root


@pytest.mark.parametrize("command", [
    "ls & rm -rf build", "ls |& rm x", "nohup rm x", "timeout 5 rm x", "nice rm x",
    "time rm x", "rm\t-rf x", '"rm" -rf x', "\\rm -rf x", "FOO='a b' rm x", "(rm -rf x)",
    "echo $(rm -rf x)", "echo `rm -rf x`", "bash -c 'rm -rf x'", "env rm x", "command rm x",
    "sudo rm -rf /", "case $x in a) rm x;; esac",
])
def test_the_rm_gate_starts(project: Path, command: str) -> None:
    settings(project, {"PreToolUse": [{"matcher": "Bash", "hooks": [DENY_RM]}]})
    answer = run(project, "PreToolUse", "Bash", {"command": command})
    assert denied(answer)
    assert answer["hookSpecificOutput"]["permissionDecisionReason"] == "no rm here"


@pytest.mark.parametrize("command", ["ls -la", "rmdir x", "echo rm", "command -v rm",
                                     "echo $(date)"])
def test_the_rm_gate_stays_out(project: Path, command: str) -> None:
    settings(project, {"PreToolUse": [{"matcher": "Bash", "hooks": [DENY_RM]}]})
    assert run(project, "PreToolUse", "Bash", {"command": command}) == {}


@pytest.mark.parametrize(("rule", "path", "cwd", "expected"), [
    ("Edit(//etc/**)", "/etc/passwd", "", True),
    ("Edit(//etc/**)", "{project}/src/" + "../" * 40 + "etc/passwd", "", True),
    ("Edit(/src/**)", "{project}/src/a.ts", "sub", True),  # from the project root
    ("Edit(/src/**)", "{project}/sub/src/a.ts", "sub", False),
    ("Edit(src/**)", "{project}/sub/src/a.ts", "sub", True),  # from the current directory
])
def test_path_rules(project: Path, rule: str, path: str, cwd: str, expected: bool) -> None:
    (project / "sub").mkdir()
    gate = {"type": "command", "if": rule, "command": "echo 'not there' >&2; exit 2"}
    settings(project, {"PreToolUse": [{"matcher": "Edit|Write", "hooks": [gate]}]})
    arguments = {"file_path": path.format(project=project), "old_string": "a",
                 "new_string": "b"}
    for tool in ("Edit", "Write"):
        assert denied(run(project, "PreToolUse", tool, arguments, project / cwd)) is expected


@pytest.mark.parametrize(("command", "applies"), [
    ("ls -la", True), ("ls && rm -rf x", False), ("ls $(rm -rf x)", False),
    ("case $x in a) ls;; esac", False),
])
def test_an_approval_only_applies_when_certain(project: Path, command: str,
                                               applies: bool) -> None:
    # PermissionDenied's only answer is `retry`: a handler there can only loosen.
    marker = project / "retried"
    retry = {"hookSpecificOutput": {"hookEventName": "PermissionDenied", "retry": True}}
    handler = {"type": "command", "if": "Bash(ls *)",
               "command": f"touch {marker}; echo '{json.dumps(retry)}'"}
    settings(project, {"PermissionDenied": [{"matcher": "Bash", "hooks": [handler]}]})
    run(project, "PermissionDenied", "Bash", {"command": command})
    assert marker.exists() is applies
