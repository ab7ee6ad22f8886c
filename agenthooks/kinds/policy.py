"""Declarative tool-call policies, turned into one decide hook for PreToolUse.

    from agenthooks import policy

    guard = policy.enforce([
        policy.deny("*"),                                   # block everything by default
        policy.allow("view_file"),                          # except reading files
        policy.deny("run_command", when=lambda args: "rm" in args.get("CommandLine", "")),
        policy.ask_user("run_command", handler=confirm),    # ask for the other commands
    ])
    hooks.on("PreToolUse", guard)

Precedence is by specificity, then by decision, and within one level the first match in list
order wins (the Antigravity SDK's table, with a glob level between exact names and "*"):

    level  tool pattern                      decision
    1-3    exact name ("run_command")        deny, then ask_user, then allow
    4-6    glob ("mcp_github_*", any *?[)    deny, then ask_user, then allow
    7-9    "*"                               deny, then ask_user, then allow

`when` predicates are evaluated lazily in that order: once a policy matched, no predicate of a
later policy is called. A predicate is a filter, so its result counts by truthiness. It fails
closed: a predicate that raises denies, whatever its policy's own decision. An `ask_user`
handler must answer exactly True (approve) or False (deny): anything else (None, "no", a
Decision) denies, because a truthy non-answer must never approve. A handler that raises
denies too. No match gives `default`: "allow" (no opinion), "deny" or "ask".

Evaluation is indexed by tool name: exact names are a dict lookup, the globs are matched once
per distinct tool name (the result is cached, bounded), so a thousand policies for other tools
cost about what ten do.
"""

from __future__ import annotations

import _thread  # `threading`'s own lock and thread-local types, without importing it

from agenthooks._lean.records import NamedTuple
from agenthooks.drive import finish
from agenthooks.model.decision import Decision

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Iterable, Mapping
    from typing import Any

    Predicate = Callable[[Mapping[str, Any]], Any]
    Handler = Callable[[Any], Any]
    PolicyHook = Callable[[Any], Decision | Awaitable[Decision]]

# Within one level, the safer decision is considered first.
DECISION_ORDER: tuple[str, ...] = ("deny", "ask", "allow")
DEFAULTS: tuple[str, ...] = ("allow", "deny", "ask")
GLOB_CHARS = frozenset("*?[")
EVENTS: tuple[str, ...] = ("PreToolUse",)
# Distinct tool names whose glob matches are remembered; tool names come from the payload,
# so the cache must not grow with whatever names a model invents.
PLAN_CACHE_SIZE = 4096
_REASON_LIMIT = 300
_EMPTY_ARGS: Mapping[str, Any] = {}


class Policy(NamedTuple):
    """One rule: for calls of `tool` (name, glob or "*") where `when` holds, decide."""

    tool: str
    decision: str  # "allow", "deny" or "ask"
    when: Predicate | None = None
    handler: Handler | None = None
    name: str = ""

    @property
    def label(self) -> str:
        """What reasons call it: its name, else its tool pattern."""
        return self.name or self.tool

    @property
    def specificity(self) -> int:
        """0 for an exact tool name, 1 for a glob, 2 for "*"."""
        if self.tool == "*":
            return 2
        return 1 if GLOB_CHARS.intersection(self.tool) else 0

    def __repr__(self) -> str:
        builder = "ask_user" if self.decision == "ask" else self.decision
        parts = [repr(self.tool)]
        if self.handler is not None:
            parts.append(f"handler={_callable_name(self.handler)}")
        if self.when is not None:
            parts.append(f"when={_callable_name(self.when)}")
        if self.name:
            parts.append(f"name={self.name!r}")
        return f"policy.{builder}({', '.join(parts)})"


def allow(tool: str, when: Predicate | None = None, name: str = "") -> Policy:
    """Approve calls of `tool` (skipping the host's permission prompt) where `when` holds."""
    return _policy(tool, "allow", when, None, name)


def deny(tool: str, when: Predicate | None = None, name: str = "") -> Policy:
    """Deny calls of `tool` where `when` holds."""
    return _policy(tool, "deny", when, None, name)


def ask_user(
    tool: str, handler: Handler | None = None, when: Predicate | None = None, name: str = ""
) -> Policy:
    """Ask `handler(ctx)` about calls of `tool` where `when` holds: True approves, False denies."""
    return _policy(tool, "ask", when, handler, name)


