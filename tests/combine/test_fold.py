"""The in-process fold as tables: pure functions over (hook, decision) pairs, no processes.

    allow passes; approve is remembered and a later deny or ask still wins; inject is collected
    and comes back with a terminal; modify replaces the arguments seen later; the first deny,
    ask or replace is terminal, and nothing after it changes anything.
"""

from __future__ import annotations

from typing import Any

import pytest

from agenthooks import Decision
from agenthooks.combine.fold import Folded, fold, step

A = Decision.allow()
P = Decision.approve("yes")
P2 = Decision.approve("also yes")
D = Decision.deny("no")
D2 = Decision.deny("no again")
K = Decision.ask("sure?")
R = Decision.replace({"result": 1})
I1 = Decision.inject("first")
I2 = Decision.inject("second")
M1 = Decision.modify({"cmd": "one"})
M2 = Decision.modify({"cmd": "two"})


def named(*decisions: Decision) -> list[tuple[str, Decision]]:
    return [(f"h{index}", d) for index, d in enumerate(decisions)]


# (decisions in order, args, approval, injected, terminal, terminal hook)
TABLE: list[tuple[list[Decision], Any, Any, tuple[str, ...], Any, Any]] = [
    ([], None, None, (), None, None),
    ([A], None, None, (), None, None),
    ([A, A, A], None, None, (), None, None),
    # approve is remembered; the first one is kept
    ([P], None, P, (), None, None),
    ([P, P2], None, P, (), None, None),
    ([A, P, A], None, P, (), None, None),
    # a later deny or ask still wins over an approve
    ([P, D], None, P, (), D, "h1"),
    ([P, K], None, P, (), K, "h1"),
    ([P, R], None, P, (), R, "h1"),
    # injects are collected in order and come back with a terminal
    ([I1, I2], None, None, ("first", "second"), None, None),
    ([I1, D], None, None, ("first",), D, "h1"),
    ([I1, A, I2, K], None, None, ("first", "second"), K, "h3"),
    # modify replaces the arguments; the last one before a terminal stands
    ([M1], {"cmd": "one"}, None, (), None, None),
    ([M1, M2], {"cmd": "two"}, None, (), None, None),
    ([M1, A, M2, A], {"cmd": "two"}, None, (), None, None),
    ([M1, D], {"cmd": "one"}, None, (), D, "h1"),
    # the first deny/ask/replace is terminal: later ones change nothing
    ([D], None, None, (), D, "h0"),
    ([K], None, None, (), K, "h0"),
    ([R], None, None, (), R, "h0"),
    ([D, D2], None, None, (), D, "h0"),
    ([K, D], None, None, (), K, "h0"),
    ([R, D], None, None, (), R, "h0"),
    ([D, P, I1, M1, K, R], None, None, (), D, "h0"),
    ([A, D, M2], None, None, (), D, "h1"),
    ([A, K, I2], None, None, (), K, "h1"),
    # everything together
    ([P, I1, M1, I2, M2, D, I1, P2, M1], {"cmd": "two"}, P, ("first", "second"), D, "h5"),
]


@pytest.mark.parametrize(("decisions", "args", "approval", "injected", "terminal", "hook"),
                         TABLE)
def test_fold_table(decisions: list[Decision], args: Any, approval: Any,
                    injected: tuple[str, ...], terminal: Any, hook: Any) -> None:
    folded = fold(named(*decisions))
    assert folded == Folded(args, approval, injected, terminal, hook)
    assert folded.done is (terminal is not None)


@pytest.mark.parametrize(("decisions", "args", "approval", "injected", "terminal", "hook"),
                         TABLE)
def test_step_by_step_is_the_fold(decisions: list[Decision], args: Any, approval: Any,
                                  injected: tuple[str, ...], terminal: Any, hook: Any) -> None:
    folded = Folded()
    for name, decision in named(*decisions):
        folded = step(folded, name, decision)
    assert folded == fold(named(*decisions))


@pytest.mark.parametrize("terminal", [D, K, R])
@pytest.mark.parametrize("later", [A, P, D2, K, R, I1, M2])
def test_nothing_after_a_terminal_changes_it(terminal: Decision, later: Decision) -> None:
    before = step(Folded(args={"cmd": "kept"}, injected=("kept",)), "first", terminal)
    assert step(before, "later", later) is before


def test_fold_stops_consuming_at_the_terminal() -> None:
    seen: list[str] = []

    def pairs() -> Any:
        for name, decision in named(A, D, P, I1):
            seen.append(name)
            yield name, decision

    assert fold(pairs()).terminal is D
    assert seen == ["h0", "h1"]


def test_modify_arguments_are_a_copy() -> None:
    args = {"cmd": "one"}
    folded = step(Folded(), "h", Decision("modify", args=args))
    args["cmd"] = "changed"
    assert folded.args == {"cmd": "one"}


def test_an_inject_without_a_message_is_an_empty_one() -> None:
    assert step(Folded(), "h", Decision("inject")).injected == ("",)
