"""Helpers for the engine tests: workspaces holding real hooks.json files, payloads, a real CLI.

Every command handler here is a real `/bin/sh` command run by the real executor. The
workspace fixtures and `write_hooks` are tests/run/conftest.py's.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from tests.run.conftest import LoadFn, hooks_of, workspace, write_hooks

__all__ = ["LoadFn", "hooks_of", "workspace", "write_hooks"]

REPO = Path(__file__).resolve().parents[2]

Doc = dict[str, Any]


def command(cmd: str, timeout: int | None = None) -> Doc:
    found: Doc = {"type": "command", "command": cmd}
    if timeout is not None:
        found["timeout"] = timeout
    return found


def on(event: str, *commands: str, name: str = "hook", matcher: str | None = "") -> Doc:
    """One named hook of a hooks.json on one event: a matcher group on tool events, a flat
    list of handlers otherwise. Several merge with `{**on(...), **on(..., name="other")}`."""
    handlers = [command(c) for c in commands]
    if event in ("PreToolUse", "PostToolUse"):
        group: Doc = {"hooks": handlers}
        if matcher is not None:
            group["matcher"] = matcher
        return {name: {event: [group]}}
    return {name: {event: handlers}}


def tool_call(name: str = "run_command", **args: Any) -> Doc:
    """An Antigravity PreToolUse payload."""
    return {"toolCall": {"name": name, "args": args}}


def q(path: Path | str) -> str:
    return shlex.quote(str(path))


def stdin_to(path: Path) -> str:
    """A handler that saves its stdin (the payload it was given) to `path`."""
    return f"cat > {q(path)}"


def answer(doc: Doc) -> str:
    """A handler that answers `doc` on stdout and exits 0."""
    return f"printf '%s' {q(json.dumps(doc))}"


def read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


class Cli(NamedTuple):
    code: int
    out: str
    err: str

    @property
    def json(self) -> Any:
        return json.loads(self.out)


CliFn = Callable[..., Cli]


@pytest.fixture
def cli(tmp_path: Path) -> CliFn:
    """`cli("PreToolUse", "--python", "m:hooks", stdin=...)`: a real `python -m agenthooks run`
    started in tmp_path (where the test writes its modules), with the repository importable."""

    def run(*args: str, stdin: bytes | str | Doc = b"", cwd: Path | None = None) -> Cli:
        if isinstance(stdin, dict):
            stdin = json.dumps(stdin)
        data = stdin.encode() if isinstance(stdin, str) else stdin
        env = dict(os.environ)  # HOME is already a temporary one (tests/conftest.py)
        env["PYTHONPATH"] = str(REPO)
        env.pop("AGENTHOOKS_FAIL_CLOSED", None)
        done = subprocess.run(
            [sys.executable, "-m", "agenthooks", "run", *args], input=data,
            capture_output=True, env=env, cwd=cwd or tmp_path, timeout=120, check=False,
        )
        return Cli(done.returncode, done.stdout.decode(), done.stderr.decode())

    return run
