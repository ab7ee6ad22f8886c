"""`agenthooks run` as hosts and people use it: real `python -m agenthooks` processes, plus
`agenthooks.cli.main` in-process where that is enough."""

from __future__ import annotations

import json
import os
import pty
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from proctools import live_group_members, pids_with_argv, wait_for
from signal_state import default_dispositions

from agenthooks.cli.run_args import OPTIONS, USAGE, help_text

from .conftest import (
    SAMPLES,
    CliFn,
    cli_env,
    on,
    proc_stat,
    write_hooks,
)

pytestmark = pytest.mark.program

RUN_COMMAND = json.dumps({"toolCall": {"name": "run_command", "args": {"CommandLine": "ls"}}})


@pytest.fixture
def config(workspace: Path) -> Callable[[dict[str, object]], str]:
    """Write the workspace's hooks.json; returns its path for --config."""

    def write(doc: dict[str, object]) -> str:
        return str(write_hooks(workspace, doc))

    return write


# --- the sample workspace through the real CLI ------------------------------------------------


@pytest.mark.parametrize(
    ("payload", "code", "decision"),
    [("pre_tool_use_allowed.json", 0, "allow"),
     ("pre_tool_use_denied.json", 2, "deny"),
     ("pre_tool_use_ask.json", 0, "ask"),
     ("pre_tool_use_view_file.json", 0, None)],
)
def test_sample_payloads(cli: CliFn, sample_copy: Path, payload: str, code: int,
                         decision: str | None) -> None:
    done = cli("PreToolUse", "--workspace", str(sample_copy), "--no-user",
               stdin=(SAMPLES / "payloads" / payload).read_bytes())
    assert done.code == code, done.err
    assert done.json.get("decision") == decision
    if decision == "deny":
        assert done.err.startswith("Refusing to run a recursive force delete: rm -rf build/\n")
        assert done.json["reason"] == "Refusing to run a recursive force delete: rm -rf build/"
    else:
        assert done.err == ""


def test_sample_stop_and_pre_invocation(cli: CliFn, sample_copy: Path) -> None:
    args = ("--workspace", str(sample_copy), "--no-user")
    stop = (SAMPLES / "payloads" / "stop.json").read_bytes()
    assert cli("Stop", *args, stdin=stop).json == {}
    (sample_copy / ".tests-failing").touch()
    done = cli("Stop", *args, stdin=stop)
    assert done.code == 2 and done.json["decision"] == "continue"
    pre_invocation = (SAMPLES / "payloads" / "pre_invocation.json").read_bytes()
    pre = cli("PreInvocation", *args, stdin=pre_invocation)
    assert pre.code == 0
    assert pre.json == {"injectSteps": [{"ephemeralMessage": "Run the linter before you finish."}]}


# --- stdin --------------------------------------------------------------------------------------


def test_empty_stdin_is_an_empty_payload(main_run: CliFn, config: Callable[..., str]) -> None:
    path = config({"h": on("Stop", "tr '{}' '()'")})
    done = main_run("Stop", "--config", path, stdin=b"")
    # `{}`, with the event's name that scripts from Claude Code's docs read.
    assert done.code == 0 and done.json == {"systemMessage": '("hook_event_name": "Stop")'}


@pytest.mark.parametrize(
    ("stdin", "message"),
    [(b"[]", "the payload must be a JSON object, not a list"),
     (b"{oops", "the payload is not valid JSON: ")],
)
def test_payload_not_an_object_exits_1(
    main_run: CliFn, config: Callable[..., str], stdin: bytes, message: str
) -> None:
    path = config({"h": on("Stop", "true")})
    done = main_run("Stop", "--config", path, stdin=stdin)
    assert done.code == 1 and done.out == ""
    assert done.err.startswith(f"agenthooks: error: {message}")
    assert done.err.count("\n") == 1


