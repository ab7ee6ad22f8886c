"""Registration: `Hooks()`, `on` and the decorators, matchers checked at once, event names and
aliases, `merge`, and registries loaded from Python modules by `agenthooks run --python`."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

from agenthooks import Decision, Hooks, policy
from agenthooks.errors import UnknownEvent
from agenthooks.model.events import ALIASES, ALL_EVENTS

from .conftest import CliFn, LoadFn, on, q, read_json, stdin_to, tool_call, write_hooks


def allow(ctx: Any) -> None:
    return None


def recorder(seen: list[str], name: str) -> Any:
    def hook(ctx: Any) -> None:
        seen.append(name)

    hook.__name__ = name
    return hook


# --- the empty registry ---------------------------------------------------------------------


def test_an_empty_registry_has_no_opinion() -> None:
    hooks = Hooks()
    assert hooks.python_hooks == () and hooks.shell_hooks == () and hooks.files == ()
    result = hooks.run("PreToolUse", tool_call(CommandLine="ls"))
    assert result.output == {}
    assert (result.blocked, result.exit_code) == (False, 0)
    assert result.decision == Decision.allow()
    assert (result.updated_args, result.injected, result.hooks) == (None, (), ())


def test_load_hooks_gives_a_registry_that_takes_python_hooks(hooks_of: LoadFn,
                                                             tmp_path: Path) -> None:
    marker = tmp_path / "handler-ran"
    hooks = hooks_of(on("PreToolUse", f"touch {q(marker)}"))
    assert isinstance(hooks, Hooks) and len(hooks.files) == 1
    hooks.on("PreToolUse", lambda ctx: Decision.approve("fine"))
    result = hooks.run("PreToolUse", tool_call())
    assert marker.exists()
    assert result.decision == Decision.approve("fine")


# --- on and the decorators ------------------------------------------------------------------


def test_on_returns_the_function_and_names_the_hook_after_it() -> None:
    hooks = Hooks()

    def my_guard(ctx: Any) -> None:
        return None

    assert hooks.on("PreToolUse", my_guard) is my_guard
    (hook,) = hooks.python_hooks
    assert (hook.name, hook.event, hook.phase, hook.priority, hook.timeout) == (
        "my_guard", "PreToolUse", "decide", 0, 30.0)


def test_an_explicit_name_wins_and_names_the_outcome() -> None:
    hooks = Hooks()
    hooks.on("PreToolUse", lambda ctx: Decision.deny("no"), name="gate")
    result = hooks.run("PreToolUse", tool_call())
    assert [h.name for h in result.hooks] == ["gate"]
    assert result.output["reason"] == "no"


def test_a_callable_object_is_named_after_its_class() -> None:
    class Budget:
        def __call__(self, ctx: Any) -> None:
            return None

    hooks = Hooks()
    hooks.on("Stop", Budget())
    assert hooks.python_hooks[0].name == "Budget"


def test_decorator_forms_register_each_kind() -> None:
    hooks = Hooks()

    @hooks.decide("PreToolUse", tool="run_command", priority=3)
    def gate(ctx: Any) -> None:
        return None

    @hooks.transform("PreToolUse", name="rewriter", timeout=2)
    def rewrite(ctx: Any) -> None:
        return None

    @hooks.inspect("PostToolUse", args={"path": "*.py"})
    def audit(ctx: Any) -> None:
        return None

    # the decorators give the function back, usable as before
    assert gate.__name__ == "gate" and rewrite.__name__ == "rewrite" and callable(audit)
    found = [(h.name, h.event, h.phase, h.tool, h.args, h.priority, h.timeout)
             for h in hooks.python_hooks]
    assert found == [
        ("gate", "PreToolUse", "decide", "run_command", (), 3, 30.0),
        ("rewriter", "PreToolUse", "transform", None, (), 0, 2.0),
        ("audit", "PostToolUse", "inspect", None, (("path", "*.py"),), 0, 30.0),
    ]


def test_plan_lists_python_hooks_in_run_order_without_running_them() -> None:
    hooks = Hooks()
    seen: list[str] = []
    hooks.on("PreToolUse", recorder(seen, "late"), priority=10)
    hooks.on("PreToolUse", recorder(seen, "early"), priority=-10)
    hooks.on("PreToolUse", recorder(seen, "watch"), kind="inspect")
    plan = hooks.plan("pre_tool_use", tool_call())
    assert [h.name for h in plan.hooks] == ["early", "late", "watch"]
    assert plan.to_json()["hooks"][0] == {"hook": "early", "kind": "decide", "priority": -10,
                                          "tool": None}
    assert seen == []


@pytest.mark.parametrize("kind", ["Decide", "observe", "", "policy"])
def test_an_unknown_kind_is_refused(kind: str) -> None:
    expected = f"kind must be one of decide, transform, inspect.*{kind!r}"
    with pytest.raises(ValueError, match=expected):
        Hooks().on("PreToolUse", allow, kind=kind)


@pytest.mark.parametrize("bad", [None, "deny", 3])
def test_a_hook_must_be_callable(bad: Any) -> None:
    with pytest.raises(ValueError, match="callable"):
        Hooks().on("PreToolUse", bad)


def test_when_must_be_callable() -> None:
    with pytest.raises(ValueError, match="when"):
        Hooks().on("PreToolUse", allow, when=True)  # type: ignore[arg-type]


@pytest.mark.parametrize("timeout", [0, -1, True, "5", float("nan")])
def test_a_timeout_must_be_a_positive_number(timeout: Any) -> None:
    with pytest.raises(ValueError, match="timeout"):
        Hooks().on("PreToolUse", allow, timeout=timeout)
    with pytest.raises(ValueError, match="timeout"):
        Hooks().shell("PreToolUse", "true", timeout=timeout)


def test_nothing_is_registered_when_registration_fails() -> None:
    hooks = Hooks()
    with pytest.raises(ValueError):
        hooks.on("PreToolUse", allow, tool="(")
    with pytest.raises(ValueError):
        hooks.shell("Stop", "true", tool="x")
    assert hooks.python_hooks == () and hooks.shell_hooks == ()


# --- matchers checked at registration -------------------------------------------------------


@pytest.mark.parametrize("pattern", ["(", "run_[", "**", "a{2,1}", "x)"])
def test_a_bad_tool_regex_is_a_value_error_naming_it(pattern: str) -> None:
    with pytest.raises(ValueError) as caught:
        Hooks().on("PreToolUse", allow, tool=pattern)
    assert repr(pattern) in str(caught.value)
    with pytest.raises(ValueError) as caught:
        Hooks().shell("PreToolUse", "true", tool=pattern)
    assert repr(pattern) in str(caught.value)


@pytest.mark.parametrize("event", ["Stop", "PreInvocation", "PostInvocation", "SessionStart",
                                   "SessionEnd", "session_end", "pre_model"])
def test_tool_on_an_event_without_a_tool_is_refused(event: str) -> None:
    with pytest.raises(ValueError, match="not a tool event"):
        Hooks().on(event, allow, tool="run_command")
    with pytest.raises(ValueError, match="not a tool event"):
        Hooks().shell(event, "true", tool="run_command")


@pytest.mark.parametrize("event", ["PreToolUse", "PostToolUse", "ToolError", "tool_error"])
def test_tool_on_a_tool_event_is_fine(event: str) -> None:
    hooks = Hooks()
    hooks.on(event, allow, tool="run_command|view_file")
    assert hooks.python_hooks[0].tool == "run_command|view_file"


def test_the_tool_regex_is_anchored_as_in_hooks_json() -> None:
    hooks = Hooks()
    hooks.on("PreToolUse", lambda ctx: Decision.deny("matched"), tool="run")
    assert not hooks.run("PreToolUse", tool_call("run_command")).blocked
    assert not hooks.run("PreToolUse", tool_call("dry_run")).blocked
    assert hooks.run("PreToolUse", tool_call("run")).blocked


@pytest.mark.parametrize("args", [{"path": 3}, {1: "*.py"}])
def test_argument_globs_must_be_strings(args: Any) -> None:
    with pytest.raises(ValueError, match="glob"):
        Hooks().on("PreToolUse", allow, args=args)


# --- event names and aliases ----------------------------------------------------------------


@pytest.mark.parametrize(("word", "event"), [
    ("BeforeTool", "PreToolUse"), ("AfterAgent", "Stop"), ("UserPromptSubmit", "PreInvocation"),
    ("PreCompress", "PreCompact"),
])
def test_every_hosts_event_word_registers_its_row(word: str, event: str) -> None:
    hooks = Hooks()
    hooks.on(word, allow)
    hooks.shell(word, "true")
    assert [h.event for h in hooks.python_hooks] == [event]
    assert [h.event for h in hooks.shell_hooks] == [event]


@pytest.mark.parametrize(("name", "hint"), [
    ("PreTooluse", "did you mean 'PreToolUse'?"),
    ("pre_tool_us", "did you mean 'pre_tool_use'?"),
    ("Stopp", "did you mean 'Stop'?"),
    ("tool_eror", "did you mean 'tool_error'?"),
    ("Xyzzy", "known events: PreToolUse"),
])
def test_an_unknown_event_is_a_value_error_with_a_hint(name: str, hint: str) -> None:
    hooks = Hooks()
    with pytest.raises(ValueError) as at_registration:
        hooks.on(name, allow)
    with pytest.raises(ValueError) as at_shell:
        hooks.shell(name, "true")
    with pytest.raises(ValueError) as at_run:
        hooks.run(name, {})
    for caught in (at_registration, at_shell, at_run):
        assert isinstance(caught.value, UnknownEvent)
        assert repr(name) in str(caught.value) and hint in str(caught.value)


ALIAS_TABLE = [
    ("pre_tool_use", "PreToolUse"),
    ("post_tool_use", "PostToolUse"),
    ("tool_error", "ToolError"),
    ("pre_model", "PreInvocation"),
    ("post_model", "PostInvocation"),
    ("session_start", "SessionStart"),
    ("session_end", "SessionEnd"),
]


def test_the_alias_table_is_adk_fluents() -> None:
    assert dict(ALIAS_TABLE) == ALIASES
    assert set(ALL_EVENTS) >= {"ToolError", "SessionEnd"}


@pytest.mark.parametrize(("alias", "event"), ALIAS_TABLE)
def test_aliases_work_at_registration_and_in_run(alias: str, event: str) -> None:
    seen: list[str] = []
    hooks = Hooks()
    hooks.on(alias, lambda ctx: seen.append(f"alias-registered:{ctx.event}"))
    hooks.on(event, lambda ctx: seen.append(f"name-registered:{ctx.event}"))
    assert hooks.python_hooks[0].event == event
    by_alias = hooks.run(alias, tool_call())
    by_name = hooks.run(event, tool_call())
    assert by_alias.event == by_name.event == event
    assert seen == [f"alias-registered:{event}", f"name-registered:{event}"] * 2


# --- merge ----------------------------------------------------------------------------------


def test_merge_runs_self_then_other_and_leaves_both_alone() -> None:
    seen: list[str] = []
    first, second = Hooks(), Hooks()
    first.on("PreToolUse", recorder(seen, "a1"))
    second.on("PreToolUse", recorder(seen, "b1"))
    first.on("PreToolUse", recorder(seen, "a2"))
    second.on("PreToolUse", recorder(seen, "b2"))
    merged = first.merge(second)
    assert merged is not first and merged is not second
    merged.run("PreToolUse", tool_call())
    assert seen == ["a1", "a2", "b1", "b2"]
    seen.clear()
    second.merge(first).run("PreToolUse", tool_call())
    assert seen == ["b1", "b2", "a1", "a2"]
    assert [h.name for h in first.python_hooks] == ["a1", "a2"]
    assert [h.name for h in second.python_hooks] == ["b1", "b2"]


def test_merge_keeps_priority_above_registration_order() -> None:
    seen: list[str] = []
    first, second = Hooks(), Hooks()
    first.on("Stop", recorder(seen, "first"))
    second.on("Stop", recorder(seen, "urgent"), priority=-1)
    first.merge(second).run("Stop", {})
    assert seen == ["urgent", "first"]


def test_merge_keeps_files_and_shell_hooks(hooks_of: LoadFn, tmp_path: Path) -> None:
    log = tmp_path / "log"
    loaded = hooks_of(on("Stop", f"echo file >> {q(log)}"))
    extra = Hooks()
    extra.shell("Stop", f"echo shell >> {q(log)}")
    merged = loaded.merge(extra)
    assert merged.files == loaded.files
    result = merged.run("Stop", {})
    assert [a.hook for a in result.handlers][-1] == "echo"
    assert sorted(log.read_text().split()) == ["file", "shell"]


# --- policy.enforce belongs on PreToolUse ---------------------------------------------------


@pytest.mark.parametrize("event", ["Stop", "PostToolUse", "PreInvocation", "ToolError",
                                   "session_end"])
def test_enforce_on_another_event_is_a_value_error(event: str) -> None:
    hook = policy.enforce([policy.deny("run_command")])
    hooks = Hooks()
    with pytest.raises(ValueError, match="PreToolUse"):
        hooks.on(event, hook)
    assert hooks.python_hooks == ()


@pytest.mark.parametrize("event", ["PreToolUse", "pre_tool_use"])
def test_enforce_on_pre_tool_use_denies_naming_the_policy(event: str) -> None:
    hooks = Hooks()
    hooks.on(event, policy.enforce([policy.deny("run_command", name="no-shell")]))
    result = hooks.run("PreToolUse", tool_call())
    assert result.blocked
    assert result.reason == "denied by policy 'no-shell'"
    assert [h.name for h in result.hooks] == ["policy"]


# --- agenthooks run --python MODULE:ATTR ----------------------------------------------------

GUARD = """
from agenthooks import Decision, Hooks

