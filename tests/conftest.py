"""Fixtures shared by every test.

No test may read the real home directory (its ~/.gemini/config/hooks.json would change what
discovery finds) or depend on the directory pytest was started from: an autouse fixture
points HOME at an empty temporary directory and changes into another one.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from agenthooks.cli import main

# The `program` marker's plugin: which tests run the program, and the wheel's runs checked.
pytest_plugins = ["program_marker"]

REPO = Path(__file__).resolve().parent.parent
# Folders and files of tests/ whose tests start processes (handlers, servers, hosts, fresh
# interpreters, pre-commit, the bench) nearly all: their tests are `slow`, as is every test
# that starts the program (`program`).
SLOW_PLACES = frozenset({"e2e", "realhooks", "shipped", "executor", "run", "engine", "features",
                         "invariant", "test_bench.py", "test_precommit.py"})
SLOW_MARKERS = frozenset({"program", "e2e", "instructions"})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark `slow` what starts processes, so that `pytest -m "not slow"` runs the table
    tests (model, plan, combine, matchers, readers, reporters) in seconds."""
    for item in items:
        place = Path(item.path).relative_to(REPO / "tests").parts[0]
        if place in SLOW_PLACES or any(m.name in SLOW_MARKERS for m in item.iter_markers()):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def isolated(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh HOME and working directory for each test; returns the working directory."""
    home = tmp_path_factory.mktemp("home")
    work = tmp_path_factory.mktemp("work")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("USERPROFILE", raising=False)
    # The config cache goes under HOME unless told otherwise: keep it there too.
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.delenv("AGENTHOOKS_CACHE_DIR", raising=False)
    # Hosts' folders that a variable moves out of HOME: the caller's must not be read.
    from agenthooks.model.hosts import HOST_TABLE

    for row in HOST_TABLE:
        if row.user_folder_env is not None:
            monkeypatch.delenv(row.user_folder_env[0], raising=False)
    monkeypatch.chdir(work)
    return work


@pytest.fixture
def home() -> Path:
    """The temporary HOME of this test."""
    return Path(os.environ["HOME"])


@pytest.fixture
def repo() -> Path:
    """The root of this repository."""
    return REPO


@pytest.fixture
def samples() -> Path:
    """The repository's sample workspace (read-only: copy it before changing anything)."""
    return REPO / "sample_hooks"


@pytest.fixture
def sample_copy(samples: Path, tmp_path: Path) -> Path:
    """A private copy of the sample workspace, safe to modify."""
    target = tmp_path / "sample_hooks"
    shutil.copytree(samples, target, symlinks=True)
    return target


@dataclass(frozen=True)
class Outcome:
    code: int
    out: str
    err: str


Run = Callable[..., Outcome]


@pytest.fixture
def agenthooks(capsys: pytest.CaptureFixture[str]) -> Iterator[Run]:
    """Call `agenthooks.cli.main` in-process: `agenthooks("validate", "x.json")` -> Outcome.

    `main` is what the console script runs, so exit codes are the real ones.
    """
    def run(*args: str) -> Outcome:
        capsys.readouterr()  # drop anything printed before
        code = main(list(args))
        captured = capsys.readouterr()
        return Outcome(code, captured.out, captured.err)

    yield run


@pytest.fixture
def installed_agenthooks() -> Path:
    """The installed console script next to this Python, or skip."""
    script = Path(sys.executable).parent / ("agenthooks.exe" if os.name == "nt" else "agenthooks")
    if not script.exists():
        if os.environ.get("AGENTHOOKS_TEST_INSTALLED") == "1":  # the wheel's: never skipped
            pytest.fail(f"the wheel installed no agenthooks command next to {sys.executable}")
        pytest.skip(
            f"the agenthooks console script is not installed next to {sys.executable} "
            f"(pip install -e . in this environment; ./scripts/test does)"
        )
    return script