def test_payload_not_an_object_fails_closed(
    main_run: CliFn, config: Callable[..., str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = config({"h": on("PreToolUse", "true")})
    done = main_run("PreToolUse", "--config", path, "--fail-closed", stdin=b"[]")
    assert done.code == 2
    assert done.json == {"decision": "deny", "reason": "fail-closed: agenthooks: the payload "
                         "must be a JSON object, not a list"}
    assert "agenthooks: error: the payload must be a JSON object" in done.err
    for word in ("1", "true", "YES"):
        monkeypatch.setenv("AGENTHOOKS_FAIL_CLOSED", word)
        assert main_run("PreToolUse", "--config", path, stdin=b"[]").code == 2
    monkeypatch.setenv("AGENTHOOKS_FAIL_CLOSED", "0")
    assert main_run("PreToolUse", "--config", path, stdin=b"[]").code == 1
    monkeypatch.setenv("AGENTHOOKS_FAIL_CLOSED", "1")
    assert main_run("Stop", "--config", path, stdin=b"[]").code == 1


def test_stdin_bytes_reach_the_handler_untouched(cli: CliFn, config: Callable[..., str],
                                                 tmp_path: Path) -> None:
    seen = tmp_path / "seen"
    path = config({"h": on("Stop", f"cat > '{seen}'")})
    payload = b'{"a": "\xc3\xa9",  "b": [1,2]}\n\n'
    assert cli("Stop", "--config", path, stdin=payload).code == 0
    # A hooks.json handler gets them as they came, Claude Code's fields added at the end.
    assert seen.read_bytes().startswith(payload.rstrip()[:-1].rstrip() + b", ")


def test_terminal_stdin_is_not_waited_for(config: Callable[..., str]) -> None:
    path = config({"h": on("Stop", "tr '{}' '()'")})
    leader, follower = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "agenthooks", "run", "Stop", "--config", path],
            stdin=follower, capture_output=True, env=cli_env(), timeout=30, check=False,
        )
    finally:
        os.close(leader)
        os.close(follower)
    assert done.returncode == 0
    assert json.loads(done.stdout) == {"systemMessage": '("hook_event_name": "Stop")'}
    assert b"stdin is a terminal" in done.stderr


# --- output -------------------------------------------------------------------------------------


def test_one_json_object_on_stdout_and_people_on_stderr(
    main_run: CliFn, config: Callable[..., str]
) -> None:
    path = config({
        "lint": on("PreToolUse", "echo 'lint: 3 problems' >&2; echo more >&2; exit 1"),
        "gate": on("PreToolUse", "echo '{\"decision\": \"deny\", \"reason\": \"non è sicuro\"}'"),
        "slow": on("PreToolUse", "sleep 30", timeout=1),
        "sig": on("PreToolUse", "kill -9 $$"),
    })
    done = main_run("PreToolUse", "--config", path, stdin=RUN_COMMAND)
    assert done.code == 2
    assert done.out == '{"decision": "deny", "reason": "non è sicuro"}\n'
    assert done.err.splitlines() == [
        "non è sicuro",
        "agenthooks: warning: hook 'lint' exited 1: lint: 3 problems",
        "agenthooks: warning: hook 'slow' timed out after 1 s",
        "agenthooks: warning: hook 'sig' killed by SIGKILL",
    ]


def test_block_reason_placeholder(main_run: CliFn, config: Callable[..., str]) -> None:
    path = config({"h": on("PreToolUse", "echo '{\"decision\": \"deny\"}'")})
    done = main_run("PreToolUse", "--config", path, stdin=RUN_COMMAND)
    assert done.code == 2 and done.json == {"decision": "deny"}
    assert done.err == "PreToolUse blocked (decision: deny, no reason given)\n"


def test_continue_false_blocks_with_stop_reason(
    main_run: CliFn, config: Callable[..., str]
) -> None:
    stop = json.dumps({"continue": False, "stopReason": "halt"})
    path = config({"h": on("PostToolUse", f"echo '{stop}'")})
    done = main_run("PostToolUse", "--config", path, stdin=RUN_COMMAND)
    assert done.code == 2 and done.json == {"continue": False, "stopReason": "halt"}
    assert done.err == "halt\n"


def test_no_tool_name_warning(main_run: CliFn, config: Callable[..., str]) -> None:
    path = config({"h": on("PreToolUse", "true", matcher="run_command")})
    done = main_run("PreToolUse", "--config", path, stdin=b"{}")
    assert done.code == 0 and done.json == {}
    assert done.err.startswith("agenthooks: warning: no tool name (give --tool, or toolCall.name")
    tool = main_run("PreToolUse", "--config", path, "--tool", "run_command", stdin=b"{}")
    assert tool.err == ""


