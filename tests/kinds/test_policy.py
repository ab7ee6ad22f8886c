"""The declarative policy: the Antigravity SDK's precedence table, fail-closed predicates and
handlers, async hooks, defaults, and the index that keeps 1,000 policies cheap."""

from __future__ import annotations

import asyncio
import gc
import inspect
import random
import warnings
from collections.abc import Callable, Mapping
from fnmatch import fnmatchcase
from typing import Any, NamedTuple

import pytest

from agenthooks import policy
from agenthooks.kinds.policy import Policy
from agenthooks.model.decision import Decision


class Ctx(NamedTuple):
    """The two context fields a policy hook reads (the engine's context has more)."""

    tool_name: str | None
    tool_args: Mapping[str, Any] | None = None


def decide(hook: Callable[[Any], Any], tool: str | None, args: Mapping[str, Any] | None = None
           ) -> Decision:
    result = hook(Ctx(tool, {} if args is None else args))
    if inspect.iscoroutine(result):
        result = asyncio.run(result)
    assert isinstance(result, Decision)
    return result


def yes(ctx: Any) -> bool:
    return True


def no(ctx: Any) -> bool:
    return False


# The seed's table, with the glob level (the SDK's MCP-server level, generalised) between the
# specific and the wildcard rows. Each row: the policy, the decision it gives, its reason.
ROWS: list[tuple[Policy, str, str]] = [
    (policy.deny("run_command", name="1"), "deny", "denied by policy '1'"),
    (policy.ask_user("run_command", handler=yes, name="2"), "approve",
     "approved by the ask_user handler of policy '2'"),
    (policy.allow("run_command", name="3"), "approve", "allowed by policy '3'"),
    (policy.deny("run_*", name="g1"), "deny", "denied by policy 'g1'"),
    (policy.ask_user("run_*", handler=yes, name="g2"), "approve",
     "approved by the ask_user handler of policy 'g2'"),
    (policy.allow("run_*", name="g3"), "approve", "allowed by policy 'g3'"),
    (policy.deny("*", name="4"), "deny", "denied by policy '4'"),
    (policy.ask_user("*", handler=yes, name="5"), "approve",
     "approved by the ask_user handler of policy '5'"),
    (policy.allow("*", name="6"), "approve", "allowed by policy '6'"),
]


@pytest.mark.parametrize("row", range(len(ROWS)), ids=[r[0].name for r in ROWS])
def test_precedence_table_row_by_row(row: int) -> None:
    """Each row beats every row below it, even when those come first in the list."""
    below = [entry[0] for entry in ROWS[row + 1:]]
    winner, kind, reason = ROWS[row]
    for policies in ([*below, winner], [winner, *below], [*reversed(below), winner]):
        assert decide(policy.enforce(policies), "run_command") == Decision(kind, reason)


def test_ask_user_handler_that_says_no_at_each_level() -> None:
    for pattern in ("run_command", "run_*", "*"):
        hook = policy.enforce([policy.allow("*"), policy.ask_user(pattern, handler=no)])
        assert decide(hook, "run_command") == Decision.deny(
            f"denied by policy '{pattern}': the ask_user handler said no")


def test_the_seed_example() -> None:
    asked: list[str] = []

    def confirm(ctx: Any) -> bool:
        asked.append(ctx.tool_args["CommandLine"])
        return bool(ctx.tool_args["CommandLine"] == "ls")

    hook = policy.enforce([
        policy.deny("*"),
        policy.allow("view_file"),
        policy.deny("run_command", when=lambda args: "rm" in args.get("CommandLine", "")),
        policy.ask_user("run_command", handler=confirm),
    ])
    assert decide(hook, "view_file").kind == "approve"
    assert decide(hook, "run_command", {"CommandLine": "rm -rf /"}) == Decision.deny(
        "denied by policy 'run_command'")
    assert asked == []
    assert decide(hook, "run_command", {"CommandLine": "ls"}).kind == "approve"
    assert decide(hook, "run_command", {"CommandLine": "make"}).kind == "deny"
    assert asked == ["ls", "make"]
    assert decide(hook, "edit_file") == Decision.deny("denied by policy '*'")


