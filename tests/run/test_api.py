"""The in-process API: load once, run per event; real handlers throughout."""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest
from proctools import live_group_members, pids_with_argv, wait_for

import agenthooks
from agenthooks.api import EventResult, Hooks, load_hooks, run_event
from agenthooks.errors import AgentHooksError, ConfigError, PayloadError, UsageError
from agenthooks.executor import KILL_GRACE, OUTPUT_LIMIT

from .conftest import (
    LoadFn,
    RunFn,
    on,
    proc_stat,
    write_hooks,
)

ANTIGRAVITY_RUN = {"toolCall": {"name": "run_command", "args": {"CommandLine": "ls"}}}


def test_package_exports_the_api() -> None:
    assert agenthooks.run_event is run_event
    assert agenthooks.load_hooks is load_hooks
    assert asyncio.iscoroutinefunction(agenthooks.arun_event)


def test_run_event_loads_then_runs(workspace: Path) -> None:
    write_hooks(workspace, {"gate": on("PreToolUse", "echo '{\"decision\":\"ask\"}'",
                                       matcher="run_command")})
    result = run_event("PreToolUse", ANTIGRAVITY_RUN, workspaces=[str(workspace)], no_user=True)
    assert isinstance(result, EventResult)
    assert result.output == {"decision": "ask"}
    assert not result.blocked and result.exit_code == 0
    assert result.tool == "run_command"


def test_discovery_from_cwd(workspace: Path) -> None:
    write_hooks(workspace, {"h": on("Stop", "echo hi")})
    (workspace / "sub" / "dir").mkdir(parents=True)
    result = run_event("Stop", {}, cwd=str(workspace / "sub" / "dir"))
    assert result.output == {"systemMessage": "hi"}


def test_arun_event_and_arun(workspace: Path) -> None:
    write_hooks(workspace, {"h": on("Stop", "sleep 0.2; echo '{\"decision\":\"continue\"}'")})

    async def main() -> tuple[EventResult, EventResult]:
        hooks = load_hooks(workspaces=[str(workspace)], no_user=True)
        return await asyncio.gather(
            agenthooks.arun_event("Stop", {}, workspaces=[str(workspace)], no_user=True),
            hooks.arun("Stop", b"{}"),
        )

    first, second = asyncio.run(main())
    assert first.output == second.output == {"decision": "continue"}
    assert first.blocked and second.exit_code == 2


# --- cancelling arun ------------------------------------------------------------------------


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def is_group_leader(pid: int) -> bool:
    stat = proc_stat(pid)
    return stat is not None and stat[1] == pid


async def started_leader(argv: list[str], timeout: float = 10.0) -> int:
    """The process group of the handler running `argv`, once it has started: the handler's
    shell leads it, and runs `argv` itself or as its child."""
    deadline = time.monotonic() + timeout
    while True:
        groups = {stat[1] for pid in pids_with_argv(argv)
                  if (stat := proc_stat(pid)) is not None and is_group_leader(stat[1])}
        if groups or time.monotonic() >= deadline:
            assert len(groups) == 1, groups
            return groups.pop()
        await asyncio.sleep(0.02)


