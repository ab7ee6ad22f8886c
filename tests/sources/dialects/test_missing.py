"""What a hook whose script is missing does under each host, as `script-missing` says: a
table of hosts and exit codes, and the message through the real program."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agenthooks.sources.reading.missing import consequence, missing_exit
from tests.support import program


@pytest.mark.parametrize(("interpreter", "code"), [
    (None, 127), ("python3", 2), ("python3.12", 2), ("python", 2), ("perl", 2), ("bash", 127),
    ("sh", 2), ("node", 1), ("ruby", 1), ("deno", 1),
])
def test_the_exit_code_of_a_missing_script(interpreter: str | None, code: int) -> None:
    assert missing_exit(interpreter) == code


@pytest.mark.parametrize(("host", "code", "native_blocks", "ours_blocks"), [
    ("claude", 2, True, True),
    ("claude", 127, False, False),
    ("claude", 1, False, False),
    ("gemini", 127, True, False),  # Gemini CLI's code denies on text with exit >= 2
    ("gemini", 2, True, True),
    ("gemini", 1, False, False),
    ("cursor", 2, True, True),
    ("cursor", 127, False, False),
    ("codex", 2, True, True),
    ("codex", 127, False, False),
    ("copilot", 127, True, True),  # preToolUse denies on any failure
    ("copilot", 1, True, True),
    ("crush", 49, True, True),  # denies and ends the turn
    ("crush", 1, False, False),
    ("goose", 2, True, True),
    ("goose", 127, False, False),
])
def test_each_host_reads_the_exit_code_its_own_way(host: str, code: int, native_blocks: bool,
                                                   ours_blocks: bool) -> None:
    native, ours = consequence(host, "H", code).split("; under agenthooks run it ")
    assert ("blocks every call" in native) is native_blocks, native
    assert ("gate is off" in native) is not native_blocks, native
    assert (ours == "blocks every call it gates") is ours_blocks, ours
    assert (ours == "is a warning (a deny under --fail-closed)") is not ours_blocks, ours


@pytest.mark.program
@pytest.mark.parametrize(("command", "says"), [
    ("python3 $CLAUDE_PROJECT_DIR/.claude/hooks/gate.py",
     "the handler would exit 2; Claude Code reads exit 2 as a block, so this hook blocks every "
     "call it gates; under agenthooks run it blocks every call it gates"),
    ("$CLAUDE_PROJECT_DIR/.claude/hooks/gate.sh",
     "the handler would exit 127; Claude Code reads exit 127 as a non-blocking error: the call "
     "goes through, so this gate is off; under agenthooks run it is a warning (a deny under "
     "--fail-closed)"),
])
def test_the_message_says_what_happens(tmp_path: Path, command: str, says: str) -> None:
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": command}]}]}}))
    done = program("validate", "--no-user", "--format", "json", cwd=tmp_path)
    (found,) = [d for d in json.loads(done.stdout)["diagnostics"]
                if d["rule"] == "script-missing"]
    assert says in found["message"], found["message"]
    # What agenthooks' run does is what the message says.
    call = '{"tool_name": "run_shell_command", "tool_input": {"command": "ls"}}'
    ran = program("run", "BeforeTool", "--host", "gemini", "--other-hosts", "--no-user",
                   cwd=tmp_path, stdin=call)
    assert json.loads(ran.stdout).get("decision") == ("deny" if "exit 2" in says else None), \
        ran.stdout + ran.stderr


@pytest.mark.program
@pytest.mark.parametrize(("command", "says"), [
    ("python3 ./gate.py", "python3 would fail to open it and exit 2: exit 2 is a block, so this "
                          "hook blocks every call it gates"),
    ("node ./gate.js", "node would fail to open it and exit 1: a warning, so this gate is off "
                       "(a deny under --fail-closed)"),
    ("./gate.sh", "the handler would exit 127: a warning, so this gate is off (a deny under "
                  "--fail-closed)"),
])
def test_a_hooks_json_message_says_what_happens(tmp_path: Path, command: str, says: str) -> None:
    hooks = tmp_path / ".agents" / "hooks.json"
    hooks.parent.mkdir()
    hooks.write_text(json.dumps({"gate": {"PreToolUse": [{"matcher": "", "hooks": [
        {"command": command}]}]}}))
    done = program("validate", "--no-user", "--format", "json", cwd=tmp_path)
    (found,) = [d for d in json.loads(done.stdout)["diagnostics"]
                if d["rule"] == "script-missing"]
    assert found["message"].endswith(says), found["message"]
