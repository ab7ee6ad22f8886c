"""`validate` checks the user config file that every run reads (rule `user-config`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import Run


@pytest.mark.parametrize(("text", "line", "column", "says"), [
    ("fail_closed = tru\n", 1, 15, "invalid TOML"),
    ("fail_closed = true\ndefault_host = \"claud\"\n", 2, 1, "default_host must be one of"),
    ("require_trust = true\nfail_closd = true\n", 2, 1, "did you mean 'fail_closed'?"),
])
def test_a_broken_user_config_is_an_error(agenthooks: Run, home: Path, text: str, line: int,
                                          column: int, says: str) -> None:
    config = home / ".config" / "agenthooks" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(text)
    done = agenthooks("validate", "--format", "json")
    assert done.code == 1
    [finding] = json.loads(done.out)["diagnostics"]
    assert (finding["rule"], finding["severity"]) == ("user-config", "error")
    assert (finding["file"], finding["line"], finding["column"]) == (str(config), line, column)
    assert says in finding["message"]


def test_a_good_user_config_says_nothing(agenthooks: Run, home: Path) -> None:
    config = home / ".config" / "agenthooks" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('fail_closed = true\ndefault_host = "claude"\n')
    assert agenthooks("validate").code == 0
