"""`agenthooks run` answers whatever an in-process hook does: crashes, exits, overruns, output.

Real `python -m agenthooks run` processes with real `--python` modules and real Markdown hooks
in a temporary workspace: the host sees the exit status and stdout of a process, so each test
checks that stdout is exactly the answer, and that nothing the hook started is left running.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from proctools import children, pids_with_argv, stat, wait_for

from .conftest import Cli, CliFn, cli_env

pytestmark = pytest.mark.program

RUN_COMMAND = json.dumps({"toolCall": {"name": "run_command", "args": {"CommandLine": "ls"}}})


def python_module(root: Path, body: str, name: str = "gatehooks") -> str:
    """`root/<name>.py` with `hooks = Hooks()` and `body` after it; the `--python` spec."""
    head = ("import asyncio, os, subprocess, sys, threading, time\n"
            "from agenthooks import Decision, Hooks\n"
            "hooks = Hooks()\n")
    (root / f"{name}.py").write_text(head + textwrap.dedent(body), encoding="utf-8")
    return f"{name}:hooks"


def markdown(root: Path, name: str, script: str, **keys: object) -> None:
    lines = ["---", "event: tool.pre", *(f"{k}: {v}" for k, v in keys.items()), "script: |"]
    lines.extend("  " + line for line in textwrap.dedent(script).strip("\n").split("\n"))
    folder = root / ".harness" / "hooks"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.md").write_text("\n".join([*lines, "---", ""]), encoding="utf-8")


def run(cli: CliFn, root: Path, *extra: str, closed: bool = True) -> Cli:
    flags = ("--fail-closed",) if closed else ()
    return cli("PreToolUse", "--workspace", str(root), "--no-user", *flags, *extra,
               stdin=RUN_COMMAND, cwd=root)


def denied(done: Cli, *words: str) -> str:
    """The reason of the one deny on stdout (exit 2), which must name each of `words`."""
    assert done.code == 2, done.err
    answer = done.json
    assert answer["decision"] == "deny", answer
    for word in words:
        assert word in answer["reason"], answer["reason"]
    return str(answer["reason"])


# --- crashes of the interpreter -------------------------------------------------------------


def test_a_python_hook_that_ends_its_process_is_denied(cli: CliFn, workspace: Path) -> None:
    spec = python_module(workspace, """
        @hooks.decide("PreToolUse")
        def quitter(ctx):
            os._exit(0)
    """)
    denied(run(cli, workspace, "--python", spec), "quitter", "exit status 0")


DEEP = """
    def handle(event, payload):
        x = []
        for i in range(150000):
            x = [x]
        y = {use}
        return allow()