async def wait_for_argv(argv: list[str], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not pids_with_argv(argv):
        assert time.monotonic() < deadline, f"{argv} never started"
        await asyncio.sleep(0.02)


async def cancel_and_time(task: asyncio.Task[EventResult]) -> float:
    """Cancel `task`, check that it ends in CancelledError, and return how long that took."""
    start = time.monotonic()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    return time.monotonic() - start


Start = Callable[[Hooks, Path], Coroutine[Any, Any, EventResult]]
STARTS: dict[str, Start] = {
    "arun": lambda hooks, ws: hooks.arun("Stop", {}),
    "arun_event": lambda hooks, ws: agenthooks.arun_event(
        "Stop", {}, workspaces=[str(ws)], no_user=True
    ),
}


@pytest.mark.parametrize("how", STARTS)
def test_cancelling_arun_kills_the_handlers(
    hooks_of: LoadFn, workspace: Path, kill_argv: Callable[[list[str]], None], how: str
) -> None:
    argv = ["sleep", "38.1"]
    kill_argv(argv)
    hooks = hooks_of({"h": on("Stop", shlex.join(argv))})

    async def main() -> None:
        task = asyncio.create_task(STARTS[how](hooks, workspace))
        await asyncio.sleep(0.3)
        pid = await started_leader(argv)
        assert await cancel_and_time(task) < 3.0
        # Checked here, not after asyncio.run, which waits for its worker threads: the
        # handler was killed and reaped before CancelledError got here, not even a zombie.
        assert pids_with_argv(argv) == []
        left = live_group_members(pid)
        assert left == [], [(p, proc_stat(p), _cmdline(p)) for p in left]

    asyncio.run(main())


def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return "?"


def test_cancelled_again_while_the_handlers_die(
    hooks_of: LoadFn, kill_argv: Callable[[list[str]], None]
) -> None:
    """A second cancel does not cut the wait short: the group is dead when arun ends."""
    argv = ["sleep", "38.6"]
    kill_argv(argv)
    # The shell ignores SIGTERM, so it only dies from the SIGKILL, KILL_GRACE later.
    hooks = hooks_of({"h": on("Stop", f"trap '' TERM; {shlex.join(argv)}; {shlex.join(argv)}")})

    async def main() -> float:
        task = asyncio.create_task(hooks.arun("Stop", {}))
        await wait_for_argv(argv)
        start = time.monotonic()
        task.cancel()
        await asyncio.sleep(0.2)
        assert not task.done()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert pids_with_argv(argv) == []
        return time.monotonic() - start

    elapsed = asyncio.run(main())
    assert KILL_GRACE * 0.9 < elapsed < KILL_GRACE + 3.0


def test_arun_leaks_no_fd(hooks_of: LoadFn, kill_argv: Callable[[list[str]], None]) -> None:
    argv = ["sleep", "38.7"]
    kill_argv(argv)
    hooks = hooks_of({
        "quick": on("Stop", "echo '{\"decision\":\"continue\"}'"),
        "slow": on("SessionStart", shlex.join(argv)),
    })

    async def main() -> tuple[int, int]:
        await hooks.arun("Stop", {})  # warm-up: the default executor starts its thread
        before = open_fds()
        for _ in range(20):
            result = await hooks.arun("Stop", {})
            assert result.output == {"decision": "continue"}
        for i in range(10):
            task = asyncio.create_task(hooks.arun("SessionStart", {}))
            if i % 2:
                await asyncio.sleep(0)  # cancelled while the thread may not have started
            else:
                await wait_for_argv(argv)  # cancelled while the handler runs
            await cancel_and_time(task)
            assert pids_with_argv(argv) == []
        return before, open_fds()

    before, after = asyncio.run(main())
    assert after == before


def test_arun_event_fails_closed_on_a_missing_workspace(tmp_path: Path) -> None:
    result = asyncio.run(agenthooks.arun_event(
        "PreToolUse", {}, workspaces=[str(tmp_path / "nope")], fail_closed=True
    ))
    assert result.output["decision"] == "deny" and result.blocked
    with pytest.raises(ConfigError):
        asyncio.run(agenthooks.arun_event("Stop", {}, workspaces=[str(tmp_path / "nope")]))


def test_to_report_shape(run_doc: RunFn) -> None:
    result = run_doc({"h": on("PreToolUse", "echo x >&2; exit 1", "true")}, "PreToolUse",
                     ANTIGRAVITY_RUN)
    report = result.to_report()
    assert list(report) == [
        "event", "output", "blocked", "decision", "warnings", "handlers", "hooks",
    ]
    assert report["event"] == "PreToolUse" and report["output"] == {}
    assert report["blocked"] is False
    assert report["warnings"] == ["hook 'h' exited 1: x"]
    assert [h["status"] for h in report["handlers"]] == ["warning", "ok"]
    json.dumps(report)  # serialisable as is


# --- payloads -----------------------------------------------------------------------------------


def test_bytes_reach_the_handler_untouched(run_doc: RunFn, tmp_path: Path) -> None:
    seen = tmp_path / "seen"
    payload = b'{ "toolCall" : {"name": "run_command"},\n  "x": "caf\\u00e9 \xc3\xa9" }  \n'
    run_doc({"h": on("PreToolUse", f"cat > {shlex.quote(str(seen))}")}, "PreToolUse", payload)
    # A hooks.json handler gets them as they came, Claude Code's fields added at the end.
    assert seen.read_bytes().startswith(payload.rstrip()[:-1].rstrip() + b", ")


def test_dict_and_str_payloads(run_doc: RunFn, tmp_path: Path) -> None:
    seen = tmp_path / "seen"
    doc = {"h": on("PreToolUse", f"cat > {shlex.quote(str(seen))}")}
    run_doc(doc, "PreToolUse", {"toolCall": {"name": "é"}})
    assert json.loads(seen.read_bytes())["toolCall"] == {"name": "é"}
    run_doc(doc, "PreToolUse", '{"a": "é"}')
    assert seen.read_bytes().startswith('{"a": "é", '.encode())


@pytest.mark.parametrize("payload", [b"", b"  \n", ""])
def test_empty_payload_is_an_empty_object(run_doc: RunFn, tmp_path: Path, payload: bytes) -> None:
    seen = tmp_path / "seen"
    result = run_doc({"h": on("Stop", f"cat > {shlex.quote(str(seen))}")}, "Stop", payload)
    # An empty object, with the event's name that scripts from Claude Code's docs read.
    assert json.loads(seen.read_bytes()) == {"hook_event_name": "Stop"}
    assert result.exit_code == 0


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        (b"[1, 2]", "the payload must be a JSON object, not a list"),
        (b"nope", "the payload is not valid JSON: "),
        (b'"x"', "the payload must be a JSON object, not a string"),
        (b"\xff\xfe{}", "the payload must be UTF-8 JSON without a byte-order mark"),
    ],
)
def test_payload_that_is_not_an_object(run_doc: RunFn, payload: bytes, message: str) -> None:
    with pytest.raises(PayloadError, match="^" + message.replace("(", r"\(")):
        run_doc({"h": on("Stop", "true")}, "Stop", payload)


