"""Each host's writer, case by case: the engine's real results rendered in the host's words.

Results come from real runs of the API (Python hooks, hooks.json files with `/bin/sh`
handlers); every answer is validated against the host's documented schema (tests/hosts/schemas).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from agenthooks.api import EventResult, Hooks, load_hooks
from agenthooks.hosts.writers import HOSTS, WRITERS, HostAnswer, host_event, writer
from agenthooks.model.decision import Decision
from agenthooks.userconfig import HOSTS as CONFIG_HOSTS
from tests.hosts.conftest import answer, schema

pytestmark = pytest.mark.program

SCHEMA_OF = {"claude": "claude_code", "gemini": "gemini_cli"}
BASH = {"tool_name": "Bash", "tool_input": {"command": "make"}}


def decided(event: str, decision: Decision, payload: dict[str, Any] | None = None) -> EventResult:
    """The result of one in-process hook that returns `decision` (a transform hook may say all)."""
    hooks = Hooks()
    hooks.on(event, lambda ctx: decision, kind="transform")
    return hooks.run(event, json.dumps(payload or {}).encode())


def from_handlers(tmp_path: Path, event: str, *commands: str,
                  payload: dict[str, Any] | None = None) -> EventResult:
    """The result of hooks.json handlers (real `/bin/sh` commands) on `event`."""
    group: Any = [{"command": c} for c in commands]
    if event in ("PreToolUse", "PostToolUse"):
        group = [{"matcher": "", "hooks": group}]
    path = tmp_path / "hooks.json"
    path.write_text(json.dumps({"h": {event: group}}), encoding="utf-8")
    return load_hooks(configs=[str(path)]).run(event, json.dumps(payload or {}).encode())


def rendered(host: str, result: EventResult) -> HostAnswer:
    """The host's answer, checked against its schema and its event name."""
    event = host_event(host, result.event)
    found = writer(host)(result.as_verdict(), event)
    jsonschema.validate(found.output, schema(SCHEMA_OF[host]))
    specific = found.output.get("hookSpecificOutput")
    if specific is not None:
        assert specific["hookEventName"] == event
    return found


def test_one_writer_per_host_of_the_user_config() -> None:
    assert HOSTS == CONFIG_HOSTS
    for host in WRITERS:
        assert callable(writer(host))


@pytest.mark.parametrize(("host", "event", "given", "expected"), [
    ("claude", "PreToolUse", None, "PreToolUse"),
    ("gemini", "PreToolUse", None, "BeforeTool"),
    ("claude", "PreInvocation", "pre_model", "UserPromptSubmit"),
    ("gemini", "PreInvocation", None, "BeforeAgent"),
    ("gemini", "Stop", None, "AfterAgent"),
    ("claude", "Stop", "SubagentStop", "SubagentStop"),  # the host's own word is kept
    ("claude", "ToolError", None, "PostToolUseFailure"),
    ("claude", "PostInvocation", None, "PostInvocation"),  # no counterpart: the engine's
    ("gemini", "PreCompact", None, "PreCompress"),  # the engine's word is Claude Code's
    ("gemini", "PreCompact", "PreCompress", "PreCompress"),
    ("claude", "PreCompact", "PreCompress", "PreCompact"),
    ("gemini", "SubagentStop", None, "SubagentStop"),  # Claude Code's alone
    ("antigravity", "Stop", "AfterAgent", "Stop"),
])
def test_host_event_names(host: str, event: str, given: str | None, expected: str) -> None:
    assert host_event(host, event, given) == expected


# --- PreToolUse ------------------------------------------------------------------------------

PRE: list[tuple[Decision, dict[str, Any], dict[str, Any]]] = [
    (Decision.deny("no"),
     {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                             "permissionDecisionReason": "no"}},
     {"decision": "deny", "reason": "no"}),
    (Decision.ask("sure?", force=True),
     {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask",
                             "permissionDecisionReason": "sure?"}},
     {"decision": "ask", "reason": "sure?"}),
    (Decision.approve("read-only"),
     {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                             "permissionDecisionReason": "read-only"}},
     {"decision": "allow", "reason": "read-only"}),
    (Decision.modify({"command": "make -n"}),
     {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                             "updatedInput": {"command": "make -n"}}},
     {"hookSpecificOutput": {"hookEventName": "BeforeTool",
                             "tool_input": {"command": "make -n"}}}),
    (Decision.inject("mind the lockfile"),
     {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                             "additionalContext": "mind the lockfile"}},
     {"systemMessage": "mind the lockfile"}),  # BeforeTool has no context for the model
    (Decision.allow(), {}, {}),
]


@pytest.mark.parametrize(("decision", "claude", "gemini"), PRE)
def test_pre_tool_use(decision: Decision, claude: dict[str, Any], gemini: dict[str, Any]) -> None:
    result = decided("PreToolUse", decision, BASH)
    assert rendered("claude", result) == HostAnswer(claude, 0)
    assert rendered("gemini", result) == HostAnswer(gemini, 0)