def test_first_match_in_list_order_wins_within_a_level() -> None:
    hook = policy.enforce([
        policy.deny("run_command", when=lambda args: args.get("x") == 1, name="first"),
        policy.deny("run_command", name="second"),
        policy.deny("run_command", name="third"),
    ])
    assert decide(hook, "run_command", {"x": 1}).reason == "denied by policy 'first'"
    assert decide(hook, "run_command", {"x": 2}).reason == "denied by policy 'second'"


def test_first_matching_glob_in_list_order_wins() -> None:
    hook = policy.enforce([
        policy.allow("mcp_*", name="any-mcp"),
        policy.allow("mcp_github_*", name="github"),
    ])
    assert decide(hook, "mcp_github_create_issue").reason == "allowed by policy 'any-mcp'"


def test_predicates_are_evaluated_lazily() -> None:
    called: list[str] = []

    def spy(label: str, answer: bool) -> Callable[[Mapping[str, Any]], bool]:
        def predicate(args: Mapping[str, Any]) -> bool:
            called.append(label)
            return answer
        return predicate

    hook = policy.enforce([
        policy.deny("*", when=spy("star-deny", True)),
        policy.allow("run_*", when=spy("glob-allow", True)),
        policy.allow("run_command", when=spy("exact-allow-2", True)),
        policy.deny("run_command", when=spy("exact-deny", False)),
        policy.allow("run_command", when=spy("exact-allow-1", True)),
        policy.allow("run_command", when=spy("exact-allow-3", True)),
    ])
    assert decide(hook, "run_command").reason == "allowed by policy 'run_command'"
    # Deny first, then allows in list order, and nothing after the first match.
    assert called == ["exact-deny", "exact-allow-2"]


def test_a_raising_predicate_denies_even_on_an_allow_policy() -> None:
    def broken(args: Mapping[str, Any]) -> bool:
        raise KeyError("CommandLine")

    hook = policy.enforce([policy.allow("run_command", when=broken, name="safe-commands"),
                           policy.allow("*")])
    assert decide(hook, "run_command") == Decision.deny(
        "denied by policy 'safe-commands': its when predicate raised KeyError: 'CommandLine'")
    # Another tool never reaches the broken predicate.
    assert decide(hook, "view_file").kind == "approve"


def test_a_raising_predicate_on_a_lower_level_is_not_reached_after_a_match() -> None:
    def broken(args: Mapping[str, Any]) -> bool:
        raise RuntimeError("unreachable")

    hook = policy.enforce([policy.deny("*", when=broken), policy.allow("view_file")])
    assert decide(hook, "view_file").kind == "approve"
    assert decide(hook, "edit_file").reason == (
        "denied by policy '*': its when predicate raised RuntimeError: unreachable")


def test_predicates_get_the_tool_arguments() -> None:
    seen: list[Any] = []
    hook = policy.enforce([policy.deny("t", when=seen.append)])
    decide(hook, "t", {"a": 1})
    assert seen == [{"a": 1}]
    hook(Ctx("t", None))
    assert seen[-1] == {}


def test_predicate_results_count_by_truthiness() -> None:
    hook = policy.enforce([policy.deny("t", when=lambda args: args.get("path"))])
    assert decide(hook, "t", {"path": "x"}).kind == "deny"
    assert decide(hook, "t", {"path": ""}) == Decision.allow()