def test_big_payload_ignored_by_the_handler(run_doc: RunFn) -> None:
    payload = json.dumps({"toolCall": {"name": "run_command"}, "blob": "x" * 3_000_000}).encode()
    start = time.monotonic()
    result = run_doc({"h": on("PreToolUse", "true", "exit 0")}, "PreToolUse", payload)
    assert time.monotonic() - start < 10
    assert [a.status for a in result.handlers] == ["ok", "ok"]


def test_big_payload_read_by_the_handler(run_doc: RunFn) -> None:
    payload = json.dumps({"toolCall": {"name": "run_command"}, "blob": "x" * 3_000_000}).encode()
    result = run_doc({"h": on("PreToolUse", "wc -c")}, "PreToolUse", payload)
    # All of it, and the few fields a hooks.json handler gets added at its end.
    assert result.output is not None
    assert len(payload) < int(result.output["systemMessage"]) < len(payload) + 200


def test_five_megabytes_of_stdout_are_truncated(run_doc: RunFn) -> None:
    result = run_doc({"h": on("Stop", "head -c 5000000 /dev/zero | tr '\\0' x")}, "Stop", {})
    [a] = result.handlers
    assert a.status == "ok" and a.stdout_truncated
    assert len(a.stdout) == OUTPUT_LIMIT
    assert a.as_json()["stdoutTruncated"] is True
    assert result.warnings == ["hook 'h' wrote more than 1 MiB on stdout; the rest was dropped"]
    assert not a.failed


