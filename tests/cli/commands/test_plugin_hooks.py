"""Hooks inside installed plugins, through the real program: `list` names the plugin,
`explain` says why a plugin's hook does not run, `run` runs an enabled plugin's hooks with
the plugin's variables, `validate` checks them. Plugins are laid out under a temporary HOME
as Claude Code and Cursor install them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.sources.hooksjson.plugin_trees import (
    claude_plugin,
    cursor_plugin,
    enabled,
    script,
    write,
)

pytestmark = pytest.mark.program

BASH = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"},
        "session_id": "s1"}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    write(root / ".claude" / "settings.json", {})
    return root


def agenthooks(project: Path, home: Path, *args: str,
               payload: object = None) -> subprocess.CompletedProcess[str]:
    """`python -m agenthooks ARGS` in the project, under the temporary HOME."""
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
           "XDG_DATA_HOME": str(home / ".data")}
    for name in ("AGENTHOOKS_REQUIRE_TRUST", "AGENTHOOKS_FAIL_CLOSED", "CLAUDE_PROJECT_DIR",
                 "XDG_CACHE_HOME"):
        env.pop(name, None)
    data = "" if payload is None else json.dumps(payload)
    return subprocess.run([sys.executable, "-m", "agenthooks", *args], cwd=project, env=env,
                          input=data, capture_output=True, text=True, check=False, timeout=60)


def why_not(project: Path, home: Path, *args: str) -> list[tuple[str, str | None]]:
    """(source, why) of each plugin handler `explain PreToolUse --tool Bash` lists."""
    done = agenthooks(project, home, "explain", "PreToolUse", "--tool", "Bash", *args,
                      "--format", "json")
    assert done.returncode == 0, done.stderr
    return [(row["source"], row["why"]) for row in json.loads(done.stdout)["handlers"]
            if "plugins" in row["source"]]


def test_list_names_the_plugin_and_whether_it_is_on(project: Path, home: Path) -> None:
    claude_plugin(home, "guard")
    claude_plugin(home, "idle", "other")
    enabled(home / ".claude" / "settings.json", "guard@mkt")
    done = agenthooks(project, home, "list")
    assert done.returncode == 0, done.stderr
    header, *rows = [line for line in done.stdout.splitlines() if "PreToolUse" in line
                     or line.startswith("SOURCE")]
    assert header.split()[-1] == "PLUGIN"
    assert [row.split()[-1] for row in rows] == ["guard@mkt", "(off)"]
    assert rows[1].split()[-2] == "idle@other"
    as_json = json.loads(agenthooks(project, home, "list", "--format", "json").stdout)
    assert [(row["plugin"], row["pluginOff"] is None) for row in as_json] == [
        ("guard@mkt", True), ("idle@other", False)]


def test_explain_says_why_a_plugin_hook_does_not_run(project: Path, home: Path) -> None:
    claude_plugin(home, "guard")
    (_, why), = why_not(project, home)
    assert why is not None and why.startswith("plugin guard@mkt is installed but not enabled")
    enabled(project / ".claude" / "settings.json", "guard@mkt", False)
    (_, why), = why_not(project, home)
    assert why == ('plugin guard@mkt is disabled: ' + str(project / ".claude" / "settings.json")
                   + ' says "guard@mkt": false in enabledPlugins')
    enabled(project / ".claude" / "settings.local.json", "guard@mkt")
    assert [why for _, why in why_not(project, home)] == [None]
    # Under Claude Code, Claude Code runs an enabled plugin's hooks itself.
    assert [why for _, why in why_not(project, home, "--host", "claude")] == [
        "Claude Code runs the hooks of plugin guard@mkt itself"]


def test_run_runs_an_enabled_plugins_hooks_with_its_variables(project: Path,
                                                             home: Path) -> None:
    folder = claude_plugin(home, "guard")
    done = agenthooks(project, home, "run", "PreToolUse", "--host", "gemini", "--other-hosts",
                      payload={**BASH, "tool_name": "run_shell_command"})
    assert done.returncode == 0, done.stderr  # not enabled: nothing ran
    enabled(home / ".claude" / "settings.json", "guard@mkt")
    done = agenthooks(project, home, "run", "PreToolUse", "--host", "gemini", "--other-hosts",
                      payload={**BASH, "tool_name": "run_shell_command"})
    answer = json.loads(done.stdout)  # Gemini CLI's words: a deny on exit 0
    assert (done.returncode, answer["decision"]) == (0, "deny"), done.stderr
    data = home / ".data" / "agenthooks" / "plugin-data" / "guard-mkt-"
    assert f"root={folder.resolve()} " in answer["reason"]
    assert f"data={data}" in answer["reason"] and f"pwd={project.resolve()}" in answer["reason"]


def test_cursor_plugin_hooks_run_in_the_plugin_with_its_root(project: Path,
                                                            home: Path) -> None:
    folder = cursor_plugin(home, "fmt", {"version": 1, "hooks": {"beforeShellExecution": [
        {"command": "./scripts/check.sh", "matcher": "rm"}]}})
    script(folder / "scripts" / "check.sh")
    payload = {"hook_event_name": "beforeShellExecution", "command": "rm -rf build",
               "cursor_version": "1.7", "conversation_id": "c1"}
    done = agenthooks(project, home, "run", "beforeShellExecution", "--host", "claude",
                      "--other-hosts", payload=payload)
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"cursor={folder.resolve()} pwd={folder.resolve()}" in done.stderr
    # Cursor runs its plugins' hooks itself.
    done = agenthooks(project, home, "run", "beforeShellExecution", "--host", "cursor",
                      payload=payload)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Cursor runs the hooks of plugin fmt itself" in done.stdout


def test_an_agent_plugins_hooks_do_not_run_in_cursor(project: Path, home: Path) -> None:
    folder = cursor_plugin(home, "portable", {"version": 1, "hooks": {"stop": [
        {"command": "echo hi"}]}}, agent=True)
    write(folder / "com.example.client" / "hooks" / "hooks.json",
          {"hooks": {"Stop": [{"hooks": [{"type": "command",
                                          "command": "echo '{\"systemMessage\": \"vendor\"}'"}]}]}})
    done = agenthooks(project, home, "explain", "Stop", "--format", "json")
    whys = {row["source"].removeprefix("~/.cursor/plugins/local/portable/"): row["why"]
            for row in json.loads(done.stdout)["handlers"] if "portable" in row["source"]}
    assert "Cursor loads its skills and MCP servers only" in whys["hooks/hooks.json"]
    assert "client that owns the com.example.client namespace" in whys[
        "com.example.client/hooks/hooks.json"]
    # Named with --config, the client's file runs: the user asked for it.
    done = agenthooks(project, home, "run", "Stop", "--config",
                      str(folder / "com.example.client" / "hooks" / "hooks.json"),
                      payload={"hook_event_name": "Stop", "session_id": "s"})
    assert done.returncode == 0 and "vendor" in done.stdout, done.stdout + done.stderr


def test_validate_checks_a_plugins_scripts(project: Path, home: Path) -> None:
    folder = claude_plugin(home, "guard")
    done = agenthooks(project, home, "validate")
    assert done.returncode == 0 and "no problems" in done.stdout, done.stdout
    (folder / "hooks" / "gate.sh").unlink()
    done = agenthooks(project, home, "validate")
    assert "[script-missing] ${CLAUDE_PLUGIN_ROOT}/hooks/gate.sh does not exist" in done.stdout
    # Shown under home as `~/`, where Claude Code installed it.
    assert "~/.claude/plugins/cache/mkt/guard/1.0.0/hooks/hooks.json:1:88: warning" \
        in done.stdout


def test_validate_takes_a_plugin_folder(project: Path, home: Path, tmp_path: Path) -> None:
    """A plugin's own checkout, named to `validate`: its hook files, each in its format."""
    checkout = tmp_path / "guard"
    write(checkout / ".claude-plugin" / "plugin.json", {"name": "guard", "hooks": "./more.json"})
    write(checkout / "hooks" / "hooks.json", {"hooks": {"PreToolUse": [{"matcher": "Bash",
          "hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/gate.sh"}]}]}})
    write(checkout / "more.json", {"hooks": {"Stop": [{"hooks": [{"type": "comand",
                                                                  "command": "true"}]}]}})
    done = agenthooks(checkout, home, "validate", ".")
    assert done.returncode == 1, done.stdout
    lines = [line for line in done.stdout.splitlines() if ": warning [" in line
             or ": error [" in line]
    assert [line.split(" [")[0] for line in lines] == [
        "hooks/hooks.json:1:88: warning", "more.json:1:41: error"]
    assert "[script-missing] ${CLAUDE_PLUGIN_ROOT}/gate.sh does not exist" in lines[0]