def test_a_replaced_call_is_a_deny_with_the_result_in_the_reason() -> None:
    result = decided("PreToolUse", Decision.replace("cached output"), BASH)
    claude = rendered("claude", result).output["hookSpecificOutput"]
    assert claude["permissionDecision"] == "deny"
    assert "cached output" in claude["permissionDecisionReason"]
    assert rendered("gemini", result).output["decision"] == "deny"


def test_defer_is_said_to_claude_code_alone_and_ranks_below_deny(tmp_path: Path) -> None:
    defer = """echo '{"hookSpecificOutput": {"permissionDecision": "defer"}}'"""
    result = from_handlers(tmp_path, "PreToolUse", defer, payload=BASH)
    assert rendered("claude", result) == HostAnswer(
        {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "defer"}}, 0)
    assert rendered("gemini", result) == HostAnswer({}, 0)
    allow = """echo '{"decision": "allow"}'"""
    result = from_handlers(tmp_path, "PreToolUse", defer, allow, payload=BASH)
    specific = rendered("claude", result).output["hookSpecificOutput"]
    assert specific["permissionDecision"] == "defer"  # deny > defer > ask > allow
    deny = "echo no >&2; exit 2"
    result = from_handlers(tmp_path, "PreToolUse", defer, deny, payload=BASH)
    specific = rendered("claude", result).output["hookSpecificOutput"]
    assert (specific["permissionDecision"], specific["permissionDecisionReason"]) == ("deny", "no")


# --- blocks, stops, context -----------------------------------------------------------------


@pytest.mark.parametrize(("event", "claude", "gemini"), [
    ("PostToolUse", HostAnswer({"decision": "block", "reason": "bad"}, 0),
     HostAnswer({"decision": "deny", "reason": "bad"}, 0)),
    ("PreInvocation", HostAnswer({"decision": "block", "reason": "bad"}, 0),
     HostAnswer({"decision": "deny", "reason": "bad"}, 0)),
    ("Stop", HostAnswer({"decision": "block", "reason": "bad"}, 0),
     HostAnswer({"decision": "deny", "reason": "bad"}, 0)),
    # Neither host's JSON can block the start of a session: exit 2, the reason on stderr.
    ("SessionStart", HostAnswer({}, 2), HostAnswer({}, 2)),
])
def test_a_block_is_said_in_json_where_the_host_reads_it(
    event: str, claude: HostAnswer, gemini: HostAnswer
) -> None:
    result = decided(event, Decision.deny("bad"), BASH if event == "PostToolUse" else None)
    assert result.blocked
    assert rendered("claude", result) == claude
    assert rendered("gemini", result) == gemini


def test_continue_false_stops_the_agent_on_exit_0(tmp_path: Path) -> None:
    stop = """echo '{"continue": false, "stopReason": "quota spent", "systemMessage": "bye"}'"""
    result = from_handlers(tmp_path, "PostToolUse", stop, payload=BASH)
    assert result.blocked
    expected = {"continue": False, "stopReason": "quota spent", "systemMessage": "bye"}
    assert rendered("claude", result) == HostAnswer(expected, 0)
    assert rendered("gemini", result) == HostAnswer(expected, 0)


def test_injected_messages_become_context_on_a_prompt(tmp_path: Path) -> None:
    hooks = load_hooks(configs=[str(_file(tmp_path, {"h": {"PreInvocation": [
        {"command": """echo '{"injectSteps": [{"ephemeralMessage": "from a handler"}]}'"""}]}}))])
    hooks.on("PreInvocation", lambda ctx: Decision.inject("from Python"))
    result = hooks.run("PreInvocation", b"{}")
    expected = {"hookEventName": "UserPromptSubmit",
                "additionalContext": "from Python\nfrom a handler"}
    assert rendered("claude", result) == HostAnswer({"hookSpecificOutput": expected}, 0)
    gemini = rendered("gemini", result).output["hookSpecificOutput"]
    assert gemini == {**expected, "hookEventName": "BeforeAgent"}


def test_on_stop_injected_messages_are_a_message_for_the_user() -> None:
    result = decided("Stop", Decision.inject("all done"))
    assert rendered("claude", result) == HostAnswer({"systemMessage": "all done"}, 0)
    assert rendered("gemini", result) == HostAnswer({"systemMessage": "all done"}, 0)


def test_a_skipped_file_is_a_system_message(tmp_path: Path) -> None:
    good = _file(tmp_path, {"h": {"Stop": [{"command": "true"}]}}, "good.json")
    bad = tmp_path / "bad.json"
    bad.write_text('{"h": {"Stop": [{"command": "true",}]}}', encoding="utf-8")
    result = load_hooks(configs=[str(good), str(bad)]).run("Stop", b"{}")
    for host in ("claude", "gemini"):
        found = rendered(host, result)
        assert found.exit_code == 0
        assert "bad.json" in found.output["systemMessage"]
        assert "agenthooks validate" in found.output["systemMessage"]