def test_report_json(main_run: CliFn, config: Callable[..., str]) -> None:
    path = config({
        "a": on("PreToolUse", "echo '{\"decision\": \"ask\", \"reason\": \"sure?\"}'"),
        "b": on("PreToolUse", "echo bad >&2; exit 3"),
    })
    done = main_run("PreToolUse", "--config", path, "--report", "json", stdin=RUN_COMMAND)
    assert done.code == 0
    report = done.json
    assert list(report) == ["event", "output", "blocked", "decision", "warnings", "handlers",
                            "hooks"]
    assert report["output"] == {"decision": "ask", "reason": "sure?"}
    assert report["blocked"] is False
    assert report["warnings"] == ["hook 'b' exited 3: bad"]
    assert [(h["hook"], h["status"], h["exitCode"], h["decision"]) for h in report["handlers"]] == [
        ("a", "ok", 0, "ask"), ("b", "warning", 3, None),
    ]
    assert set(report["handlers"][0]) == {
        "hook", "source", "command", "status", "exitCode", "signal", "durationMs", "timedOut",
        "stdout", "stderr", "stdoutTruncated", "stderrTruncated", "output", "decision",
    }
    blocked = main_run("PreToolUse", "--config", path, "--report=json", "--default-decision",
                       "deny", stdin=b"{}")
    assert blocked.code == 0 and blocked.json["output"] == {"decision": "ask", "reason": "sure?"}


def test_dry_run_runs_nothing(main_run: CliFn, config: Callable[..., str], tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    path = config({
        "gate": on("PreToolUse", f"touch '{marker}'", matcher="run_command", timeout=9),
        "view": on("PreToolUse", "true", matcher="view_file"),
    })
    done = main_run("PreToolUse", "--config", path, "--dry-run", stdin=RUN_COMMAND)
    assert done.code == 0 and not marker.exists()
    plan = done.json
    assert plan["event"] == "PreToolUse" and plan["tool"] == "run_command"
    [h] = plan["handlers"]
    assert (h["hook"], h["matcher"], h["command"], h["timeout"]) == (
        "gate", "run_command", f"touch '{marker}'", 9
    )
    assert h["source"] == path and Path(h["cwd"]).is_absolute()
    assert list(h) == ["hook", "source", "matcher", "command", "timeout", "cwd"]


def test_verbose_table_on_stderr(main_run: CliFn, config: Callable[..., str]) -> None:
    path = config({
        "gate": on("PreToolUse", "echo '{\"decision\": \"allow\"}'; echo checked >&2"),
        "lint": on("PreToolUse", "exit 4"),
    })
    done = main_run("PreToolUse", "--config", path, "-v", stdin=RUN_COMMAND)
    assert done.code == 0 and done.json == {"decision": "allow"}
    lines = done.err.splitlines()
    header = next(line for line in lines if line.startswith("hook"))
    assert header.split() == ["hook", "command", "status", "exit", "ms", "decision", "stderr"]
    gate = next(line for line in lines if line.startswith("gate"))
    assert " ok " in gate and " allow " in gate and gate.endswith("checked")
    lint = next(line for line in lines if line.startswith("lint "))
    assert " warning " in lint and " 4 " in lint
    assert lines[-1] == "agenthooks: PreToolUse (run_command): 2 handlers, not blocked, exit 0"


# --- skipped files ------------------------------------------------------------------------------


def test_broken_file_is_skipped_and_reported(cli: CliFn, workspace: Path) -> None:
    write_hooks(workspace, {"good": on("Stop", "echo '{\"systemMessage\": \"still ran\"}'")})
    broken = {
        f"h{i}": {"Stop": [{"command": "true", "timeout": "10"}]} for i in range(5)
    }
    write_hooks(workspace, broken, folder=".agent")
    done = cli("Stop", "--workspace", str(workspace), "--no-user", stdin=b"{}")
    # Exit 0: Gemini CLI and Claude Code discard stdout on exit 1, and with it the valid
    # files' answers; the skipped file is named on stderr and in the answer instead.
    assert done.code == 0
    notice = f"agenthooks skipped {workspace / '.agent' / 'hooks.json'} (5 errors)"
    assert done.json == {"systemMessage": f"still ran\n{notice}: run `agenthooks validate`"}
    lines = done.err.splitlines()
    assert lines[0].startswith("agenthooks: warning: skipped ")
    assert "(5 errors; its hooks do not run): " in lines[0]
    assert ".agent/hooks.json:" in lines[0] and "[timeout-invalid]" in lines[0]
    assert lines[1].startswith("  ") and "[timeout-invalid]" in lines[1]
    assert lines[2].startswith("  ")
    assert lines[3].startswith("  ... and 2 more: agenthooks validate ")
    assert len(lines) == 4


def test_skipped_file_fails_closed(main_run: CliFn, workspace: Path) -> None:
    write_hooks(workspace, {"good": on("PreToolUse", "echo '{\"decision\": \"allow\"}'")})
    write_hooks(workspace, "[]", folder="_agent")
    done = main_run("PreToolUse", "--workspace", str(workspace), "--no-user", "--fail-closed",
                    stdin=RUN_COMMAND)
    assert done.code == 2 and done.json["decision"] == "deny"
    assert done.json["reason"].startswith("fail-closed: skipped ")


def test_block_wins_over_skipped_file(main_run: CliFn, workspace: Path) -> None:
    write_hooks(workspace, {"gate": on("PreToolUse", "exit 2")})
    write_hooks(workspace, "nope", folder="_agent")
    done = main_run("PreToolUse", "--workspace", str(workspace), "--no-user", stdin=RUN_COMMAND)
    assert done.code == 2


# --- usage errors: exit 1, never 2 --------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "missing EVENT (one of PreToolUse, "),
        (["PreTooluse"], "unknown event 'PreTooluse': did you mean 'PreToolUse'?"),
        (["pretooluse"], "unknown event 'pretooluse': did you mean 'PreToolUse'?"),
        (["AfterTol"], "unknown event 'AfterTol': "),
        (["Stop", "Stop"], "unexpected argument 'Stop' (only one EVENT)"),
        (["Stop", "--fail-close"], "no such option: --fail-close; did you mean --fail-closed?"),
        (["Stop", "--bogus"], "no such option: --bogus (see agenthooks run --help)"),
        (["Stop", "--config"], "option --config needs a value (FILE)"),
        (["Stop", "--config="], "option --config needs a non-empty FILE"),
        (["Stop", "--report", "xml"], "invalid json for --report: 'xml' (choose from json)"),
        (["Stop", "--default-decision=yes"],
         "invalid WORD for --default-decision: 'yes' (choose from allow, deny, ask, force_ask)"),
        (["Stop", "--no-user=1"], "option --no-user takes no value"),
        (["Stop", "-x"], "no such option: -x"),
    ],
)
def test_usage_errors_exit_1(main_run: CliFn, args: list[str], message: str) -> None:
    done = main_run(*args, stdin=b"{}")
    assert done.code == 1 and done.out == ""
    assert done.err.startswith(f"agenthooks: error: {message}")
    assert done.err.count("\n") == 1


