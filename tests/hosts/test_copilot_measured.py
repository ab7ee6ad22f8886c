"""agenthooks as GitHub Copilot CLI's hook, fed the payloads the real CLI sent (copilot 1.0.102
with a logging hook on every event, in both casings): each answer in the JSON Schema written
from Copilot's hooks reference (tests/hosts/schemas/copilot_cli.json), each gate deciding as
it decides on the documented shapes.

Where the measured payloads differ from the reference: `permissionRequest`, in either casing,
comes in the camelCase shape with `hookName` and the arguments as `toolInput`; the PascalCase
events name the tool as Claude Code does (`Bash`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.hosts.conftest import answer, schema, translated_gates

pytestmark = pytest.mark.program

SESSION = {"sessionId": "c50c1651-1167-4648-9a37-76060e0438cc", "cwd": "/repo"}
SNAKE = {"session_id": SESSION["sessionId"], "timestamp": "2026-11-24T16:13:19.537Z",
         "cwd": "/repo"}
ARGS = {"command": "rm -rf build", "description": "clean"}
# (the event agenthooks is run with, the payload Copilot sent for it)
MEASURED: list[tuple[str, dict[str, Any]]] = [
    ("sessionStart", {**SESSION, "timestamp": 1795536799105, "source": "new",
                      "initialPrompt": "Make a file."}),
    ("SessionStart", {"hook_event_name": "SessionStart", **SNAKE, "source": "new",
                      "initial_prompt": "Make a file."}),
    ("userPromptSubmitted", {**SESSION, "timestamp": 1795536799141, "prompt": "Make a file."}),
    ("userPromptTransformed", {**SESSION, "timestamp": 1795536799348, "prompt": "Make a file.",
                               "transformedPrompt": "<current_datetime>2026-11-24T16:13:19"
                                                    "</current_datetime>\n\nMake a file."}),
    ("preToolUse", {**SESSION, "timestamp": 1795536799537, "toolName": "bash",
                    "toolArgs": ARGS}),
    ("PreToolUse", {"hook_event_name": "PreToolUse", **SNAKE, "tool_name": "Bash",
                    "tool_input": ARGS}),
    ("permissionRequest", {"hookName": "permissionRequest", **SESSION,
                           "timestamp": 1795536799662, "toolName": "bash",
                           "toolInput": {"command": "rm -rf build"},
                           "permissionSuggestions": []}),
    ("postToolUse", {**SESSION, "timestamp": 1795536799784, "toolName": "bash",
                     "toolArgs": ARGS, "toolResult": {
                         "resultType": "success",
                         "textResultForLlm": "\n<shellId: 0 completed with exit code 0>"}}),
    ("PostToolUse", {"hook_event_name": "PostToolUse", **SNAKE, "tool_name": "Bash",
                     "tool_input": ARGS, "tool_result": {
                         "result_type": "success",
                         "text_result_for_llm": "\n<shellId: 0 completed with exit code 0>"}}),
    ("agentStop", {**SESSION, "timestamp": 1795536799996,
                   "transcriptPath": "/home/me/.copilot/session-state/s/events.jsonl",
                   "stopReason": "end_turn", "stop_hook_active": False}),
    ("Stop", {"hook_event_name": "Stop", **SNAKE,
              "transcript_path": "/home/me/.copilot/session-state/s/events.jsonl",
              "stop_reason": "end_turn", "stop_hook_active": False}),
    ("sessionEnd", {**SESSION, "timestamp": 1795536800086, "reason": "complete"}),
]


@pytest.fixture
def gates(tmp_path: Path) -> Path:
    """A repository whose `.agents/hooks.json` denies a recursive delete and keeps the agent
    going once at Stop."""
    return translated_gates(tmp_path / "repo", only=("gate", "tests"))


# What the gates answer: the camelCase word of the event -> (exit status, answer).
DECIDED: dict[str, tuple[int, dict[str, Any]]] = {
    "preToolUse": (2, {"permissionDecision": "deny",
                       "permissionDecisionReason": "no recursive deletes"}),
    "agentStop": (0, {"decision": "block", "reason": "the tests fail: keep going"}),
}
CAMEL = {"SessionStart": "sessionStart", "PreToolUse": "preToolUse",
         "PostToolUse": "postToolUse", "Stop": "agentStop"}


@pytest.mark.parametrize(("event", "sent"), MEASURED, ids=[event for event, _ in MEASURED])
def test_a_measured_payload_gets_an_answer_in_copilots_schema(gates: Path, event: str,
                                                              sent: dict[str, Any]) -> None:
    done = answer(["agenthooks", "run", event, "--host", "copilot", "--fail-closed"], sent,
                  gates)
    assert done.stdout, done.stderr
    output = json.loads(done.stdout)
    word = CAMEL.get(event, event)
    jsonschema.validate(output, {**schema("copilot_cli"), "$ref": f"#/$defs/{word}"})
    assert (done.returncode, output) == DECIDED.get(word, (0, {})), done.stderr
