"""`agenthooks run` within agenthooks' reach: `validate` errors on an entry that would read its
own file (rule `runs-itself`); a run nested more than one level deep refuses to run anything,
and denies under `--fail-closed`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from agenthooks.plan.recursion import DEPTH_ENV, MAX_DEPTH, check_depth, enter, leave
from tests.conftest import REPO, Run

pytestmark = pytest.mark.program


def _entry(command: str) -> list[dict[str, object]]:
    return [{"matcher": "", "hooks": [{"command": command}]}]


# (file, command, whether validate reports runs-itself)
CASES = [
    (".agents/hooks.json", "agenthooks run PreToolUse --fail-closed", True),
    (".agents/hooks.json", "agenthooks run PreToolUse --config hooks.json", True),
    (".agents/hooks.json", "agenthooks run PreToolUse --config=../.agents/hooks.json", True),
    (".agents/hooks.json", "python -m agenthooks run PreToolUse", True),
    (".agents/hooks.json", "agenthooks run PreToolUse --host claude", True),
    # The README's Antigravity wiring: another file, or Antigravity's own files left out.
    (".agents/hooks.json", "agenthooks run PreToolUse --host antigravity --config agenthooks.json",
     False),
    (".agents/hooks.json", "agenthooks run PreToolUse --config agenthooks.json", False),
    (".agents/hooks.json", "agenthooks run PreToolUse --host antigravity", False),
    (".agents/hooks.json", "agenthooks validate", False),
    (".agents/hooks.json", "./scripts/check.sh", False),
    # Claude Code's settings: its own files are left out under --host claude.
    (".claude/settings.json", "agenthooks run PreToolUse --host claude", False),
    (".claude/settings.json", "agenthooks run PreToolUse", True),
    (".claude/settings.json", "agenthooks run PreToolUse --host gemini", False),
    (".claude/settings.json", "agenthooks run PreToolUse --host gemini --other-hosts", True),
    # A file no run finds unless named: not read again.
    ("elsewhere/hooks.json", "agenthooks run PreToolUse", False),
]


@pytest.mark.parametrize(("place", "command", "reported"), CASES)
def test_runs_itself(agenthooks: Run, tmp_path: Path, place: str, command: str,
                     reported: bool) -> None:
    path = tmp_path / place
    path.parent.mkdir(parents=True)
    if place.startswith(".claude"):
        hooks = {"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [
            {"type": "command", "command": command}]}]}}
    else:
        hooks = {"gate": {"PreToolUse": _entry(command)}}
    path.write_text(json.dumps(hooks, indent=2))
    done = agenthooks("validate", "--format", "json", str(path))
    found = [d for d in json.loads(done.out)["diagnostics"] if d["rule"] == "runs-itself"]
    assert bool(found) == reported, done.out
    if reported:
        assert done.code == 1
        assert found[0]["severity"] == "error"
        assert found[0]["pointer"].endswith("/command")
        assert found[0]["line"] > 1  # at the command, not at the top of the file


def test_the_user_configs_default_host_counts(agenthooks: Run, tmp_path: Path, home: Path) -> None:
    path = tmp_path / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text(json.dumps({"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": "agenthooks run Stop"}]}]}}))
    assert agenthooks("validate", str(path)).code == 1
    config = home / ".config" / "agenthooks" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('default_host = "claude"\n')
    assert agenthooks("validate", str(path)).code == 0


def test_depth_marker() -> None:
    environ: dict[str, str] = {}
    previous = enter(environ)
    assert environ == {DEPTH_ENV: "1"}
    check_depth(environ)  # one level of nesting is allowed
    inner = enter(environ)
    with pytest.raises(Exception, match="nested 2 levels deep"):
        check_depth(environ)
    leave(environ, inner)
    leave(environ, previous)
    assert environ == {}
    assert MAX_DEPTH == 1
    check_depth({DEPTH_ENV: "not a number"})


LOOP = """#!/bin/sh
echo "$AGENTHOOKS_RUN_DEPTH" >> depths
exec "{python}" -m agenthooks run PreToolUse --tool run_command {flags} < /dev/null
"""


@pytest.mark.parametrize("flags", ["", "--fail-closed"])
def test_a_loop_through_a_script_ends_at_the_second_level(tmp_path: Path, flags: str) -> None:
    (tmp_path / ".git").mkdir()
    agents = tmp_path / ".agents"
    agents.mkdir()
    script = agents / "again.sh"
    script.write_text(LOOP.format(python=sys.executable, flags=flags))
    script.chmod(0o755)
    (agents / "hooks.json").write_text(json.dumps({"loop": {"PreToolUse": _entry("./again.sh")}}))
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop(DEPTH_ENV, None)
    done = subprocess.run(
        [sys.executable, "-m", "agenthooks", "run", "PreToolUse", "--tool", "run_command",
         *flags.split()], input="{}", capture_output=True, text=True, cwd=tmp_path, env=env,
        timeout=60, check=False)
    assert (agents / "depths").read_text().split() == ["1", "2"]
    if flags:
        assert done.returncode == 2
        assert "nested 2 levels deep" in json.loads(done.stdout)["reason"]
    else:
        assert done.returncode == 0, done.stderr  # the failing handler is a warning, no more
        assert json.loads(done.stdout) == {}
    assert DEPTH_ENV not in os.environ
