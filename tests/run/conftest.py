"""Helpers for the tests of `agenthooks run` and the API: workspaces, real CLI runs, /proc.

Every handler in these tests is a real `/bin/sh` command run by the real executor.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from proctools import pids_with_argv, stat

from agenthooks.api import EventResult, Hooks, load_hooks
from agenthooks.cli import main
from tests import support

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "sample_hooks"

Doc = dict[str, Any]


def handler(command: str, timeout: int | None = None, **extra: Any) -> Doc:
    found: Doc = {"type": "command", "command": command, **extra}
    if timeout is not None:
        found["timeout"] = timeout
    return found


def on(
    event: str, *commands: str | Doc, matcher: str | None = "", timeout: int | None = None
) -> Doc:
    """A hook definition with one event: a matcher group on tool events, a flat list otherwise."""
    handlers = [c if isinstance(c, dict) else handler(c, timeout) for c in commands]
    if event in ("PreToolUse", "PostToolUse"):
        group: Doc = {"hooks": handlers}
        if matcher is not None:
            group["matcher"] = matcher
        return {event: [group]}
    return {event: handlers}


def write_hooks(root: Path, doc: Doc | str, folder: str = ".agents") -> Path:
    """Write `root/<folder>/hooks.json` (a dict as JSON, a str as is) and return its path."""
    path = root / folder / "hooks.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc, indent=2), encoding="utf-8")
    return path


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return support.workspace(tmp_path / "ws", {})


LoadFn = Callable[[Doc], Hooks]


@pytest.fixture
def hooks_of(workspace: Path) -> LoadFn:
    """`hooks_of({"name": on(...)})`: the hooks of a workspace holding exactly that file."""

    def load(doc: Doc) -> Hooks:
        write_hooks(workspace, doc)
        return load_hooks(workspaces=[str(workspace)], no_user=True)

    return load


RunFn = Callable[..., EventResult]


@pytest.fixture
def run_doc(hooks_of: LoadFn) -> RunFn:
    """`run_doc(doc, event, payload=None, **options)`: load `doc` and run one event in-process."""

    def run(doc: Doc, event: str, payload: Any = None, **options: Any) -> EventResult:
        if payload is None:
            payload = {"toolCall": {"name": "run_command", "args": {}}}
        return hooks_of(doc).run(event, payload, **options)

    return run


@dataclass(frozen=True)
class Cli:
    code: int
    out: str
    err: str

    @property
    def json(self) -> Any:
        assert self.out.endswith("\n") and self.out.count("\n") == 1, self.out
        return json.loads(self.out)


def cli_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)  # HOME is already a temporary directory (tests/conftest.py)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    env.pop("AGENTHOOKS_FAIL_CLOSED", None)
    env.update(extra)
    return env


CliFn = Callable[..., Cli]


@pytest.fixture
def cli() -> CliFn:
    """`cli("PreToolUse", "--config", f, stdin=b"{}")`: a real `python -m agenthooks run`."""

    def run(*args: str, stdin: bytes | str = b"", env: dict[str, str] | None = None,
            cwd: Path | None = None) -> Cli:
        data = stdin.encode() if isinstance(stdin, str) else stdin
        done = subprocess.run(
            [sys.executable, "-m", "agenthooks", "run", *args],
            input=data, capture_output=True, env=env or cli_env(), cwd=cwd, timeout=120,
            check=False,
        )
        return Cli(done.returncode, done.stdout.decode(), done.stderr.decode())

    return run


@pytest.fixture
def main_run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Iterator[CliFn]:
    """The same through `agenthooks.cli.main` in this process, stdin given as bytes."""

    def run(*args: str, stdin: bytes | str = b"") -> Cli:
        data = stdin.encode() if isinstance(stdin, str) else stdin
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
        capsys.readouterr()
        code = main(["run", *args])
        captured = capsys.readouterr()
        return Cli(code, captured.out, captured.err)

    monkeypatch.delenv("AGENTHOOKS_FAIL_CLOSED", raising=False)
    yield run


# --- /proc -------------------------------------------------------------------------------


def proc_stat(pid: int) -> tuple[str, int] | None:
    """(state, pgrp) of a process, or None once it is gone."""
    st = stat(pid)
    return None if st is None else (st[0], st[2])


@pytest.fixture
def kill_argv() -> Iterator[Callable[[list[str]], None]]:
    """Register an argv (e.g. ["sleep", "37.7"]) to SIGKILL at teardown if a test failed."""
    argvs: list[list[str]] = []
    yield argvs.append
    for argv in argvs:
        for pid in pids_with_argv(argv):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, 9)
