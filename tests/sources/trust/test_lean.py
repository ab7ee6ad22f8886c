"""A run that requires trust pays for the check alone: a trusted workspace's run reads the trust
file, hashes and copies its scripts without importing json, hashlib, tempfile, shutil, shlex
or collections (each a cost on every tool call a host makes)."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.program

# What the check never imports on a run; `re` too when there is no script to copy (a copy's
# path names agenthooks, which the selection reads for agenthooks running itself).
NEVER = ("json", "hashlib", "_hashlib", "tempfile", "shutil", "shlex", "random")
CASES = {"a program on PATH": ("true", (*NEVER, "re")),
         "a script of the workspace": ("./gate.sh", NEVER)}
PROBE = (
    "import io, sys\n"
    "sys.stdin = io.TextIOWrapper(io.BytesIO(b'{{}}'))\n"
    "from agenthooks.cli import main\n"
    "code = main(['run', 'Stop', '--no-user', '--require-trust', '--workspace', {ws!r}])\n"
    "found = sorted(m for m in sys.modules if m.split('.')[0] in {never!r})\n"
    "import json\n"
    "print(json.dumps([code, found]))\n"
)


@pytest.mark.parametrize("case", list(CASES))
def test_a_trusted_run_imports_nothing_costly(case: str, tmp_path: Path) -> None:
    command, never = CASES[case]
    ws = tmp_path / "ws"
    (ws / ".agents").mkdir(parents=True)
    (ws / ".agents" / "hooks.json").write_text(
        json.dumps({"h": {"Stop": [{"type": "command", "command": command}]}}))
    gate = ws / ".agents" / "gate.sh"
    gate.write_text('#!/bin/sh\ntouch "$AGENTHOOKS_WORKSPACE/ran"\n')
    gate.chmod(0o755)
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_RUNTIME_DIR": str(tmp_path / "run")}
    env.pop("AGENTHOOKS_REQUIRE_TRUST", None)

    def python(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, *args], capture_output=True, text=True,
                              env=env, cwd=ws, timeout=60, check=False)

    trusted = python("-m", "agenthooks", "trust", "--workspace", str(ws))
    assert trusted.returncode == 0, trusted.stderr
    python("-c", PROBE.format(ws=str(ws), never=never))  # the first run fills the caches
    (ws / "ran").unlink(missing_ok=True)
    done = python("-c", PROBE.format(ws=str(ws), never=never))
    assert "Traceback" not in done.stderr, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == [0, []]
    assert (ws / "ran").exists() == (command == "./gate.sh")
    assert list((tmp_path / "run").glob("*")) == []  # the copies are gone with the run


def test_the_trust_modules_import_nothing_costly() -> None:
    # `collections` apart from the run: the executor that starts the handler takes it.
    never = (*NEVER, "re", "collections")
    probe = ("import sys\n"
             "import agenthooks.sources.trust, agenthooks.sources.reach, agenthooks.shellwords\n"
             f"print(sorted(m for m in sys.modules if m.split('.')[0] in {never!r}))\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["[]"]


def test_the_digest_is_sha256_from_either_implementation() -> None:
    # Without hashlib loaded, the first MiB is hashed by CPython's own module, the rest by
    # OpenSSL's: the same SHA-256 either way.
    sizes = [0, 3, 4096, 1 << 20, 3 << 20, 5]
    probe = ("import sys\nfrom agenthooks.sources.trust import digest\n"
             f"for size in {sizes!r}:\n"
             "    print(digest(bytes(range(256)) * (size // 256) + bytes(size % 256)))\n"
             "print('_hashlib' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    *digests, openssl = done.stdout.split()
    assert digests == [hashlib.sha256(bytes(range(256)) * (size // 256) + bytes(size % 256))
                       .hexdigest() for size in sizes]
    assert openssl == "True"  # past a MiB
