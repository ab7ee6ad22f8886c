"""A gate never fails open by accident: every failure of `agenthooks run` is a defined answer.

Real `python -m agenthooks run` processes throughout: what a host sees is the exit status and
stdout of a process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import Cli, CliFn, cli_env, on, write_hooks

pytestmark = pytest.mark.program

RUN_COMMAND = json.dumps({"toolCall": {"name": "run_command", "args": {"CommandLine": "ls"}}})


def nested(depth: int) -> bytes:
    return ('{"toolCall": {"name": "run_command", "args": {"a": ' + "[" * depth + "]" * depth
            + "}}}").encode()


@pytest.fixture
def gate(workspace: Path) -> Path:
    """A workspace whose only PreToolUse handler allows everything."""
    write_hooks(workspace, {"allow": on("PreToolUse", """echo '{"decision": "allow"}'""")})
    return workspace


def closed(cli: CliFn, workspace: Path, stdin: bytes, *extra: str) -> Cli:
    return cli("PreToolUse", "--workspace", str(workspace), "--no-user", "--fail-closed",
               *extra, stdin=stdin)


# --- payloads -----------------------------------------------------------------------------


BAD_PAYLOADS = [
    ("nested 1,000 deep", nested(1000), "nests deeper than 200 levels"),
    ("nested 201 deep", nested(201), "nests deeper than 200 levels"),
    ("NaN", b'{"toolCall": {"name": "run_command"}, "x": NaN}', "NaN is not valid JSON"),
    ("Infinity", b'{"toolCall": {"name": "run_command"}, "x": Infinity}', "Infinity"),
    ("BOM", b"\xef\xbb\xbf" + RUN_COMMAND.encode(), "without a byte-order mark"),
    ("UTF-16", RUN_COMMAND.encode("utf-16-le"), "without a byte-order mark"),
    ("UTF-32", RUN_COMMAND.encode("utf-32"), "without a byte-order mark"),
    ("invalid UTF-8", b'{"toolCall": {"name": "run_\xff"}}', "not valid JSON"),
    ("encoded surrogate", b'{"toolCall": {"name": "run_\xed\xa0\x80"}}', "not valid JSON"),
    ("5,000-digit integer", b'{"toolCall": {"name": "x"}, "n": ' + b"9" * 5000 + b"}",
     "digits"),
]


@pytest.mark.parametrize(("label", "payload", "message"), BAD_PAYLOADS,
                         ids=[p[0] for p in BAD_PAYLOADS])
def test_bad_payload_denies_under_fail_closed(
    cli: CliFn, gate: Path, label: str, payload: bytes, message: str
) -> None:
    done = closed(cli, gate, payload)
    assert done.code == 2, done.err
    answer = done.json
    assert answer["decision"] == "deny" and message in answer["reason"]
    assert "Traceback" not in done.err


@pytest.mark.parametrize(("label", "payload", "message"), BAD_PAYLOADS[:3],
                         ids=[p[0] for p in BAD_PAYLOADS[:3]])
def test_bad_payload_is_one_line_and_exit_1_otherwise(
    cli: CliFn, gate: Path, label: str, payload: bytes, message: str
) -> None:
    done = cli("PreToolUse", "--workspace", str(gate), "--no-user", stdin=payload)
    assert done.code == 1 and done.out == ""
    assert done.err.count("\n") == 1 and message in done.err and "Traceback" not in done.err


@pytest.mark.parametrize("payload", [b"", b"{}", b'{"toolCall": {}}', b'{"tool_name": ""}'])
def test_no_tool_name_denies_under_fail_closed(cli: CliFn, gate: Path, payload: bytes) -> None:
    done = closed(cli, gate, payload)
    assert done.code == 2
    assert "no tool name" in done.json["reason"]


def test_tool_option_gives_the_tool_name(cli: CliFn, gate: Path) -> None:
    done = closed(cli, gate, b"{}", "--tool", "run_command")
    assert done.code == 0 and done.json == {"decision": "allow"}


# --- the machine and agenthooks itself ---------------------------------------------------------


def test_deleted_current_directory(cli: CliFn, gate: Path, tmp_path: Path) -> None:
    gone = tmp_path / "gone"
    gone.mkdir()
    script = (
        "import os, sys, runpy; os.chdir(sys.argv[1]); os.rmdir(sys.argv[1]); "
        "sys.argv = ['agenthooks', 'run', *sys.argv[2:]]; "
        "runpy.run_module('agenthooks', run_name='__main__')"
    )
    for extra, code in ((["--fail-closed"], 2), ([], 1)):
        done = subprocess.run(
            [sys.executable, "-c", script, str(gone), "PreToolUse", "--no-user", *extra],
            input=RUN_COMMAND.encode(), capture_output=True, env=cli_env(), check=False,
            timeout=60,
        )
        gone.mkdir(exist_ok=True)
        assert done.returncode == code, done.stderr
        assert b"Traceback" not in done.stderr
        if code == 2:
            assert json.loads(done.stdout)["decision"] == "deny"
        assert b"FileNotFoundError" in done.stdout + done.stderr


def test_memory_error_denies(cli: CliFn, gate: Path) -> None:
    # A 256 MiB address-space limit on a big payload: a MemoryError somewhere in reading it.
    script = (
        "import resource, sys, runpy; resource.setrlimit(resource.RLIMIT_AS, (2**28, 2**28)); "
        "sys.argv = ['agenthooks', 'run', *sys.argv[1:]]; "
        "runpy.run_module('agenthooks', run_name='__main__')"
    )
    payload = b'{"toolCall": {"name": "run_command"}, "x": [' + b"1," * (96 * 2**20 // 2) + b"1]}"
    done = subprocess.run(
        [sys.executable, "-c", script, "PreToolUse", "--workspace", str(gate), "--no-user",
         "--fail-closed"], input=payload, capture_output=True, env=cli_env(), check=False,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr[-500:]
    assert b"Traceback" not in done.stderr
    assert b"MemoryError" in done.stdout + done.stderr


def test_stdout_closed_or_full_denies_with_exit_2(gate: Path) -> None:
    base = [sys.executable, "-m", "agenthooks", "run", "PreToolUse", "--workspace", str(gate),
            "--no-user", "--fail-closed"]
    for stdout in (open(os.devnull, "rb"), open("/dev/full", "wb")):  # noqa: SIM115
        with stdout:
            done = subprocess.run(base, input=RUN_COMMAND.encode(), stdout=stdout,
                                  stderr=subprocess.PIPE, env=cli_env(), check=False, timeout=60)
        assert done.returncode == 2, done.stderr
        assert b"fail-closed" in done.stderr and b"cannot write the answer" in done.stderr


def test_stdout_full_without_fail_closed_is_exit_1(gate: Path) -> None:
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [sys.executable, "-m", "agenthooks", "run", "PreToolUse", "--workspace", str(gate),
             "--no-user"], input=RUN_COMMAND.encode(), stdout=full, stderr=subprocess.PIPE,
            env=cli_env(), check=False, timeout=60)
    assert done.returncode == 1 and b"cannot write the answer" in done.stderr


def test_debug_shows_the_traceback(cli: CliFn, tmp_path: Path) -> None:
    gone = tmp_path / "x"
    script = (
        "import os, sys, runpy; os.mkdir(sys.argv[1]); os.chdir(sys.argv[1]); "
        "os.rmdir(sys.argv[1]); sys.argv = ['agenthooks', 'run', 'Stop', '--no-user']; "
        "runpy.run_module('agenthooks', run_name='__main__')"
    )
    done = subprocess.run([sys.executable, "-c", script, str(gone)], input=b"{}",
                          capture_output=True, env=cli_env(AGENTHOOKS_DEBUG="1"), check=False,
                          timeout=60)
    assert done.returncode == 1 and b"Traceback" in done.stderr


# --- options --------------------------------------------------------------------------------


def test_options_before_run_are_runs_own(gate: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "agenthooks", "-v", "run", "Stop", "--workspace", str(gate),
         "--no-user"], input=b"{}", capture_output=True, env=cli_env(), check=False, timeout=60)
    assert done.returncode == 0, done.stderr
    assert b"handler" in done.stderr  # the -v summary line


def test_unknown_option_before_run_is_exit_1(gate: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "agenthooks", "--bogus", "run", "Stop"], input=b"{}",
        capture_output=True, env=cli_env(), check=False, timeout=60)
    assert done.returncode == 1 and b"--bogus" in done.stderr


def test_usage_error_denies_only_for_a_pre_tool_use_event(cli: CliFn, gate: Path) -> None:
    done = cli("Stop", "--tool", "PreToolUse", "--fail-closed", "--bogus", stdin=b"{}")
    assert done.code == 1 and done.out == ""
    done = cli("--tool", "Stop", "PreToolUse", "--fail-closed", "--bogus", stdin=RUN_COMMAND)
    assert done.code == 2 and done.json["decision"] == "deny"
    done = cli("pre_tool_use", "--fail-closed", "--bogus", stdin=RUN_COMMAND)
    assert done.code == 2 and "--bogus" in done.json["reason"]


def test_dry_run_exits_0_with_a_skipped_file(cli: CliFn, workspace: Path) -> None:
    write_hooks(workspace, "[]", folder=".agent")
    done = cli("Stop", "--workspace", str(workspace), "--no-user", "--dry-run", stdin=b"{}")
    assert done.code == 0
    assert done.json["handlers"] == []


def test_aliases_name_events(cli: CliFn, workspace: Path) -> None:
    write_hooks(workspace, {"h": on("PreInvocation", "echo hi")})
    done = cli("pre_model", "--workspace", str(workspace), "--no-user", stdin=b"{}")
    assert done.code == 0 and done.json == {"systemMessage": "hi"}


# --- trust boundaries -------------------------------------------------------------------------


def test_a_planted_parent_workspace_does_not_run(cli: CliFn, tmp_path: Path) -> None:
    # Like /tmp/.agents/hooks.json planted by another user above where agenthooks starts.
    parent = tmp_path / "shared"
    marker = tmp_path / "planted-ran"
    write_hooks(parent, {"planted": on("Stop", f"touch {marker}")})
    (parent / ".agents").chmod(0o777)
    below = parent / "project" / "src"
    below.mkdir(parents=True)
    done = cli("Stop", stdin=b"{}", cwd=below)
    assert done.code == 0 and not marker.exists()
    assert "[unsafe-workspace]" in done.err and "writable by everyone" in done.err
    # Named with --workspace, it is used as given.
    done = cli("Stop", "--workspace", str(parent), stdin=b"{}", cwd=below)
    assert done.code == 0 and marker.exists()


def test_text_output_escapes_control_characters(cli: CliFn, workspace: Path) -> None:
    # A command that would hide itself behind \r and clear the screen in the -v table.
    sneaky = "printf 'x' >&2; exit 1 #\r\x1b[2Jtrue"
    write_hooks(workspace, {"h\x1b[31m": on("Stop", sneaky)})
    done = cli("Stop", "--workspace", str(workspace), "--no-user", "-v", stdin=b"{}")
    assert done.code == 0
    assert "\x1b" not in done.err and "\r" not in done.err
    assert "\\x1b[2J" in done.err and "\\r" in done.err


# --- the API under fail_closed ------------------------------------------------------------------


def _deep(depth: int) -> dict[str, object]:
    nested: list[object] = []
    for _ in range(depth):
        nested = [nested]
    return {"toolCall": {"name": "x"}, "a": nested}


def _circular() -> dict[str, object]:
    doc: dict[str, object] = {"toolCall": {"name": "run_command"}}
    doc["self"] = doc
    return doc


API_BAD_INPUT = [
    ("circular reference", _circular(), {}, "Circular reference"),
    ("a set", {"toolCall": {"name": "run_command"}, "x": {1, 2}}, {}, "set is not JSON"),
    ("lone surrogate in a dict", {"toolCall": {"name": "run_\ud800"}}, {}, "surrogate"),
    ("lone surrogate in a str", '{"toolCall": {"name": "run_\ud800"}}', {}, "surrogate"),
    ("NaN in a dict", {"toolCall": {"name": "x"}, "n": float("nan")}, {}, "not JSON compliant"),
    ("nested 300 deep", _deep(300), {}, "deeper than 200"),
    ("nested 5000 deep", _deep(5000), {}, "deeper than 200"),
    ("bad default_decision", {"toolCall": {"name": "x"}}, {"default_decision": "yes"},
     "unknown default decision"),
    ("not a payload", 42, {}, "must be a dict, str or bytes"),
]


@pytest.mark.parametrize(("label", "payload", "options", "message"), API_BAD_INPUT,
                         ids=[case[0] for case in API_BAD_INPUT])
def test_api_fail_closed_denies_any_bad_input(
    gate: Path, label: str, payload: object, options: dict[str, object], message: str
) -> None:
    from agenthooks import load_hooks

    hooks = load_hooks(workspaces=[str(gate)], no_user=True)
    result = hooks.run("PreToolUse", payload, fail_closed=True, **options)  # type: ignore[arg-type]
    assert result.blocked and result.exit_code == 2
    assert result.output["decision"] == "deny"
    assert message in result.output["reason"] and result.error is not None
    assert result.decision.kind == "deny"
    # Without fail_closed the same input is agenthooks' own error, never another exception.
    from agenthooks.errors import AgentHooksError

    with pytest.raises(AgentHooksError):
        hooks.run("PreToolUse", payload, **options)  # type: ignore[arg-type]


@pytest.mark.parametrize("module", [
    "import sys\nsys.exit(0)\n",  # exits while being imported
    "import sys\ndef register(hooks):\n    sys.exit(0)\n",  # exits while registering
])
def test_python_hooks_that_exit_deny_under_fail_closed(tmp_path: Path, module: str) -> None:
    # sys.exit(0) would otherwise end agenthooks with exit 0 and no answer: "carry on".
    (tmp_path / "quitter.py").write_text(module)
    spec = "quitter:register" if "def register" in module else "quitter:hooks"
    base = [sys.executable, "-m", "agenthooks", "run", "PreToolUse", "--no-user",
            "--python", spec]
    payload = RUN_COMMAND.encode()
    done = subprocess.run([*base, "--fail-closed"], input=payload, capture_output=True,
                          cwd=tmp_path, env=cli_env(), check=False, timeout=60)
    assert done.returncode == 2, done.stderr
    assert "SystemExit" in json.loads(done.stdout)["reason"]
    done = subprocess.run(base, input=payload, capture_output=True, cwd=tmp_path,
                          env=cli_env(), check=False, timeout=60)
    assert done.returncode == 1 and done.stdout == b""
    assert b"SystemExit" in done.stderr
