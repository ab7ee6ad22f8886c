"""A hook already in the host's settings file, beside the agenthooks entries, runs once per event:
the host runs it, and agenthooks must not run it a second time."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.conftest import (
    SETTINGS_FILE,
    Hosts,
    add_hooks,
    lines,
    readme_wiring,
    tool_turn,
    wired_workspace,
    write_json,
)


def counting_hooks(host: str) -> dict[str, list[object]]:
    """A tool hook and a prompt hook that each add one line to a file per run."""
    if host == "copilot":  # flat handlers, the command under `bash`
        return {event: [{"type": "command", "bash": f"echo {name} >> $PWD/{name}-count.txt",
                         **({"matcher": "bash"} if name == "tool" else {})}]
                for event, name in (("preToolUse", "tool"), ("userPromptSubmitted", "prompt"))}
    # Codex sets no project-dir variable; it runs hooks in the session's directory.
    root = {"claude": "$CLAUDE_PROJECT_DIR", "gemini": "$GEMINI_PROJECT_DIR", "codex": "$PWD"}[host]
    tool_event, prompt_event = (("BeforeTool", "BeforeAgent") if host == "gemini"
                                else ("PreToolUse", "UserPromptSubmit"))
    matcher = "run_shell_command" if host == "gemini" else "Bash"

    def handler(name: str) -> dict[str, object]:
        entry: dict[str, object] = {"type": "command",
                                    "command": f"echo {name} >> {root}/{name}-count.txt"}
        if host == "gemini":
            entry["name"] = f"count-{name}"
        return entry

    return {tool_event: [{"matcher": matcher, "hooks": [handler("tool")]}],
            prompt_event: [{"hooks": [handler("prompt")]}]}


@pytest.mark.parametrize("host", ["claude", "gemini", "codex", "copilot"])
def test_existing_hook_runs_once_per_event(hosts: Hosts, tmp_path: Path, host: str) -> None:
    workspace = wired_workspace(tmp_path, host)
    write_json(workspace / SETTINGS_FILE[host],
               add_hooks(readme_wiring()[host], counting_hooks(host)))

    run = hosts.run(host, workspace, "Make a file.",
                    [tool_turn(host, "echo hi > made.txt"), {"text": "Made it."}])

    assert (workspace / "made.txt").read_text("utf-8") == "hi\n", run.describe()
    assert lines(workspace / "prompt-count.txt") == ["prompt"], run.describe()
    assert lines(workspace / "tool-count.txt") == ["tool"], run.describe()
