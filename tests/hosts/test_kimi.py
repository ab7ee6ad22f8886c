"""Kimi Code: agenthooks as its hook answers by exit code as Kimi Code reads them, and Kimi
Code's own hooks, in the user's config.toml, run by its rules (@moonshot-ai/kimi-code 2.1.0,
externalHooks `runHook.ts`, `matchHooks.ts`, `userPrompt.ts`)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support import REPO, denied, program, workspace

if sys.version_info >= (3, 11):
    import tomllib
else:  # the backport, a dependency on Python 3.10
    import tomli as tomllib

pytestmark = pytest.mark.program

GATES = {"gates": {
    "PreToolUse": [{"matcher": "run_command", "hooks": [
        {"command": "grep -q 'rm -rf' && { echo 'no rm -rf here' >&2; exit 2; }; exit 0"}]}],
    "Stop": [{"command": "echo 'the tests have not run' >&2; exit 2"}],
    "PreInvocation": [{"command": "echo 'mind the branch'"}],
}}


def cli(root: Path, *args: str, payload: object,
        env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return program(*args, cwd=root, stdin=json.dumps(payload), home=root / "home", env=env)


def project(root: Path, files: dict[str, Any]) -> Path:
    return workspace(root, {".git/HEAD": "ref: refs/heads/main\n", **files})


def call(root: Path, command: str, event: str = "PreToolUse") -> dict[str, Any]:
    """A call as Kimi Code sends it: its camelCase record in snake_case, `client_type` first."""
    return {"client_type": "cli", "hook_event_name": event, "session_id": "s1",
            "cwd": str(root), "session_title": "t", "tool_name": "Bash",
            "tool_input": {"command": command}, "tool_call_id": "call_1"}


# --- agenthooks as Kimi Code's hook -------------------------------------------------------


def test_a_gate_blocks_kimis_shell_call_by_exit_2(tmp_path: Path) -> None:
    root = project(tmp_path, {".agents/hooks.json": GATES})
    done = cli(root, "run", "PreToolUse", "--host", "kimi", payload=call(root, "rm -rf /"))
    assert (done.returncode, done.stdout) == (2, "{}\n"), done.stderr
    assert "no rm -rf here" in done.stderr  # the reason Kimi Code reads
    fine = cli(root, "run", "PreToolUse", "--host", "kimi", payload=call(root, "ls"))
    assert (fine.returncode, fine.stdout) == (0, "{}\n"), fine.stderr


def test_an_ask_is_the_block_kimi_can_say(tmp_path: Path) -> None:
    gates = {"gates": {"PreToolUse": [{"hooks": [{"command": (
        "echo '{\"decision\": \"ask\", \"reason\": \"a person should look\"}'")}]}]}}
    root = project(tmp_path, {".agents/hooks.json": gates})
    done = cli(root, "run", "PreToolUse", "--host", "kimi", payload=call(root, "ls"))
    assert done.returncode == 2, (done.stdout, done.stderr)


def test_a_stop_block_keeps_kimi_working(tmp_path: Path) -> None:
    root = project(tmp_path, {".agents/hooks.json": GATES})
    stop = {"client_type": "cli", "hook_event_name": "Stop", "session_id": "s1",
            "cwd": str(root), "stop_hook_active": False}
    done = cli(root, "run", "Stop", "--host", "kimi", payload=stop)
    assert done.returncode == 2 and "the tests have not run" in done.stderr, done.stderr


def test_context_on_a_prompt_is_kimis_message(tmp_path: Path) -> None:
    root = project(tmp_path, {".agents/hooks.json": GATES})
    prompt = {"client_type": "cli", "hook_event_name": "UserPromptSubmit", "session_id": "s1",
              "cwd": str(root), "prompt": "deploy", "is_steer": False}
    done = cli(root, "run", "UserPromptSubmit", "--host", "kimi", payload=prompt)
    assert done.returncode == 0, done.stderr
    assert "mind the branch" in json.loads(done.stdout)["message"]


# --- Kimi Code's own hooks, run by its rules ------------------------------------------------


def kimi_home(root: Path, entries: str) -> dict[str, str]:
    """Kimi Code's folder outside the home folder, as `KIMI_CODE_HOME` names it."""
    folder = workspace(root / "kimi", {"config.toml": 'default_model = "k"\n\n' + entries})
    return {"KIMI_CODE_HOME": str(folder)}


def hook(script: str, event: str = "PreToolUse", matcher: str = "Bash") -> str:
    return (f'[[hooks]]\nevent = "{event}"\nmatcher = "{matcher}"\n'
            f"command = '''{script}'''\n")


