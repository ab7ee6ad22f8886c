"""The cache of validated hook files: used only when it matches the file's bytes exactly."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agenthooks.config import cache
from agenthooks.config.discovery import discover
from agenthooks.config.loader import CACHE_MIN_SIZE, load
from agenthooks.model.handlers import HookFile


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
    # That the second load came from the entry is test_a_hit_is_served_from_the_cache's proof.


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


def plant(entry: Path, change: Callable[[Any], Any]) -> None:
    """Rewrite a cache entry in place through `change`, keeping its owner and mode."""
    import marshal

    entry.write_bytes(marshal.dumps(change(marshal.loads(entry.read_bytes()))))


def with_command(entry: Any, command: str) -> Any:
    """The entry with every handler's command replaced (entries hold columns, one per field:
    hook, event, matcher, command, ...)."""
    writer, key, columns = entry
    return (writer, key, (*columns[:3], [command] * len(columns[3]), *columns[4:]))


GOOD_ROW = ("h", "Stop", None, "x", 30, "command", True, "/h")


def columns_with(index: int, value: Any) -> tuple[list[Any], ...]:
    """The columns of one good row with one field changed."""
    row = list(GOOD_ROW)
    row[index] = value
    return tuple([field] for field in row)


def test_a_hit_is_served_from_the_cache(tmp_path: Path, home: Path) -> None:
    # An entry that differs observably from the file proves the second load did not parse it.
    path = big_config(tmp_path)
    assert {h.command for h in load_one(path).handlers} == {"true"}
    (entry,) = entries(home)
    plant(entry, lambda e: with_command(e, "echo from-cache"))
    assert {h.command for h in load_one(path).handlers} == {"echo from-cache"}


def test_an_entry_of_another_version_is_not_used(
    tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = big_config(tmp_path)
    load_one(path)
    (entry,) = entries(home)
    plant(entry, lambda e: with_command(e, "echo stale"))
    assert {h.command for h in load_one(path).handlers} == {"echo stale"}
    monkeypatch.setattr(cache, "__version__", "99.0")
    assert {h.command for h in load_one(path).handlers} == {"true"}


@pytest.mark.parametrize(
    "bad_columns",
    [
        "not a tuple",
        [[], [], [], [], [], [], [], []],  # a list of columns
        ([],) * 7,  # too few columns
        (["h"], ["Stop"], [None], ["x"], [30], ["command"], [True], []),  # of unequal lengths
        (("h",), ["Stop"], [None], ["x"], [30], ["command"], [True], ["/h"]),  # a tuple
        columns_with(1, "NoSuchEvent"),
        columns_with(1, ["Stop"]),  # unhashable where a word belongs
        columns_with(4, "30"),
        columns_with(4, True),
        columns_with(4, 0),
        columns_with(4, 2**31),
        columns_with(5, "script"),
        columns_with(6, 1),
        columns_with(2, 5),
        columns_with(3, b"x"),
        columns_with(0, None),
    ],
)
def test_an_entry_of_the_wrong_shape_is_dropped(
    bad_columns: Any, tmp_path: Path, home: Path
) -> None:
    path = big_config(tmp_path)
    expected = load_one(path).handlers
    (entry,) = entries(home)
    plant(entry, lambda e: (*e[:-1], bad_columns))  # the rows are last, whatever the format
    assert load_one(path).handlers == expected
    plant(entry, lambda e: e[:3])  # a tuple of the wrong length
    assert load_one(path).handlers == expected


def test_an_entry_of_another_user_is_not_trusted(tmp_path: Path, home: Path) -> None:
    path = big_config(tmp_path)
    load_one(path)
    (entry,) = entries(home)
    plant(entry, lambda e: with_command(e, "echo planted"))
    os.chown(entry, 12345, 12345)  # as if another user had written it
    assert {h.command for h in load_one(path).handlers} == {"true"}


@pytest.mark.parametrize("mode", [0o666, 0o646, 0o664])
def test_an_entry_others_can_write_is_not_trusted(mode: int, tmp_path: Path, home: Path) -> None:
    path = big_config(tmp_path)
    load_one(path)
    (entry,) = entries(home)
    plant(entry, lambda e: with_command(e, "echo planted"))
    entry.chmod(0o600)
    assert {h.command for h in load_one(path).handlers} == {"echo planted"}  # the control
    entry.chmod(mode)
    assert {h.command for h in load_one(path).handlers} == {"true"}


def test_a_shared_cache_directory_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A world-writable directory such as /tmp, sticky or not: another user could plant entries.
    shared = tmp_path / "shared"
    shared.mkdir()
    monkeypatch.setenv("AGENTHOOKS_CACHE_DIR", str(shared))
    path = big_config(tmp_path / "ws")
    load_one(path)
    (entry,) = shared.glob("*.marshal")
    assert stat.S_IMODE(shared.stat().st_mode) & 0o022 == 0
    assert stat.S_IMODE(entry.stat().st_mode) == 0o600
    plant(entry, lambda e: with_command(e, "echo planted"))
    for mode in (0o777, 0o1777, 0o775):
        shared.chmod(mode)
        assert {h.command for h in load_one(path).handlers} == {"true"}
    shared.chmod(0o755)
    os.chown(shared, 12345, 12345)
    assert {h.command for h in load_one(path).handlers} == {"true"}
    os.chown(shared, os.geteuid(), os.getegid())
    assert {h.command for h in load_one(path).handlers} == {"echo planted"}  # the control


def test_nothing_is_written_to_a_shared_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    monkeypatch.setenv("AGENTHOOKS_CACHE_DIR", str(shared))
    assert load_one(big_config(tmp_path / "ws")).ok
    assert list(shared.iterdir()) == []


def test_a_symlinked_entry_is_not_followed(tmp_path: Path, home: Path) -> None:
    path = big_config(tmp_path)
    load_one(path)
    (entry,) = entries(home)
    plant(entry, lambda e: with_command(e, "echo planted"))
    elsewhere = tmp_path / "elsewhere.marshal"
    entry.rename(elsewhere)
    entry.symlink_to(elsewhere)
    assert {h.command for h in load_one(path).handlers} == {"true"}


# --- settings files (Claude Code, Gemini CLI) -----------------------------------------------


def settings_file(workspace: Path, dialect: str, command: str = "true") -> Path:
    event, folder = ("PreToolUse", ".claude") if dialect == "claude" else ("BeforeTool", ".gemini")
    group = {"matcher": "^x$", "hooks": [{"type": "command", "command": command}]}
    path = workspace / folder / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"hooks": {event: [group]}}))
    return path


def load_settings(path: Path) -> HookFile:
    from agenthooks.config.discovery import discover_all
    from agenthooks.dialects.load import load_dialect_files

    found = discover_all(configs=[str(path)], no_user=True, dialects=True)
    (hook_file,) = load_dialect_files(found.dialect_sources)
    return hook_file


def settings_entries(home: Path) -> list[Path]:
    return sorted((home / ".cache" / "agenthooks" / "configs").glob("*.settings.marshal"))


def with_settings_command(entry: Any, command: str) -> Any:
    writer, key, (rows, switch, disabled) = entry
    return (writer, key, ([(*row[:3], command, *row[4:]) for row in rows], switch, disabled))


@pytest.mark.parametrize("dialect", ["claude", "gemini"])
def test_a_settings_file_is_served_from_the_cache(
    dialect: str, tmp_path: Path, home: Path
) -> None:
    path = settings_file(tmp_path, dialect)
    first = load_settings(path)
    assert [h.command for h in first.handlers] == ["true"]
    (entry,) = settings_entries(home)
    assert load_settings(path).handlers == first.handlers
    plant(entry, lambda e: with_settings_command(e, "echo from-cache"))
    assert [h.command for h in load_settings(path).handlers] == ["echo from-cache"]
    # Another byte in the file: the entry no longer matches, the file is read again.
    path.write_text(path.read_text() + " ")
    assert [h.command for h in load_settings(path).handlers] == ["true"]


def test_a_settings_entry_is_trusted_only_as_far_as_its_owner(
    tmp_path: Path, home: Path
) -> None:
    path = settings_file(tmp_path, "claude")
    load_settings(path)
    (entry,) = settings_entries(home)
    plant(entry, lambda e: with_settings_command(e, "echo planted"))
    assert [h.command for h in load_settings(path).handlers] == ["echo planted"]  # the control
    entry.chmod(0o664)
    assert [h.command for h in load_settings(path).handlers] == ["true"]
    entry.chmod(0o600)
    os.chown(entry, 12345, 12345)
    assert [h.command for h in load_settings(path).handlers] == ["true"]


@pytest.mark.parametrize(
    "bad", ["rows", [("x",)], [("h", "BeforeTool", None, "x", 30, "script", True, "/h")]]
)
def test_a_settings_entry_of_the_wrong_shape_is_dropped(
    bad: Any, tmp_path: Path, home: Path
) -> None:
    path = settings_file(tmp_path, "gemini")
    expected = load_settings(path).handlers
    (entry,) = settings_entries(home)
    plant(entry, lambda e: (e[0], e[1], (bad, None, ())))
    assert load_settings(path).handlers == expected


def test_a_settings_file_with_errors_is_never_cached(tmp_path: Path, home: Path) -> None:
    path = settings_file(tmp_path, "claude")
    path.write_text('{"hooks": {"PreToolUse": "not a list"}}')
    assert not load_settings(path).ok
    assert settings_entries(home) == []


def test_an_entry_is_for_the_source_that_read_it(tmp_path: Path, home: Path) -> None:
    """The same file reached another way (another workspace root) is read for that way."""
    path = settings_file(tmp_path, "claude")
    load_settings(path)
    (entry,) = settings_entries(home)
    plant(entry, lambda e: with_settings_command(e, "echo planted"))
    from agenthooks.config.discovery import discover_all
    from agenthooks.dialects.load import load_dialect_files

    (source,) = discover_all(configs=[str(path)], no_user=True, dialects=True).dialect_sources
    (moved,) = load_dialect_files([source._replace(workspace=str(tmp_path / "elsewhere"))])
    assert [h.command for h in moved.handlers] == ["true"]
