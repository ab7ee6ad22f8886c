"""`when` expressions answered without Starlark (`sources.markdown.when`): which are analysed, and
that every answer given is the one Starlark gives."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import starlark

from agenthooks.kinds.starlark import WHEN_FUNCTION, Compiler
from agenthooks.model.handlers import Source
from agenthooks.sources.markdown.frontmatter import parse
from agenthooks.sources.markdown.when import analyse, answer, valid

pytestmark = pytest.mark.program


@pytest.mark.parametrize(("expression", "test"), [
    ('payload["name"] == "run_command"', (("payload", "name"), True, "run_command")),
    ("'x' != event", (("event",), False, "x")),
    ('payload [ "args" ]["CommandLine"]\n  == "npm test"',
     (("payload", "args", "CommandLine"), True, "npm test")),
    ('"it\'s" == payload["a"]', (("payload", "a"), True, "it's")),
    ('payload["a"] == "#x"', (("payload", "a"), True, "#x")),
    ('payload["a"] == ""', (("payload", "a"), True, "")),
    # Not analysed: Starlark answers.
    ('payload["a"] == "a\\nb"', None),  # an escape
    ('payload["a"] == r"x"', None),
    ('payload["a"] == """x"""', None),
    ('payload["a"] == "x" # note', None),
    ('payload["a"] == payload["b"]', None),
    ('"a" == "b"', None),
    ('payload == "x"', None),
    ('payload.get("a") == "x"', None),
    ('payload["a"] == "x" and True', None),
    ('payload[0] == "x"', None),
    ('payload["a"] == "x\\tb"', None),
    ('payload["a"]\t== "x"', None),
    ('payload["a"] == "\x01"', None),
    ('payload["a"] == "\ud800"', None),
    ('payload["a"] in ["x"]', None),
    ('events == "x"', None),
])
def test_which_expressions_are_analysed(expression: str, test: object) -> None:
    assert analyse(expression) == test
    assert test is None or valid(test)


@pytest.mark.parametrize("test", [
    None, (), ("payload", True, "x"), ((), True, "x"), (("payload",), True, "x"),
    (("event", "x"), True, "x"), (("payload", 1), True, "x"), (("payload", "a"), 1, "x"),
    (("payload", "a"), True, b"x"), (("other", "a"), True, "x"),
])
def test_a_cached_test_of_another_shape_is_refused(test: object) -> None:
    assert not valid(test)


# Payload texts as `kinds.markdown.view` makes them, and some it never makes.
PAYLOADS = [
    {"name": "run_command", "args": {"CommandLine": "npm test"}},
    {"name": "view_file", "args": {"CommandLine": 3}},
    {"name": None, "args": []},
    {"name": ["run_command"], "args": {"CommandLine": {"x": "npm test"}}},
    {"name": "caf\u00e9 \U0001f600", "args": {"CommandLine": True}},
    {"args": {}},
    {"name": 1.5, "args": {"CommandLine": "npm test", "Cwd": None}},
]
TEXTS = ["run_command", "npm test", "view_file", "", "caf\u00e9 \U0001f600", "1.5", "None",
         "tool.pre", "True"]
OPERANDS = ['payload["name"]', 'payload["args"]["CommandLine"]', 'payload["args"]["Cwd"]',
            'payload["missing"]', 'payload["name"]["x"]', "event"]


def starlark_when(expression: str, source: Source) -> Compiler:
    text = (f"---\nevent: tool.pre\nwhen: '{expression}'\nscript: |\n"
            "  def handle(event, payload):\n      return allow()\n---\n")
    front = parse(source, text).front
    assert front is not None and front.when == expression
    return Compiler(front._replace(when_test=None), "h.md")


def test_every_answer_is_starlarks(tmp_path: Path) -> None:
    source = Source("h.md", str(tmp_path / "h.md"), str(tmp_path), "workspace", str(tmp_path),
                    "antigravity")
    pick = random.Random(17)
    answered = 0
    for _ in range(150):
        operand, text = pick.choice(OPERANDS), pick.choice(TEXTS)
        op = pick.choice(["==", "!="])
        expression = f'{operand} {op} "{text}"' if pick.random() < 0.5 else \
            f'"{text}" {op} {operand}'
        test = analyse(expression)
        assert test is not None, expression
        module = starlark_when(expression, source).compile().module
        for payload in PAYLOADS:
            payload_json = json.dumps(payload, ensure_ascii=False)
            known = answer(test, "tool.pre", payload_json)
            try:
                real = module.call(WHEN_FUNCTION, "tool.pre", payload_json)
            except Exception:  # Starlark raises: the test must not have answered
                assert known is None, (expression, payload)
                continue
            if known is not None:
                answered += 1
                assert known is real, (expression, payload)
    assert answered > 300


@pytest.mark.parametrize("payload_json", [
    '{"name": "a", "name": "run_command"}',  # a key twice
    '{"name": "run_command", "deep": ' + "[" * 101 + "]" * 101 + "}",
    '{"name": "run_command", "t": "\ud800"}',  # not UTF-8
    "not json",
])
def test_texts_starlark_reads_otherwise_are_left_to_it(payload_json: str) -> None:
    test = analyse('payload["name"] == "run_command"')
    assert test is not None
    assert answer(test, "tool.pre", payload_json) is None


def test_an_analysed_when_left_to_starlark_still_runs_it(tmp_path: Path) -> None:
    source = Source("h.md", str(tmp_path / "h.md"), str(tmp_path), "workspace", str(tmp_path),
                    "antigravity")
    compiler = starlark_when('payload["name"] == "x"', source)
    front = compiler.front._replace(when_test=analyse('payload["name"] == "x"'))
    analysed = Compiler(front, "h.md")
    assert not analysed.compile().has_when  # the script's module holds no `when`
    alone = analysed.when_only()
    assert alone.call(WHEN_FUNCTION, "tool.pre", '{"name": "x"}') is True
    with pytest.raises(starlark.StarlarkError, match="name"):
        alone.call(WHEN_FUNCTION, "tool.pre", '{"other": 1}')


# The program itself (`main()` with no argv isolates in-process hooks), reporting at its exit.
PROGRAM = """
import atexit, os, sys
forks = []
sys.addaudithook(lambda event, args: forks.append(1) if event == "os.fork" else None)
parent = os.getpid()
atexit.register(lambda: os.getpid() == parent and sys.stderr.write(
    f"\\nreport: {len(forks)} {'starlark' in sys.modules}\\n"))
