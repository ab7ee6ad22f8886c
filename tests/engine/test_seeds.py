"""The seeds as tests: the Antigravity SDK's ordering, fail-closed and context cases (seed 000)
and adk-fluent's folding and cookbook cases (seed 002), run through real handlers."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from agenthooks import Decision, Hooks, policy

from .conftest import LoadFn, on, q, read_json, stdin_to, tool_call

# --- seed 000: the Antigravity SDK ----------------------------------------------------------


def test_sdk_order_decide_then_the_operation_then_inspections(hooks_of: LoadFn,
                                                              tmp_path: Path) -> None:
    """Decisions first (validate the data), the operation on exactly that data, inspections
    after it: no time-of-check to time-of-use gap."""
    log = tmp_path / "log"
    hooks = hooks_of(on("PreToolUse", f"cat >> {q(log)}; echo >> {q(log)}"))

    def note(line: str) -> None:
        with log.open("a") as f:
            f.write(line + "\n")

    @hooks.inspect("PreToolUse")
    def post_tool_call(ctx: Any) -> None:
        note(f"inspect saw {ctx.decision.kind}")

    @hooks.decide("PreToolUse")
    def pre_tool_call_decide(ctx: Any) -> None:
        note(f"decide checked {ctx.tool_args['CommandLine']}")

    hooks.run("PreToolUse", tool_call(CommandLine="ls"))
    lines = log.read_text().splitlines()
    assert lines[0] == "decide checked ls"
    assert json.loads(lines[1])["toolCall"]["args"] == {"CommandLine": "ls"}
    assert lines[2] == "inspect saw allow"


def test_sdk_a_deny_aborts_immediately(hooks_of: LoadFn, tmp_path: Path) -> None:
    marker = tmp_path / "tool-ran"
    hooks = hooks_of(on("PreToolUse", f"touch {q(marker)}"))
    called: list[str] = []
    hooks.on("PreToolUse", lambda ctx: Decision.deny("not in this workspace"), name="first")
    hooks.on("PreToolUse", lambda ctx: called.append("second"), name="second")
    hooks.on("PreToolUse", lambda ctx: called.append(f"audit:{ctx.decision.kind}"),
             kind="inspect")
    result = hooks.run("PreToolUse", tool_call(CommandLine="ls"))
    assert result.blocked and result.output == {"decision": "deny",
                                                "reason": "not in this workspace"}
    assert called == ["audit:deny"]
    assert not marker.exists()


def _db_down(ctx: Any) -> Decision:
    raise ConnectionError("policy service unreachable")


def test_sdk_fails_closed_when_a_decide_hook_raises(hooks_of: LoadFn, tmp_path: Path) -> None:
    marker = tmp_path / "tool-ran"
    hooks = hooks_of(on("PreToolUse", f"touch {q(marker)}"))
    hooks.on("PreToolUse", _db_down, name="remote_policy")
    result = hooks.run("PreToolUse", tool_call(CommandLine="ls"))
    assert result.blocked and result.exit_code == 2
    assert "remote_policy" in (result.reason or "")
    assert "policy service unreachable" in (result.reason or "")
    assert not marker.exists()


def test_sdk_fails_closed_when_an_allow_policys_predicate_raises() -> None:
    def crashes(args: Any) -> bool:
        raise KeyError("CommandLine")

    hooks = Hooks()
    hooks.on("PreToolUse", policy.enforce([policy.allow("run_command", when=crashes,
                                                        name="safe-commands")]))
    result = hooks.run("PreToolUse", tool_call(CommandLine="ls"))
    assert result.blocked and "safe-commands" in (result.reason or "")


def test_sdk_the_policy_example_row_by_row() -> None:
    asked: list[str] = []

    def my_approval_fn(ctx: Any) -> bool:
        asked.append(ctx.tool_args["CommandLine"])
        return ctx.tool_args["CommandLine"] != "make deploy"

    policies = [
        policy.deny("*"),  # Block everything by default
        policy.allow("view_file"),  # Except reading files
        policy.deny("run_command",  # Block dangerous commands
                    when=lambda args: "rm" in args.get("CommandLine", "")),
        policy.ask_user("run_command",  # Ask for safe commands
                        handler=my_approval_fn),
    ]
    hooks = Hooks()
    hooks.on("PreToolUse", policy.enforce(policies))

    def run(tool: str, **args: Any) -> tuple[str, str | None, Any]:
        result = hooks.run("PreToolUse", tool_call(tool, **args))
        return result.decision.kind, result.reason, result.output.get("decision")

    assert run("view_file", path="README.md") == ("approve", "allowed by policy 'view_file'",
                                                  "allow")
    assert run("run_command", CommandLine="rm -rf /") == ("deny",
                                                          "denied by policy 'run_command'",
                                                          "deny")
    assert asked == []  # a specific deny beats a specific ask_user: the handler is not asked
    assert run("run_command", CommandLine="ls")[::2] == ("approve", "allow")
    assert run("run_command", CommandLine="make deploy")[::2] == ("deny", "deny")
    assert asked == ["ls", "make deploy"]
    assert run("edit_file", path="a") == ("deny", "denied by policy '*'", "deny")


def test_sdk_context_correlation_id_across_a_turn() -> None:
    """A PreTurn hook stores a correlation_id in the turn; the turn's tool calls read it; the
    next turn starts without it; nothing an operation writes leaks up."""
    hooks = Hooks()
    log: list[tuple[str, Any]] = []
    ids = iter(["cid-1", "cid-2"])

    @hooks.decide("PreInvocation")
    def pre_turn(ctx: Any) -> None:
        log.append(("turn starts with", ctx.turn.state.get("correlation_id")))
        ctx.turn.state["correlation_id"] = next(ids)

    @hooks.inspect("PostToolUse")
    def post_tool_call(ctx: Any) -> None:
        log.append((ctx.tool_name, ctx.state.get("correlation_id")))
        ctx.state["operation_note"] = "stays here"

    session = hooks.session(session_id="agent-session")
    for tools in (["view_file", "run_command"], ["edit_file"]):
        turn = session.turn()
        hooks.run("PreInvocation", {}, context=turn)
        for tool in tools:
            hooks.run("PostToolUse", tool_call(tool), context=turn)
        assert "operation_note" not in turn.state
    assert log == [("turn starts with", None), ("view_file", "cid-1"), ("run_command", "cid-1"),
                   ("turn starts with", None), ("edit_file", "cid-2")]
    assert session.state.own() == {}


def test_sdk_inspections_cannot_modify_or_block(hooks_of: LoadFn, tmp_path: Path) -> None:
    seen = tmp_path / "seen.json"
    hooks = hooks_of(on("PostToolUse", stdin_to(seen)))

    @hooks.inspect("PostToolUse")
    def meddling_observer(ctx: Any) -> Decision:
        return Decision.deny("observers cannot block")

    result = hooks.run("PostToolUse", tool_call("run_command", CommandLine="ls"))
    assert not result.blocked and result.decision == Decision.allow()
    assert read_json(seen)["toolCall"]["args"] == {"CommandLine": "ls"}
    assert any("meddling_observer" in w for w in result.warnings)


def test_sdk_error_recovery_is_a_transform_on_tool_error() -> None:
    hooks = Hooks()

    @hooks.transform("ToolError", tool="view_file")
    def on_tool_error(ctx: Any) -> Decision:
        return Decision.replace(f"(file {ctx.tool_args['path']} is not readable; skipped)")

    result = hooks.run("ToolError", {**tool_call("view_file", path="a.bin"),
                                     "error": "EACCES"})
    assert result.replacement == "(file a.bin is not readable; skipped)"


# --- seed 002: adk-fluent -------------------------------------------------------------------

SECRET_RE = re.compile(r"(?i)(api[_-]?key|token|password)\s*[:=]\s*\S+")


def redact_secrets(ctx: Any) -> Decision:
    command = (ctx.tool_args or {}).get("CommandLine")
    if command and SECRET_RE.search(command):
        new = dict(ctx.tool_args or {})
        new["CommandLine"] = SECRET_RE.sub(r"\1=***", command)
        return Decision.modify(new)
    return Decision.allow()


def approval_gate(ctx: Any) -> Decision:
    if ctx.state.get("approval_required"):
        return Decision.ask(f"Allow {ctx.tool_name} with args {dict(ctx.tool_args)}?")
    return Decision.allow()


def usage_tracker(ctx: Any) -> None:
    session = ctx.session.state
    session["calls"] = session.get("calls", 0) + 1
    session["outcomes"] = [*session.get("outcomes", []), ctx.decision.kind]


def test_adk_fluent_redactor_approval_gate_and_usage_tracker_on_one_event(
    hooks_of: LoadFn, tmp_path: Path
) -> None:
    """Three hooks that do not know about each other, folded on one event."""
    log = tmp_path / "tool-calls"
    hooks = hooks_of(on("PreToolUse", f"cat >> {q(log)}; echo >> {q(log)}"))
    hooks.on("pre_tool_use", usage_tracker, kind="inspect")  # registered first, runs last
    hooks.on("pre_tool_use", redact_secrets, kind="transform")
    hooks.on("pre_tool_use", approval_gate)
    session = hooks.session(session_id="coder")

    # 1. no approval needed: the secret is redacted before the tool's handler sees it
    first = hooks.run("pre_tool_use", tool_call("bash", CommandLine="deploy --token=abc123"),
                      context=session)
    assert first.decision == Decision.modify({"CommandLine": "deploy --token=***"})
    assert first.updated_args == {"CommandLine": "deploy --token=***"}
    assert first.output["hookSpecificOutput"]["updatedInput"] == first.updated_args

    # 2. approval required for the session: the gate asks about the redacted arguments
    session.state["approval_required"] = True
    second = hooks.run("pre_tool_use", tool_call("bash", CommandLine="curl password: hunter2"),
                       context=session)
    assert second.decision.kind == "ask"
    assert second.output == {"decision": "ask", "reason": second.reason}
    assert second.reason == "Allow bash with args {'CommandLine': 'curl password=***'}?"
    assert second.updated_args is None

    # 3. approval off again, nothing to redact: no opinion at all
    session.state["approval_required"] = False
    third = hooks.run("pre_tool_use", tool_call("bash", CommandLine="ls"), context=session)
    assert third.decision == Decision.allow() and third.output == {}

    handled = [json.loads(line)["toolCall"]["args"]["CommandLine"]
               for line in log.read_text().splitlines() if line]
    assert handled == ["deploy --token=***", "ls"]  # the asked call never reached the tool
    assert "abc123" not in log.read_text() and "hunter2" not in log.read_text()
    assert session.state["calls"] == 3
    assert session.state["outcomes"] == ["modify", "ask", "allow"]


def test_adk_fluent_the_first_deny_replace_or_ask_is_terminal_with_injects_attached() -> None:
    hooks = Hooks()
    called: list[str] = []
    hooks.on("pre_tool_use", lambda ctx: Decision.inject("heads up: production"),
             name="nudge")
    hooks.on("pre_tool_use", redact_secrets, kind="transform")
    hooks.on("pre_tool_use", lambda ctx: Decision.deny("rm -rf is forbidden in this workspace"),
             args={"CommandLine": "*rm -rf*"}, name="block_rm_rf")
    hooks.on("pre_tool_use", lambda ctx: called.append("after"), name="after")
    result = hooks.run("pre_tool_use", tool_call("bash", CommandLine="rm -rf / token=x"))
    assert result.decision == Decision.deny("rm -rf is forbidden in this workspace")
    assert result.injected == ("heads up: production",)
    assert result.output["systemMessage"] == "heads up: production"
    assert called == []


def test_adk_fluent_none_is_allow_and_raising_is_deny() -> None:
    hooks = Hooks()
    hooks.on("pre_tool_use", lambda ctx: None, name="quiet")
    assert hooks.run("pre_tool_use", tool_call("bash", command="ls")).decision == Decision.allow()

    def strict(ctx: Any) -> None:
        raise PermissionError("only read-only commands today")

    hooks.on("pre_tool_use", strict)
    result = hooks.run("pre_tool_use", tool_call("bash", command="ls"))
    assert result.blocked and "only read-only commands today" in (result.reason or "")


@pytest.mark.parametrize(("command", "blocked"), [
    ("rm -rf build", True), ("mkfs /dev/sda", True), ("dd if=/dev/zero of=x", True),
    ("ls -la", False),
])
def test_adk_fluent_cookbook_block_destructive(command: str, blocked: bool) -> None:
    def block_destructive(ctx: Any) -> Decision:
        text = (ctx.tool_args or {}).get("command", "")
        for needle in ["rm -rf", "mkfs", "dd if=", ":(){ :|:& };:"]:
            if needle in text:
                return Decision.deny(f"blocked: {needle!r}")
        return Decision.allow()

    hooks = Hooks()
    hooks.on("pre_tool_use", block_destructive, tool="bash")
    assert hooks.run("pre_tool_use", tool_call("bash", command=command)).blocked is blocked
    assert not hooks.run("pre_tool_use", tool_call("other_tool", command=command)).blocked


def test_adk_fluent_cookbook_stub_an_expensive_tool(hooks_of: LoadFn, tmp_path: Path) -> None:
    marker = tmp_path / "searched"
    hooks = hooks_of(on("PreToolUse", f"touch {q(marker)}"))

    def fake_search(ctx: Any) -> Decision:
        return Decision.replace({"results": [{"title": "stub", "url": ""}]})

    hooks.on("pre_tool_use", fake_search, tool="web_search", kind="transform")
    result = hooks.run("pre_tool_use", tool_call("web_search", query="hooks"))
    assert result.replacement == {"results": [{"title": "stub", "url": ""}]}
    assert result.decision.kind == "replace" and result.blocked
    assert not marker.exists()
    other = hooks.run("pre_tool_use", tool_call("view_file", path="a"))
    assert other.replacement is None and marker.exists()


def test_adk_fluent_cookbook_nudge_and_lint_after_an_edit(tmp_path: Path) -> None:
    lint_log = tmp_path / "lint"
    hooks = Hooks()

    def nudge_after_edit(ctx: Any) -> Decision:
        path = (ctx.tool_args or {}).get("file_path")
        return Decision.inject(f"You just edited {path}. Consider running the test suite next.")

    hooks.on("post_tool_use", nudge_after_edit, tool="edit_file")
    hooks.shell("post_tool_use", f"printf 'ruff check %s\\n' {{tool_input[file_path]}} "
                f">> {q(lint_log)}", tool="edit_file", args={"file_path": "*.py"})
    result = hooks.run("post_tool_use", tool_call("edit_file", file_path="src/my app.py"))
    assert result.output == {
        "systemMessage": "You just edited src/my app.py. Consider running the test suite next."}
    hooks.run("post_tool_use", tool_call("edit_file", file_path="README.md"))
    assert lint_log.read_text() == "ruff check src/my app.py\n"


def test_adk_fluent_multiple_injects_are_concatenated_in_order() -> None:
    hooks = Hooks()
    for text in ("one", "two", "three"):
        hooks.on("pre_model", lambda ctx, text=text: Decision.inject(text), name=text)
    result = hooks.run("pre_model", {})
    assert result.injected == ("one", "two", "three")
    assert [s["ephemeralMessage"] for s in result.output["injectSteps"]] == ["one", "two", "three"]


def test_adk_fluent_shell_session_end_notice(tmp_path: Path) -> None:
    out = tmp_path / "out"
    hooks = Hooks()
    hooks.shell("session_end", f"echo session {{session_id}} ended > {q(out)}")
    hooks.on("session_end", lambda ctx: None, kind="inspect")
    result = hooks.run("session_end", {"session_id": "s-42"})
    assert not result.blocked
    assert out.read_text() == "session s-42 ended\n"


@pytest.mark.parametrize("copy", [dict, lambda args: {**args}],
                         ids=["dict", "splat"])
def test_adk_fluent_redactor_copies_arguments_that_nest(hooks_of: LoadFn, tmp_path: Path,
                                                       copy: Any) -> None:
    """The seed's redactor copies the arguments and changes one: nested values must survive."""
    seen = tmp_path / "seen.json"
    hooks = hooks_of(on("PreToolUse", stdin_to(seen)))

    def redact(ctx: Any) -> Decision:
        new = copy(ctx.tool_args or {})
        new["CommandLine"] = SECRET_RE.sub(r"\1=***", new["CommandLine"])
        return Decision.modify(new)

    hooks.on("pre_tool_use", redact, kind="transform")
    args = {"CommandLine": "deploy token=abc", "Env": {"STAGE": "prod"}, "Paths": ["a", "b"]}
    result = hooks.run("pre_tool_use", tool_call("bash", **args))
    expected = {**args, "CommandLine": "deploy token=***"}
    assert not result.blocked, result.reason
    assert result.updated_args == expected
    assert read_json(seen)["toolCall"]["args"] == expected
