"""The pure parts of the one selection, as tables: which files a host's run includes, the tool
a handler's matcher sees, and a program wired for several hosts running once."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from agenthooks.model.handlers import Handler, Source
from agenthooks.plan.select import left_out, once_across, tool_in


def source(dialect: str, path: str = "f") -> Source:
    return Source(path, f"/w/{path}", "/w", "workspace", "/w", dialect=dialect)


@pytest.mark.parametrize(("dialect", "host", "other_hosts", "why"), [
    # Offline, everything runs.
    ("antigravity", None, False, None),
    ("claude", None, False, None),
    ("gemini", None, False, None),
    # hooks.json is written for no one host but Antigravity, which runs its own.
    ("antigravity", "claude", False, None),
    ("antigravity", "gemini", False, None),
    ("antigravity", "antigravity", False, "Antigravity runs this file itself"),
    # A host's own settings: never, whatever --other-hosts says.
    ("claude", "claude", True, "Claude Code runs this file itself"),
    ("gemini", "gemini", False, "Gemini CLI runs this file itself"),
    # Another host's settings: only when asked for.
    ("gemini", "claude", False,
     "Gemini CLI's file, not run under Claude Code without --other-hosts"),
    ("gemini", "claude", True, None),
    ("claude", "gemini", True, None),
    ("claude", "antigravity", False,
     "Claude Code's file, not run under Antigravity without --other-hosts"),
])
def test_which_files_a_hosts_run_includes(dialect: str, host: str | None, other_hosts: bool,
                                          why: str | None) -> None:
    assert left_out(source(dialect), host, other_hosts) == why


@pytest.mark.parametrize(("tool", "caller", "dialect", "seen"), [
    ("Bash", "claude", "antigravity", "run_command"),
    ("Bash", "claude", "gemini", "run_shell_command"),
    ("run_command", "antigravity", "claude", "Bash"),
    ("write_to_file", "antigravity", "gemini", "write_file"),
    ("Write", "claude", "claude", "Write"),
    ("my_tool", "claude", "antigravity", "my_tool"),  # unknown tools keep their name
    ("mcp__memory__read", "claude", "gemini", "mcp_memory_read"),
    (None, "claude", "gemini", None),
])
def test_a_matcher_sees_the_tool_in_its_own_dialects_words(
        tool: str | None, caller: str, dialect: str, seen: str | None) -> None:
    assert tool_in(tool, caller, dialect) == seen


def handler(dialect: str, command: str, cwd: str = "/w/.agents") -> Handler:
    src = Source("f", "/w/f", "/w", "workspace", cwd, dialect=dialect)
    return Handler(src, command, "PreToolUse", None, command, 10.0, "command", True, "",
                   dialect=dialect)


def test_a_program_wired_for_several_hosts_runs_once_as_its_first() -> None:
    first = (handler("antigravity", "./scripts/gate.py"),)
    then = (handler("claude", "$CLAUDE_PROJECT_DIR/.agents/scripts/gate.py", cwd="/w"),
            handler("gemini", "$GEMINI_PROJECT_DIR/.agents/scripts/other.py", cwd="/w"))
    assert [h.dialect for h in once_across(first, then)] == ["antigravity", "gemini"]


def test_agenthooks_registered_in_a_file_it_reads_never_runs_itself(tmp_path: Path) -> None:
    """`agenthooks run` in the hooks.json it reads is the entry point, not a handler: run, it
    would start itself again on every call, without end."""
    hooks = tmp_path / ".agents" / "hooks.json"
    hooks.parent.mkdir()
    hooks.write_text(json.dumps({"entry": {"PreToolUse": [{"matcher": "", "hooks": [
        {"command": "agenthooks run PreToolUse"},
        {"command": f"{sys.executable} -m agenthooks run PreToolUse"},
        {"command": "echo ran >> ../marks"}]}]}}), encoding="utf-8")
    bin_dir = Path(sys.executable).parent
    done = subprocess.run(
        [sys.executable, "-m", "agenthooks", "run", "PreToolUse", "--no-user"],
        input='{"toolCall": {"name": "run_command", "args": {}}}', capture_output=True,
        text=True, cwd=tmp_path, timeout=60, check=False,
        env={**os.environ, "PATH": f"{bin_dir}:{os.environ.get('PATH', '')}",
             "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config")})
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "marks").read_text() == "ran\n"
