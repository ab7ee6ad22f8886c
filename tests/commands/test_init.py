"""`agenthooks init`: the wiring docs/hosts.md shows, added to what a settings file holds
without changing a byte of it, a starter gate where there is none, nothing written without
--yes or a yes on a terminal, and nothing to do on a second run; `--check` says whether a
workspace is wired right."""

from __future__ import annotations

import difflib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from agenthooks.commands.init import STARTER, WIRING, commands_in
from tests.conftest import REPO, Run
from tests.docs.pages import page

BIN = str(Path(sys.executable).parent)
PAYLOAD = {
    "claude": {"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}},
    "gemini": {"tool_name": "run_shell_command", "tool_input": {"command": "rm -rf /"}},
    "antigravity": {"toolCall": {"name": "run_command", "args": {"CommandLine": "rm -rf /"}}},
    "codex": {"hook_event_name": "PreToolUse", "turn_id": "t1", "tool_name": "Bash",
              "tool_input": {"command": "rm -rf /"}},
    "cursor": {"hook_event_name": "preToolUse", "conversation_id": "c-1", "generation_id": "g-1",
               "cursor_version": "1.7.2", "workspace_roots": ["/project"],
               "tool_name": "Shell", "tool_input": {"command": "rm -rf /"}},
    "copilot": {"sessionId": "s-1", "timestamp": 1767225600000, "cwd": "/repo",
                "toolName": "bash", "toolArgs": {"command": "rm -rf /"}},
}
# How each host reads a deny: the exit status (the deny is in the JSON on 0).
DENY_STATUS = {"antigravity": 2, "cursor": 2, "copilot": 2}


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty git work tree as the current directory, agenthooks on PATH."""
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    monkeypatch.chdir(root)
    monkeypatch.setenv("PATH", BIN + os.pathsep + os.environ.get("PATH", ""))
    return root


def documented(host: str) -> object:
    """The host's settings as docs/hosts.md shows them: the JSON block naming `--host HOST`."""
    blocks = re.findall(r"```json\n(.*?)```", page("hosts.md"), re.S)
    [block] = [b for b in blocks if f"--host {host}" in b and "agenthooks run" in b]
    return json.loads(block)


@pytest.mark.parametrize("host", sorted(WIRING))
def test_init_writes_the_documented_wiring_and_a_starter_gate(
        agenthooks: Run, workspace: Path, host: str) -> None:
    done = agenthooks("init", "--host", host, "--yes")
    assert done.code == 0, done.err
    wiring = WIRING[host]
    settings = workspace / wiring.settings
    assert json.loads(settings.read_text()) == documented(host)
    assert (workspace / wiring.gates).read_text() == STARTER
    assert f"+++ b/{wiring.settings}" in done.out and f"wrote {wiring.gates}" in done.out
    assert agenthooks("validate").code == 0
    assert agenthooks("init", "--check", "--host", host).code == 0


@pytest.mark.program
@pytest.mark.parametrize("host", sorted(WIRING))
def test_the_wiring_blocks_where_the_host_runs_it(agenthooks: Run, workspace: Path,
                                                  host: str) -> None:
    """Each entry run as the host runs it: Claude Code and Gemini CLI in the project root,
    Antigravity in the folder of its hooks.json."""
    assert agenthooks("init", "--host", host, "--yes").code == 0
    settings = workspace / WIRING[host].settings
    document = json.loads(settings.read_text())
    tool_event = WIRING[host].events[0]
    [command] = commands_in(document[WIRING[host].container][tool_event.word])
    where = settings.parent if host == "antigravity" else workspace
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(["sh", "-c", command], input=json.dumps(PAYLOAD[host]), cwd=where,
                          capture_output=True, text=True, env=env, check=False, timeout=60)
    assert "rm -rf needs a human" in done.stdout, done.stderr
    assert done.returncode == DENY_STATUS.get(host, 0)


def test_a_second_run_changes_nothing(agenthooks: Run, workspace: Path) -> None:
    assert agenthooks("init", "--host", "claude", "--yes").code == 0
    files = {p: p.read_bytes() for p in workspace.rglob("*") if p.is_file()}
    again = agenthooks("init", "--host", "claude")  # no --yes: nothing to ask
    assert again.code == 0
    assert "already wired for Claude Code; nothing to change" in again.out
    assert {p: p.read_bytes() for p in workspace.rglob("*") if p.is_file()} == files


EXISTING = {
    "claude": ('{\n  "permissions": {"allow": ["Bash(ls)"]},\n  "model": "opus"\n}'),
    "gemini": ('{\n\t"theme": "dark",\n\t"hooks": {\n\t\t"BeforeTool": [\n\t\t\t{"matcher": '
               '"write_file", "hooks": [{"type": "command", "command": "./lint.sh"}]}\n\t\t],\n'
               '\t\t"AfterAgent": []\n\t}\n}\n'),
    "antigravity": '{"lint": {"Stop": [{"command": "make lint"}]}}\n',
}


@pytest.mark.parametrize("host", sorted(EXISTING))
def test_what_is_there_stays_byte_for_byte(agenthooks: Run, workspace: Path, host: str) -> None:
    settings = workspace / WIRING[host].settings
    settings.parent.mkdir()
    before = EXISTING[host]
    settings.write_text(before)
    assert agenthooks("init", "--host", host, "--yes").code == 0
    after = settings.read_text()
    # Only insertions: every byte that was there is there, in order.
    operations = difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes()
    assert {op for op, *_ in operations} <= {"equal", "insert"}
    merged = json.loads(after)
    for key, value in json.loads(before).items():
        if not isinstance(value, dict):
            assert merged[key] == value
    wired = documented(host)
    container = next(iter(wired))
    for event, groups in wired[container].items():  # type: ignore[attr-defined]
        assert groups[0] in merged[container][event]


def test_an_event_already_running_agenthooks_is_left_alone(agenthooks: Run,
                                                           workspace: Path) -> None:
    settings = workspace / ".claude" / "settings.json"
    settings.parent.mkdir()
    own = {"type": "command", "command": "/opt/bin/agenthooks run PreToolUse --host claude"}
    settings.write_text(json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash",
                                                               "hooks": [own]}]}}))
    assert agenthooks("init", "--host", "claude", "--yes").code == 0
    hooks = json.loads(settings.read_text())["hooks"]
    assert hooks["PreToolUse"] == [{"matcher": "Bash", "hooks": [own]}]
    assert set(hooks) == {"PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop",
                          "SessionStart"}