def test_async_predicates_and_handlers_make_an_async_hook() -> None:
    async def dangerous(args: Mapping[str, Any]) -> bool:
        await asyncio.sleep(0)
        return "rm" in args.get("CommandLine", "")

    async def confirm(ctx: Any) -> bool:
        await asyncio.sleep(0)
        return bool(ctx.tool_args.get("ok"))

    hook = policy.enforce([policy.deny("run_command", when=dangerous),
                           policy.ask_user("run_command", handler=confirm)])
    assert inspect.iscoroutinefunction(hook)
    assert asyncio.run(hook(Ctx("run_command", {"CommandLine": "rm x"}))).kind == "deny"
    assert asyncio.run(hook(Ctx("run_command", {"CommandLine": "ls", "ok": 1}))).kind == "approve"
    assert asyncio.run(hook(Ctx("run_command", {"CommandLine": "ls"}))).kind == "deny"


def test_an_async_predicate_that_raises_denies() -> None:
    async def broken(args: Mapping[str, Any]) -> bool:
        raise ValueError("bad")

    hook = policy.enforce([policy.allow("t", when=broken, name="p")])
    assert decide(hook, "t") == Decision.deny(
        "denied by policy 'p': its when predicate raised ValueError: bad")


def test_an_async_callable_object_makes_an_async_hook() -> None:
    class Check:
        async def __call__(self, args: Mapping[str, Any]) -> bool:
            return True

    hook = policy.enforce([policy.deny("t", when=Check())])
    assert inspect.iscoroutinefunction(hook)
    assert decide(hook, "t").kind == "deny"


def test_sync_hooks_stay_plain_functions() -> None:
    hook = policy.enforce([policy.deny("t", when=lambda args: True),
                           policy.ask_user("u", handler=yes)])
    assert not inspect.iscoroutinefunction(hook)
    assert decide(hook, "t").kind == "deny"


def test_an_async_hook_awaits_a_sync_predicate_that_returns_an_awaitable() -> None:
    async def check(args: Mapping[str, Any]) -> bool:
        return True

    async def confirm(ctx: Any) -> bool:
        return True

    # A plain function returning a coroutine: only calling it shows it is asynchronous.
    hook = policy.enforce([policy.deny("t", when=lambda args: check(args)),  # noqa: PLW0108
                           policy.ask_user("u", handler=confirm)])
    assert decide(hook, "t").kind == "deny"


def test_a_sync_hook_denies_an_awaitable_it_cannot_await() -> None:
    async def check(args: Mapping[str, Any]) -> bool:
        return False

    hook = policy.enforce([policy.allow("t", when=lambda args: check(args), name="p")])  # noqa: PLW0108
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = decide(hook, "t")
        gc.collect()
    assert result.kind == "deny"
    assert str(result.reason).startswith(
        "denied by policy 'p': its when predicate returned an awaitable")
    assert not [w for w in caught if "never awaited" in str(w.message)]


@pytest.mark.parametrize(("answer", "kind"), [
    (True, "approve"), (False, "deny"), (None, "deny"), ("yes", "deny"), (1, "deny"),
    (Decision.approve(), "deny"),
])
def test_ask_user_handler_answers(answer: object, kind: str) -> None:
    """Only True approves: a truthy non-answer (a string, a Decision) must never approve."""
    hook = policy.enforce([policy.ask_user("t", handler=lambda ctx: answer, name="gate")])
    result = decide(hook, "t")
    assert result.kind == kind
    if answer is True:
        assert result.reason == "approved by the ask_user handler of policy 'gate'"
    elif answer is False:
        assert result.reason == "denied by policy 'gate': the ask_user handler said no"
    else:
        assert result.reason == (f"denied by policy 'gate': its ask_user handler returned "
                                 f"{type(answer).__name__}, not True or False")


def test_ask_user_handler_gets_the_context_itself() -> None:
    seen: list[Any] = []
    def handler(ctx: Any) -> bool:
        seen.append(ctx)
        return True

    hook = policy.enforce([policy.ask_user("t", handler=handler)])
    ctx = Ctx("t", {"a": 1})
    hook(ctx)
    assert seen == [ctx]
    assert seen[0] is ctx