def test_background_child_holding_the_pipes_does_not_delay(
    run_doc: RunFn, kill_argv: object
) -> None:
    assert callable(kill_argv)
    kill_argv(["sleep", "38.1"])
    start = time.monotonic()
    result = run_doc({"h": on("PreToolUse", "sleep 38.1 & echo '{\"decision\":\"deny\"}'")},
                     "PreToolUse", ANTIGRAVITY_RUN)
    assert time.monotonic() - start < 5
    assert result.output == {"decision": "deny"} and result.blocked


def test_timeout_kills_the_grandchildren(run_doc: RunFn, tmp_path: Path) -> None:
    pgid_file = tmp_path / "pgid"
    command = f"echo $$ > {shlex.quote(str(pgid_file))}; sh -c 'sleep 38.2; :' & sleep 38.3"
    start = time.monotonic()
    result = run_doc({"h": on("Stop", command, timeout=1)}, "Stop", {})
    assert time.monotonic() - start < 5
    assert result.handlers[0].status == "timeout"
    pgid = int(pgid_file.read_text())
    assert wait_for(lambda: not live_group_members(pgid), 3.0)


def test_handler_ignoring_sigterm_is_killed(run_doc: RunFn) -> None:
    start = time.monotonic()
    result = run_doc({"h": on("Stop", "trap '' TERM; sleep 38.4; sleep 38.4", timeout=1)},
                     "Stop", {})
    assert time.monotonic() - start < 5
    assert result.handlers[0].status == "timeout"
    assert result.warnings == ["hook 'h' timed out after 1 s"]


# --- environment and working directory ----------------------------------------------------------


def test_environment_and_cwd(workspace: Path, tmp_path: Path) -> None:
    out = tmp_path / "env.json"
    script = (
        "import json, os, sys; json.load(sys.stdin); "
        f"json.dump({{'cwd': os.getcwd(), 'env': dict(os.environ)}}, open({str(out)!r}, 'w'))"
    )
    command = f"python3 -c {shlex.quote(script)}"
    path = write_hooks(workspace, {"env-probe": on("PreToolUse", command, matcher="run_command")})
    os.environ["AGENTHOOKS_TEST_INHERITED"] = "yes"
    try:
        run_event("PreToolUse", ANTIGRAVITY_RUN, workspaces=[str(workspace)], no_user=True)
    finally:
        del os.environ["AGENTHOOKS_TEST_INHERITED"]
    seen = json.loads(out.read_text())
    root = str(workspace.resolve())
    # Handlers run in the folder that holds hooks.json; the project dirs stay at the root.
    assert os.path.realpath(seen["cwd"]) == os.path.realpath(path.parent)
    env = seen["env"]
    assert env["AGENTHOOKS_EVENT"] == "PreToolUse"
    assert env["AGENTHOOKS_HOOK_NAME"] == "env-probe"
    assert env["AGENTHOOKS_CONFIG"] == str(path.absolute())
    assert env["AGENTHOOKS_WORKSPACE"] == root
    assert env["AGENTHOOKS_TOOL_NAME"] == "run_command"
    assert env["GEMINI_PROJECT_DIR"] == root and env["CLAUDE_PROJECT_DIR"] == root
    assert env["AGENTHOOKS_TEST_INHERITED"] == "yes"
    assert env["HOME"] == os.environ["HOME"]


def test_no_tool_name_variable_for_flat_events(run_doc: RunFn) -> None:
    result = run_doc({"h": on("Stop", "echo \"[${AGENTHOOKS_TOOL_NAME-unset}]\"")}, "Stop", {})
    assert result.output == {"systemMessage": "[unset]"}


def test_user_file_runs_in_its_folder_with_the_first_workspace_as_project(
    home: Path, workspace: Path
) -> None:
    write_hooks(home / ".gemini", {"u": on("Stop", 'echo "$PWD $GEMINI_PROJECT_DIR"')}, "config")
    result = run_event("Stop", {}, workspaces=[str(workspace)])
    config = (home / ".gemini" / "config").resolve()
    assert result.output == {"systemMessage": f"{config} {workspace.resolve()}"}


