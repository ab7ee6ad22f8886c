"""The `program` marker, kept true: a pytest plugin (tests/conftest.py loads it).

A test marked `program` runs agenthooks as a host does, as a process of its own: `python -m
agenthooks`, the installed `agenthooks` command, `bin/agenthooks`, or a shell command line that
calls it. scripts/test-pythons runs exactly those tests (`-m program`) against the built wheel
on every supported Python, so a test that starts the program without the marker would never
meet the wheel, nor Python 3.10. Two things keep the marker complete:

- a test that uses a fixture which starts the program (`PROGRAM_FIXTURES`) is marked here;
- every other test is watched while it runs (an audit hook sees each process this one starts:
  `subprocess`, `os.posix_spawn`, `os.system`): one that starts the program without the
  marker fails at its teardown, saying so.

Under scripts/test-pythons (`AGENTHOOKS_TEST_INSTALLED=1`) the tests must run the wheel, never
this checkout's source: `check_installed` stops the session before any test when they would.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import sysconfig
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
# Set by scripts/test-pythons: the tests run against the wheel installed in sys.executable's
# environment, from a copy of the checkout without the agenthooks package.
INSTALLED = os.environ.get("AGENTHOOKS_TEST_INSTALLED") == "1"
# Fixtures that start the program: `cli` (tests/run, tests/engine: `python -m agenthooks
# run`) and `installed_agenthooks` (the command next to sys.executable).
PROGRAM_FIXTURES = frozenset({"cli", "installed_agenthooks"})
SHELLS = frozenset({"sh", "bash", "dash", "zsh"})
# `agenthooks` (or a path ending in it) in a command's place of a shell command line, or
# `-m agenthooks[.module]`: the program, wherever a shell script calls it.
_IN_SHELL = re.compile(r"(?:^|[;&|(`\n])\s*(?:\w+=\S*\s+)*(?:\S*/)?agenthooks(?:\s|$)"
                       r"|\s-m\s+agenthooks(?:[.\s]|$)")
# Python's options that take a value as the next argument (`-X importtime`).
_PYTHON_VALUED = frozenset({"-X", "-W", "-Q"})
_SPAWNS = frozenset({"subprocess.Popen", "os.posix_spawn", "os.posix_spawnp", "os.system"})

_watched: list[object] = [None]  # the item whose unmarked run is watched, or None
_started: list[str] = []  # the programs it started


def starts_program(argv: object) -> bool:
    """Whether a process started with `argv` (a list, or a shell command line) runs agenthooks."""
    if isinstance(argv, (str, bytes)):
        return bool(_IN_SHELL.search(os.fsdecode(argv)))
    try:
        words = [os.fsdecode(word) for word in argv]  # type: ignore[attr-defined]
    except TypeError:
        return False
    if not words:
        return False
    name = os.path.basename(words[0])
    if name == "agenthooks":
        return True
    if name in SHELLS and "-c" in words[1:-1]:
        return bool(_IN_SHELL.search(words[words.index("-c") + 1]))
    if name.startswith("python"):
        return _python_runs_program(words[1:])
    return False


def _python_runs_program(args: list[str]) -> bool:
    """`python [options] -m agenthooks...` or `python [options] .../agenthooks`."""
    skip_value = False
    for index, word in enumerate(args):
        if skip_value:
            skip_value = False
        elif word == "-m":
            module = args[index + 1] if index + 1 < len(args) else ""
            return module == "agenthooks" or module.startswith("agenthooks.")
        elif word in _PYTHON_VALUED:
            skip_value = True
        elif word == "-c":
            return False
        elif not word.startswith("-"):
            return os.path.basename(word) == "agenthooks"
    return False


def _audit(event: str, args: tuple[object, ...]) -> None:
    if event not in _SPAWNS or _watched[0] is None:
        return
    argv = args[0] if event == "os.system" else args[1]
    if starts_program(argv):
        _started.append(repr(argv)[:200])


def pytest_configure(config: pytest.Config) -> None:
    if INSTALLED:
        check_installed()
    else:  # the wheel's runs only select marked tests: nothing to watch there
        sys.addaudithook(_audit)


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if PROGRAM_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.program)


@pytest.fixture(autouse=True)
def _program_marker_is_true(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fails a test that starts the program without the `program` marker."""
    if INSTALLED or request.node.get_closest_marker("program") is not None:
        yield
        return
    _started.clear()
    _watched[0] = request.node
    try:
        yield
    finally:
        _watched[0] = None
    if _started:
        pytest.fail(
            f"this test starts the agenthooks program ({_started[0]}) but is not marked "
            "`program`: add `pytestmark = pytest.mark.program` to its module (or "
            "@pytest.mark.program to the test), so that scripts/test-pythons runs it against "
            "the wheel on every supported Python", pytrace=False)


def check_installed() -> None:
    """Stop the session unless this process and every program a test starts import the
    installed agenthooks (site-packages), never a source tree."""
    import agenthooks

    site = {os.path.realpath(sysconfig.get_paths()[key]) for key in ("purelib", "platlib")}
    here = os.path.realpath(os.path.dirname(agenthooks.__file__))
    problems = []
    if os.path.dirname(here) not in site:
        problems.append(f"pytest imported agenthooks from {here}, not from {sorted(site)}")
    if (REPO / "agenthooks").exists():
        problems.append(f"{REPO} holds the agenthooks package: a test that puts it on "
                        "PYTHONPATH would run that source, not the wheel")
    script = Path(sys.executable).parent / "agenthooks"
    if not os.access(script, os.X_OK):
        problems.append(f"the wheel's agenthooks command is not at {script}")
    # As the tests start it: PYTHONPATH at the checkout, run from it.
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    where = "import agenthooks, os; print(os.path.realpath(agenthooks.__file__))"
    started = subprocess.run(
        [sys.executable, "-c", where],
        cwd=REPO, env=env, capture_output=True, text=True, check=False, timeout=60)
    found = os.path.dirname(started.stdout.strip())
    if started.returncode != 0 or found != here:
        problems.append(f"a program the tests start imports agenthooks from {found!r} "
                        f"({started.stderr.strip()[-200:]})")
    if problems:
        raise pytest.UsageError("AGENTHOOKS_TEST_INSTALLED=1, but the tests would not run the "
                                "installed wheel: " + "; ".join(problems))