@pytest.mark.parametrize("make_async", [False, True])
def test_a_raising_handler_denies(make_async: bool) -> None:
    def broken(ctx: Any) -> bool:
        raise OSError("no terminal")

    async def abroken(ctx: Any) -> bool:
        raise OSError("no terminal")

    hook = policy.enforce([policy.ask_user("t", handler=abroken if make_async else broken)])
    assert decide(hook, "t") == Decision.deny(
        "denied by policy 't': its ask_user handler raised OSError: no terminal")


def test_enforce_rejects_ask_user_without_a_handler() -> None:
    with pytest.raises(ValueError, match="policy 'confirm-shell' is an ask_user policy without"):
        policy.enforce([policy.allow("*"), policy.ask_user("run_command", name="confirm-shell")])
    with pytest.raises(ValueError, match="policy 'run_command' is an ask_user"):
        policy.enforce([policy.ask_user("run_command")])


def test_enforce_rejects_what_is_not_a_policy() -> None:
    with pytest.raises(TypeError, match="policy 1 is a str, not a Policy"):
        policy.enforce([policy.allow("*"), "deny run_command"])  # type: ignore[list-item]


@pytest.mark.parametrize(("tool", "when", "handler", "name", "error"), [
    ("", None, None, "", ValueError),
    (None, None, None, "", ValueError),
    ("t", "yes", None, "", TypeError),
    ("t", None, True, "", TypeError),
    ("t", None, None, 3, TypeError),
])
def test_builders_check_their_arguments(tool: Any, when: Any, handler: Any, name: Any,
                                        error: type[Exception]) -> None:
    with pytest.raises(error):
        policy.ask_user(tool, handler=handler, when=when, name=name)


def test_defaults() -> None:
    assert decide(policy.enforce([]), "t") == Decision.allow()
    assert decide(policy.enforce([policy.deny("u")], default="allow"), "t") == Decision.allow()
    assert decide(policy.enforce([], default="deny"), "t") == Decision.deny(
        "no policy matched tool 't', and the default denies")
    assert decide(policy.enforce([], default="ask"), "t") == Decision.ask(
        "no policy matched tool 't': allow it?")
    assert decide(policy.enforce([], default="deny"), None).reason == (
        "no policy matched a call without a tool name, and the default denies")
    # A predicate that does not hold is no match either.
    hook = policy.enforce([policy.allow("t", when=lambda args: False)], default="deny")
    assert decide(hook, "t").kind == "deny"


@pytest.mark.parametrize("default", ["Allow", "block", "", None])
def test_a_bad_default_is_a_value_error(default: Any) -> None:
    with pytest.raises(ValueError, match="default must be one of 'allow', 'deny', 'ask'"):
        policy.enforce([], default=default)


def test_deny_reasons_name_the_policy_or_its_pattern() -> None:
    hook = policy.enforce([policy.deny("run_command", name="no-shell"),
                           policy.deny("mcp_github_*"), policy.deny("*")])
    assert decide(hook, "run_command").reason == "denied by policy 'no-shell'"
    assert decide(hook, "mcp_github_push").reason == "denied by policy 'mcp_github_*'"
    assert decide(hook, "view_file").reason == "denied by policy '*'"


def test_glob_patterns() -> None:
    hook = policy.enforce([policy.deny("mcp_github_*", name="star"),
                           policy.deny("edit_?", name="one"),
                           policy.deny("tool[0-9]", name="set")])
    assert decide(hook, "mcp_github_create_issue").reason == "denied by policy 'star'"
    assert decide(hook, "mcp_github_").kind == "deny"
    assert decide(hook, "mcp_gitlab_x") == Decision.allow()
    assert decide(hook, "MCP_GITHUB_X") == Decision.allow()  # case matters, as for tool names
    assert decide(hook, "edit_a").reason == "denied by policy 'one'"
    assert decide(hook, "edit_ab") == Decision.allow()
    assert decide(hook, "tool7").reason == "denied by policy 'set'"
    assert decide(hook, "toolx") == Decision.allow()


def test_a_call_without_a_tool_name_matches_only_wildcards() -> None:
    hook = policy.enforce([policy.deny("t"), policy.deny("?*"), policy.allow("*", name="any")])
    assert decide(hook, None).reason == "allowed by policy 'any'"


