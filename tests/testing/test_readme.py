"""The README's `agenthooks test` section: its example fixture passes against the samples, and
it names every rule and every key the loader knows."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from agenthooks.features.fixtures.loader import CASE_KEYS, EXPECT_KEYS, RULES, TOP_KEYS
from tests.conftest import Run

pytestmark = pytest.mark.program


def _section() -> str:
    from tests.docs.pages import section

    return section("test")


def test_the_readme_example_passes(agenthooks: Run, sample_copy: Path) -> None:
    match = re.search(r"```yaml\n# (\.agents/tests/\S+)\n(.*?)```", _section(), re.S)
    assert match
    fixture = sample_copy / match.group(1)
    fixture.write_text(match.group(2), encoding="utf-8")
    done = agenthooks("test", str(fixture))
    assert done.code == 0, done.out + done.err
    assert "3 passed, 0 failed" in done.out


def test_every_rule_and_key_is_documented() -> None:
    section = _section()
    for rule in RULES:
        assert f"`{rule}`" in section
    for key in (*TOP_KEYS, *CASE_KEYS, *EXPECT_KEYS):
        assert f"`{key}`" in section, key
