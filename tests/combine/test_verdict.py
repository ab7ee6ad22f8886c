"""The verdict as a table: answer sets (handlers' outputs and the in-process fold) and the
fields of the one record every host's writer renders, and the engine's own answer made from it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agenthooks.api import load_hooks
from agenthooks.combine.fold import Folded
from agenthooks.combine.verdict import Verdict, decided, engine_answer, render
from agenthooks.kinds.protocols.antigravity import read_decision
from agenthooks.model.decision import Decision
from agenthooks.model.events import block_decision
from agenthooks.model.handlers import Answer, Handler, Source

SOURCE = Source("hooks.json", "/w/hooks.json", "/w", "workspace", "/w", "antigravity")


def said(event: str, *outputs: dict[str, Any] | str) -> list[Answer]:
    """One handler per output: a dict is what it printed at exit 0, a string its exit 2."""
    found = []
    for index, output in enumerate(outputs, start=1):
        handler = Handler(SOURCE, f"h{index}", event, None, "true", 5.0, "command", True, "/0",
                          SOURCE.dialect)
        if isinstance(output, str):
            answer = Answer(handler, "blocked", exit_code=2, decision=block_decision(event),
                            reason=output)
        else:
            decision, reason, _ = read_decision(output, event)
            answer = Answer(handler, "ok", exit_code=0, output=output, decision=decision,
                            reason=reason)
        found.append(answer)
    return found


INJECT = Folded(injected=("mind the lockfile",))
MODIFY = Folded(args={"command": "make -n"})

# (name, event, fold, handlers' outputs, the verdict's fields that are not their default)
TABLE: list[tuple[str, str, Folded, list[dict[str, Any] | str], dict[str, Any]]] = [
    ("nothing", "PreToolUse", Folded(), [], {}),
    ("deny", "PreToolUse", Folded(), [{"decision": "deny", "reason": "no"}],
     {"decision": Decision.deny("no"), "word": "deny", "reason": "no", "blocked": True}),
    ("deny by exit 2", "Stop", Folded(), ["not yet"],
     {"decision": Decision.deny("not yet"), "word": "continue", "reason": "not yet",
      "blocked": True}),
    ("ask", "PreToolUse", Folded(), [{"decision": "ask", "reason": "sure?"}, {"decision": "allow"}],
     {"decision": Decision.ask("sure?"), "word": "ask", "reason": "sure?"}),
    ("forced ask of a hook", "PreToolUse",
     Folded(terminal=Decision.ask("really?", force=True), terminal_hook="py"), [],
     {"decision": Decision.ask("really?", force=True), "word": "force_ask",
      "reason": "really?"}),
    ("allow", "PreToolUse", Folded(approval=Decision.approve("read-only")), [],
     {"decision": Decision.approve("read-only"), "word": "allow", "reason": "read-only"}),
    ("modify", "PreToolUse", MODIFY, [],
     {"decision": Decision.modify({"command": "make -n"}),
      "updated_args": {"command": "make -n"}}),
    ("modify by a handler, last wins", "PreToolUse", MODIFY,
     [{"hookSpecificOutput": {"updatedInput": {"command": "make -k"}}}],
     {"decision": Decision.modify({"command": "make -k"}),
      "updated_args": {"command": "make -k"}}),
    ("a deny drops the rewritten arguments", "PreToolUse", MODIFY, ["no"],
     {"decision": Decision.deny("no"), "word": "deny", "reason": "no", "blocked": True}),
    ("continue false", "PostToolUse", Folded(),
     [{"continue": False, "stopReason": "quota spent", "systemMessage": "bye",
       "suppressOutput": True}],
     {"decision": Decision.deny("quota spent"), "blocked": True, "stopped": True,
      "stop_reason": "quota spent", "message": "bye", "suppress_output": True}),
    ("context", "SessionStart", Folded(),
     [{"hookSpecificOutput": {"additionalContext": "branch main"}}, {"systemMessage": "hi"}],
     {"context": "branch main", "message": "hi"}),
    ("inject as a message", "Stop", INJECT, [{"systemMessage": "done"}],
     {"decision": Decision.inject("mind the lockfile"), "injected": ("mind the lockfile",),
      "message": "done"}),
    ("inject as steps, the handlers' steps kept apart", "PostInvocation", INJECT,
     [{"injectSteps": [{"ephemeralMessage": "from a handler"}],
       "terminationBehavior": "force_continue"}],
     {"decision": Decision.inject("mind the lockfile"), "injected": ("mind the lockfile",),
      "steps": ({"ephemeralMessage": "from a handler"},), "termination": "force_continue"}),
    ("permission overrides", "PreToolUse", Folded(),
     [{"permissionOverrides": ["Bash(make)"]}, {"permissionOverrides": ["Bash(make)", "Read"]}],
     {"permission_overrides": ("Bash(make)", "Read")}),
    ("a Claude Code handler's defer", "PreToolUse", Folded(),
     [{"hookSpecificOutput": {"permissionDecision": "defer"}}], {"deferred": True}),
]


@pytest.mark.parametrize(("event", "folded", "outputs", "fields"),
                         [row[1:] for row in TABLE], ids=[row[0] for row in TABLE])
def test_verdict_fields(event: str, folded: Folded, outputs: list[dict[str, Any] | str],
                        fields: dict[str, Any]) -> None:
    rendered = render(event, folded, said(event, *outputs))
    assert rendered.verdict == Verdict(event)._replace(**fields)
    # The engine's own answer is the verdict's rendering, and the record agrees with it.
    assert rendered.output == engine_answer(rendered.verdict)
    assert (rendered.blocked, rendered.decision, rendered.updated_args, rendered.injected) == (
        rendered.verdict.blocked, rendered.verdict.decision, rendered.verdict.updated_args,
        rendered.verdict.injected)


@pytest.mark.parametrize(("verdict", "output"), [
    (Verdict("PreToolUse", word="deny", reason="no", blocked=True),
     {"decision": "deny", "reason": "no"}),
    (Verdict("PreToolUse", updated_args={"a": 1}, injected=("x",), context="c"),
     {"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "c",
                             "updatedInput": {"a": 1}}, "systemMessage": "x"}),
    (Verdict("PreInvocation", injected=("x",), steps=({"userMessage": "u"},), message="m"),
     {"injectSteps": [{"ephemeralMessage": "x"}, {"userMessage": "u"}], "systemMessage": "m"}),
    (Verdict("Stop", stopped=True, message="m", injected=("x",), notices=("skipped",)),
     {"systemMessage": "x\nm\nskipped", "continue": False}),
    # Keys the engine adds come after the merged ones.
    (Verdict("Stop", stopped=True, injected=("x",)), {"continue": False, "systemMessage": "x"}),
])
def test_engine_answer(verdict: Verdict, output: dict[str, Any]) -> None:
    found = engine_answer(verdict)
    assert found == output
    assert list(found) == list(output)


def test_a_decision_made_without_running_the_event() -> None:
    verdict = decided("PreToolUse", Decision.deny("agenthooks: broken"), ["w"])
    assert verdict == Verdict("PreToolUse", Decision.deny("agenthooks: broken"), word="deny",
                              reason="agenthooks: broken", blocked=True, warnings=("w",))
    assert decided("Stop", Decision.allow()) == Verdict("Stop")


def test_skipped_files_are_a_notice_and_not_a_warning_again(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text('{"h": {"Stop": [{"command": "echo \'{\\"systemMessage\\": \\"hi\\"}\'"}]}}',
                    encoding="utf-8")
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    result = load_hooks(configs=[str(good), str(bad)]).run("Stop", b"{}")
    verdict = result.verdict
    assert verdict is not None
    assert verdict.message == "hi"
    assert len(verdict.notices) == 1 and "bad.json" in verdict.notices[0]
    assert result.warnings and not any("bad.json" in w for w in verdict.warnings)
    assert result.output == engine_answer(verdict)
    assert result.output["systemMessage"] == f"hi\n{verdict.notices[0]}"
