"""`agenthooks validate` on Markdown hooks: every rule at its line and column of the .md file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agenthooks.model.rules import MARKDOWN_RULES, RULES

GOOD_SCRIPT = "script: |\n  def handle(event, payload):\n      return allow()\n"

# rule → (file text, line, column) of its finding
CASES: dict[str, tuple[str, int, int]] = {
    "frontmatter-missing": ("# just a title\n", 1, 1),
    "frontmatter-unterminated": ("---\nevent: tool.pre\n" + GOOD_SCRIPT, 1, 1),
    "yaml-syntax": ("---\nevent: tool.pre\npriority: [1\n" + GOOD_SCRIPT + "---\n", 4, 7),
    "frontmatter-type": ("---\n- event\n---\n", 2, 1),
    "event-missing": ("---\n" + GOOD_SCRIPT + "---\n", 1, 1),
    "event-invalid": ("---\nevent: PreToolUse\n" + GOOD_SCRIPT + "---\n", 2, 8),
    "priority-invalid": ("---\nevent: tool.pre\npriority: high\n" + GOOD_SCRIPT + "---\n", 3, 11),
    "timeout-ms-invalid": ("---\nevent: tool.pre\ntimeout_ms: 1.5\n" + GOOD_SCRIPT + "---\n",
                           3, 13),
    "on-error-invalid": ("---\nevent: tool.pre\non_error: deny\n" + GOOD_SCRIPT + "---\n", 3, 11),
    "starlark-script-missing": ("---\nevent: tool.pre\n---\n", 1, 1),
    "starlark-syntax": ("---\nevent: tool.pre\nscript: |\n  def handle(event, payload):\n"
                        "      return allow(\n---\n", 5, 20),
    "starlark-name": ("---\nevent: tool.pre\nscript: |\n  def handle(event, payload):\n"
                      "      return alow()\n---\n", 5, 14),
    "starlark-load": ("---\nevent: tool.pre\nscript: |\n  X = {}[\"k\"]\n"
                      "  def handle(event, payload):\n      return allow()\n---\n", 4, 7),
    "starlark-handle-missing": ("---\nevent: tool.pre\nscript: |\n  def handler(event, payload):\n"
                                "      return allow()\n---\n", 4, 3),
    "starlark-handle-params": ("---\nevent: tool.pre\nscript: |\n  X = 1\n  def handle(payload):\n"
                               "      return allow()\n---\n", 5, 3),
    "starlark-when": ("---\nevent: tool.pre\nwhen: payload[\"name\"] ==\n" + GOOD_SCRIPT + "---\n",
                      3, 7),
    "frontmatter-unknown-key": ("---\nevent: tool.pre\npriorty: 3\n" + GOOD_SCRIPT + "---\n", 3, 1),
    "frontmatter-duplicate-key": ("---\nevent: tool.pre\nevent: tool.post\n" + GOOD_SCRIPT
                                  + "---\n", 3, 1),
}


def test_every_markdown_rule_has_a_case() -> None:
    assert set(CASES) == set(MARKDOWN_RULES)
    assert all(rule in RULES for rule in MARKDOWN_RULES)


@pytest.mark.parametrize("rule", sorted(CASES))
def test_each_rule_at_its_line_and_column(agenthooks, isolated: Path, rule: str) -> None:
    text, line, column = CASES[rule]
    (isolated / "hook.md").write_text(text, encoding="utf-8")
    outcome = agenthooks("validate", "--format", "json", "hook.md")
    found = json.loads(outcome.out)["diagnostics"]
    assert [(d["rule"], d["line"], d["column"]) for d in found if d["rule"] == rule] == [
        (rule, line, column)
    ], found
    assert outcome.code == (1 if MARKDOWN_RULES[rule].severity == "error" else 0)


def test_messages_say_what_to_write(agenthooks, isolated: Path) -> None:
    for rule in ("event-invalid", "frontmatter-unknown-key", "starlark-name",
                 "starlark-handle-params"):
        (isolated / f"{rule}.md").write_text(CASES[rule][0], encoding="utf-8")
    outcome = agenthooks("validate", *(f"{rule}.md" for rule in (
        "event-invalid", "frontmatter-unknown-key", "starlark-name", "starlark-handle-params")))
    assert "a Markdown hook writes 'tool.pre'" in outcome.err + outcome.out
    assert "did you mean 'priority'?" in outcome.out
    assert "did you mean `allow`?" in outcome.out
    assert "handle(event, payload)" in outcome.out


def test_a_when_position_maps_inside_a_quoted_scalar(agenthooks, isolated: Path) -> None:
    text = "---\nevent: tool.pre\nwhen: 'payload[\"name\"] == nme'\n" + GOOD_SCRIPT + "---\n"
    (isolated / "q.md").write_text(text, encoding="utf-8")
    found = json.loads(agenthooks("validate", "--format", "json", "q.md").out)["diagnostics"]
    assert [(d["rule"], d["line"], d["column"]) for d in found] == [("starlark-name", 3, 27)]


def test_validate_finds_harness_hooks_of_a_workspace_and_the_samples_are_clean(
    agenthooks, samples: Path
) -> None:
    outcome = agenthooks("validate", str(samples), "--strict")
    assert outcome.code == 0, outcome.out
    # hooks.json, seven Markdown hooks, and the Claude Code and Gemini CLI settings
    assert "10 files" in outcome.out


def test_github_format(agenthooks, isolated: Path) -> None:
    (isolated / "h.md").write_text(CASES["starlark-name"][0], encoding="utf-8")
    outcome = agenthooks("validate", "--format", "github", "h.md")
    assert outcome.out.startswith("::error file=h.md,line=5,col=14,title=starlark-name::")


@pytest.mark.parametrize(("script", "expected"), [
    ("def handle(event, payload):\n    pass\n", (1, 1, None)),
    ("X = 1\ndef \t handle \t(event, payload,):\n    pass\n", (2, 1, None)),
    ("def handle(e, p, extra=1):\n    pass\n", (1, 1, None)),
    ("def handle(payload):\n    pass\n",
     (1, 1, "handle takes 1 parameter; the hook calls it as handle(event, payload)")),
    ("x = 1\ndef handle(a, b, c):\n    pass\n",
     (2, 1, "handle takes 3 parameters; the hook calls it as handle(event, payload)")),
    # Not a top-level `def handle(`: no header to check.
    ("  def handle(a):\n    pass\n", None),
    ("def handler(a):\n    pass\n", None),
    ("defhandle(a)\n", None),
    ("xdef handle(a)\n", None),
])
def test_the_handle_header_is_found_and_read(script: str, expected: object) -> None:
    from agenthooks.kinds.starlark import handle_signature

    assert handle_signature(script) == expected