"""


@pytest.mark.parametrize("use", ["json.encode(x)", "str(x)", '"%s" % x'])
def test_deep_starlark_data_that_crashes_the_engine_is_denied(
    cli: CliFn, workspace: Path, use: str
) -> None:
    markdown(workspace, "deep", DEEP.format(use=use))
    denied(run(cli, workspace), "deep", "SIGSEGV")


def test_a_huge_starlark_allocation_under_a_memory_limit_is_denied(workspace: Path) -> None:
    # 2.4 GB asked for under a 2 GiB address space: starlark-rust aborts the process it is in.
    markdown(workspace, "greedy", """
        def handle(event, payload):
            x = [0] * 300000000
            return allow()
    """)
    limit = 2 << 30

    def bounded() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    done = subprocess.run(
        [sys.executable, "-m", "agenthooks", "run", "PreToolUse", "--workspace", str(workspace),
         "--no-user", "--fail-closed"], input=RUN_COMMAND.encode(), capture_output=True,
        env=cli_env(), cwd=workspace, timeout=120, check=False, preexec_fn=bounded)
    denied(Cli(done.returncode, done.stdout.decode(), done.stderr.decode()), "greedy", "crashed")


def test_a_crash_without_fail_closed_is_a_warning_when_the_hook_allows_errors(
    cli: CliFn, workspace: Path
) -> None:
    markdown(workspace, "deep", DEEP.format(use="json.encode(x)"), on_error="allow")
    done = run(cli, workspace, closed=False)
    assert done.code == 0, done.err
    assert done.json == {}
    assert "hook 'deep' failed: crashed" in done.err


def test_a_crash_without_fail_closed_still_denies_a_deny_on_error_hook(
    cli: CliFn, workspace: Path
) -> None:
    markdown(workspace, "deep", DEEP.format(use="json.encode(x)"))
    denied(run(cli, workspace, closed=False), "deep", "crashed")


# --- stdout belongs to the answer -----------------------------------------------------------


def test_what_a_python_hook_writes_goes_to_stderr(cli: CliFn, workspace: Path) -> None:
    spec = python_module(workspace, """
        def late():
            time.sleep(0.3)
            print("LATE-THREAD", flush=True)

        @hooks.decide("PreToolUse")
        def chatty(ctx):
            print("PRINTED")
            sys.stdout.flush()
            os.write(1, b"OS-WRITE\\n")
            subprocess.run(["sh", "-c", "echo CHILD"], check=True)
            threading.Thread(target=late, daemon=True).start()
            return None
    """)
    done = run(cli, workspace, "--python", spec)
    assert done.code == 0, done.err
    assert done.out == "{}\n"
    for word in ("PRINTED", "OS-WRITE", "CHILD"):
        assert word in done.err


def test_what_a_python_module_prints_while_loading_goes_to_stderr(
    cli: CliFn, workspace: Path
) -> None:
    spec = python_module(workspace, """
        print("AT-IMPORT")
        def register(hooks):
            print("AT-REGISTER")
            os.write(1, b"REGISTER-OS-WRITE\\n")
    """).replace(":hooks", ":register")
    done = run(cli, workspace, "--python", spec)
    assert done.code == 0, done.err
    assert done.out == "{}\n"
    for word in ("AT-IMPORT", "AT-REGISTER", "REGISTER-OS-WRITE"):
        assert word in done.err


def test_a_deny_is_the_only_thing_on_stdout(cli: CliFn, workspace: Path) -> None:
    spec = python_module(workspace, """
        @hooks.decide("PreToolUse")
        def no(ctx):
            print('{"decision": "allow"}')
            return Decision.deny("not here")
    """)
    done = run(cli, workspace, "--python", spec)
    assert denied(done, "not here")
    assert done.out.count("\n") == 1


# --- every exception is an outcome ----------------------------------------------------------

# (what the hook raises, how its failure names it)
RAISED = [("KeyboardInterrupt", "KeyboardInterrupt"), ("asyncio.CancelledError", "CancelledError"),
          ("GeneratorExit", "GeneratorExit"), ("SystemExit(0)", "SystemExit"),
          ("BaseException('odd')", "BaseException")]


@pytest.mark.parametrize(("raised", "named"), RAISED)
def test_every_exception_a_hook_raises_is_its_failure(
    cli: CliFn, workspace: Path, raised: str, named: str
) -> None:
    spec = python_module(workspace, f"""
        @hooks.decide("PreToolUse")
        def raiser(ctx):
            raise {raised}
    """)
    denied(run(cli, workspace, "--python", spec), "raiser", named)


@pytest.mark.parametrize("raised", ["KeyboardInterrupt", "GeneratorExit", "BaseException"])
@pytest.mark.parametrize("where", ["import", "register"])
def test_every_exception_while_loading_is_a_failure(
    cli: CliFn, workspace: Path, raised: str, where: str
) -> None:
    if where == "import":
        spec = python_module(workspace, f"raise {raised}\n")
    else:
        spec = python_module(workspace, f"def register(hooks):\n    raise {raised}\n")
        spec = spec.replace(":hooks", ":register")
    denied(run(cli, workspace, "--python", spec), "gatehooks", raised)


def test_an_async_hook_that_swallows_cancellation_is_stopped(
    cli: CliFn, workspace: Path
) -> None:
    spec = python_module(workspace, """
        async def stubborn(ctx):
            while True:
                try:
                    await asyncio.sleep(60)
                except asyncio.CancelledError:
                    pass

        hooks.on("PreToolUse", stubborn, timeout=0.5)
    """)
    denied(run(cli, workspace, "--python", spec), "stubborn", "timed out")


def test_a_thread_a_hook_leaves_does_not_hold_the_run(cli: CliFn, workspace: Path) -> None:
    # The thread would sleep far past the test's subprocess timeout (120 s).
    spec = python_module(workspace, """
        @hooks.decide("PreToolUse")
        def leaver(ctx):
            threading.Thread(target=time.sleep, args=(600,)).start()
            return Decision.deny("no")
    """)
    denied(run(cli, workspace, "--python", spec), "no")


def test_a_sync_hook_past_its_timeout_is_killed(cli: CliFn, workspace: Path) -> None:
    spec = python_module(workspace, """
        def sleeper(ctx):
            time.sleep(600)

        hooks.on("PreToolUse", sleeper, timeout=0.5)
    """)
    denied(run(cli, workspace, "--python", spec), "sleeper", "timed out")


def test_what_a_hook_starts_does_not_outlive_it(cli: CliFn, workspace: Path) -> None:
    argv = ["sleep", "41.3"]
    spec = python_module(workspace, f"""
        @hooks.decide("PreToolUse")
        def starter(ctx):
            subprocess.Popen({argv!r})
            return None
    """)
    try:
        done = run(cli, workspace, "--python", spec)
        assert done.code == 0 and done.out == "{}\n", done.err
        assert wait_for(lambda: not pids_with_argv(argv), timeout=5.0)
    finally:
        for pid in pids_with_argv(argv):
            os.kill(pid, 9)


# --- deadlines: one builtin call that never returns to Starlark ------------------------------


def test_a_catastrophic_regex_is_stopped_at_the_hooks_deadline(
    cli: CliFn, workspace: Path
) -> None:
    # 2**40 steps of backtracking: hours, unless the hook's process is killed.
    markdown(workspace, "redos", """
        def handle(event, payload):
            re.match("(a+)+$", "a" * 40 + "b")
            return allow()
    """, timeout_ms=200)
    denied(run(cli, workspace), "redos", "timeout_ms (200 ms)")


def test_a_hook_whose_process_waits_for_a_cpu_is_not_timed_out(workspace: Path) -> None:
    """A Markdown hook's limits count the CPU time it uses: its process stopped (as one waits
    for a CPU on a busy machine) for longer than the whole wall-clock backstop of the hook
    (3 x 0.3 + 1.25 s) still answers, once it runs again, with the hook's own allow."""
    markdown(workspace, "patient", """
        def handle(event, payload):
            n = 0
            for i in range(200000):
                n += i
            return allow() if n == 19999900000 else block("miscounted")
    """, timeout_ms=300)
    payload = workspace / "payload.json"
    payload.write_text(RUN_COMMAND)
    with payload.open("rb") as stdin:
        run_ = subprocess.Popen(
            [sys.executable, "-m", "agenthooks", "run", "PreToolUse", "--workspace",
             str(workspace), "--no-user", "--fail-closed"],
            stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=cli_env(),
            cwd=workspace)
    try:
        found = wait_for(lambda: [pid for pid, state in children(run_.pid) if state != "Z"])
        assert found, "the hook's process never started"
        [hook] = found
        os.kill(hook, signal.SIGSTOP)
        assert wait_for(lambda: (stat(hook) or ("",))[0] == "T"), "the hook's process ran on"
        with contextlib.suppress(subprocess.TimeoutExpired):
            run_.wait(timeout=3.0)  # past the backstop: before, the hook was killed and denied
        os.kill(hook, signal.SIGCONT)
        out, err = run_.communicate(timeout=60)
    finally:
        if run_.poll() is None:
            run_.kill()
            run_.communicate()
    assert (run_.returncode, json.loads(out)) == (0, {}), err.decode()  # allowed
    assert b"patient" not in err