def test_validate_takes_a_gemini_extension_folder(home: Path, tmp_path: Path) -> None:
    """An extension's own checkout, named to `validate`: its hooks/hooks.json is Gemini CLI's
    (a matcher there is Gemini's unanchored regex)."""
    checkout = tmp_path / "notes"
    write(checkout / "gemini-extension.json", {"name": "notes", "version": "1.0.0"})
    write(checkout / "hooks" / "hooks.json", {"hooks": {"BeforeTool": [{
        "matcher": "run_shell_command", "hooks": [{"type": "command", "command": "true"}]}]}})
    done = agenthooks(tmp_path, home, "validate", "notes")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "notes/hooks/hooks.json:1:39: warning [matcher-unanchored] Gemini CLI matches " \
        "'run_shell_command' anywhere in the tool name" in done.stdout


def test_a_gemini_extensions_hooks_run_unless_disabled_here(project: Path, home: Path) -> None:
    folder = home / ".gemini" / "extensions" / "notes"
    write(folder / "gemini-extension.json", {"name": "notes"})
    command = 'echo {\\"systemMessage\\": \\"${extensionPath}\\"}'  # the shell fills it in
    write(folder / "hooks" / "hooks.json", {"hooks": {"AfterAgent": [{"hooks": [{
        "type": "command", "command": command}]}]}})
    done = agenthooks(project, home, "run", "Stop", "--host", "claude", "--other-hosts",
                      payload={"hook_event_name": "Stop", "session_id": "s1"})
    assert json.loads(done.stdout) == {"systemMessage": str(folder.resolve())}, done.stderr
    write(home / ".gemini" / "extensions" / "extension-enablement.json",
          {"notes": {"overrides": [f"!{project.parent}/*"]}})
    done = agenthooks(project, home, "explain", "Stop", "--format", "json")
    (why,) = [row["why"] for row in json.loads(done.stdout)["handlers"]]
    assert why == (f"extension notes is disabled here: ~/.gemini/extensions/"
                   f"extension-enablement.json says '!{project.parent}/*' "
                   "(gemini extensions enable notes)")
