"""Every host's writer over a table of verdicts: the record alone decides each host's answer
(no run, no other host's JSON), and every answer fits the host's documented schema."""

from __future__ import annotations

import jsonschema
import pytest

from agenthooks.combine.verdict import Verdict, engine_answer
from agenthooks.hosts.writers import WRITERS, HostAnswer, decision_reason, host_event, writer
from agenthooks.model.decision import Decision
from tests.hosts.conftest import schema

SCHEMA_OF = {"claude": "claude_code", "gemini": "gemini_cli"}
DENY = Verdict("PreToolUse", Decision.deny("no"), word="deny", reason="no", blocked=True)
ARGS = {"command": "make -n"}
WARNED = ("hook 'h' exited 1",)

# (name, verdict, Claude Code's answer, Gemini CLI's answer)
TABLE: list[tuple[str, Verdict, HostAnswer, HostAnswer]] = [
    ("nothing", Verdict("PreToolUse"), HostAnswer({}, 0), HostAnswer({}, 0)),
    ("deny", DENY,
     HostAnswer({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                        "permissionDecision": "deny",
                                        "permissionDecisionReason": "no"}}, 0),
     HostAnswer({"decision": "deny", "reason": "no"}, 0)),
    ("deny without a reason", DENY._replace(reason=None),
     HostAnswer({"hookSpecificOutput": {
         "hookEventName": "PreToolUse", "permissionDecision": "deny",
         "permissionDecisionReason": "PreToolUse blocked (decision: deny, no reason given)"}}, 0),
     HostAnswer({"decision": "deny",
                 "reason": "PreToolUse blocked (decision: deny, no reason given)"}, 0)),
    ("forced ask", Verdict("PreToolUse", Decision.ask("sure?", True), word="force_ask",
                           reason="sure?"),
     HostAnswer({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                        "permissionDecision": "ask",
                                        "permissionDecisionReason": "sure?"}}, 0),
     HostAnswer({"decision": "ask", "reason": "sure?"}, 0)),
    ("allow with rewritten arguments",
     Verdict("PreToolUse", Decision.approve(), word="allow", updated_args=ARGS),
     HostAnswer({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                        "permissionDecision": "allow", "updatedInput": ARGS}}, 0),
     HostAnswer({"decision": "allow",
                 "hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input": ARGS}}, 0)),
    ("defer outranks allow, for Claude Code alone",
     Verdict("PreToolUse", Decision.approve("ok"), word="allow", reason="ok", deferred=True),
     HostAnswer({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                        "permissionDecision": "defer"}}, 0),
     HostAnswer({"decision": "allow", "reason": "ok"}, 0)),
    ("a block where the JSON says it", Verdict("Stop", word="continue", reason="tests fail",
                                               blocked=True),
     HostAnswer({"decision": "block", "reason": "tests fail"}, 0),
     HostAnswer({"decision": "deny", "reason": "tests fail"}, 0)),
    ("a block the JSON cannot say", Verdict("SessionStart", word="block", reason="down",
                                            blocked=True),
     HostAnswer({}, 2), HostAnswer({}, 2)),
    ("continue false", Verdict("PostToolUse", blocked=True, stopped=True, suppress_output=True),
     HostAnswer({"continue": False, "stopReason": "PostToolUse stopped the agent",
                 "suppressOutput": True}, 0),
     HostAnswer({"continue": False, "stopReason": "PostToolUse stopped the agent",
                 "suppressOutput": True}, 0)),
    ("context where the host reads it", Verdict("SessionStart", context="branch main",
                                                injected=("x",)),
     HostAnswer({"hookSpecificOutput": {"hookEventName": "SessionStart",
                                        "additionalContext": "x\nbranch main"}}, 0),
     HostAnswer({"hookSpecificOutput": {"hookEventName": "SessionStart",
                                        "additionalContext": "x\nbranch main"}}, 0)),
    ("inject on a prompt: steps become context",
     Verdict("PreInvocation", injected=("x",), steps=({"ephemeralMessage": "y"},
                                                     {"userMessage": "u"})),
     HostAnswer({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit",
                                        "additionalContext": "x\ny"}}, 0),
     HostAnswer({"hookSpecificOutput": {"hookEventName": "BeforeAgent",
                                        "additionalContext": "x\ny"}}, 0)),
    ("inject where no context is read", Verdict("Stop", injected=("x",), message="m"),
     HostAnswer({"systemMessage": "x\nm"}, 0), HostAnswer({"systemMessage": "x\nm"}, 0)),
    ("notices, then warnings", Verdict("Stop", message="m", notices=("skipped a.json",),
                                       warnings=WARNED),
     HostAnswer({"systemMessage": "m\nskipped a.json\nagenthooks: warning: hook 'h' exited 1"},
                0),
     HostAnswer({"systemMessage": "m\nskipped a.json\nagenthooks: warning: hook 'h' exited 1"},
                0)),
]


@pytest.mark.parametrize(("verdict", "claude", "gemini"), [row[1:] for row in TABLE],
                         ids=[row[0] for row in TABLE])
def test_each_writer_renders_the_verdict(
    verdict: Verdict, claude: HostAnswer, gemini: HostAnswer
) -> None:
    for host, expected in (("claude", claude), ("gemini", gemini)):
        event = host_event(host, verdict.event)
        found = writer(host)(verdict, event)
        assert found == expected, host
        jsonschema.validate(found.output, schema(SCHEMA_OF[host]))
    code = 2 if verdict.blocked else 0
    engine = engine_answer(verdict)
    if verdict.event == "PreToolUse" and "decision" not in engine:
        engine = {"decision": "ask", **engine}  # agy denies on no decision at all
    if verdict.event == "PreToolUse" and engine.get("decision") == "deny":
        # Antigravity CLI's other vocabulary says the same deny (hosts/antigravity/render.py).
        engine = {**engine, "allowTool": False,
                  "denyReason": engine.get("reason") or decision_reason(verdict)}
    assert writer("antigravity")(verdict, verdict.event) == HostAnswer(engine, code)


def test_no_writer_imports_another_hosts_module() -> None:
    import ast
    from pathlib import Path

    from tests.hosts.conftest import REPO

    for host, row in WRITERS.items():
        module = row.partition(":")[0]
        path = REPO / Path(*module.split(".")).with_suffix(".py")
        names = [node.module or "" for node in ast.walk(ast.parse(path.read_text("utf-8")))
                 if isinstance(node, ast.ImportFrom)]
        others = [f"agenthooks.hosts.{h}" for h in WRITERS if h != host]
        assert not [n for n in names for o in others if n.startswith(o)], (host, names)