# --- loading ------------------------------------------------------------------------------------


def test_a_broken_file_is_skipped_and_the_others_run(workspace: Path) -> None:
    write_hooks(workspace, {"good": on("Stop", "echo fine")})
    broken = write_hooks(workspace, '{"bad": {"Stop": [}}', folder=".agent")
    hooks = load_hooks(workspaces=[str(workspace)], no_user=True)
    assert [f.source.file for f in hooks.skipped_files] == [str(broken.absolute())]
    result = hooks.run("Stop", {})
    notice = f"agenthooks skipped {broken} (1 error): run `agenthooks validate`"
    assert result.output == {"systemMessage": f"fine\n{notice}"}
    assert result.exit_code == 0 and not result.blocked
    assert len(result.skipped_files) == 1 and result.skipped_files[0].errors
    [warning] = result.warnings
    assert warning.startswith("skipped ") and "(1 error; its hooks do not run)" in warning
    assert "json-syntax" in warning


def test_missing_config_file_is_skipped(tmp_path: Path) -> None:
    result = run_event("Stop", {}, configs=[str(tmp_path / "nope.json")])
    # An answer was produced, so the exit status is 0; the host shows the user the notice.
    assert result.exit_code == 0
    assert result.output == {
        "systemMessage": "agenthooks skipped 1 file named with --config (1 error): "
                         f"run `agenthooks validate {tmp_path / 'nope.json'}`"
    }
    assert "unreadable" in result.warnings[0]


def test_files_are_read_once(hooks_of: LoadFn, workspace: Path) -> None:
    hooks = hooks_of({"h": on("Stop", "echo one")})
    write_hooks(workspace, {"h": on("Stop", "echo two")})
    assert hooks.run("Stop", {}).output == {"systemMessage": "one"}
    assert hooks.run("Stop", {}).output == {"systemMessage": "one"}


def test_missing_workspace_raises_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError):
        load_hooks(workspaces=[str(tmp_path / "nope")])


def test_unknown_event_and_bad_default(hooks_of: LoadFn) -> None:
    hooks = hooks_of({"h": on("Stop", "true")})
    with pytest.raises(UsageError, match="unknown event 'PreTooluse': did you mean 'PreToolUse'"):
        hooks.run("PreTooluse", {})
    assert hooks.run("BeforeTool", {}).event == "PreToolUse"  # any host's word for the row
    with pytest.raises(UsageError, match="unknown default decision 'yes'"):
        hooks.run("PreToolUse", {}, default_decision="yes")
    assert issubclass(UsageError, AgentHooksError)


