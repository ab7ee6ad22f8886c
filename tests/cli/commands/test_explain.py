"""`agenthooks explain`: every handler, whether `run` would run it, and why not; run as the
real program on real files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.program

SAFETY = "./scripts/safety.py"


def write(path: Path, value: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(value if isinstance(value, str) else json.dumps(value), encoding="utf-8")
    return path


def agenthooks(workspace: Path, *args: str, payload: object = None) -> subprocess.CompletedProcess:
    """`python -m agenthooks ARGS` in the workspace, with a HOME and config folder of its own."""
    home = workspace.parent / "home"
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config")}
    for name in ("AGENTHOOKS_REQUIRE_TRUST", "AGENTHOOKS_FAIL_CLOSED", "AGENTHOOKS_AUDIT_LOG",
                 "CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR", "XDG_CACHE_HOME"):
        env.pop(name, None)
    data = "" if payload is None else json.dumps(payload)
    return subprocess.run([sys.executable, "-m", "agenthooks", *args], cwd=workspace, env=env,
                          input=data, capture_output=True, text=True, check=False, timeout=60)


def explained(workspace: Path, *args: str, payload: object = None) -> dict:
    done = agenthooks(workspace, "explain", *args, "--format", "json", payload=payload)
    assert done.returncode == 0, done.stderr
    report: dict = json.loads(done.stdout)
    return report


def claude(matcher: str | None, **handler: object) -> dict:
    group: dict = {"hooks": [{"type": "command", **handler}]}
    if matcher is not None:
        group["matcher"] = matcher
    return group


def agents(**hooks: dict) -> dict:
    return hooks


# Each case: files to write, the explain arguments, the payload, the handler (source, command)
# looked at, and what explain must say of it: runs, and the start of why.
CASES = {
    "runs": (
        {".agents/hooks.json": {"gate": {"PreToolUse": [
            {"matcher": "run_command", "hooks": [{"command": SAFETY}]}]}}},
        ("PreToolUse", "--tool", "run_command"), None,
        (".agents/hooks.json", SAFETY), True, None),
    "disabled": (
        {".agents/hooks.json": {"gate": {"enabled": False, "PreToolUse": [
            {"hooks": [{"command": SAFETY}]}]}}},
        ("PreToolUse", "--tool", "run_command"), None,
        (".agents/hooks.json", SAFETY), False, "disabled"),
    "another event": (
        {".agents/hooks.json": {"gate": {"Stop": [{"command": SAFETY}]}}},
        ("PreToolUse", "--tool", "run_command"), None,
        (".agents/hooks.json", SAFETY), False, "another event (Stop)"),
    "matcher": (
        {".claude/settings.json": {"hooks": {"PreToolUse": [claude("Bash", command="gate")]}}},
        ("PreToolUse",), {"tool_name": "Write", "tool_input": {"file_path": "a"}},
        (".claude/settings.json", "gate"), False,
        "matcher 'Bash' (Claude Code) does not select Write"),
    "matcher in the handler's words": (
        {".claude/settings.json": {"hooks": {"PreToolUse": [claude("Bash", command="gate")]}}},
        ("PreToolUse", "--tool", "write_to_file"), None,
        (".claude/settings.json", "gate"), False,
        "matcher 'Bash' (Claude Code) does not select Write"),
    "claude if": (
        {".claude/settings.json": {"hooks": {"PreToolUse": [
            claude("Bash", command="gate", **{"if": "Bash(git push*)"})]}}},
        ("PreToolUse",), {"tool_name": "Bash", "tool_input": {"command": "ls"}},
        (".claude/settings.json", "gate"), False, "its if 'Bash(git push*)'"),
    "the host's own file": (
        {".claude/settings.json": {"hooks": {"Stop": [claude(None, command="gate")]}}},
        ("Stop", "--host", "claude"), None,
        (".claude/settings.json", "gate"), False, "Claude Code runs this file itself"),
    "another host's file": (
        {".gemini/settings.json": {"hooks": {"AfterAgent": [claude(None, command="gate")]}}},
        ("Stop", "--host", "claude"), None,
        (".gemini/settings.json", "gate"), False,
        "Gemini CLI's file, not run under Claude Code without --other-hosts"),
    "untrusted workspace": (
        {".agents/hooks.json": {"gate": {"Stop": [{"command": SAFETY}]}}},
        ("Stop", "--require-trust"), None,
        (".agents/hooks.json", SAFETY), False, "untrusted workspace"),
    "duplicate": (
        {".agents/hooks.json": {"a": {"Stop": [{"command": SAFETY}]},
                                "b": {"Stop": [{"command": SAFETY}]}}},
        ("Stop",), None,
        (".agents/hooks.json", SAFETY), False, "duplicate of a (.agents/hooks.json)"),
    "skipped for errors": (
        {".agents/hooks.json": {"gate": {"Stop": [{"command": SAFETY, "timeout": "5"}]}}},
        ("Stop",), None,
        (".agents/hooks.json", None), False, "file skipped for errors: "),
    "agenthooks itself": (
        {".claude/settings.json": {"hooks": {"Stop": [
            claude(None, command="agenthooks run Stop --host claude")]}}},
        ("Stop",), None,
        (".claude/settings.json", "agenthooks run Stop --host claude"), False,
        "agenthooks itself"),
    "a type only the host runs": (
        {".claude/settings.json": {"hooks": {"Stop": [
            {"hooks": [{"type": "prompt", "prompt": "Done?"}]}]}}},
        ("Stop",), None,
        (".claude/settings.json", "Done?"), False, "a prompt handler: only Claude Code runs it"),
}


@pytest.mark.parametrize("case", list(CASES), ids=list(CASES))
def test_each_reason(tmp_path: Path, case: str) -> None:
    files, args, payload, (source, command), runs, why = CASES[case]
    workspace = tmp_path / "ws"
    (workspace / ".git").mkdir(parents=True)
    for path, value in files.items():
        write(workspace / path, value)
    report = explained(workspace, *args, payload=payload)
    rows = [row for row in report["handlers"]
            if (row["source"], row["command"]) == (source, command)]
    if case == "duplicate":
        first, rows = rows[0], rows[1:]
        assert (first["runs"], first["why"]) == (True, None)
    assert len(rows) == 1, report["handlers"]
    (row,) = rows
    assert row["runs"] is runs
    if why is None:
        assert row["why"] is None
    else:
        assert row["why"].startswith(why), row["why"]
    assert set(row) == {"source", "hook", "dialect", "event", "matcher", "command", "runs",
                        "why"}


def test_report_shape_and_text(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    write(workspace / ".agents" / "hooks.json", {"gate": {"PreToolUse": [
        {"matcher": "run_command", "hooks": [{"command": SAFETY}]}]}})
    write(workspace / ".claude" / "settings.json",
          {"hooks": {"PreToolUse": [claude("Bash", command="gate")]}})
    report = explained(workspace, "BeforeTool", "--tool", "Bash", "--host", "gemini")
    assert (report["event"], report["tool"], report["caller"]) == ("PreToolUse", "Bash",
                                                                   "gemini")
    assert report["leftOut"] == [{"source": ".claude/settings.json", "why":
                                  "Claude Code's file, not run under Gemini CLI without "
                                  "--other-hosts"}]
    assert report["hooks"] == []
    text = agenthooks(workspace, "explain", "PreToolUse", "--tool", "Bash")
    assert text.returncode == 0, text.stderr
    assert text.stdout.splitlines()[0] == "PreToolUse, tool Bash, in Claude Code's words"
    assert "RUNS" in text.stdout and "duplicate" not in text.stdout


def test_markdown_hooks_are_explained(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    write(workspace / ".harness" / "hooks" / "guard.md",
          "---\nevent: tool.pre\nscript: |\n  def handle(event, payload):\n"
          "      return allow()\n---\n\n# guard\n")
    report = explained(workspace, "PreToolUse", "--tool", "Bash")
    (row,) = report["hooks"]
    assert (row["source"], row["hook"], row["kind"], row["runs"], row["why"]) == (
        ".harness/hooks/guard.md", "guard", "markdown", True, None)
    stop = explained(workspace, "Stop")
    assert all(row["why"] == "another event (PreToolUse)" for row in stop["hooks"])


def test_usage_errors_exit_1(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    done = agenthooks(workspace, "explain", "Stopp")
    assert done.returncode == 1
    assert done.stderr.startswith("agenthooks: error: ") and "Stop" in done.stderr
    bad = agenthooks(workspace, "explain", "Stop", payload="[1")
    assert bad.returncode == 1 and bad.stdout == ""


SAME = [
    # (tool in the caller's words or None, event, host, extra args)
    ("Bash", "PreToolUse", None, ()),
    ("run_command", "PreToolUse", None, ()),
    ("run_shell_command", "BeforeTool", None, ()),
    ("Write", "PostToolUse", None, ()),
    ("Bash", "PreToolUse", "claude", ()),
    ("Bash", "PreToolUse", "claude", ("--other-hosts",)),
    ("run_command", "PreToolUse", "antigravity", ("--other-hosts",)),
    (None, "Stop", None, ()),
    (None, "Stop", "gemini", ("--other-hosts",)),
]


@pytest.mark.parametrize(("tool", "event", "host", "extra"), SAME)
def test_what_runs_is_what_dry_run_plans(mixed: Path, tool: str | None, event: str,
                                         host: str | None, extra: tuple[str, ...]) -> None:
    payload = {"tool_name": tool, "tool_input": {"command": "ls"}} if tool else None
    args = (event, *(("--host", host) if host else ()), *extra)
    report = explained(mixed, *args, payload=payload)
    runs = [(row["source"], row["command"]) for row in report["handlers"] if row["runs"]]
    dry = agenthooks(mixed, "run", *args, "--dry-run", payload=payload)
    assert dry.returncode == 0, dry.stderr
    plan = json.loads(dry.stdout)
    assert runs == [(h["source"], h["command"]) for h in plan["handlers"]]
    assert report["leftOut"] == plan["leftOut"]


@pytest.fixture
def mixed(tmp_path: Path) -> Path:
    """A workspace wired for every host: hooks.json, .claude/ and .gemini/ settings, some
    commands shared (run once), some each host's own."""
    from tests.conftest import REPO

    workspace = tmp_path / "ws"
    import shutil

    shutil.copytree(REPO / "sample_hooks", workspace, symlinks=True,
                    ignore=shutil.ignore_patterns(".harness"))
    claude_file = json.loads((workspace / ".claude" / "settings.json").read_text())
    claude_file["hooks"]["PreToolUse"].append(claude("Bash|Write", command="echo claude-only"))
    claude_file["hooks"]["Stop"].append(claude(None, command="echo claude-stop"))
    write(workspace / ".claude" / "settings.json", claude_file)
    write(workspace / ".gemini" / "settings.json", {"hooks": {
        "BeforeTool": [claude("run_shell_command", command="echo gemini-only")],
        "AfterAgent": [claude(None, command="echo gemini-stop")]}})
    return workspace


@pytest.mark.parametrize(("host", "event", "line"), [
    ("claude", "PostToolUse",
     "Claude Code can block here: no; rewrite: yes; context: yes; on timeout: fails open; on "
     "another exit code: fails open; fail-closed switch: `onFailure: \"block\"`"),
    ("copilot", "preToolUse",
     "GitHub Copilot CLI can block here: yes; rewrite: yes; context: no; on timeout: fails "
     "open; on another exit code: fails closed; fail-closed switch: none"),
])
def test_explain_says_what_the_caller_can_enforce(tmp_path: Path, host: str, event: str,
                                                  line: str) -> None:
    workspace = tmp_path / "ws"
    write(workspace / ".agents" / "hooks.json", {"g": {"PostToolUse": [
        {"matcher": "", "hooks": [{"command": "true"}]}]}})
    text = agenthooks(workspace, "explain", event, "--tool", "Bash", "--host", host)
    assert text.returncode == 0, text.stderr
    assert text.stdout.splitlines()[1] == line
    report = explained(workspace, event, "--tool", "Bash", "--host", host)
    assert report["enforce"]["host"] == host and report["enforce"]["sources"]
    assert report["enforce"]["block"] is (event == "preToolUse")