def test_usage_error_through_a_real_process_is_exit_1(cli: CliFn) -> None:
    done = cli("PreToolUse", "--timeout", "3", stdin=b"{}")
    assert done.code == 1 and done.out == ""
    assert done.err == "agenthooks: error: no such option: --timeout (see agenthooks run --help)\n"


def test_usage_error_fails_closed_on_pre_tool_use(main_run: CliFn) -> None:
    done = main_run("PreToolUse", "--fail-closed", "--bogus", stdin=b"{}")
    assert done.code == 2
    assert done.json == {"decision": "deny", "reason": "fail-closed: agenthooks: no such option: "
                         "--bogus (see agenthooks run --help)"}


@pytest.mark.parametrize(("payload", "denied"), [
    ({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {}}, True),
    ({"hook_event_name": "BeforeTool", "tool_name": "run_shell_command"}, True),
    ({"toolCall": {"name": "run_command", "args": {}}}, False),  # hooks.json names no event
    ({"hook_event_name": "Stop"}, False),
    ({}, False),
])
def test_an_event_word_the_run_refuses_fails_closed_on_the_hosts_pre_tool_call(
        main_run: CliFn, payload: dict[str, object], denied: bool) -> None:
    """A wiring's typo (`PreToolUse2`) under --fail-closed: the host's payload says it called
    its event before a tool, which is denied; elsewhere the usage error (exit 1) stands."""
    done = main_run("PreToolUse2", "--host", "claude", "--fail-closed",
                    stdin=json.dumps(payload).encode())
    if not denied:
        assert done.code == 1 and done.out == "", done.err
        assert "unknown event 'PreToolUse2'" in done.err
        return
    assert done.code == 0, done.err
    assert done.json == {"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "permissionDecision": "deny",
        "permissionDecisionReason": "fail-closed: agenthooks: unknown event 'PreToolUse2': did "
                                    "you mean 'PreToolUse'?"}}
    unclosed = main_run("PreToolUse2", "--host", "claude", stdin=json.dumps(payload).encode())
    assert unclosed.code == 1 and unclosed.out == ""


