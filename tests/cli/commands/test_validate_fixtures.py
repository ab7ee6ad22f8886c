"""`validate` checks hook fixtures as `agenthooks test` reads them before running anything:
those named, those under `.agents/tests/` and `.harness/tests/` of each folder or workspace."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests import support
from tests.conftest import Run

GATES = json.dumps({"g": {"Stop": [{"command": "true"}]}})
GOOD = "cases:\n  - {name: stops, event: Stop, expect: {decision: null}}\n"
TYPO = "cases:\n  - {name: stops, event: Stop, expect: {decison: allow}}\n"


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = support.workspace(tmp_path / "ws", {".agents/hooks.json": GATES})
    (root / ".agents" / "tests").mkdir()
    monkeypatch.chdir(root)
    return root


def _findings(done_out: str) -> list[tuple[str, str, int, int]]:
    return [(d["file"], d["rule"], d["line"], d["column"])
            for d in json.loads(done_out)["diagnostics"]]


@pytest.mark.parametrize("args", [(), (".",), ("-r",), ("--workspace", ".")])
def test_a_broken_fixture_is_an_error(agenthooks: Run, workspace: Path,
                                      args: tuple[str, ...]) -> None:
    (workspace / ".agents" / "tests" / "t.hooktest.yaml").write_text(TYPO)
    done = agenthooks("validate", "--format", "json", *args)
    assert done.code == 1
    assert _findings(done.out) == [
        (".agents/tests/t.hooktest.yaml", "fixture-unknown-key", 2, 41)]


def test_a_named_fixture_alone(agenthooks: Run, workspace: Path) -> None:
    elsewhere = workspace / "other" / "t.hooktest.yaml"
    elsewhere.parent.mkdir()
    elsewhere.write_text(TYPO)
    done = agenthooks("validate", "--format", "json", str(elsewhere))
    assert done.code == 1
    assert [f[1] for f in _findings(done.out)] == ["fixture-unknown-key"]
    assert json.loads(done.out)["files"] == ["other/t.hooktest.yaml"]


def test_good_fixtures_say_nothing(agenthooks: Run, workspace: Path) -> None:
    """The summary counts hook files; a good fixture is checked without a word."""
    (workspace / ".agents" / "tests" / "t.hooktest.yaml").write_text(GOOD)
    done = agenthooks("validate")
    assert (done.code, done.out) == (0, "ok: 1 file, no problems\n")
    alone = agenthooks("validate", ".agents/tests/t.hooktest.yaml")
    assert (alone.code, alone.err) == (0, "")