# (what the handler prints, its exit code) -> whether Kimi Code blocks the call.
@pytest.mark.parametrize(("output", "code", "blocked"), [
    ("", 2, True),
    ('{"hookSpecificOutput": {"permissionDecision": "deny", '
     '"permissionDecisionReason": "no"}}', 0, True),
    # What Kimi Code reads no block from: another exit code, Claude Code's top-level
    # decision, an ask.
    ('{"hookSpecificOutput": {"permissionDecision": "deny"}}', 1, False),
    ('{"decision": "block", "reason": "x"}', 0, False),
    ('{"hookSpecificOutput": {"permissionDecision": "ask"}}', 0, False),
    ('{"hookSpecificOutput": ["deny"]}', 0, False),
])
def test_kimis_handlers_answer_by_its_rules(tmp_path: Path, output: str, code: int,
                                            blocked: bool) -> None:
    root = project(tmp_path, {})
    env = kimi_home(root, hook(f"cat >/dev/null; printf '%s' '{output}'; exit {code}"))
    done = cli(root, "run", "PreToolUse", payload=call(root, "ls"), env=env)
    assert denied(json.loads(done.stdout)) is blocked, (done.stdout, done.stderr)


def test_kimis_handlers_run_under_another_host_with_other_hosts(tmp_path: Path) -> None:
    root = project(tmp_path, {})
    env = kimi_home(root, hook("echo 'not here' >&2; exit 2"))
    claude = {"hook_event_name": "PreToolUse", "session_id": "s1", "cwd": str(root),
              "tool_name": "Bash", "tool_input": {"command": "ls"}}
    alone = cli(root, "run", "PreToolUse", "--host", "claude", payload=claude, env=env)
    assert not denied(json.loads(alone.stdout))  # another host's file: not without asking
    done = cli(root, "run", "PreToolUse", "--host", "claude", "--other-hosts", payload=claude,
               env=env)
    assert denied(json.loads(done.stdout)), (done.stdout, done.stderr)
    under_kimi = cli(root, "run", "PreToolUse", "--host", "kimi", payload=call(root, "ls"),
                     env=env)
    assert under_kimi.returncode == 0  # Kimi Code runs its own file itself


def test_one_entry_kimi_refuses_turns_every_hook_off(tmp_path: Path) -> None:
    root = project(tmp_path, {})
    env = kimi_home(root, hook("exit 2") + '[[hooks]]\nevent = "Stop"\ncommand = "x"\n'
                                           "timeout = 900\n")
    done = cli(root, "run", "PreToolUse", payload=call(root, "ls"), env=env)
    assert not denied(json.loads(done.stdout)), done.stdout
    checked = cli(root, "validate", env["KIMI_CODE_HOME"] + "/config.toml", payload={},
                  env=env)
    assert checked.returncode == 1
    assert re.search(r"config\.toml:10:11: error \[kimi-hooks-ignored\] `timeout`",
                     checked.stdout), checked.stdout


def test_a_stop_matcher_never_runs(tmp_path: Path) -> None:
    root = project(tmp_path, {})
    env = kimi_home(root, hook("echo 'keep going' >&2; exit 2", "Stop"))
    stop = {"client_type": "cli", "hook_event_name": "Stop", "session_id": "s1",
            "cwd": str(root), "stop_hook_active": False}
    done = cli(root, "run", "Stop", payload=stop, env=env)
    assert done.returncode == 0 and "keep going" not in done.stdout, done.stdout
    listed = cli(root, "list", payload={}, env=env)
    assert "Bash (never runs)" in listed.stdout, listed.stdout


# --- the documentation's entries --------------------------------------------------------------


def documented() -> str:
    page = (REPO / "docs" / "hosts.md").read_text("utf-8")
    section = page[page.index("## Kimi Code"):page.index("\n## ", page.index("## Kimi Code") + 1)]
    (block,) = re.findall(r"```toml\n(.*?)```", section, flags=re.S)
    return block


def test_the_documented_entries_are_valid_and_wire_every_blocking_event(tmp_path: Path) -> None:
    entries = tomllib.loads(documented())["hooks"]
    assert {entry["event"] for entry in entries} == {"PreToolUse", "UserPromptSubmit", "Stop"}
    for entry in entries:
        assert entry["command"].split()[:5] == ["agenthooks", "run", entry["event"], "--host",
                                                 "kimi"]
    root = project(tmp_path, {})
    env = kimi_home(root, documented())
    checked = cli(root, "validate", env["KIMI_CODE_HOME"] + "/config.toml", payload={},
                  env=env)
    assert checked.returncode == 0, checked.stdout