def test_plan_starts_nothing(hooks_of: LoadFn, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    hooks = hooks_of({
        "gate": on("PreToolUse", f"touch {marker}", matcher="run_command", timeout=7),
        "other": on("PreToolUse", "true", matcher="view_file"),
        "model": on("PreToolUse", {"type": "prompt", "prompt": "ok?"}, matcher=""),
    })
    plan = hooks.plan("PreToolUse", json.dumps(ANTIGRAVITY_RUN))
    assert not marker.exists()
    assert plan.to_json() == {
        "event": "PreToolUse",
        "tool": "run_command",
        "handlers": [{
            "hook": "gate", "source": plan.handlers[0].source.path, "matcher": "run_command",
            "command": f"touch {marker}", "timeout": 7, "cwd": plan.handlers[0].source.cwd,
        }],
        "hooks": [],
        "leftOut": [],
    }
    assert plan.warnings == ["hook 'model': prompt handlers need the agent's model; skipped"]


# --- fail-closed --------------------------------------------------------------------------------

FAILURES = {
    "timeout": ("sleep 30", 1, "hook 'h' timed out after 1 s"),
    "crash": ("echo boom >&2; exit 1", None, "hook 'h' exited 1: boom"),
    "signal": ("kill -9 $$", None, "hook 'h' killed by SIGKILL"),
    "unknown decision": ("echo '{\"decision\": \"perhaps\"}'", None,
                         "hook 'h' gave decision 'perhaps', unknown for PreToolUse; ignored"),
    "missing script": ("./missing.sh", None, "hook 'h' exited 127"),
}


@pytest.mark.parametrize("kind", list(FAILURES))
def test_fail_closed_denies_pre_tool_use(run_doc: RunFn, kind: str) -> None:
    command, timeout, message = FAILURES[kind]
    doc = {"ok": on("PreToolUse", "echo '{\"decision\": \"allow\"}'"),
           "h": on("PreToolUse", command, timeout=timeout)}
    result = run_doc(doc, "PreToolUse", ANTIGRAVITY_RUN, fail_closed=True)
    assert result.output["decision"] == "deny"
    assert result.output["reason"].startswith(f"fail-closed: {message}")
    assert result.blocked and result.exit_code == 2
    open_result = run_doc(doc, "PreToolUse", ANTIGRAVITY_RUN)
    assert open_result.output == {"decision": "allow"} and open_result.exit_code == 0


@pytest.mark.parametrize("kind", list(FAILURES))
def test_fail_closed_changes_nothing_on_stop(run_doc: RunFn, kind: str) -> None:
    command, timeout, _ = FAILURES[kind]
    result = run_doc({"h": on("Stop", command, timeout=timeout)}, "Stop", {}, fail_closed=True)
    assert "decision" not in result.output
    assert not result.blocked and result.exit_code == 0


def test_fail_closed_on_a_skipped_file(workspace: Path) -> None:
    write_hooks(workspace, {"good": on("PreToolUse", "echo '{\"decision\": \"allow\"}'")})
    write_hooks(workspace, "{,}", folder="_agents")
    result = run_event("PreToolUse", ANTIGRAVITY_RUN, workspaces=[str(workspace)],
                       no_user=True, fail_closed=True)
    assert result.output["decision"] == "deny"
    reason = result.output["reason"]
    assert reason.startswith("fail-closed: skipped ") and "_agents/hooks.json" in reason
    assert result.exit_code == 2


def test_fail_closed_on_a_bad_payload(hooks_of: LoadFn) -> None:
    hooks = hooks_of({"h": on("PreToolUse", "true")})
    result = hooks.run("PreToolUse", b"[]", fail_closed=True)
    assert result.output == {
        "decision": "deny",
        "reason": "fail-closed: agenthooks: the payload must be a JSON object, not a list",
    }
    assert result.error == "the payload must be a JSON object, not a list"
    assert result.blocked and result.exit_code == 2 and result.handlers == ()
    with pytest.raises(PayloadError):
        hooks.run("Stop", b"[]", fail_closed=True)


def test_fail_closed_on_a_missing_workspace(tmp_path: Path) -> None:
    result = run_event("PreToolUse", {}, workspaces=[str(tmp_path / "nope")], fail_closed=True)
    assert result.output["decision"] == "deny" and "no such directory" in result.output["reason"]
    with pytest.raises(ConfigError):
        run_event("Stop", {}, workspaces=[str(tmp_path / "nope")], fail_closed=True)


def test_fail_closed_keeps_real_deny_reasons_first(run_doc: RunFn) -> None:
    doc = {"gate": on("PreToolUse", "echo dangerous >&2; exit 2"),
           "h": on("PreToolUse", "exit 5")}
    result = run_doc(doc, "PreToolUse", ANTIGRAVITY_RUN, fail_closed=True)
    assert result.output == {
        "decision": "deny", "reason": "dangerous\nfail-closed: hook 'h' exited 5",
    }


def test_fail_closed_without_failures_changes_nothing(run_doc: RunFn) -> None:
    doc = {"h": on("PreToolUse", "echo '{\"decision\": \"ask\"}'"), "p": on("PreToolUse", "true")}
    result = run_doc(doc, "PreToolUse", ANTIGRAVITY_RUN, fail_closed=True)
    assert result.output == {"decision": "ask"} and result.exit_code == 0
