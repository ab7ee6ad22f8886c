"""OpenCode as a host, by tables: its writer over verdicts (always exit 0, one small JSON object
that agenthooks' plugin reads), the plugin's payload read as OpenCode's only when `--host`
says so, docs/hosts.md's plugin block, and the plugin itself run by Node against a stand-in
`agenthooks` (when Node is installed): deny, rewrite, context, and what it does when agenthooks
fails. tests/e2e/test_opencode.py runs it inside OpenCode 1.18.33."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from agenthooks.cli.commands.init import WIRING
from agenthooks.combine.verdict import Verdict
from agenthooks.hosts.opencode.render import write
from agenthooks.hosts.opencode.wiring import plugin_text
from agenthooks.hosts.writers import HostAnswer
from agenthooks.model.decision import Decision
from agenthooks.sources.payloads import detect
from tests.docs.pages import page

DENY = Verdict("PreToolUse", Decision.deny("no"), word="deny", reason="no", blocked=True)


def denied(reason: str) -> HostAnswer:
    return HostAnswer({"decision": "deny", "reason": reason}, 0)


# (name, verdict, the event, the answer)
TABLE: list[tuple[str, Verdict, str, HostAnswer]] = [
    ("nothing", Verdict("PreToolUse"), "PreToolUse", HostAnswer({}, 0)),
    ("deny", DENY, "PreToolUse", denied("no")),
    ("deny without a reason", Verdict("PreToolUse", word="deny", blocked=True), "PreToolUse",
     denied("PreToolUse blocked (decision: deny, no reason given)")),
    ("ask", Verdict("PreToolUse", Decision.ask("sure?"), word="ask", reason="sure?"),
     "PreToolUse", denied("a hook asks a person to confirm this call, which OpenCode cannot "
                          "ask from a plugin: sure?")),
    ("stopped on a tool call", Verdict("PreToolUse", blocked=True, stopped=True,
                                       stop_reason="halt"), "PreToolUse", denied("halt")),
    ("an allow says nothing", Verdict("PreToolUse", Decision.approve(), word="allow"),
     "PreToolUse", HostAnswer({}, 0)),
    ("rewritten arguments, whole", Verdict("PreToolUse", Decision.approve(), word="allow",
                                           updated_args={"command": "ls", "workdir": "/w"}),
     "PreToolUse", HostAnswer({"args": {"command": "ls", "workdir": "/w"}}, 0)),
    ("context before the call is not read", Verdict("PreToolUse", context="mind it"),
     "PreToolUse", HostAnswer({}, 0)),
    ("context after the call", Verdict("PostToolUse", context="3 failing"), "PostToolUse",
     HostAnswer({"context": "3 failing"}, 0)),
    ("a block after the call is said", Verdict("PostToolUse", word="block", reason="lint",
                                               blocked=True, context="line 3"), "PostToolUse",
     HostAnswer({"context": "lint\nline 3"}, 0)),
    ("nothing after the call", Verdict("PostToolUse"), "PostToolUse", HostAnswer({}, 0)),
    ("another event", Verdict("Stop", word="continue", reason="x", blocked=True), "Stop",
     HostAnswer({}, 0)),
]


@pytest.mark.parametrize(("verdict", "event", "expected"), [row[1:] for row in TABLE],
                         ids=[row[0] for row in TABLE])
def test_writer(verdict: Verdict, event: str, expected: HostAnswer) -> None:
    assert write(verdict, event) == expected


PLUGIN_PAYLOAD = {"hook_event_name": "PreToolUse", "session_id": "ses_1", "cwd": "/w",
                  "tool_name": "bash", "tool_input": {"command": "ls"}, "tool_use_id": "c1"}


def test_a_claude_code_payload_is_never_read_as_opencodes() -> None:
    # The plugin always says --host opencode; unnamed, a payload of Claude Code's shape is
    # Claude Code's, whatever its tool's name.
    assert detect({**PLUGIN_PAYLOAD, "tool_name": "Bash"}) == "claude"
    assert detect(PLUGIN_PAYLOAD) != "opencode"


def test_the_plugin_runs_the_wiring_s_commands_and_the_docs_show_them() -> None:
    wiring = WIRING["opencode"]
    text = plugin_text()
    [block] = re.findall(r"```js\n(.*?)```", page("hosts.md"), re.S)
    for event in wiring.events:
        assert f'"{wiring.command(event)}"' in text
        assert wiring.command(event) in block
    assert block.splitlines()[0] in text
    # OpenCode fails the whole file on an export that is not a function.
    exports = re.findall(r"^export\s+(.*)$", text, re.M)
    assert exports == ["async function AgentHooks({ directory }) {"], exports
    assert "@opencode-ai/plugin" not in text.replace("`@opencode-ai/plugin`", "")


# --- the plugin under Node, against a stand-in agenthooks ---------------------------------

NODE = shutil.which("node")
# Calls each hook as OpenCode does and prints what became of it.
DRIVER = """
import { AgentHooks } from "./plugin.mjs";
const hooks = await AgentHooks({ directory: process.cwd() });
const [event, args] = [process.argv[2], JSON.parse(process.argv[3])];
const input = { tool: "bash", sessionID: "ses_1", callID: "call_1", args };
const output = event === "before" ? { args } : { title: "", output: "hi\\n", metadata: {} };
try {
  await hooks[`tool.execute.${event}`](input, output);
  console.log(JSON.stringify({ output }));
} catch (error) {
  console.log(JSON.stringify({ thrown: error.message }));
}
"""


def run_plugin(tmp_path: Path, event: str, answer: str, status: int = 0,
               args: dict[str, Any] | None = None) -> dict[str, Any]:
    """The plugin's hook `event` ("before", "after") run by Node, `agenthooks` on PATH a script
    that saves its argv and stdin, prints `answer` and exits `status`."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    stand_in = bin_dir / "agenthooks"
    stand_in.write_text(f"#!/bin/sh\necho \"$@\" > {tmp_path}/argv\ncat > {tmp_path}/stdin\n"
                        f"printf '%s' '{answer}'\nexit {status}\n")
    stand_in.chmod(0o755)
    (tmp_path / "plugin.mjs").write_text(plugin_text())
    (tmp_path / "driver.mjs").write_text(DRIVER)
    given = json.dumps(args or {"command": "ls"})
    done = subprocess.run([NODE or "node", "driver.mjs", event, given], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60, check=False,
                          env={"PATH": f"{bin_dir}:/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    said: dict[str, Any] = json.loads(done.stdout)
    return said


needs_node = pytest.mark.skipif(NODE is None, reason="no node to run the plugin")


@needs_node
def test_the_plugin_sends_claude_codes_payload(tmp_path: Path) -> None:
    run_plugin(tmp_path, "before", "{}", args={"command": "ls", "workdir": "/w"})
    assert (tmp_path / "argv").read_text() == "run PreToolUse --host opencode --fail-closed\n"
    assert json.loads((tmp_path / "stdin").read_text()) == {
        "hook_event_name": "PreToolUse", "session_id": "ses_1", "cwd": str(tmp_path),
        "tool_name": "bash", "tool_use_id": "call_1",
        "tool_input": {"command": "ls", "workdir": "/w"}}
    run_plugin(tmp_path, "after", "{}")
    assert (tmp_path / "argv").read_text() == "run PostToolUse --host opencode\n"
    assert json.loads((tmp_path / "stdin").read_text())["tool_response"] == "hi\n"


# (name, hook, answer, exit status, what became of the call)
PLUGIN_TABLE: list[tuple[str, str, str, int, dict[str, Any]]] = [
    ("nothing", "before", "{}", 0, {"output": {"args": {"command": "ls"}}}),
    ("deny", "before", '{"decision": "deny", "reason": "GATE: no"}', 0, {"thrown": "GATE: no"}),
    ("rewrite, whole", "before", '{"args": {"command": "pwd"}}', 0,
     {"output": {"args": {"command": "pwd"}}}),
    ("a crash blocks", "before", "boom", 1,
     {"thrown": "agenthooks blocked this call: agenthooks run PreToolUse --host opencode "
                "--fail-closed failed (exit 1): boom"}),
    ("nonsense blocks", "before", "[1]", 0,
     {"thrown": "agenthooks blocked this call: agenthooks run PreToolUse --host opencode "
                "--fail-closed failed (exit 0): [1]"}),
    ("context", "after", '{"context": "NOTE"}', 0,
     {"output": {"title": "", "output": "hi\n\n\nNOTE", "metadata": {}}}),
    ("a crash after is ignored", "after", "boom", 3,
     {"output": {"title": "", "output": "hi\n", "metadata": {}}}),
]


@needs_node
@pytest.mark.parametrize(("hook", "answer", "status", "expected"),
                         [row[1:] for row in PLUGIN_TABLE], ids=[row[0] for row in PLUGIN_TABLE])
def test_the_plugin(tmp_path: Path, hook: str, answer: str, status: int,
                    expected: dict[str, Any]) -> None:
    assert run_plugin(tmp_path, hook, answer, status) == expected


@needs_node
def test_no_agenthooks_blocks_the_call(tmp_path: Path) -> None:
    (tmp_path / "plugin.mjs").write_text(plugin_text())
    (tmp_path / "driver.mjs").write_text(DRIVER)
    done = subprocess.run([NODE or "node", "driver.mjs", "before", '{"command": "ls"}'],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False,
                          env={"PATH": str(tmp_path / "nowhere")})
    thrown = json.loads(done.stdout)["thrown"]
    assert thrown.startswith("agenthooks blocked this call: agenthooks run PreToolUse --host "
                             "opencode --fail-closed could not run: "), thrown
    assert "ENOENT" in thrown
