"""`agenthooks run` answers whatever a `--python` module does while it is imported.

The module is imported, and its `register(hooks)` called, in a child the run forks first
(`agenthooks.cli.keeper`): real `python -m agenthooks run` processes, real modules in a
temporary workspace, under each host's words. stdout must be exactly the answer, and nothing
may be left running.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from proctools import stat, wait_for

from .conftest import REPO, Cli, cli_env

pytestmark = pytest.mark.program

HOSTS = [None, "claude", "gemini"]
PAYLOAD = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash",
                      "tool_input": {"command": "ls"}, "session_id": "s", "cwd": "/tmp"})


def module(root: Path, top: str, register: str = "pass") -> str:
    """`root/gate.py`: `top` at import, then `register(hooks)` doing `register`; the spec."""
    text = (textwrap.dedent(top) + "\n\ndef register(hooks):\n"
            + textwrap.indent(textwrap.dedent(register), "    ") + "\n")
    head = "import os, signal, sys, threading, time\nfrom agenthooks import Decision\n"
    (root / "gate.py").write_text(head + text,
                                  encoding="utf-8")
    return "gate:register"


def command(root: Path, spec: str, host: str | None, closed: bool = True) -> list[str]:
    return [sys.executable, "-m", "agenthooks", "run", "PreToolUse", "--workspace", str(root),
            "--no-user", "--python", spec, *(["--fail-closed"] if closed else []),
            *(["--host", host] if host else [])]


def run(root: Path, spec: str, host: str | None, closed: bool = True) -> Cli:
    done = subprocess.run(command(root, spec, host, closed), input=PAYLOAD.encode(),
                          capture_output=True, env=cli_env(), cwd=root, timeout=30, check=False)
    return Cli(done.returncode, done.stdout.decode(), done.stderr.decode())


def denied(done: Cli, host: str | None, *words: str) -> None:
    """A deny in `host`'s words and exit status, the only thing on stdout, naming `words`."""
    answer: Any = done.json
    if host == "claude":
        assert done.code == 0, done.err
        verdict = answer["hookSpecificOutput"]
        decision, reason = verdict["permissionDecision"], verdict["permissionDecisionReason"]
    else:  # Gemini CLI reads a deny from JSON on exit 0; Antigravity's words exit 2
        assert done.code == (0 if host == "gemini" else 2), done.err
        decision, reason = answer["decision"], answer["reason"]
    assert decision == "deny", answer
    for word in words:
        assert word in reason, reason


@pytest.fixture(params=HOSTS, ids=lambda host: host or "no-host")
def host(request: pytest.FixtureRequest) -> str | None:
    value: str | None = request.param
    return value


# --- the module ends or crashes its process while it loads -----------------------------------


def test_os_exit_at_import_is_a_deny(workspace: Path, host: str | None) -> None:
    spec = module(workspace, "os._exit(0)")
    denied(run(workspace, spec, host), host, "Python hooks", "gate:register",
           "exited with status 0 before it answered")


def test_a_crash_at_import_is_a_deny(workspace: Path, host: str | None) -> None:
    spec = module(workspace, "os.kill(os.getpid(), signal.SIGSEGV)")
    denied(run(workspace, spec, host), host, "ended with SIGSEGV before it answered")


def test_os_exit_in_register_is_a_deny(workspace: Path, host: str | None) -> None:
    spec = module(workspace, "", register="os._exit(0)")
    denied(run(workspace, spec, host), host, "exited with status 0")


@pytest.mark.parametrize("where", ["import", "register"])
@pytest.mark.parametrize("raised", ["KeyboardInterrupt", "SystemExit(0)", "GeneratorExit"])
def test_every_exception_while_loading_is_a_deny(
    workspace: Path, host: str | None, where: str, raised: str
) -> None:
    top, register = (f"raise {raised}", "pass") if where == "import" else ("", f"raise {raised}")
    spec = module(workspace, top, register)
    denied(run(workspace, spec, host), host, "gate", raised.partition("(")[0])


@pytest.mark.parametrize("host", HOSTS, ids=lambda host: host or "no-host")
def test_without_fail_closed_a_lost_answer_is_an_error(workspace: Path, host: str | None) -> None:
    # Exit 1 with nothing on stdout, as any failure of agenthooks itself: never the exit 0
    # of "carry on", which `os._exit(0)` would have given.
    spec = module(workspace, "os._exit(0)")
    done = run(workspace, spec, host, closed=False)
    assert done.code == 1, done.err
    assert done.out == ""
    assert "exited with status 0 before it answered" in done.err


# --- stdout and threads ------------------------------------------------------------------------


