"""A regex selection of plain names is decided without `re`: the same answer as the regex."""

from __future__ import annotations

import itertools
import re

import pytest

from agenthooks.sources.dialects.matching import Selection, regex_error, selects

PATTERNS = ["Bash", "run_shell_command", "Edit|Write", "mcp-x", "a|b|c", "a", "x_1|y-2"]
VALUES = ["Bash", "bash", "MyBash2", "run_shell_command", "xrun_shell_commandy", "Edit",
          "NotebookEdit", "Write", "Writes", "mcp-x", "mcp_x", "", "a", "b", "cab", "x_1",
          "y-2", "zx_1", "Edit|Write"]


@pytest.mark.parametrize(("pattern", "python"), list(itertools.product(PATTERNS, [False, True])))
def test_literal_selections_answer_as_their_regex(pattern: str, python: bool) -> None:
    regex = re.compile(pattern)
    for value in VALUES:
        assert selects(Selection("search", pattern=pattern, python=python), value) == \
            (regex.search(value) is not None), value
        assert selects(Selection("full", pattern=pattern, python=python), value) == \
            (regex.fullmatch(value) is not None), value
    assert regex_error(pattern) is None
    assert regex_error(pattern, python=True) is None