def test_the_hook_is_marked_for_pre_tool_use() -> None:
    hook = policy.enforce([policy.deny("t")])
    assert hook.__name__ == "policy"
    assert hook.agenthooks_events == ("PreToolUse",)  # type: ignore[attr-defined]
    assert hook.policies == (policy.deny("t"),)  # type: ignore[attr-defined]


def test_policies_are_immutable_records_with_a_readable_repr() -> None:
    def is_rm(args: Mapping[str, Any]) -> bool:
        return False

    rule = policy.deny("run_command", when=is_rm, name="no-rm")
    with pytest.raises(AttributeError):
        rule.decision = "allow"  # type: ignore[misc]
    assert repr(rule) == (
        "policy.deny('run_command', when=test_policies_are_immutable_records_with_a_readable_repr"
        ".<locals>.is_rm, name='no-rm')")
    assert repr(policy.allow("*")) == "policy.allow('*')"
    assert repr(policy.ask_user("t", handler=yes)) == "policy.ask_user('t', handler=yes)"
    assert repr(policy.deny("t", when=lambda a: True)) == (
        "policy.deny('t', when=test_policies_are_immutable_records_with_a_readable_repr"
        ".<locals>.<lambda>)")


def _reference(policies: list[Policy], tool: str, args: Mapping[str, Any]) -> Decision:
    """The precedence rule written plainly: sort every match by (level, decision, position)."""
    order = {"deny": 0, "ask": 1, "allow": 2}
    matching = [(p.specificity, order[p.decision], index, p) for index, p in enumerate(policies)
                if fnmatchcase(tool, p.tool) and (p.when is None or p.when(args))]
    if not matching:
        return Decision.allow()
    best = min(matching, key=lambda entry: entry[:3])[3]
    if best.decision == "deny":
        return Decision.deny(f"denied by policy '{best.label}'")
    if best.decision == "allow":
        return Decision.approve(f"allowed by policy '{best.label}'")
    return Decision.approve(f"approved by the ask_user handler of policy '{best.label}'")


def test_a_thousand_policies_decide_as_the_plain_rule_does() -> None:
    rng = random.Random(8)
    tools = [f"tool_{n}" for n in range(300)] + [f"mcp_{s}_{n}" for s in "abc" for n in range(50)]
    builders = {"deny": policy.deny, "allow": policy.allow}
    policies: list[Policy] = []
    for index in range(1000):
        roll = rng.random()
        if roll < 0.8:
            pattern = rng.choice(tools)
        elif roll < 0.97:
            pattern = rng.choice(["mcp_a_*", "mcp_*", "tool_1*", "tool_?", "mcp_[ab]_1*"])
        else:
            pattern = "*"
        threshold = rng.randrange(4)
        when = (lambda args, t=threshold: args["n"] > t) if rng.random() < 0.5 else None
        if rng.random() < 0.2:
            policies.append(policy.ask_user(pattern, handler=yes, when=when, name=f"p{index}"))
        else:
            choice = rng.choice(["deny", "allow"])
            policies.append(builders[choice](pattern, when=when, name=f"p{index}"))
    hook = policy.enforce(policies)
    for tool in [*tools, "unknown", "mcp_z"]:
        for n in range(5):
            assert decide(hook, tool, {"n": n}) == _reference(policies, tool, {"n": n}), tool


def test_the_glob_cache_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(policy, "PLAN_CACHE_SIZE", 8)
    hook = policy.enforce([policy.deny("a*", name="a"), policy.allow("*", name="any")])
    table = inspect.getclosurevars(hook).nonlocals["table"]
    for round_ in range(3):
        for n in range(40):
            expected = "denied by policy 'a'" if n % 2 else "allowed by policy 'any'"
            assert decide(hook, f"{'a' if n % 2 else 'b'}{n}").reason == expected, round_
            assert len(table.plans) <= 8
