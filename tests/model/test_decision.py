"""The one decision type: its constructors, immutability, repr, and the order of strength."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from agenthooks import Decision
from agenthooks.model.decision import KINDS, STRENGTH, strongest

# (built, kind, reason, args, output, message, force)
CONSTRUCTORS: list[tuple[Decision, str, Any, Any, Any, Any, bool]] = [
    (Decision.allow(), "allow", None, None, None, None, False),
    (Decision.approve(), "approve", None, None, None, None, False),
    (Decision.approve("trusted"), "approve", "trusted", None, None, None, False),
    (Decision.deny("no"), "deny", "no", None, None, None, False),
    (Decision.ask("sure?"), "ask", "sure?", None, None, None, False),
    (Decision.ask("sure?", force=True), "ask", "sure?", None, None, None, True),
    (Decision.modify({"a": 1}), "modify", None, {"a": 1}, None, None, False),
    (Decision.replace({"out": 1}), "replace", None, None, {"out": 1}, None, False),
    (Decision.replace(None), "replace", None, None, None, None, False),
    (Decision.inject("note"), "inject", None, None, None, "note", False),
]


@pytest.mark.parametrize(("built", "kind", "reason", "args", "output", "message", "force"),
                         CONSTRUCTORS)
def test_constructors(built: Decision, kind: str, reason: Any, args: Any, output: Any,
                      message: Any, force: bool) -> None:
    assert (built.kind, built.reason, built.args, built.output, built.message, built.force) == (
        kind, reason, args, output, message, force)
    assert built == Decision(kind, reason, args, output, message, force)


def test_kinds_are_the_seven_of_the_issue() -> None:
    assert set(KINDS) == {"allow", "approve", "deny", "ask", "modify", "replace", "inject"}
    assert {c[1] for c in CONSTRUCTORS} == set(KINDS)


def test_decisions_are_immutable() -> None:
    decision = Decision.deny("no")
    with pytest.raises(AttributeError):
        decision.kind = "allow"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        decision.reason = "yes"  # type: ignore[misc]
    assert decision == Decision.deny("no")
    assert hash(Decision.deny("no")) == hash(decision)


def test_modify_copies_its_dict() -> None:
    args = {"CommandLine": "ls"}
    decision = Decision.modify(args)
    args["CommandLine"] = "rm -rf /"
    args["extra"] = 1
    assert decision.args == {"CommandLine": "ls"}
    assert decision.args is not args


@pytest.mark.parametrize("bad", [["a"], "a=1", None, 3])
def test_modify_takes_only_a_dict(bad: Any) -> None:
    with pytest.raises(TypeError, match="dict"):
        Decision.modify(bad)


def test_ask_force_is_a_bool() -> None:
    assert Decision.ask("p", force=1).force is True  # type: ignore[arg-type]
    assert Decision.ask("p", force=0).force is False  # type: ignore[arg-type]


@pytest.mark.parametrize(("decision", "text"), [
    (Decision.allow(), "Decision.allow()"),
    (Decision.approve(), "Decision.approve()"),
    (Decision.deny("no"), "Decision.deny(reason='no')"),
    (Decision.ask("sure?", force=True), "Decision.ask(reason='sure?', force=True)"),
    (Decision.modify({"a": 1}), "Decision.modify(args={'a': 1})"),
    (Decision.replace([1]), "Decision.replace(output=[1])"),
    (Decision.inject("hi"), "Decision.inject(message='hi')"),
])
def test_repr(decision: Decision, text: str) -> None:
    assert repr(decision) == text


@pytest.mark.parametrize(("decision", "terminal", "blocks"), [
    (Decision.allow(), False, False),
    (Decision.approve(), False, False),
    (Decision.inject("m"), False, False),
    (Decision.modify({}), False, False),
    (Decision.ask("p"), True, False),
    (Decision.deny("d"), True, True),
    (Decision.replace("r"), True, True),
])
def test_terminal_and_blocks(decision: Decision, terminal: bool, blocks: bool) -> None:
    assert (decision.terminal, decision.blocks) == (terminal, blocks)


ONE_OF_EACH = {
    "deny": Decision.deny("d"),
    "ask": Decision.ask("a"),
    "replace": Decision.replace("r"),
    "approve": Decision.approve("p"),
    "modify": Decision.modify({"m": 1}),
    "inject": Decision.inject("i"),
    "allow": Decision.allow(),
}
ORDER = ["deny", "ask", "replace", "approve", "modify", "inject", "allow"]


def test_strength_order_is_the_issues() -> None:
    assert list(STRENGTH) == ORDER


@pytest.mark.parametrize("pair", list(itertools.combinations(ORDER, 2)))
def test_strongest_of_two_in_either_order(pair: tuple[str, str]) -> None:
    stronger, weaker = pair  # combinations keep ORDER's order: the first is stronger
    a, b = ONE_OF_EACH[stronger], ONE_OF_EACH[weaker]
    assert strongest([a, b]) is a
    assert strongest([b, a]) is a


def test_strongest_of_all_permutations_is_deny() -> None:
    for perm in itertools.permutations(ONE_OF_EACH.values()):
        assert strongest(list(perm)).kind == "deny"


def test_strongest_of_nothing_is_allow() -> None:
    assert strongest([]) == Decision.allow()


def test_strongest_keeps_the_first_of_equals() -> None:
    first, second = Decision.deny("first"), Decision.deny("second")
    assert strongest([Decision.allow(), first, second]) is first


@pytest.mark.parametrize(("decision", "word"), [
    (Decision.allow(), None), (Decision.approve("ok"), "allow"), (Decision.deny("no"), "deny"),
    (Decision.ask("?"), "ask"), (Decision.ask("?", force=True), "force_ask"),
    (Decision.modify({"a": 1}), "modify"), (Decision.replace(1), "replace"),
    (Decision.inject("m"), "inject"),
])
def test_reports_say_the_answers_words(decision: Decision, word: str | None) -> None:
    assert decision.word == word


def test_the_readme_prints_the_report_words() -> None:
    from agenthooks.model.decision import REPORT_WORDS
    from tests.docs.pages import docs_text

    text = docs_text()
    for kind, word in REPORT_WORDS.items():
        assert f"| `{kind}`" in text
        assert f"| `{word}` |" in text if word else "| `null` |" in text