def _policy(
    tool: str, decision: str, when: Predicate | None, handler: Handler | None, name: str
) -> Policy:
    if not isinstance(tool, str) or not tool:
        raise ValueError(f"a policy's tool must be a non-empty tool name or pattern, not {tool!r}")
    if when is not None and not callable(when):
        raise TypeError(f"policy for {tool!r}: when must be callable, not {type(when).__name__}")
    if handler is not None and not callable(handler):
        raise TypeError(
            f"policy for {tool!r}: handler must be callable, not {type(handler).__name__}"
        )
    if not isinstance(name, str):
        raise TypeError(f"policy for {tool!r}: name must be a string, not {type(name).__name__}")
    return Policy(tool, decision, when, handler, name)


def enforce(policies: Iterable[Policy], default: str = "allow") -> PolicyHook:
    """One decide hook for PreToolUse that applies `policies` to each tool call.

    The hook takes the context (`ctx.tool_name`, `ctx.tool_args`; an ask_user handler gets
    `ctx` itself) and returns a Decision. It is an `async def` when any predicate or handler
    is one, else a plain function, so a synchronous harness needs no event loop.
    """
    if default not in DEFAULTS:
        choices = ", ".join(map(repr, DEFAULTS))
        raise ValueError(f"default must be one of {choices}, not {default!r}")
    items = tuple(policies)
    for index, item in enumerate(items):
        if not isinstance(item, Policy):
            raise TypeError(
                f"policy {index} is a {type(item).__name__}, not a Policy "
                "(build it with policy.allow, policy.deny or policy.ask_user)"
            )
        if item.decision == "ask" and item.handler is None:
            raise ValueError(f"policy '{item.label}' is an ask_user policy without a handler")
    table = _Table(items, default)
    hook: Any = _async_hook(table) if _any_async(items) else _sync_hook(table)
    hook.__name__ = hook.__qualname__ = "policy"
    # The registry refuses the hook on any other event; `list` can show the policies.
    hook.agenthooks_events = EVENTS
    hook.policies = items
    built: PolicyHook = hook
    return built


class _Rule(NamedTuple):
    """A policy as evaluated: its decision precomputed where it needs no handler."""

    policy: Policy
    when: Predicate | None
    handler: Handler | None
    outcome: Decision | None  # None: ask the handler


def _rule(item: Policy) -> _Rule:
    label = item.label
    if item.decision == "allow":
        outcome: Decision | None = Decision.approve(f"allowed by policy '{label}'")
    elif item.decision == "deny":
        outcome = Decision.deny(f"denied by policy '{label}'")
    else:
        outcome = None
    return _Rule(item, item.when, item.handler, outcome)


def _by_decision(rules: list[_Rule]) -> tuple[_Rule, ...]:
    # A stable sort: list order is kept within each decision.
    return tuple(sorted(rules, key=lambda rule: DECISION_ORDER.index(rule.policy.decision)))


def _glob(pattern: str) -> Callable[[str], object]:
    """The matcher of a glob policy; `re` and `fnmatch` load only for policies that have one."""
    import re
    from fnmatch import translate

    return re.compile(translate(pattern)).match


class _Table:
    """The policies indexed by tool name: which rules to try, in order, for one tool."""

    def __init__(self, items: tuple[Policy, ...], default: str) -> None:
        exact: dict[str, list[_Rule]] = {}
        globs: list[tuple[Callable[[str], object], _Rule]] = []
        anywhere: list[_Rule] = []
        for item in items:
            rule = _rule(item)
            level = item.specificity
            if level == 0:
                exact.setdefault(item.tool, []).append(rule)
            elif level == 1:
                globs.append((_glob(item.tool), rule))
            else:
                anywhere.append(rule)
        self.star = _by_decision(anywhere)
        self.exact = {tool: _by_decision(rules) for tool, rules in exact.items()}
        self.globs = globs
        # Without globs a tool's plan is fixed: exact rules then "*" rules, no cache needed.
        self.plans: dict[str | None, tuple[_Rule, ...]] = (
            {} if globs else {tool: rules + self.star for tool, rules in self.exact.items()}
        )
        self.lock = _thread.allocate_lock()
        self.default = default

    def plan(self, tool: str | None) -> tuple[_Rule, ...]:
        """The rules that apply to `tool`, most specific and safest first."""
        found = self.plans.get(tool)
        if found is not None:
            return found
        if not self.globs:
            return self.star
        name = tool or ""
        matched = [rule for match, rule in self.globs if match(name)]
        found = self.exact.get(name, ()) + _by_decision(matched) + self.star
        with self.lock:
            if len(self.plans) >= PLAN_CACHE_SIZE:
                del self.plans[next(iter(self.plans))]  # the oldest entry
            self.plans[tool] = found
        return found

    def fallback(self, tool: str | None) -> Decision:
        """What `default` says when no policy matched."""
        if self.default == "allow":
            return Decision.allow()
        what = f"tool {tool!r}" if tool else "a call without a tool name"
        if self.default == "deny":
            return Decision.deny(f"no policy matched {what}, and the default denies")
        return Decision.ask(f"no policy matched {what}: allow it?")