hooks = Hooks()

@hooks.decide("PreToolUse", tool="run_command", args={"CommandLine": "rm *"})
def no_rm(ctx):
    return Decision.deny("rm is not allowed: " + ctx.tool_args["CommandLine"])
"""

REGISTER = """
from agenthooks import Decision

def register(hooks):
    def tag(ctx):
        return Decision.modify({**ctx.tool_args, "tagged_by": "register"})
    hooks.on("PreToolUse", tag, kind="transform")
"""


def module(root: Path, name: str, text: str) -> None:
    (root / f"{name}.py").write_text(textwrap.dedent(text), encoding="utf-8")


def test_cli_python_registry(cli: CliFn, tmp_path: Path) -> None:
    module(tmp_path, "guard", GUARD)
    denied = cli("PreToolUse", "--no-user", "--python", "guard:hooks",
                 stdin=tool_call(CommandLine="rm -rf build"))
    assert denied.code == 2, denied.err
    assert denied.json == {"decision": "deny", "reason": "rm is not allowed: rm -rf build"}
    allowed = cli("PreToolUse", "--no-user", "--python", "guard:hooks",
                  stdin=tool_call(CommandLine="ls"))
    assert (allowed.code, allowed.json) == (0, {}), allowed.err


def test_cli_python_register_function_reaches_a_real_handler(cli: CliFn, tmp_path: Path) -> None:
    seen = tmp_path / "seen.json"
    write_hooks(tmp_path, on("PreToolUse", stdin_to(seen)))
    module(tmp_path, "tagger", REGISTER)
    done = cli("PreToolUse", "--python", "tagger:register", stdin=tool_call(CommandLine="ls"))
    assert done.code == 0, done.err
    assert read_json(seen)["toolCall"]["args"] == {"CommandLine": "ls", "tagged_by": "register"}
    assert done.json["hookSpecificOutput"]["updatedInput"] == {"CommandLine": "ls",
                                                               "tagged_by": "register"}


def test_cli_python_is_repeatable_in_order(cli: CliFn, tmp_path: Path) -> None:
    module(tmp_path, "tagger", REGISTER)
    module(tmp_path, "judge", """
        from agenthooks import Decision

        def register(hooks):
            hooks.on("PreToolUse", lambda ctx: Decision.deny(
                "saw " + ctx.tool_args.get("tagged_by", "nothing")), name="judge")
    """)
    first = cli("PreToolUse", "--no-user", "--python", "tagger:register",
                "--python", "judge:register", stdin=tool_call(CommandLine="ls"))
    assert (first.code, first.json["reason"]) == (2, "saw register"), first.err
    second = cli("PreToolUse", "--no-user", "--python", "judge:register",
                 "--python", "tagger:register", stdin=tool_call(CommandLine="ls"))
    assert (second.code, second.json["reason"]) == (2, "saw nothing"), second.err


def test_cli_python_from_pythonpath_in_a_package(cli: CliFn, tmp_path: Path) -> None:
    package = tmp_path / "harness"
    package.mkdir()
    (package / "__init__.py").write_text("")
    module(package, "guard", GUARD)
    done = cli("PreToolUse", "--no-user", "--python", "harness.guard:hooks",
               stdin=tool_call(CommandLine="rm x"))
    assert done.code == 2 and done.json["decision"] == "deny", done.err


BROKEN: list[tuple[str, str, str, list[str]]] = [
    # (module text, spec, ...what stderr and the deny reason must name)
    ("", "nosuchmodule:hooks", "", ["nosuchmodule"]),
    (GUARD, "guard:nope", "guard", ["guard", "nope"]),
    ("hooks = 3\n", "guard:hooks", "guard", ["guard:hooks", "int"]),
    ("raise RuntimeError('exploded at import')\n", "guard:hooks", "guard",
     ["guard", "exploded at import"]),
    ("def register(hooks):\n    raise KeyError('inside register')\n", "guard:register",
     "guard", ["guard:register", "inside register"]),
    (GUARD, "guard", "guard", ["guard", "MODULE:ATTR"]),
]


@pytest.mark.parametrize(("text", "spec", "name", "named"), BROKEN)
def test_cli_python_that_cannot_load_exits_1_naming_it(
    cli: CliFn, tmp_path: Path, text: str, spec: str, name: str, named: list[str]
) -> None:
    if name:
        module(tmp_path, name, text)
    done = cli("PreToolUse", "--no-user", "--python", spec, stdin=tool_call(CommandLine="ls"))
    assert done.code == 1, (done.out, done.err)
    assert done.out == ""
    for word in named:
        assert word in done.err
    assert "Traceback" not in done.err


@pytest.mark.parametrize(("text", "spec", "name", "named"), BROKEN)
def test_cli_python_that_cannot_load_denies_under_fail_closed(
    cli: CliFn, tmp_path: Path, text: str, spec: str, name: str, named: list[str]
) -> None:
    if name:
        module(tmp_path, name, text)
    done = cli("PreToolUse", "--no-user", "--fail-closed", "--python", spec,
               stdin=tool_call(CommandLine="ls"))
    assert done.code == 2, (done.out, done.err)
    assert done.json["decision"] == "deny"
    for word in named:
        assert word in done.json["reason"]


def test_cli_python_that_cannot_load_on_stop_is_an_error_even_fail_closed(
    cli: CliFn, tmp_path: Path
) -> None:
    done = cli("Stop", "--no-user", "--fail-closed", "--python", "nosuchmodule:hooks")
    assert (done.code, done.out) == (1, "")
    assert "nosuchmodule" in done.err


def test_cli_python_hook_that_raises_denies_on_pre_tool_use(cli: CliFn, tmp_path: Path) -> None:
    module(tmp_path, "flaky", """
        from agenthooks import Hooks

        hooks = Hooks()

        @hooks.decide("PreToolUse")
        def flaky(ctx):
            raise RuntimeError("database down")
    """)
    done = cli("PreToolUse", "--no-user", "--python", "flaky:hooks",
               stdin=tool_call(CommandLine="ls"))
    assert done.code == 2
    assert done.json["decision"] == "deny"
    assert "'flaky'" in done.json["reason"] and "database down" in done.json["reason"]


def test_cli_python_report_and_dry_run_name_the_hooks(cli: CliFn, tmp_path: Path) -> None:
    module(tmp_path, "guard", GUARD)
    payload = tool_call(CommandLine="rm -rf build")
    report = cli("PreToolUse", "--no-user", "--python", "guard:hooks", "--report", "json",
                 stdin=payload)
    assert report.code == 2, report.err
    assert report.json["decision"] == "deny"
    (hook,) = report.json["hooks"]
    assert (hook["hook"], hook["kind"], hook["decision"], hook["error"]) == (
        "no_rm", "decide", "deny", None)
    plan = cli("PreToolUse", "--no-user", "--python", "guard:hooks", "--dry-run", stdin=payload)
    assert plan.code == 0, plan.err
    assert plan.json["hooks"] == [{"hook": "no_rm", "kind": "decide", "priority": 0,
                                   "tool": "run_command"}]


@pytest.mark.parametrize("exit_code", [0, 1, 2])
def test_cli_python_hook_that_exits_denies_on_pre_tool_use(cli: CliFn, tmp_path: Path,
                                                          exit_code: int) -> None:
    module(tmp_path, "quitter", f"""
        import sys
        from agenthooks import Hooks

        hooks = Hooks()

        @hooks.decide("PreToolUse")
        def quitter(ctx):
            sys.exit({exit_code})
    """)
    done = cli("PreToolUse", "--no-user", "--python", "quitter:hooks",
               stdin=tool_call(CommandLine="ls"))
    assert done.code == 2, (done.out, done.err)
    assert done.json["decision"] == "deny" and "'quitter'" in done.json["reason"]


@pytest.mark.parametrize(("payload", "blocked"), [
    ({"toolCall": {"name": "run_command", "args": {"CommandLine": "rm -rf /"}}}, True),
    ({"hook_event_name": "PreToolUse", "tool_name": "Bash",
      "tool_input": {"command": "rm -rf /"}}, True),
    ({"hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
      "tool_input": {"command": "rm -rf /"}}, True),
    ({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}},
     False),
    ({"hook_event_name": "PreToolUse", "tool_name": "Write",
      "tool_input": {"file_path": "rm -rf /"}}, False),
])
def test_a_python_hook_reads_any_hosts_call_in_its_own_words(payload: dict[str, Any],
                                                             blocked: bool) -> None:
    """Tool and argument names given in one host's words select every host's call."""
    hooks = Hooks()
    hooks.on("PreToolUse", lambda ctx: Decision.deny("no"), tool="run_command",
             args={"CommandLine": "rm -rf*"})
    hooks.shell("PreToolUse", "exit 2", tool="Bash", args={"command": "rm -rf*"})
    result = hooks.run("PreToolUse", payload)
    assert result.blocked is blocked
    assert [h.name for h in result.hooks] == (["<lambda>"] if blocked else [])
