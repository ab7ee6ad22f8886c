"""Which commands are `agenthooks run` itself (the entry point, never run as a handler) and
which are handlers that only mention it: a table."""

from __future__ import annotations

import pytest

from agenthooks.model.itself import is_agenthooks_run, run_arguments

ITSELF = [
    "agenthooks run PreToolUse",
    "agenthooks run PreToolUse --host claude --fail-closed",
    "/usr/local/bin/agenthooks run PreToolUse",
    "'/opt/my tools/agenthooks' run Stop",
    '"$CLAUDE_PROJECT_DIR"/.venv/bin/agenthooks run Stop --host claude',
    "'C:\\tools\\agenthooks.exe' run PreToolUse",
    "agenthooks.exe run PreToolUse",
    "python3 -m agenthooks run PreToolUse",
    "/usr/bin/python3.12 -I -X utf8 -m agenthooks run Stop",
    "py -m agenthooks run Stop",
    "python -magenthooks run Stop",
    "exec agenthooks run PreToolUse",
    "command agenthooks run PreToolUse",
    "nohup agenthooks run Stop",
    "env agenthooks run Stop",
    "env -i PATH=/usr/bin AGENTHOOKS_FAIL_CLOSED=1 agenthooks run PreToolUse",
    "AGENTHOOKS_FAIL_CLOSED=1 agenthooks run PreToolUse",
    "timeout 30 agenthooks run PreToolUse",
    "exec -a hook agenthooks run PreToolUse",
    "cd /w && agenthooks run Stop",
    "cd -- '/w/my project' && exec agenthooks run Stop",  # Copilot's cwd, as written
    "cd /w; agenthooks run Stop",
    "agenthooks run PreToolUse 2>>/tmp/hooks.log",
    "agenthooks run PreToolUse >log 2>&1",
    "agenthooks run PreToolUse\n",
    "agenthooks run PreToolUse;",
    "agenthooks run PreToolUse # the gate",
    "uvx agenthooks run PreToolUse",
    "uvx --from 'agenthooks==1.2' agenthooks run PreToolUse",
    "uvx agenthooks@1.2 run PreToolUse",
    "pipx run agenthooks run PreToolUse",
    "uv run agenthooks run PreToolUse",
    "uv tool run agenthooks run PreToolUse",
]

HANDLERS = [
    # The gate: it denies, then would run agenthooks.
    "echo no >&2; exit 2; agenthooks run PreToolUse --config other.json",
    "./check.sh && agenthooks run PreToolUse",
    "agenthooks run PreToolUse || true",
    "agenthooks run PreToolUse; exit 2",
    "agenthooks run PreToolUse && ./more.sh",
    "agenthooks run PreToolUse | tee log",
    "agenthooks run PreToolUse &",
    "(agenthooks run PreToolUse)",
    "bash -c 'agenthooks run PreToolUse'",
    "sh ./agenthooks-gate.sh run",
    "echo agenthooks run",
    "grep -q agenthooks run.txt",
    "agenthooks validate",
    "agenthooks",
    "agenthooks test run",
    "/tmp/agenthooks-trusted-12-ab/w/gate.sh run",  # trust's copy of a script
    "./agenthooks_gate.sh run",
    "echo agenthooksrun",
    "python3 gate.py -m agenthooks run",
    "python3 -c 'import agenthooks' run",
    "python3 -m agenthooks_extra run",
    "command -v agenthooks run",
    "xargs agenthooks run PreToolUse",
    "env -S 'echo no; exit 2' agenthooks run PreToolUse",
    "cd /w && cd && agenthooks run Stop x; exit 2",
    "cd a b && agenthooks run Stop",
    "$(which agenthooks) run Stop",
    "npx agenthooks run Stop",
    "uvx --unknown-option value agenthooks run Stop",
    "cat <<EOF | agenthooks run Stop\n{}\nEOF",
]


@pytest.mark.parametrize("command", ITSELF)
def test_agenthooks_itself(command: str) -> None:
    assert is_agenthooks_run(command), command


@pytest.mark.parametrize("command", HANDLERS)
def test_a_handler_that_mentions_agenthooks(command: str) -> None:
    assert not is_agenthooks_run(command), command


@pytest.mark.parametrize(("command", "args", "itself"), [
    ("agenthooks", ["run", "Stop"], True),
    ("/usr/bin/python3", ["-m", "agenthooks", "run", "Stop"], True),
    ("agenthooks", ["validate"], False),
    # Exec form: no shell reads the words, so `;` is an argument, not a separator.
    ("agenthooks", ["run", "Stop;", "exit", "2"], True),
    ("/bin/sh", ["-c", "agenthooks run Stop"], False),
])
def test_exec_form(command: str, args: list[str], itself: bool) -> None:
    assert is_agenthooks_run(command, args) is itself


def test_the_run_arguments_are_those_after_run() -> None:
    assert run_arguments("cd /w && agenthooks run Stop --config a.json 2>/dev/null") == (
        "Stop", "--config", "a.json")
    assert run_arguments("echo; agenthooks run Stop") is None


def test_the_folders_a_wiring_moves_to_first() -> None:
    from agenthooks.model.itself import entry

    assert entry("cd -- '/w/a b' && cd sub && agenthooks run Stop") == (
        ("/w/a b", "sub"), ("Stop",))
    assert entry("agenthooks", ["run", "Stop"]) == ((), ("Stop",))