# --- what modify() passes on ----------------------------------------------------------------


@pytest.mark.parametrize(("value", "shown"), [
    ('float("nan")', "nan"), ('float("inf")', "+inf"), ('[{"a": -float("inf")}]', "-inf"),
])
def test_modify_with_nan_or_infinity_is_a_failure(
    cli: CliFn, workspace: Path, value: str, shown: str
) -> None:
    markdown(workspace, "nan", f"""
        def handle(event, payload):
            return modify({{"args": {{"CommandLine": {value}}}}})
    """)
    denied(run(cli, workspace), "nan", f"holds {shown}")


def test_modify_nested_past_the_json_limit_is_a_failure(cli: CliFn, workspace: Path) -> None:
    markdown(workspace, "deep", """
        def handle(event, payload):
            x = "ls"
            for i in range(300):
                x = [x]
            return modify({"args": {"CommandLine": x}})
    """)
    denied(run(cli, workspace), "deep", "nested deeper than 200 levels")


def test_a_good_modify_still_reaches_the_answer(cli: CliFn, workspace: Path) -> None:
    markdown(workspace, "rewrite", """
        def handle(event, payload):
            return modify({"args": {"CommandLine": payload["args"]["CommandLine"] + " -l",
                                    "n": [1.5, {"deep": [True, None]}]}})
    """)
    done = run(cli, workspace, "--host", "claude")
    assert done.code == 0, done.err
    updated = done.json["hookSpecificOutput"]["updatedInput"]
    assert updated["n"] == [1.5, {"deep": [True, None]}]


def test_a_python_modify_nested_past_the_json_limit_is_a_failure(
    cli: CliFn, workspace: Path
) -> None:
    spec = python_module(workspace, """
        @hooks.transform("PreToolUse")
        def deep(ctx):
            x = "ls"
            for _ in range(300):
                x = [x]
            return Decision.modify({"CommandLine": x})
    """)
    denied(run(cli, workspace, "--python", spec), "deep", "nested deeper than 200 levels")


def alive(pid: int) -> bool:
    found = stat(pid)
    return found is not None and found[0] != "Z"


def test_a_hooks_process_dies_with_a_run_killed_outright(workspace: Path) -> None:
    # A host that SIGKILLs agenthooks at its own timeout leaves no hook running.
    spec = python_module(workspace, """
        def sleeper(ctx):
            time.sleep(600)

        hooks.on("PreToolUse", sleeper, timeout=300)
    """)
    run_ = subprocess.Popen(
        [sys.executable, "-m", "agenthooks", "run", "PreToolUse", "--workspace",
         str(workspace), "--no-user", "--python", spec],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=cli_env(),
        cwd=workspace)
    assert run_.stdin is not None
    run_.stdin.write(RUN_COMMAND.encode())
    run_.stdin.close()
    hook_pids: list[int] = []
    try:
        found = wait_for(lambda: [pid for pid, state in children(run_.pid) if state != "Z"])
        assert found, "the hook's process never started"
        hook_pids = list(found)
        run_.kill()
        run_.wait(timeout=30)
        assert wait_for(lambda: not any(alive(pid) for pid in hook_pids), timeout=10.0)
    finally:
        for pid in hook_pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, 9)
        if run_.poll() is None:
            run_.kill()
        run_.wait(timeout=30)
        assert run_.stdout is not None and run_.stderr is not None
        run_.stdout.close()
        run_.stderr.close()
