"""One decision type for every kind of hook, and the order of their strength.

    Decision.allow()              no opinion: the call goes on as it would have
    Decision.approve(reason)      an explicit yes that skips the host's permission prompt
    Decision.deny(reason)         stop: the tool call, model call or stop is refused
    Decision.ask(prompt, force)   let a person decide (force: Antigravity's force_ask)
    Decision.modify(args)         new tool arguments, seen by every later hook and handler
    Decision.replace(output)      a result supplied instead of running the tool, model or agent
    Decision.inject(message)      a transient system message for the next model call

A NamedTuple: immutable, typed, and cheap to build on a path that runs per tool call.
"""

from __future__ import annotations

# `collections.abc` re-exports it: the same class, without importing `collections`.
from _collections_abc import Mapping

from agenthooks._lean.records import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

KINDS: tuple[str, ...] = ("allow", "approve", "deny", "ask", "modify", "replace", "inject")
# Strongest first: the one outcome that describes a whole event (`EventResult.decision`).
STRENGTH: tuple[str, ...] = ("deny", "ask", "replace", "approve", "modify", "inject", "allow")
RANK: dict[str, int] = {kind: len(STRENGTH) - index for index, kind in enumerate(STRENGTH)}
# After one of these, no later decide/transform hook and no command handler runs.
TERMINAL: frozenset[str] = frozenset(("deny", "ask", "replace"))
# What a decide hook may return; modify and replace need a transform hook.
DECIDE_KINDS: frozenset[str] = frozenset(("allow", "approve", "deny", "ask", "inject"))
# The word people read for each kind, in the run report, the audit log, `agenthooks test`
# fixtures and `explain`: the answer's own words, so an explicit yes is "allow" (as a host
# reads it) and no decision at all is None (null). The API keeps its kinds; this is the one
# table between the two.
REPORT_WORDS: dict[str, str | None] = {
    "allow": None, "approve": "allow", "deny": "deny", "ask": "ask",
    "modify": "modify", "replace": "replace", "inject": "inject",
}
# Every word a report may say (besides null); `force_ask` is an ask that ignores the host's
# "always allow" cache.
WORDS: tuple[str, ...] = ("allow", "deny", "ask", "force_ask", "modify", "replace", "inject")


class Decision(NamedTuple):
    """What one hook, or a whole event, decided. Build it with the constructors."""

    kind: str
    reason: str | None = None
    args: dict[str, Any] | None = None
    output: Any = None
    message: str | None = None
    force: bool = False

    @classmethod
    def allow(cls) -> Decision:
        return _ALLOW

    @classmethod
    def approve(cls, reason: str | None = None) -> Decision:
        return cls("approve", reason)

    @classmethod
    def deny(cls, reason: str) -> Decision:
        return cls("deny", reason)

    @classmethod
    def ask(cls, prompt: str, force: bool = False) -> Decision:
        return cls("ask", prompt, force=bool(force))

    @classmethod
    def modify(cls, args: Mapping[str, Any]) -> Decision:
        """New arguments, copied deeply into plain dicts and lists (read-only views too)."""
        if not isinstance(args, Mapping):
            kind = type(args).__name__
            raise TypeError(f"Decision.modify takes a dict (or a mapping) of arguments, not {kind}")
        return cls("modify", args=plain(args))

    @classmethod
    def replace(cls, output: Any) -> Decision:
        return cls("replace", output=output)

    @classmethod
    def inject(cls, message: str) -> Decision:
        return cls("inject", message=message)

    @property
    def word(self) -> str | None:
        """The decision in the report's words (`REPORT_WORDS`): None when there is none."""
        if self.kind == "ask" and self.force:
            return "force_ask"
        return REPORT_WORDS[self.kind]

    @property
    def terminal(self) -> bool:
        """Whether it ends the chain (deny, ask, replace)."""
        return self.kind in TERMINAL

    @property
    def blocks(self) -> bool:
        """Whether the thing the event was about does not go ahead as asked."""
        return self.kind in ("deny", "replace")

    def __repr__(self) -> str:
        pairs = zip(self._fields[1:], self[1:], strict=True)
        fields = [f"{name}={value!r}" for name, value in pairs if value not in (None, False)]
        return f"Decision.{self.kind}({', '.join(fields)})"


_ALLOW = Decision("allow")


def plain(value: Any) -> Any:
    """A deep copy with every mapping a dict and every list or tuple a list (for JSON)."""
    if isinstance(value, Mapping):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)) or (
        hasattr(value, "__getitem__") and hasattr(value, "__len__")
        and not isinstance(value, (str, bytes, bytearray))
    ):
        return [plain(item) for item in value]
    return value


def strongest(decisions: list[Decision]) -> Decision:
    """The strongest of several decisions (deny > ask > replace > approve > modify > ...)."""
    best = _ALLOW
    for decision in decisions:
        if RANK[decision.kind] > RANK[best.kind]:
            best = decision
    return best