def test_nothing_is_written_without_yes_off_a_terminal(agenthooks: Run,
                                                       workspace: Path) -> None:
    done = agenthooks("init", "--host", "gemini")
    assert done.code == 1
    assert "+++ b/.gemini/settings.json" in done.out
    assert "nothing written: run again with --yes" in done.err
    assert list(workspace.iterdir()) == [workspace / ".git"]


@pytest.mark.program
def test_a_terminal_is_asked(workspace: Path) -> None:
    import pty

    env = {**os.environ, "PYTHONPATH": str(REPO)}
    for answer, code, written in ((b"n\n", 1, False), (b"y\n", 0, True)):
        main, secondary = pty.openpty()
        process = subprocess.Popen(
            [sys.executable, "-m", "agenthooks", "init", "--host", "claude"], stdin=secondary,
            stdout=secondary, stderr=secondary, cwd=workspace, env=env)
        os.close(secondary)
        output = b""
        while b"[y/N]" not in output:
            output += os.read(main, 4096)
        os.write(main, answer)
        assert process.wait(timeout=30) == code
        os.close(main)
        assert (workspace / ".claude" / "settings.json").exists() == written


def test_an_existing_gate_is_kept(agenthooks: Run, workspace: Path) -> None:
    (workspace / ".harness" / "hooks").mkdir(parents=True)
    (workspace / ".harness" / "hooks" / "guard.md").write_text(
        "---\nevent: tool.pre\nscript: |\n  def handle(event, payload):\n      return allow()\n"
        "---\n")
    assert agenthooks("init", "--host", "claude", "--yes").code == 0
    assert not (workspace / ".agents").exists()


@pytest.mark.parametrize("text", ["{not json", "[1, 2]", '{"hooks": []}'])
def test_a_settings_file_init_cannot_add_to(agenthooks: Run, workspace: Path, text: str) -> None:
    settings = workspace / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(text)
    done = agenthooks("init", "--host", "claude", "--yes")
    assert done.code == 1
    assert done.err.startswith("agenthooks: error: .claude/settings.json")
    assert settings.read_text() == text
    assert not (workspace / ".agents").exists()


def test_check(agenthooks: Run, workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    nothing = agenthooks("init", "--check")
    assert (nothing.code, nothing.out) == (
        1, "agenthooks: . is wired for no host: agenthooks init --host "
           "claude|gemini|antigravity|codex|cursor|copilot\n")
    assert agenthooks("init", "--host", "claude", "--yes").code == 0
    assert agenthooks("init", "--check").out == (
        "ok: Claude Code runs agenthooks (.claude/settings.json, gates in .agents/hooks.json)\n")
    # One event less, a broken gate, no agenthooks on PATH: each is said, exit 1.
    settings = workspace / ".claude" / "settings.json"
    document = json.loads(settings.read_text())
    del document["hooks"]["Stop"]
    settings.write_text(json.dumps(document))
    (workspace / ".agents" / "hooks.json").write_text("{")
    monkeypatch.setenv("PATH", "/nonexistent")
    done = agenthooks("init", "--check", "--host", "claude")
    assert done.code == 1
    assert done.out.splitlines() == [
        "not wired right for Claude Code:",
        "  - .claude/settings.json does not run agenthooks on Stop",
        "  - agenthooks is not on PATH, where the host looks for it: see docs/install.md",
        "  - .agents/hooks.json has errors, so none of its hooks run: agenthooks validate "
        ".agents/hooks.json",
    ]


def test_usage(agenthooks: Run, workspace: Path) -> None:
    assert agenthooks("init").code == 2  # no --host and no default_host
    assert agenthooks("init", "--host", "claude", "--host", "gemini").code == 2
    assert agenthooks("init", "--host", "nobody").code == 2
