"""The cache of validated hook files: used only when it matches the file's bytes exactly."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from agenthooks.config import cache
from agenthooks.config.discovery import discover
from agenthooks.config.loader import CACHE_MIN_SIZE, load
from agenthooks.config.model import HookFile


def big_config(workspace: Path, command: str = "true", handlers: int = 2000) -> Path:
    hooks = {
        f"hook-{i}": {"PreToolUse": [{"matcher": "run_command", "hooks": [{"command": command}]}]}
        for i in range(handlers)
    }
    path = workspace / ".agents" / "hooks.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(hooks, indent=2))
    assert path.stat().st_size >= CACHE_MIN_SIZE
    return path


def load_one(path: Path) -> HookFile:
    (source,) = discover(configs=[str(path)], no_user=True)
    return load(source)


def entries(home: Path) -> list[Path]:
    return sorted((home / ".cache" / "agenthooks" / "configs").glob("*.marshal"))


def test_a_large_valid_file_is_cached_and_read_back(tmp_path: Path, home: Path) -> None:
    path = big_config(tmp_path)
    first = load_one(path)
    assert len(entries(home)) == 1
    second = load_one(path)
    assert second.handlers == first.handlers
    assert second.ok and len(second.handlers) == 2000


def test_small_files_are_not_cached(tmp_path: Path, home: Path) -> None:
    path = tmp_path / "hooks.json"
    path.write_text(json.dumps({"g": {"Stop": [{"command": "true"}]}}))
    assert load_one(path).ok
    assert entries(home) == []


def test_a_change_with_the_same_size_and_mtime_is_not_missed(tmp_path: Path) -> None:
    path = big_config(tmp_path, command="true")
    assert {h.command for h in load_one(path).handlers} == {"true"}
    stat = path.stat()
    path.write_text(path.read_text().replace('"true"', '"echo"'))  # same length
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert path.stat().st_size == stat.st_size
    assert {h.command for h in load_one(path).handlers} == {"echo"}


def test_a_corrupt_entry_is_ignored(tmp_path: Path, home: Path) -> None:
    path = big_config(tmp_path)
    expected = load_one(path).handlers
    (entry,) = entries(home)
    entry.write_bytes(b"\x00garbage")
    assert load_one(path).handlers == expected


def test_a_file_with_errors_is_never_cached(tmp_path: Path, home: Path) -> None:
    path = big_config(tmp_path, command="")
    loaded = load_one(path)
    assert not loaded.ok
    assert loaded.errors[0].rule == "command-missing"
    assert entries(home) == []


def test_an_unwritable_cache_only_costs_speed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    monkeypatch.setenv("AGENTHOOKS_CACHE_DIR", str(blocker / "sub"))
    path = big_config(tmp_path / "ws")
    assert load_one(path).ok
    assert cache.cache_dir() == str(blocker / "sub")


def test_concurrent_first_runs_agree(tmp_path: Path, home: Path) -> None:
    path = big_config(tmp_path)
    script = (
        "import sys; from agenthooks.config.discovery import discover; "
        "from agenthooks.config.loader import load; "
        "f = load(discover(configs=[sys.argv[1]], no_user=True)[0]); "
        "print(len(f.handlers), f.ok)"
    )
    procs = [
        subprocess.Popen([sys.executable, "-c", script, str(path)], stdout=subprocess.PIPE,
                         text=True, env={**os.environ, "HOME": str(home)})
        for _ in range(6)
    ]
    outputs = [proc.communicate(timeout=60)[0].strip() for proc in procs]
    assert outputs == ["2000 True"] * 6
    assert len(entries(home)) == 1
    assert list((home / ".cache" / "agenthooks" / "configs").glob("*.tmp")) == []
    assert len(load_one(path).handlers) == 2000