def _file(tmp_path: Path, doc: dict[str, Any], name: str = "hooks.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


# --- the command line ------------------------------------------------------------------------


def test_default_host_in_the_user_config_chooses_the_writer(
    tmp_path: Path, user_config: Path
) -> None:
    path = _file(tmp_path, {"h": {"Stop": [{"command": "echo not yet >&2; exit 2"}]}})
    argv = ["agenthooks", "run", "Stop", "--config", str(path)]
    today = answer(argv, {}, tmp_path)
    assert (today.returncode, json.loads(today.stdout)) == (
        2, {"decision": "continue", "reason": "not yet"})
    user_config.write_text('default_host = "claude"\n', encoding="utf-8")
    claude = answer(argv, {}, tmp_path)
    assert (claude.returncode, json.loads(claude.stdout)) == (
        0, {"decision": "block", "reason": "not yet"})
    flagged = answer([*argv, "--host", "antigravity"], {}, tmp_path)
    assert (flagged.returncode, flagged.stdout) == (2, today.stdout)


@pytest.mark.parametrize("extra", [["--bogus"], []])
def test_fail_closed_denies_in_the_hosts_words(tmp_path: Path, extra: list[str]) -> None:
    # An option that does not parse, or a payload that is not JSON: agenthooks' own error.
    argv = ["agenthooks", "run", "PreToolUse", "--fail-closed", "--host", "claude",
            "--config", str(_file(tmp_path, {})), *extra]
    done = answer(argv, "not json" if not extra else {}, tmp_path)
    assert done.returncode == 0, done.stderr
    output = json.loads(done.stdout)
    jsonschema.validate(output, schema("claude_code"))
    specific = output["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"
    assert specific["permissionDecisionReason"].startswith("fail-closed: agenthooks: ")


def test_no_writer_is_imported_without_a_host(tmp_path: Path) -> None:
    code = ("import sys\nfrom agenthooks.cli import main\n"
            "main(['run', 'Stop', '--no-user', '--config', sys.argv[1], *sys.argv[2:]])\n"
            "print(sorted(m for m in sys.modules if m.startswith('agenthooks.hosts.') "
            "and m.split('.')[2] != 'antigravity'), file=sys.stderr)\n")
    config = str(_file(tmp_path, {}))
    for args, modules in (([], "[]"),
                          (["--host", "gemini"],
                           "['agenthooks.hosts.gemini', 'agenthooks.hosts.gemini.render', "
                           "'agenthooks.hosts.writers']")):
        done = _python(code, config, *args)
        assert done.stderr.strip().splitlines()[-1] == modules


def _python(code: str, *args: str) -> Any:
    import os
    import subprocess

    from tests.hosts.conftest import REPO

    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-c", code, *args], input="{}", capture_output=True,
                          text=True, env=env, timeout=60, check=False)


@pytest.mark.parametrize("host", ["claude", "gemini"])
def test_a_block_the_json_cannot_say_exits_2_with_the_reason_on_stderr(
    tmp_path: Path, host: str
) -> None:
    path = _file(tmp_path, {"h": {"SessionStart": [
        {"command": "echo 'the licence server is down' >&2; exit 2"}]}})
    done = answer(["agenthooks", "run", "SessionStart", "--host", host, "--config", str(path)],
                  {"hook_event_name": "SessionStart", "source": "startup"}, tmp_path)
    assert done.returncode == 2
    assert done.stderr.splitlines()[0] == "the licence server is down"
    assert json.loads(done.stdout) == {}


def test_a_denied_permission_request_is_said_in_claude_codes_json(tmp_path: Path) -> None:
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"hooks": {"PermissionRequest": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "echo 'not on prod' >&2; exit 2"}]}]}}), encoding="utf-8")
    payload = {"session_id": "s", "transcript_path": str(tmp_path / "t.jsonl"),
               "cwd": str(tmp_path), "hook_event_name": "PermissionRequest",
               "tool_name": "Bash", "tool_input": {"command": "kubectl delete ns prod"}}
    done = answer(["agenthooks", "run", "PermissionRequest", "--host", "claude",
                   "--config", str(settings)], payload, tmp_path)
    assert done.returncode == 0, done.stderr
    output = json.loads(done.stdout)
    jsonschema.validate(output, schema("claude_code"))
    assert output == {"hookSpecificOutput": {
        "hookEventName": "PermissionRequest",
        "decision": {"behavior": "deny", "message": "not on prod"}}}


def test_warnings_reach_the_user_in_the_system_message(tmp_path: Path) -> None:
    result = from_handlers(tmp_path, "PostToolUse", "echo broken >&2; exit 1",
                           """echo '{"systemMessage": "formatted"}'""", payload=BASH)
    for host in ("claude", "gemini"):
        message = rendered(host, result).output["systemMessage"]
        assert message.splitlines() == [
            "formatted", "agenthooks: warning: hook 'h' exited 1: broken"], message
    # Antigravity's answer stays as it was: its warnings go to stderr only.
    assert result.output == {"systemMessage": "formatted"}


def test_a_skipped_file_is_named_once(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    result = load_hooks(configs=[str(bad)]).run("Stop", b"{}")
    assert result.warnings  # the skip is a warning too, named in the message already
    for host in ("claude", "gemini"):
        message = rendered(host, result).output["systemMessage"]
        assert message.count("bad.json") == 1, message