sys.argv = ["agenthooks", "run", "PreToolUse", "--no-user"]
from agenthooks.cli import program
program()
"""
GUARD = ("---\nevent: tool.pre\nwhen: payload[\"name\"] == \"run_command\"\nscript: |\n"
         "  def handle(event, payload):\n      return block(\"no \" + payload[\"name\"])\n---\n")


@pytest.mark.parametrize(("tool", "expected"), [
    ("view_file", "report: 0 False"),  # no hook applies: no process, no Starlark
    # One process for the hooks that apply, which loads Starlark: the run itself never does.
    ("run_command", "report: 1 False"),
])
def test_a_call_no_hook_applies_to_starts_no_process(workspace: Path, tool: str,
                                                      expected: str) -> None:
    import os
    import subprocess
    import sys

    for i in range(3):
        (workspace / ".harness" / "hooks" / f"g{i}.md").write_text(GUARD)
    payload = json.dumps({"toolCall": {"name": tool, "args": {"CommandLine": "ls"}}})
    for _ in range(2):  # the second run reads the frontmatter from the cache
        done = subprocess.run([sys.executable, "-c", PROGRAM], input=payload,
                              capture_output=True, text=True, cwd=workspace,
                              env={**os.environ}, check=False, timeout=60)
        assert done.stderr.strip().splitlines()[-1] == expected, done.stderr
        assert json.loads(done.stdout).get("decision") == (
            "deny" if tool == "run_command" else None)


def test_a_broken_script_fails_where_its_simple_when_applies(workspace: Path) -> None:
    # The `when` is answered without the script, as `when` means: a hook that does not apply
    # does not run, so its script is compiled (and fails, closed) only on the calls it
    # applies to; `validate` names the error either way.
    from agenthooks.api import load_hooks

    broken = GUARD.replace('return block("no " + payload["name"])', "return (")
    (workspace / ".harness" / "hooks" / "broken.md").write_text(broken)
    hooks = load_hooks(workspaces=[str(workspace)], no_user=True, cwd=str(workspace))
    other = hooks.run("PreToolUse", {"toolCall": {"name": "view_file", "args": {}}})
    assert not other.blocked and other.hooks == ()
    applies = hooks.run("PreToolUse", {"toolCall": {"name": "run_command", "args": {}}})
    assert applies.blocked
    assert "hook 'broken' failed" in applies.output["reason"]
    assert "does not compile" in applies.output["reason"]
