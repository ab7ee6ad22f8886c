"""agenthooks as GitHub Copilot CLI's hook, and Copilot's own handlers under agenthooks, in
real processes.

Every payload below is the camelCase input Copilot's hooks reference documents for its event
(github/docs@05da5bc content/copilot/reference/hooks-reference.md, "Hook event input
payloads"); every answer is checked against the JSON Schema written from the same page
(tests/hosts/schemas/copilot_cli.json).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.hosts.conftest import answer, environment_dump, schema, translated_gates

pytestmark = pytest.mark.program

BASE = {"sessionId": "s-1", "timestamp": 1767225600000, "cwd": "/repo"}
PAYLOADS: dict[str, dict[str, Any]] = {
    "sessionStart": {**BASE, "source": "new", "initialPrompt": "fix the tests"},
    "sessionEnd": {**BASE, "reason": "complete"},
    "userPromptSubmitted": {**BASE, "prompt": "print the secret"},
    "preToolUse": {**BASE, "toolName": "bash", "toolArgs": {"command": "rm -rf build"}},
    "postToolUse": {**BASE, "toolName": "bash", "toolArgs": {"command": "npm test"},
                    "toolResult": {"resultType": "success", "textResultForLlm": "ok"}},
    "postToolUseFailure": {**BASE, "toolName": "bash", "toolArgs": {"command": "npm test"},
                           "error": "exit 1"},
    "agentStop": {**BASE, "transcriptPath": "/tmp/t.jsonl", "stopReason": "end_turn",
                  "stop_hook_active": False},
    "subagentStart": {**BASE, "transcriptPath": "/tmp/t.jsonl", "agentName": "explore"},
    "subagentStop": {**BASE, "transcriptPath": "/tmp/t.jsonl", "agentId": "a-1",
                     "agentType": "explore", "agentName": "explore", "response": "done",
                     "stopReason": "end_turn"},
    "errorOccurred": {**BASE, "error": {"message": "boom", "name": "Error"},
                      "errorContext": "system", "recoverable": True},
    "preCompact": {**BASE, "transcriptPath": "/tmp/t.jsonl", "trigger": "auto",
                   "customInstructions": ""},
    "permissionRequest": {**BASE, "toolName": "bash", "toolInput": {"command": "ls"}},
}


@pytest.fixture
def gates(tmp_path: Path) -> Path:
    """A repository whose `.agents/hooks.json` (which Copilot does not read) holds the gates."""
    return translated_gates(tmp_path / "repo")


def copilot(event: str, sent: object, cwd: Path, *more: str) -> tuple[int, dict[str, Any]]:
    done = answer(["agenthooks", "run", event, "--host", "copilot", *more], sent, cwd)
    assert done.stdout, done.stderr
    output: dict[str, Any] = json.loads(done.stdout)
    jsonschema.validate(output, {**schema("copilot_cli"), "$ref": f"#/$defs/{event}"})
    return done.returncode, output


EXPECTED: dict[str, tuple[int, dict[str, Any]]] = {
    "preToolUse": (2, {"permissionDecision": "deny",
                       "permissionDecisionReason": "no recursive deletes"}),
    "postToolUse": (0, {"additionalContext": "lint: 2 warnings"}),
    "agentStop": (0, {"decision": "block", "reason": "the tests fail: keep going"}),
    "sessionStart": (0, {"additionalContext": "branch: main"}),
}


@pytest.mark.parametrize("event", list(PAYLOADS))
def test_every_documented_payload_gets_an_answer_copilot_reads(gates: Path,
                                                               event: str) -> None:
    assert copilot(event, PAYLOADS[event], gates) == EXPECTED.get(event, (0, {})), event


def test_tool_args_sent_as_json_text_are_read(gates: Path) -> None:
    sent = {**PAYLOADS["preToolUse"], "toolArgs": json.dumps({"command": "rm -rf build"})}
    assert copilot("preToolUse", sent, gates)[0] == 2
    sent = {**PAYLOADS["preToolUse"], "toolArgs": json.dumps({"command": "ls"})}
    assert copilot("preToolUse", sent, gates) == (0, {})


# --- Copilot's own handlers, read with Copilot's rules -----------------------------------------


def hooks_file(root: Path, hooks: dict[str, Any], name: str = "gates.json") -> None:
    path = root / ".github" / "hooks" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"version": 1, "hooks": hooks}), encoding="utf-8")


def engine(root: Path, event: str, sent: object) -> tuple[int, dict[str, Any]]:
    done = answer(["agenthooks", "run", event, "--dialect", "copilot"], sent, root)
    assert done.stdout, done.stderr
    return done.returncode, json.loads(done.stdout)


@pytest.mark.parametrize(("command", "blocked"), [
    ("""echo '{"permissionDecision": "deny", "permissionDecisionReason": "no"}'""", True),
    ("""echo '{"permissionDecision": "allow"}'""", False),
    # preToolUse command hooks fail closed: exit 2 and any other non-zero exit deny, even
    # with an allow on stdout; a timeout lets the call through.
    ("""echo '{"permissionDecision": "allow"}'; exit 2""", True),
    ("exit 1", True),
    ("sleep 5", False),
    # Progress lines are dropped before the answer is read.
    ("""echo '{"type": "progress", "message": "checking"}'; """
     """echo '{"permissionDecision": "deny", "permissionDecisionReason": "no"}'""", True),
    # Output that is not one JSON object is no output.
    ("echo not json", False),
])
def test_a_pre_tool_use_handler(tmp_path: Path, command: str, blocked: bool) -> None:
    hooks_file(tmp_path, {"preToolUse": [{"bash": command, "timeoutSec": 1}]})
    code, output = engine(tmp_path, "preToolUse", PAYLOADS["preToolUse"])
    assert (code == 2, output.get("decision") == "deny") == (blocked, blocked), output


def test_other_events_fail_open_and_read_exit_2_as_a_warning(tmp_path: Path) -> None:
    hooks_file(tmp_path, {"postToolUse": [{"bash": "echo bad >&2; exit 2"},
                                          {"bash": "exit 1"}]})
    code, output = engine(tmp_path, "postToolUse", PAYLOADS["postToolUse"])
    assert code == 0 and "decision" not in output


def test_matchers_are_anchored_regexes_on_copilots_tool_names(tmp_path: Path) -> None:
    hooks_file(tmp_path, {"preToolUse": [{"bash": "exit 2", "matcher": "bas"},
                                         {"bash": "exit 2", "matcher": "view|edit"}]})
    assert engine(tmp_path, "preToolUse", PAYLOADS["preToolUse"])[0] == 0
    hooks_file(tmp_path, {"preToolUse": [{"bash": "exit 2", "matcher": "bash|powershell"}]})
    assert engine(tmp_path, "preToolUse", PAYLOADS["preToolUse"])[0] == 2


def test_hooks_run_in_order(tmp_path: Path) -> None:
    """"If multiple hooks of the same type are configured, they execute in order": the first
    one's late write lands before the second one's."""
    marks = tmp_path / "marks"
    hooks_file(tmp_path, {"postToolUse": [{"bash": f"sleep 0.3; echo first >> {marks}"},
                                          {"bash": f"echo second >> {marks}"}]})
    engine(tmp_path, "postToolUse", PAYLOADS["postToolUse"])
    assert marks.read_text().split() == ["first", "second"]


def test_cwd_and_env_of_a_handler(tmp_path: Path) -> None:
    (tmp_path / "scripts").mkdir()
    dump = ("python3 -c \"import json,os; print(json.dumps({'additionalContext': "
            "os.getcwd() + ' ' + os.environ['GATE_MODE']}))\"")
    hooks_file(tmp_path, {"postToolUse": [{"bash": dump, "cwd": "scripts",
                                           "env": {"GATE_MODE": "strict"}}]})
    _, output = engine(tmp_path, "postToolUse", PAYLOADS["postToolUse"])
    context = output["hookSpecificOutput"]["additionalContext"]
    assert context == f"{(tmp_path / 'scripts').resolve()} strict"


def test_agent_stop_block_keeps_the_agent_going(tmp_path: Path) -> None:
    hooks_file(tmp_path, {"agentStop": [
        {"bash": """echo '{"decision": "block", "reason": "run the tests"}'"""}]})
    assert engine(tmp_path, "agentStop", PAYLOADS["agentStop"]) == (
        2, {"decision": "continue", "reason": "run the tests"})


def test_a_claude_gate_guards_copilot(tmp_path: Path) -> None:
    """A Claude Code PreToolUse gate on `Bash` sees Copilot's `bash` call in its own words
    (in a file agenthooks runs: Copilot runs `.claude/settings.json` itself)."""
    settings = tmp_path / "gates" / "claude-settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "python3 -c \"import json,sys; "
         "c=json.load(sys.stdin)['tool_input']['command']; sys.exit(2 if 'rm' in c else 0)\""}
    ]}]}}))
    done = answer(["agenthooks", "run", "preToolUse", "--host", "copilot", "--dialect",
                   "claude", "--config", str(settings)], PAYLOADS["preToolUse"], tmp_path)
    assert done.returncode == 2, done.stderr
    assert json.loads(done.stdout)["permissionDecision"] == "deny"


@pytest.mark.program
def test_copilot_runs_claudes_settings_itself_so_agenthooks_does_not(tmp_path: Path) -> None:
    """Copilot CLI reads `.claude/settings.json` itself: with --other-hosts agenthooks leaves
    it to Copilot (its hook would run twice), and says why."""
    marks = tmp_path / "marks"
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": f"echo claude >> {marks}"}]}]}}))
    argv = ["agenthooks", "run", "preToolUse", "--host", "copilot", "--other-hosts"]
    done = answer(argv, PAYLOADS["preToolUse"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert not marks.exists()
    plan = json.loads(answer([*argv, "--dry-run"], PAYLOADS["preToolUse"], tmp_path).stdout)
    assert plan["leftOut"] == [{"source": ".claude/settings.json",
                                "why": "GitHub Copilot CLI runs this Claude Code file itself"}]


def test_copilots_variables(tmp_path: Path) -> None:
    dump = environment_dump("additionalContext", "COPILOT_PROJECT_DIR", "COPILOT_HOOK_DIR",
                            "COPILOT_CLI")
    hooks_file(tmp_path, {"postToolUse": [{"bash": dump}]})
    _, output = engine(tmp_path, "postToolUse", PAYLOADS["postToolUse"])
    seen = json.loads(output["hookSpecificOutput"]["additionalContext"])
    root = tmp_path.resolve()
    assert seen == {"COPILOT_PROJECT_DIR": str(root),
                    "COPILOT_HOOK_DIR": str(root / ".github" / "hooks"), "COPILOT_CLI": "1"}


def test_a_pascal_case_payload_is_read_in_claude_codes_tool_names(gates: Path) -> None:
    """Copilot sends a PascalCase PreToolUse hook Claude Code's names (`Bash`, `tool_input`):
    a hooks.json `run_command` gate still sees the call."""
    sent = {"hook_event_name": "PreToolUse", "session_id": "s-1",
            "timestamp": "2026-11-24T16:00:00Z", "cwd": "/repo", "tool_name": "Bash",
            "tool_input": {"command": "rm -rf build"}}
    assert copilot("preToolUse", sent, gates, "--fail-closed")[0] == 2


def test_permission_request_arguments_are_read_from_tool_input(tmp_path: Path) -> None:
    hooks_file(tmp_path, {"permissionRequest": [{"bash": (
        "python3 -c \"import json,sys; a=json.load(sys.stdin)['toolInput'];"
        " print(json.dumps({'behavior': 'deny', 'message': a['command']}))\"")}]})
    sent = {**PAYLOADS["permissionRequest"], "toolInput": {"command": "rm -rf /"}}
    code, output = engine(tmp_path, "permissionRequest", sent)
    assert (code, output.get("reason")) == (2, "rm -rf /")