def test_a_print_at_import_is_not_in_the_answer(workspace: Path, host: str | None) -> None:
    spec = module(workspace, "print('hello from import'); os.write(1, b'raw\\n')",
                  register="print('hello from register')")
    done = run(workspace, spec, host)
    assert isinstance(done.json, dict)  # exactly one JSON line
    assert "hello from import" in done.err and "hello from register" in done.err


def test_a_thread_started_at_import_does_not_hold_the_run(
    workspace: Path, host: str | None
) -> None:
    spec = module(workspace, """
        def work():
            time.sleep(60)
        threading.Thread(target=work).start()
    """, register="""
        @hooks.decide("PreToolUse")
        def gate(ctx):
            return Decision.deny("no")
    """)
    done = run(workspace, spec, host)  # 30 s at most: the thread's 60 s would fail it
    denied(done, host, "no")


def test_a_thread_that_prints_after_loading_is_not_in_the_answer(
    workspace: Path, host: str | None
) -> None:
    # The thread writes while the hook runs (in its own process), after the module has
    # loaded: through `print`, `sys.stdout` and fd 1 alike.
    spec = module(workspace, """
        def late():
            time.sleep(0.2)
            print("late print"); sys.stdout.flush(); os.write(1, b"late raw\\n")
        threading.Thread(target=late, daemon=True).start()
    """, register="""
        @hooks.decide("PreToolUse")
        def gate(ctx):
            time.sleep(0.6)
            return Decision.deny("no")
    """)
    done = run(workspace, spec, host)
    denied(done, host, "no")
    assert "late print" in done.err and "late raw" in done.err


# --- the run's own signals -------------------------------------------------------------------


def started(workspace: Path, spec: str, host: str | None) -> tuple[subprocess.Popen[bytes], int]:
    """The run, and the pid of its child once the module is loading there."""
    marker = workspace / "loading"
    payload = workspace.parent / "payload.json"
    payload.write_text(PAYLOAD, encoding="utf-8")
    with payload.open("rb") as stdin:
        process = subprocess.Popen(command(workspace, spec, host), stdin=stdin,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   env=cli_env(), cwd=workspace)
    assert wait_for(lambda: marker.exists() and marker.read_text() != "", 20), "never loaded"
    return process, int(marker.read_text())


LOADING = textwrap.dedent("""
    with open("loading.tmp", "w") as f:
        f.write(str(os.getpid()))
    os.rename("loading.tmp", "loading")
""")


@pytest.mark.parametrize("blocked", [False, True], ids=["handled", "blocked"])
def test_a_sigterm_ends_the_run_and_its_child(
    workspace: Path, host: str | None, blocked: bool
) -> None:
    # Blocked: the child cannot act on the signal it is passed, and is killed after a grace.
    mask = "signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})\n" if blocked else ""
    spec = module(workspace, mask + LOADING + "time.sleep(60)\n")
    process, child = started(workspace, spec, host)
    try:
        assert child != process.pid
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 128 + signal.SIGTERM, err
    assert out == b""
    assert stat(child) is None  # reaped, not left running


def test_a_run_killed_outright_takes_its_child(workspace: Path) -> None:
    spec = module(workspace, LOADING + "time.sleep(60)\n")
    process, child = started(workspace, spec, None)
    process.kill()
    process.wait()
    assert wait_for(lambda: stat(child) is None or stat(child)[0] == "Z", 10)  # type: ignore[index]


# --- the cold path -----------------------------------------------------------------------------


def test_a_run_without_modules_forks_nothing(workspace: Path) -> None:
    code = ("import os, sys; sys.argv = ['agenthooks', 'run', 'PreToolUse', '--no-user']\n"
            "from agenthooks.cli import main\n"
            "pid = os.getpid(); code = main()\n"
            "print(json.dumps([os.getpid() == pid, 'agenthooks.cli.keeper' in sys.modules]))\n"
            ).replace("import os, sys", "import json, os, sys")
    env = cli_env()
    env["PYTHONPATH"] = str(REPO)
    done = subprocess.run([sys.executable, "-c", code], input=b"{}", capture_output=True,
                          env=env, cwd=workspace, timeout=30, check=False)
    assert json.loads(done.stdout.decode().splitlines()[-1]) == [True, False], done.stderr


def test_the_answer_of_a_good_module_passes_through(workspace: Path, host: str | None) -> None:
    spec = module(workspace, "", register="""
        @hooks.decide("PreToolUse")
        def gate(ctx):
            return Decision.deny("kept")
    """)
    denied(run(workspace, spec, host), host, "kept")