async def _evaluate(table: _Table, ctx: Any, looped: bool) -> Decision:
    """One decision. Without a loop (`looped` false: every predicate and handler is a plain
    function) an awaitable cannot be awaited: it is a deny that says to use `async def`."""
    tool = ctx.tool_name
    args = ctx.tool_args
    if args is None:
        args = _EMPTY_ARGS
    for rule in table.plan(tool):
        if rule.when is not None:
            hit, failed = await _call(rule.when, args, rule.policy, "when predicate", looped)
            if failed is not None:
                return failed
            if not hit:
                continue
        if rule.outcome is not None:
            return rule.outcome
        answer, failed = await _call(
            rule.handler, ctx, rule.policy, "ask_user handler", looped  # type: ignore[arg-type]
        )
        return failed if failed is not None else _answer(rule.policy, answer)
    return table.fallback(tool)


async def _call(
    fn: Callable[[Any], object], arg: Any, item: Policy, what: str, looped: bool
) -> tuple[object, Decision | None]:
    """(what `fn(arg)` gives, None), awaited when it is awaitable; or (None, the deny) when it
    raises, or returns an awaitable to a synchronous hook: a policy's code fails closed."""
    try:
        value = fn(arg)
        if _awaitable(value):
            if not looped:
                return None, _not_awaited(item, what, value)
            value = await value  # type: ignore[misc]
    except Exception as exc:
        return None, _failed(item, f"{what} raised", exc)
    return value, None


def _sync_hook(table: _Table) -> Callable[[Any], Decision]:
    def policy(ctx: Any) -> Decision:
        # Nothing in it awaits without a loop, so it completes on the first step.
        return finish(_evaluate(table, ctx, False), "a policy")

    return policy


def _async_hook(table: _Table) -> Callable[[Any], Awaitable[Decision]]:
    async def policy(ctx: Any) -> Decision:
        return await _evaluate(table, ctx, True)

    return policy


def _answer(item: Policy, answer: object) -> Decision:
    if answer is True:
        return Decision.approve(f"approved by the ask_user handler of policy '{item.label}'")
    if answer is False:
        return Decision.deny(f"denied by policy '{item.label}': the ask_user handler said no")
    return Decision.deny(
        f"denied by policy '{item.label}': its ask_user handler returned "
        f"{type(answer).__name__}, not True or False"
    )


def _failed(item: Policy, what: str, exc: Exception) -> Decision:
    error = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    if len(error) > _REASON_LIMIT:
        error = error[:_REASON_LIMIT] + "..."
    return Decision.deny(f"denied by policy '{item.label}': its {what} {error}")


def _not_awaited(item: Policy, what: str, value: Any) -> Decision:
    # A plain function that returns a coroutine cannot be awaited by a synchronous hook:
    # close it (no "never awaited" warning) and fail closed.
    close = getattr(value, "close", None)
    if callable(close):
        close()
    return Decision.deny(
        f"denied by policy '{item.label}': its {what} returned an awaitable to a synchronous "
        "policy hook (declare it with async def)"
    )


def _awaitable(value: object) -> bool:
    return hasattr(type(value), "__await__")


def _any_async(items: tuple[Policy, ...]) -> bool:
    # inspect is costly to import and only needed here, when the hook is built.
    import inspect

    def is_async(fn: object) -> bool:
        return inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(
            getattr(fn, "__call__", None)  # noqa: B004 (an object with an async __call__)
        )

    return any(is_async(fn) for item in items for fn in (item.when, item.handler) if fn is not None)


def _callable_name(fn: object) -> str:
    name = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None)
    return name if isinstance(name, str) else f"<{type(fn).__name__} object>"