def test_missing_workspace_is_exit_1_or_deny(main_run: CliFn, tmp_path: Path) -> None:
    gone = str(tmp_path / "gone")
    done = main_run("Stop", "--workspace", gone, stdin=b"{}")
    assert done.code == 1 and done.out == "" and "no such directory" in done.err
    closed = main_run("PreToolUse", "--workspace", gone, "--fail-closed", stdin=b"{}")
    assert closed.code == 2 and closed.json["decision"] == "deny"


def test_option_forms(main_run: CliFn, config: Callable[..., str]) -> None:
    path = config({"h": on("PreToolUse", "echo \"$AGENTHOOKS_TOOL_NAME\"", matcher="x_y")})
    for args in (
        ["PreToolUse", "--tool", "x_y", "--config", path],
        ["PreToolUse", "--tool=x_y", f"--config={path}"],
        ["--tool", "x_y", "--config", path, "--verbose", "PreToolUse"],
        ["--tool=x_y", "--config", path, "--", "PreToolUse"],
        ["PreToolUse", "--tool", "a", "--tool", "x_y", "--config", path],  # the last one wins
    ):
        done = main_run(*args, stdin=b"{}")
        assert done.code == 0 and done.json == {"systemMessage": "x_y"}, args


def test_repeated_config_is_read_once(main_run: CliFn, config: Callable[..., str]) -> None:
    path = config({"h": on("Stop", "echo once")})
    done = main_run("Stop", "--config", path, "--config", path, "--report", "json", stdin=b"{}")
    assert len(done.json["handlers"]) == 1


def test_help_is_made_from_the_option_table(main_run: CliFn) -> None:
    done = main_run("--help")
    assert done.code == 0 and done.out == help_text() and done.err == ""
    assert main_run("Stop", "-h").out == help_text()
    assert " ".join(done.out.split("\n\n")[0].split()) == USAGE
    for option in OPTIONS:
        for flag in option.flags:
            assert flag in done.out
    assert USAGE == (
        "usage: agenthooks run EVENT [--config FILE]... [--workspace DIR]... [--no-user] "
        "[--tool NAME] [--fail-closed] [--default-decision WORD] [--host HOST] [--dialect HOST] "
            "[--other-hosts] "
        "[--report json] "
        "[--python MODULE:ATTR]... [--require-trust] [--audit FILE] [--audit-payloads] "
        "[--record DIR] [--redact PATTERN]... [--dry-run] [-v]"
    )


# --- signals ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
@default_dispositions()
def test_signal_kills_every_handler_group(
    config: Callable[..., str], kill_argv: Callable[[list[str]], None], signum: int, code: int
) -> None:
    argv = ["sleep", "37.7"]
    kill_argv(argv)
    path = config({
        "direct": on("PreToolUse", "sleep 37.7", matcher="run_command"),
        "shell": on("PreToolUse", "sleep 37.7 & sleep 37.7; wait", matcher="run_command"),
    })
    proc = subprocess.Popen(
        [sys.executable, "-m", "agenthooks", "run", "PreToolUse", "--config", path,
         "--tool", "run_command"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=cli_env(),
    )
    try:
        sleepers = wait_for(lambda: len(pids_with_argv(argv)) >= 3 and pids_with_argv(argv))
        assert sleepers, "the handlers did not start"
        groups = {st[1] for pid in sleepers if (st := proc_stat(pid)) is not None}
        assert len(groups) == 2  # one group per handler, neither is agenthooks' own
        assert os.getpgid(proc.pid) not in groups
        time.sleep(0.1)
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == code, err
    assert out == b""
    for pgid in groups:
        assert wait_for(lambda pgid=pgid: not live_group_members(pgid), 3.0), pgid
    assert not pids_with_argv(argv)


# --- the hot path stays lean ------------------------------------------------------------------


def test_run_imports_no_heavy_module(config: Callable[..., str]) -> None:
    path = config({"h": on("PreToolUse", "true", matcher="run_command")})
    code = (
        "import sys\n"
        "from agenthooks.cli import main\n"
        f"rc = main(['run', 'PreToolUse', '--config', {path!r}, '--tool', 'run_command'])\n"
        "heavy = sorted({m.split('.')[0] for m in sys.modules} & "
        "{'click', 'jsonschema', 'rich', 'asyncio', 'argparse'})\n"
        "print(rc, heavy, file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], input=b"{}", capture_output=True,
                          env=cli_env(), timeout=60, check=False)
    assert done.stderr.decode().strip() == "0 []", done.stderr.decode()
    assert json.loads(done.stdout) == {}
