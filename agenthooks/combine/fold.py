"""The in-process fold: decide and transform hooks of one event, in order, as one outcome.

    allow    passes
    approve  remembered; the chain goes on (a later deny or ask still wins)
    inject   collected; the chain goes on
    modify   replaces the tool arguments every later hook and the handlers see
    deny, ask, replace
             terminal: nothing after it runs; collected injects still come back with it

Pure functions over decisions, so the algebra is tested by tables.
"""

from __future__ import annotations

from agenthooks._lean.records import NamedTuple
from agenthooks.model.decision import Decision

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any


class Folded(NamedTuple):
    """Where the chain stands: rewritten arguments, a yes, messages, and a terminal, if any."""

    args: dict[str, Any] | None = None  # the arguments after the last modify
    approval: Decision | None = None  # the first approve
    injected: tuple[str, ...] = ()
    terminal: Decision | None = None
    terminal_hook: str | None = None

    @property
    def done(self) -> bool:
        return self.terminal is not None


# Where every chain starts (a NamedTuple: one shared instance will do).
START = Folded()


def step(folded: Folded, hook: str, decision: Decision) -> Folded:
    """The chain after one more hook's decision (a terminal chain does not change)."""
    if folded.terminal is not None:
        return folded
    kind = decision.kind
    if kind == "allow":
        return folded
    if kind == "approve":
        return folded if folded.approval is not None else folded._replace(approval=decision)
    if kind == "inject":
        return folded._replace(injected=(*folded.injected, decision.message or ""))
    if kind == "modify":
        return folded._replace(args=dict(decision.args or {}))
    return folded._replace(terminal=decision, terminal_hook=hook)


def fold(decisions: Iterable[tuple[str, Decision]]) -> Folded:
    """Fold (hook name, decision) pairs in order, stopping at the first terminal one."""
    folded = START
    for hook, decision in decisions:
        folded = step(folded, hook, decision)
        if folded.done:
            break
    return folded
