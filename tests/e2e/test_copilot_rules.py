"""Copilot's own hook files, run by the real `copilot -p` and by agenthooks, must decide alike.

Each case is one `.github/hooks/*.json` gate on Copilot's shell call: Copilot CLI runs it for a
real call (whether the call ran is read off the workspace), and `agenthooks run preToolUse
--dialect copilot` runs the same file on the payload Copilot sends (its camelCase shape, as
measured with 1.0.102). What each case shows of Copilot is the rule agenthooks follows
(github/docs@05da5bc content/copilot/reference/hooks-reference.md; where the docs are silent,
this measurement): a preToolUse hook that exits non-zero denies, a timeout lets the call
through, output that is not one JSON object is no output, matchers are anchored, a mis-cased
event key is dropped without a word, Claude Code's answer fields are not Copilot's.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import Hosts, agenthooks_bin_dir, tool_turn, write_json

DENY = """echo '{"permissionDecision": "deny", "permissionDecisionReason": "NO"}'"""
CLAUDE_DENY = ("""echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", """
               """"permissionDecision": "deny", "permissionDecisionReason": "NO"}}'""")
REWRITE = ("""echo '{"permissionDecision": "allow", "modifiedArgs": """
           """{"command": "echo changed > made.txt"}}'""")
CLAUDE_REWRITE = ("""echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", """
                  """"permissionDecision": "allow", "updatedInput": """
                  """{"command": "echo changed > made.txt"}}}'""")


def one(handler: dict[str, Any], event: str = "preToolUse", **top: Any) -> dict[str, Any]:
    return {"version": 1, **top, "hooks": {event: [handler]}}


# (case, hooks file, what made.txt holds after the run: None when the call was denied)
CASES: list[tuple[str, dict[str, Any], str | None]] = [
    ("a deny on stdout", one({"bash": DENY}), None),
    ("exit 1 denies (hook errored)", one({"bash": "exit 1"}), None),
    ("exit 2 denies over an allow", one({"bash": """echo '{"permissionDecision": "allow"}'; """
                                                 "exit 2"}), None),
    ("a timeout lets the call through", one({"bash": f"sleep 4; {DENY}", "timeoutSec": 1}),
     "hi"),
    ("two JSON objects are no output", one({"bash": f"{DENY}; {DENY}"}), "hi"),
    ("progress lines are dropped", one({"bash": """echo '{"type": "progress", "message": "x"}'; """
                                                + DENY}), None),
    ("matchers are anchored", one({"bash": DENY, "matcher": "bas"}), "hi"),
    ("a matcher lists names", one({"bash": DENY, "matcher": "view|bash"}), None),
    ("a mis-cased event is dropped", {"version": 1, "hooks": {"pretooluse": [{"bash": DENY}]}},
     "hi"),
    ("version is optional", {"hooks": {"preToolUse": [{"bash": DENY}]}}, None),
    ("another version drops the file", one({"bash": DENY}, version=2), "hi"),
    ("command is the cross-platform field", one({"command": DENY}), None),
    ("exec runs with args and no shell", one({"exec": "sh", "args": ["-c", DENY]}), None),
    ("modifiedArgs rewrites the call", one({"bash": REWRITE}), "changed"),
    ("Claude Code's updatedInput is ignored", one({"bash": CLAUDE_REWRITE}), "hi"),
    ("Claude Code's deny is ignored", one({"bash": CLAUDE_DENY}), "hi"),
    ("a mis-cased event drops only its hooks",
     {"version": 1, "hooks": {"pretooluse": [{"bash": "true"}], "preToolUse": [{"bash": DENY}]}},
     None),
    ("a matcher that is no regex skips only its entry",
     {"version": 1, "hooks": {"preToolUse": [{"bash": "true", "matcher": "("},
                                             {"bash": DENY}]}}, None),
    ("a malformed item is dropped alone",
     {"version": 1, "hooks": {"preToolUse": [{"bash": 5}, {"bash": DENY}]}}, None),
    ("disableAllHooks drops the file's hooks", one({"bash": DENY}, disableAllHooks=True), "hi"),
    # A PascalCase key: Claude Code's payload, names, matchers and answers.
    ("a PascalCase key reads Claude Code's deny",
     one({"bash": CLAUDE_DENY, "matcher": "Bash"}, "PreToolUse"), None),
    ("a PascalCase key takes Claude Code's updatedInput",
     one({"bash": CLAUDE_REWRITE}, "PreToolUse"), "changed"),
    ("a PascalCase regex is anchored on the Claude Code name",
     one({"bash": CLAUDE_DENY, "matcher": "B.*"}, "PreToolUse"), None),
    ("a PascalCase regex does not see the Copilot name",
     one({"bash": CLAUDE_DENY, "matcher": "b.*"}, "PreToolUse"), "hi"),
    ("a PascalCase name matches the Copilot name too",
     one({"bash": CLAUDE_DENY, "matcher": "bash"}, "PreToolUse"), None),
    # A PascalCase key is read with Copilot's rules too.
    ("a PascalCase key reads Copilot's deny", one({"bash": DENY}, "PreToolUse"), None),
    ("a PascalCase exit 1 denies (hook errored)", one({"bash": "exit 1"}, "PreToolUse"), None),
    ("a powershell-only hook denies (hook errored)",
     one({"powershell": "Write-Output hi"}), None),
    ("a PascalCase powershell-only hook denies",
     one({"powershell": "Write-Output hi"}, "PreToolUse"), None),
]


def agenthooks_decides(workspace: Path, env: dict[str, str]) -> str | None:
    """What made.txt would hold after agenthooks ran the workspace's Copilot files on the
    call Copilot sends: None for a deny, the rewritten command's text, else "hi"."""
    payload = {"sessionId": "s-1", "timestamp": 1795536789926, "cwd": str(workspace),
               "toolName": "bash",
               "toolArgs": {"command": "echo hi > made.txt", "description": "make"}}
    done = subprocess.run(
        [str(agenthooks_bin_dir() / "agenthooks"), "run", "preToolUse", "--dialect", "copilot"],
        input=json.dumps(payload), cwd=workspace, env=env, capture_output=True, text=True,
        timeout=60, check=False)
    assert done.returncode in (0, 2), done.stderr
    if done.returncode == 2:
        return None
    answer = json.loads(done.stdout)
    rewritten = (answer.get("hookSpecificOutput") or {}).get("updatedInput")
    return "changed" if rewritten == {"command": "echo changed > made.txt"} else "hi"


@pytest.mark.parametrize(("case", "hooks", "made"), CASES, ids=[case for case, _, _ in CASES])
def test_copilot_and_agenthooks_run_its_file_alike(hosts: Hosts, tmp_path: Path, case: str,
                                                   hooks: dict[str, Any],
                                                   made: str | None) -> None:
    workspace = tmp_path / "workspace"
    write_json(workspace / ".github" / "hooks" / "gate.json", hooks)
    seen: dict[str, str] = {}

    run = hosts.run("copilot", workspace, "Make a file.",
                    [tool_turn("copilot", "echo hi > made.txt"), {"text": "Made."}],
                    before=seen.update)

    result = workspace / "made.txt"
    found = result.read_text("utf-8").strip() if result.exists() else None
    assert found == made, f"{case}: Copilot made {found!r}\n{run.describe()}"
    result.unlink(missing_ok=True)
    env = {key: value for key, value in seen.items() if "{URL}" not in value}
    assert agenthooks_decides(workspace, env) == made, case
