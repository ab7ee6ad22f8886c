"""Claude Code handlers under `run`: its exit codes, JSON, merge, environment and kinds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from agenthooks.api import EventResult, load_hooks
from agenthooks.combine.merge import merge
from agenthooks.model.handlers import Answer, Handler, Source
from tests.sources.dialects.run.conftest import cmd, group, write_settings
from tests.support import program

BASH = {"tool_name": "Bash", "tool_input": {"command": "ls"}}


def run(project: Path, event: str, payload: dict[str, object], **options: object) -> EventResult:
    hooks = load_hooks(workspaces=[str(project)], no_user=True)
    return hooks.run(event, payload, **options)  # type: ignore[arg-type]


def claude(project: Path, event: str, *handlers: dict[str, object],
           matcher: str | None = None) -> None:
    write_settings(project, "claude", {event: [group(*handlers, matcher=matcher)]})


# --- exit codes -----------------------------------------------------------------------------


def test_exit_2_on_pre_tool_use_denies_with_stderr(project: Path) -> None:
    claude(project, "PreToolUse", cmd("echo no rm here >&2; exit 2"), matcher="Bash")
    result = run(project, "PreToolUse", BASH)
    assert result.blocked and result.exit_code == 2
    assert result.output["decision"] == "deny" and result.output["reason"] == "no rm here"


def test_exit_2_reason_from_json_when_given(project: Path) -> None:
    answer = json.dumps({"decision": "block", "reason": "from json"})
    claude(project, "PreToolUse", cmd(f"echo '{answer}'; echo stderr >&2; exit 2"))
    result = run(project, "PreToolUse", BASH)
    assert result.output["reason"] == "from json"


def test_matcher_is_exact_for_plain_names(project: Path) -> None:
    claude(project, "PreToolUse", cmd("exit 2"), matcher="Edit")
    assert not run(project, "PreToolUse", {"tool_name": "NotebookEdit"}).blocked
    claude(project, "PreToolUse", cmd("exit 2"), matcher="Edit.*")  # an unanchored regex
    assert run(project, "PreToolUse", {"tool_name": "NotebookEdit"}).blocked


def test_other_exit_codes_are_non_blocking_errors(project: Path) -> None:
    claude(project, "PreToolUse", cmd("echo oops >&2; exit 1"))
    result = run(project, "PreToolUse", BASH)
    assert not result.blocked
    assert any("exited 1: oops" in w for w in result.warnings)
    assert result.handlers[0].failed


def test_json_is_honoured_whatever_the_exit_code(project: Path) -> None:
    answer = json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                                "permissionDecision": "deny",
                                                "permissionDecisionReason": "json says no"}})
    claude(project, "PreToolUse", cmd(f"echo '{answer}'; exit 1"))
    result = run(project, "PreToolUse", BASH)
    assert result.blocked and result.output["reason"] == "json says no"


def test_post_tool_use_exit_2_is_feedback_for_the_model_not_a_block(project: Path) -> None:
    claude(project, "PostToolUse", cmd("echo lint failed >&2; exit 2"))
    result = run(project, "PostToolUse", BASH)
    assert not result.blocked and result.exit_code == 0
    assert result.output["hookSpecificOutput"]["additionalContext"] == "lint failed"
    assert "decision" not in result.output


def test_exit_2_on_user_prompt_submit_blocks(project: Path) -> None:
    claude(project, "UserPromptSubmit", cmd("echo not that >&2; exit 2"))
    result = run(project, "PreInvocation", {"prompt": "hi"})
    assert result.blocked and result.output == {"decision": "block", "reason": "not that"}


def test_exit_2_on_stop_keeps_the_agent_going(project: Path) -> None:
    claude(project, "Stop", cmd("echo tests fail >&2; exit 2"))
    result = run(project, "Stop", {})
    assert result.blocked and result.output["decision"] == "continue"


# --- plain stdout ---------------------------------------------------------------------------


def test_plain_stdout_is_context_on_user_prompt_submit_and_session_start(
        project: Path) -> None:
    write_settings(project, "claude", {
        "UserPromptSubmit": [group(cmd("echo remember the linter"))],
        "SessionStart": [group(cmd("echo branch main"))],
        "PreToolUse": [group(cmd("echo ignored text"))],
    })
    prompt = run(project, "PreInvocation", {"prompt": "hi"})
    assert prompt.output["hookSpecificOutput"]["additionalContext"] == "remember the linter"
    assert "systemMessage" not in prompt.output
    start = run(project, "SessionStart", {"source": "startup"})
    assert start.output["hookSpecificOutput"]["additionalContext"] == "branch main"
    assert run(project, "PreToolUse", BASH).output == {}


def test_additional_context_is_concatenated(project: Path) -> None:
    claude(project, "SessionStart", cmd("echo one"), cmd("echo two"))
    result = run(project, "SessionStart", {"source": "startup"})
    assert result.output["hookSpecificOutput"]["additionalContext"] == "one\ntwo"


def test_session_start_matcher_reads_the_source(project: Path) -> None:
    claude(project, "SessionStart", cmd("echo fresh"), matcher="startup")
    assert "hookSpecificOutput" in run(project, "SessionStart", {"source": "startup"}).output
    assert run(project, "SessionStart", {"source": "resume"}).output == {}


def test_pre_compact_runs_by_trigger(project: Path) -> None:
    claude(project, "PreCompact", cmd("echo later >&2; exit 2"), matcher="auto")
    result = run(project, "PreCompress", {"trigger": "auto"})  # Gemini CLI's word: one row
    assert result.event == "PreCompact" and result.blocked and result.output["reason"] == "later"
    assert not run(project, "PreCompact", {"trigger": "manual"}).blocked


# --- decisions and merge --------------------------------------------------------------------


def decide(word: str, **extra: object) -> dict[str, object]:
    answer = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": word,
                                     "permissionDecisionReason": f"{word} reason", **extra}}
    return cmd(f"echo '{json.dumps(answer)}'")


def test_deny_beats_ask_beats_allow(project: Path) -> None:
    claude(project, "PreToolUse", decide("allow"), decide("ask"))
    assert run(project, "PreToolUse", BASH).output["decision"] == "ask"
    claude(project, "PreToolUse", decide("allow"), decide("deny"), decide("ask"))
    result = run(project, "PreToolUse", BASH)
    assert result.output["decision"] == "deny" and result.output["reason"] == "deny reason"


def test_defer_is_no_opinion_without_claude_output(project: Path) -> None:
    claude(project, "PreToolUse", decide("defer"), decide("allow"))
    result = run(project, "PreToolUse", BASH)
    assert result.output["decision"] == "allow"
    assert [a.decision for a in result.handlers] == ["defer", "allow"]


def test_claude_ranking_puts_defer_between_deny_and_ask() -> None:
    source = Source("s", "s", "/", "workspace", "/", "claude")
    handler = Handler(source, "h", "PreToolUse", None, "true", 1.0, "command", True, "",
                      "claude")

    def said(*words: str) -> object:
        answers = [Answer(handler, "ok", output={}, decision=w) for w in words]
        return merge("PreToolUse", answers, host="claude")[0].get("decision")

    assert said("ask", "defer", "allow") == "defer"
    assert said("defer", "deny") == "deny"
    assert merge("PreToolUse", [Answer(handler, "ok", output={}, decision="defer")])[0] == {}


def test_deprecated_decision_words(project: Path) -> None:
    claude(project, "PreToolUse", cmd('echo \'{"decision": "approve", "reason": "fine"}\''))
    assert run(project, "PreToolUse", BASH).output["decision"] == "allow"
    claude(project, "PreToolUse", cmd('echo \'{"decision": "block", "reason": "bad"}\''))
    result = run(project, "PreToolUse", BASH)
    assert result.blocked and result.output["reason"] == "bad"


def test_continue_false_beats_everything(project: Path) -> None:
    claude(project, "PreToolUse", decide("allow"),
           cmd('echo \'{"continue": false, "stopReason": "halt"}\''))
    result = run(project, "PreToolUse", BASH)
    assert result.blocked and result.output["continue"] is False
    assert result.output["stopReason"] == "halt"


def test_updated_input_rewrites_the_tool_input(project: Path) -> None:
    claude(project, "PreToolUse", decide("allow", updatedInput={"command": "ls -la"}))
    result = run(project, "PreToolUse", BASH)
    assert result.updated_args == {"command": "ls -la"}
    assert result.output["hookSpecificOutput"]["updatedInput"] == {"command": "ls -la"}
    assert result.decision.kind == "approve"


# --- dedup, environment, kinds --------------------------------------------------------------


def test_identical_handlers_in_two_files_run_once(project: Path) -> None:
    marker = project / "count"
    handler = cmd(f"echo x >> {marker}")
    write_settings(project, "claude", {"Stop": [group(handler)]})
    write_settings(project, "claude", {"Stop": [group(handler)]}, name="settings.local.json")
    run(project, "Stop", {})
    assert marker.read_text() == "x\n"


def test_environment_and_working_directory(project: Path) -> None:
    out = project / "env.txt"
    claude(project, "Stop", cmd(f'pwd > {out}; echo "$CLAUDE_PROJECT_DIR" >> {out}; '
                                f'echo "$GEMINI_PROJECT_DIR" >> {out}; '
                                f'echo "${{CLAUDE_PLUGIN_ROOT-unset}}" >> {out}'))
    run(project, "Stop", {})
    real = os.path.realpath(project)
    assert out.read_text().splitlines() == [real, real, real, "unset"]


def test_plugin_hooks_get_plugin_root_and_data(project: Path, tmp_path: Path) -> None:
    plugin = tmp_path / "plugin"
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / ".claude-plugin" / "plugin.json").write_text('{"name": "p"}')
    (plugin / "gate.sh").write_text(
        '#!/bin/sh\necho "$CLAUDE_PLUGIN_ROOT|$CLAUDE_PLUGIN_DATA|$CLAUDE_PROJECT_DIR" >&2\n'
        "exit 2\n")
    (plugin / "gate.sh").chmod(0o755)
    (plugin / "hooks").mkdir()
    (plugin / "hooks" / "hooks.json").write_text(json.dumps({"hooks": {"PreToolUse": [
        group(cmd("${CLAUDE_PLUGIN_ROOT}/gate.sh"))]}}))
    hooks = load_hooks(configs=[str(plugin / "hooks" / "hooks.json")],
                       workspaces=[str(project)])
    result = hooks.run("PreToolUse", BASH)
    assert result.blocked
    root, data, project_dir = result.output["reason"].split("|")
    assert root == os.path.realpath(plugin) and project_dir == os.path.realpath(project)
    assert os.path.isdir(data) and data.startswith(os.environ["HOME"])


def test_env_file_on_session_start_is_shown_in_the_report(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CLAUDE_ENV_FILE", raising=False)
    claude(project, "SessionStart", cmd('echo "export FOO=bar" >> "$CLAUDE_ENV_FILE"'))
    result = run(project, "SessionStart", {"source": "startup"})
    report = result.to_report()["handlers"][0]
    assert report["envFile"]["content"] == "export FOO=bar\n"
    assert not os.path.exists(report["envFile"]["path"])  # a temporary file, removed


def test_env_file_given_by_the_caller_is_passed_through(project: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    given = tmp_path / "env.sh"
    given.write_text("")
    monkeypatch.setenv("CLAUDE_ENV_FILE", str(given))
    claude(project, "SessionStart", cmd('echo "export A=1" >> "$CLAUDE_ENV_FILE"'))
    result = run(project, "SessionStart", {"source": "startup"})
    assert given.read_text() == "export A=1\n"
    assert "envFile" not in result.to_report()["handlers"][0]


def test_types_that_need_the_host_are_skipped_with_a_warning(project: Path) -> None:
    claude(project, "Stop", {"type": "prompt", "prompt": "done?"},
           {"type": "agent", "prompt": "check"},
           {"type": "mcp_tool", "server": "s", "tool": "t"}, cmd("true"))
    result = run(project, "Stop", {})
    skipped = [w for w in result.warnings if w.endswith("skipped")]
    assert len(skipped) == 3
    assert any("prompt handlers need" in w and "Stop/0/hooks/0" in w for w in skipped)
    assert [a.status for a in result.handlers] == ["skipped", "skipped", "skipped", "ok"]


def test_args_run_without_a_shell(project: Path) -> None:
    out = project / "args.txt"
    claude(project, "Stop", {"type": "command", "command": "/bin/sh",
                             "args": ["-c", f'printf "%s|" "$@" > {out}', "x", "$HOME", "*"]})
    run(project, "Stop", {})
    assert out.read_text() == "$HOME|*|"


@pytest.mark.program
def test_cli_run_mixes_hooks_json_claude_and_gemini(project: Path) -> None:
    from tests.sources.dialects.run.conftest import write_hooks_json

    marks = project / "marks"
    # Each matcher names the shell tool in its own host's words.
    write_hooks_json(project, {"h": {"PreToolUse": [
        {"matcher": "run_command", "hooks": [cmd(f"echo antigravity >> {marks}")]}]}})
    claude(project, "PreToolUse", cmd(f"echo claude >> {marks}"), matcher="Bash")
    write_settings(project, "gemini", {"BeforeTool": [
        group(cmd(f"echo gemini >> {marks}"), matcher="run_shell_command")]})
    done = subprocess.run([sys.executable, "-m", "agenthooks", "run", "PreToolUse",
                           "--workspace", str(project), "--no-user", "--report", "json"],
                          input=json.dumps(BASH), capture_output=True, text=True,
                          check=False, timeout=60)
    assert done.returncode == 0, done.stderr
    assert sorted(marks.read_text().split()) == ["antigravity", "claude", "gemini"]
    assert len(json.loads(done.stdout)["handlers"]) == 3


@pytest.mark.program
def test_cli_run_takes_any_dialects_word_for_the_event(project: Path) -> None:
    marks = project / "marks"
    claude(project, "PostToolUse", cmd(f"echo claude >> {marks}"))
    write_settings(project, "gemini", {"AfterTool": [group(cmd(f"echo gemini >> {marks}"))]})
    for word in ("AfterTool", "PostToolUse"):
        done = subprocess.run([sys.executable, "-m", "agenthooks", "run", word, "--workspace",
                               str(project), "--no-user"], input=json.dumps(BASH),
                              capture_output=True, text=True, check=False, timeout=60)
        assert done.returncode == 0, done.stderr
    assert sorted(marks.read_text().split()) == ["claude", "claude", "gemini", "gemini"]


@pytest.mark.program
def test_config_names_a_settings_file(project: Path) -> None:
    claude(project, "Stop", cmd("echo named >&2; exit 2"))
    done = program("run", "Stop", "--config", ".claude/settings.json", stdin="{}", cwd=project)
    assert done.returncode == 2 and json.loads(done.stdout)["reason"] == "named"


def test_a_settings_file_with_errors_is_skipped_and_named(project: Path) -> None:
    write_settings(project, "claude", {"Stop": [group(cmd("exit 2"))],
                                       "Stopp": [group(cmd("exit 2"))]})
    result = run(project, "Stop", {})
    assert not result.blocked and len(result.skipped_files) == 1
    assert result.output["systemMessage"].startswith("agenthooks skipped ")
    assert any("Stopp" in w for w in result.warnings)


def test_agenthooks_registered_in_the_settings_does_not_run_itself(project: Path) -> None:
    claude(project, "Stop", cmd("agenthooks run Stop --host claude"),
           cmd(f"{sys.executable} -m agenthooks run Stop"), cmd("echo kept >&2; exit 2"))
    result = run(project, "Stop", {})
    assert [a.command for a in result.handlers] == ["echo kept >&2; exit 2"]


def test_async_handlers_run_in_the_background_with_no_answer(project: Path) -> None:
    import time

    marker = project / "async-done"
    claude(project, "Stop", cmd(f"sleep 3; touch {marker}; exit 2", **{"async": True}),
           cmd("true"))
    started = time.monotonic()
    result = run(project, "Stop", {})
    assert not result.blocked and [a.command for a in result.handlers] == ["true"]
    assert time.monotonic() - started < 2.5 and not marker.exists()
    deadline = time.monotonic() + 20
    while not marker.exists():
        assert time.monotonic() < deadline
        time.sleep(0.05)


def test_permission_request_deny_blocks(project: Path) -> None:
    answer = {"hookSpecificOutput": {"hookEventName": "PermissionRequest",
                                     "decision": {"behavior": "deny", "message": "not now"}}}
    claude(project, "PermissionRequest", cmd(f"echo '{json.dumps(answer)}'"))
    result = run(project, "PermissionRequest", BASH)
    assert result.blocked and result.output["reason"] == "not now"


def test_session_start_exit_2_is_a_message_for_the_user(project: Path) -> None:
    claude(project, "SessionStart", cmd("echo setup failed >&2; exit 2"))
    result = run(project, "SessionStart", {"source": "startup"})
    assert not result.blocked and result.output["systemMessage"] == "setup failed"


def test_notification_matcher_reads_the_notification_type(project: Path) -> None:
    marker = project / "notified"
    claude(project, "Notification", cmd(f"touch {marker}"), matcher="idle_prompt")
    run(project, "Notification", {"notification_type": "permission_prompt"})
    assert not marker.exists()
    run(project, "Notification", {"notification_type": "idle_prompt"})
    assert marker.exists()


def test_settings_files_need_trust_when_trust_is_required(project: Path) -> None:
    from agenthooks.cli.commands.trust import trust_workspace

    claude(project, "Stop", cmd("echo gate >&2; exit 2"))
    hooks = load_hooks(workspaces=[str(project)], no_user=True, require_trust=True)
    assert not hooks.run("Stop", {}).blocked
    assert any("not trusted" in note for note in hooks.notes)
    assert trust_workspace(workspaces=[str(project)]) == 0
    trusted = load_hooks(workspaces=[str(project)], no_user=True, require_trust=True)
    assert trusted.run("Stop", {}).blocked


def test_commands_run_under_bash_as_the_hosts_run_them(project: Path) -> None:
    # `[[ ]]` and `$'...'` are bash: under a POSIX sh (dash) this handler would fail with
    # exit 127 or 2, and a gate written for Claude Code or Gemini CLI would misfire.
    bashism = "[[ -n \"$BASH_VERSION\" ]] && printf %s $'bash\\x21'"
    claude(project, "Stop", cmd(bashism))
    write_settings(project, "gemini", {"AfterAgent": [group(cmd(bashism.replace("21", "3f")))]})
    result = run(project, "Stop", {})
    assert [a.status for a in result.handlers] == ["ok", "ok"], result.warnings
    assert [a.stdout for a in result.handlers] == ["bash!", "bash?"]
