"""The cache of validated hook files: used only for the file it was written for, as it is."""

from __future__ import annotations

import json
import marshal
import os
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agenthooks.model.handlers import HookFile
from agenthooks.sources.discovery import discover
from agenthooks.sources.hooksjson.loader import load
from agenthooks.sources.reading import cache, entries


def big_config(workspace: Path, command: str = "true", handlers: int = 2000) -> Path:
    hooks = {
        f"hook-{i}": {"PreToolUse": [{"matcher": "run_command", "hooks": [{"command": command}]}]}
        for i in range(handlers)
    }
    path = workspace / ".agents" / "hooks.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(hooks, indent=2))
    return path


def mixed_config(workspace: Path) -> Path:
    """Handlers of three events, interleaved in the file."""
    hooks = {
        f"hook-{i}": {
            "Stop": [{"command": f"stop {i}"}],
            "PreToolUse": [{"matcher": "run_command|view_file",
                            "hooks": [{"command": f"pre {i}", "timeout": 5 + i}]}],
            "PostInvocation": [{"command": f"post {i}", "enabled": i % 2 == 0}],
        }
        for i in range(4)
    }
    path = workspace / ".agents" / "hooks.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(hooks))
    return path


def load_one(path: Path, event: str | None = None) -> HookFile:
    (source,) = discover(configs=[str(path)], no_user=True)
    return load(source, event)


def entries_in(home: Path) -> list[Path]:
    return sorted((home / ".cache" / "agenthooks" / "configs").glob("*.hooks.marshal"))


@pytest.fixture
def settled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every file counts as changed long ago: its entry is keyed by its status."""
    monkeypatch.setattr(entries, "RACY_NS", -10**15)


def test_a_valid_file_is_cached_and_read_back(tmp_path: Path, home: Path) -> None:
    path = big_config(tmp_path)
    first = load_one(path)
    assert len(entries_in(home)) == 1
    second = load_one(path)
    assert second.handlers == first.handlers
    assert second.ok and len(second.handlers) == 2000
    # That the second load came from the entry is test_a_hit_is_served_from_the_cache's proof.


def test_small_files_are_cached_too(tmp_path: Path, home: Path) -> None:
    # A warm run of a one-handler file then imports neither the checker nor `re`.
    path = tmp_path / "hooks.json"
    path.write_text(json.dumps({"g": {"Stop": [{"command": "true"}]}}))
    first = load_one(path)
    assert first.ok
    assert len(entries_in(home)) == 1
    assert load_one(path) == first


def test_a_warm_run_of_a_small_file_loads_neither_the_checker_nor_the_writer(
        tmp_path: Path) -> None:
    path = tmp_path / ".agents" / "hooks.json"
    path.parent.mkdir()
    path.write_text(json.dumps(
        {"g": {"PreToolUse": [{"matcher": "run_command", "hooks": [{"command": "true"}]}]}}))
    code = (
        "import io, sys\n"
        "sys.stdin = io.TextIOWrapper(io.BytesIO(b'{}'))\n"
        "from agenthooks.cli import main\n"
        f"main(['run', 'PreToolUse', '--no-user', '--tool', 'run_command', '--config',"
        f" {str(path)!r}])\n"
        "print(sorted(m for m in sys.modules if m in ('agenthooks.sources.reading.check',\n"
        "    'agenthooks.sources.reading.cache', 'agenthooks.sources.reading.jsonpos', 're',\n"
        "    '_blake2')))\n"
    )
    # The first run checks the file and caches it, as if it had been written long ago (a
    # file changed just now is known by its bytes: read and hashed).
    settle = "import agenthooks.sources.reading.entries as e; e.RACY_NS = -10**15\n"
    first, second = (subprocess.run([sys.executable, "-c", prefix + code], capture_output=True,
                                    text=True, check=False, timeout=60, cwd=tmp_path)
                     for prefix in (settle, ""))
    assert "agenthooks.sources.reading.check" in first.stdout  # the control: the first run checks
    assert second.returncode == 0, second.stderr
    assert second.stdout.strip().splitlines()[-1] == "[]"


def test_one_event_is_read_alone_and_every_event_in_file_order(
        tmp_path: Path, home: Path) -> None:
    path = mixed_config(tmp_path)
    parsed = load_one(path)
    assert entries_in(home)
    assert load_one(path) == parsed  # every event, from the entry, in the file's order
    assert [h.event for h in parsed.handlers[:3]] == ["Stop", "PreToolUse", "PostInvocation"]
    for event in ("Stop", "PreToolUse", "PostInvocation"):
        assert load_one(path, event).handlers == tuple(
            h for h in parsed.handlers if h.event == event)
    assert load_one(path, "PreInvocation").handlers == ()


def test_a_change_with_the_same_size_and_mtime_is_not_missed(tmp_path: Path) -> None:
    # Just written: the entry is keyed by the file's bytes (its status could repeat).
    path = big_config(tmp_path, command="true")
    assert {h.command for h in load_one(path).handlers} == {"true"}
    stat_ = path.stat()
    path.write_text(path.read_text().replace('"true"', '"echo"'))  # same length
    os.utime(path, ns=(stat_.st_atime_ns, stat_.st_mtime_ns))
    assert path.stat().st_size == stat_.st_size
    assert {h.command for h in load_one(path).handlers} == {"echo"}


def wait_past_change(path: Path) -> None:
    """Until the clock is well past the file's change time: a write now gets another one."""
    while time.time_ns() < path.stat().st_ctime_ns + 50_000_000:
        time.sleep(0.01)


def test_a_file_keyed_by_its_status_is_read_again_after_any_change(
        tmp_path: Path, home: Path, settled: None) -> None:
    path = big_config(tmp_path, command="true")
    load_one(path, "PreToolUse")
    (entry,) = entries_in(home)
    assert header(entry)[1] == entries.identity(os.stat(path))
    wait_past_change(path)
    stat_ = path.stat()
    path.write_text(path.read_text().replace('"true"', '"echo"'))  # same length
    os.utime(path, ns=(stat_.st_atime_ns, stat_.st_mtime_ns))
    assert (path.stat().st_size, path.stat().st_mtime_ns) == (stat_.st_size, stat_.st_mtime_ns)
    assert {h.command for h in load_one(path, "PreToolUse").handlers} == {"echo"}


def test_a_hit_by_status_reads_no_byte_of_the_file(
        tmp_path: Path, home: Path, settled: None) -> None:
    # The entry's digest no longer fits any file: only its status can make it a hit.
    path = big_config(tmp_path)
    load_one(path)
    (entry,) = entries_in(home)
    plant(entry, lambda e: with_command(e, "echo from-cache", digest=(0, "none")))
    assert {h.command for h in load_one(path).handlers} == {"echo from-cache"}


def test_a_recent_file_is_keyed_by_its_status_once_it_has_settled(
        tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = big_config(tmp_path)
    expected = load_one(path).handlers
    (entry,) = entries_in(home)
    assert header(entry)[1] is None  # changed just now: its status could repeat
    monkeypatch.setattr(entries, "RACY_NS", -10**15)
    assert load_one(path, "PreToolUse").handlers == expected
    assert header(entry)[1] == entries.identity(os.stat(path))
    assert load_one(path).handlers == expected


def test_a_file_grown_over_the_limit_is_refused_though_cached(
        tmp_path: Path, home: Path, settled: None, monkeypatch: pytest.MonkeyPatch) -> None:
    path = big_config(tmp_path, handlers=3)
    assert load_one(path, "PreToolUse").ok
    monkeypatch.setenv("AGENTHOOKS_MAX_CONFIG_BYTES", "10")
    refused = load_one(path, "PreToolUse")
    assert [d.rule for d in refused.errors] == ["too-large"]
    assert refused.handlers == ()


def test_a_corrupt_entry_is_ignored(tmp_path: Path, home: Path) -> None:
    path = big_config(tmp_path)
    expected = load_one(path).handlers
    (entry,) = entries_in(home)
    for garbage in (b"\x00garbage", b"\xff\xff\xff\x7f", entry.read_bytes()[:-5], b""):
        entry.write_bytes(garbage)
        assert load_one(path).handlers == expected
        assert load_one(path, "PreToolUse").handlers == expected


def test_a_file_with_errors_is_never_cached(tmp_path: Path, home: Path) -> None:
    path = big_config(tmp_path, command="")
    loaded = load_one(path)
    assert not loaded.ok
    assert loaded.errors[0].rule == "command-missing"
    assert entries_in(home) == []


def test_an_unwritable_cache_only_costs_speed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    monkeypatch.setenv("AGENTHOOKS_CACHE_DIR", str(blocker / "sub"))
    path = big_config(tmp_path / "ws")
    assert load_one(path).ok
    assert load_one(path, "PreToolUse").ok
    assert entries.cache_dir() == str(blocker / "sub")


def test_concurrent_first_runs_agree(tmp_path: Path, home: Path) -> None:
    path = big_config(tmp_path)
    script = (
        "import sys; from agenthooks.sources.discovery import discover; "
        "from agenthooks.sources.hooksjson.loader import load; "
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
    assert len(entries_in(home)) == 1
    assert list((home / ".cache" / "agenthooks" / "configs").glob("*.tmp")) == []
    assert len(load_one(path).handlers) == 2000


# An entry on disk: a four-byte length, the marshalled header (writer, status, digest,
# events, each event's span, the order's span), then each event's marshalled columns, then the
# order. `read_entry` and `write_entry` take it apart and put it together again.
Parts = tuple[list[Any], dict[str, Any], bytes]


def read_parts(path: Path) -> Parts:
    data = path.read_bytes()
    size = int.from_bytes(data[:4], "little") + 4
    header = list(marshal.loads(data[4:size]))
    columns = {event: marshal.loads(data[size + offset:size + offset + length])
               for event, (offset, length) in zip(header[3], header[4], strict=True)}
    offset, length = header[5]
    return header, columns, data[size + offset:size + offset + length]


def write_parts(path: Path, parts: Parts) -> None:
    header, columns, order = parts
    blobs = [marshal.dumps(c) if not isinstance(c, bytes) else c for c in columns.values()]
    spans, offset = [], 0
    for blob in blobs:
        spans.append((offset, len(blob)))
        offset += len(blob)
    head = marshal.dumps((*header[:3], tuple(columns), tuple(spans), (offset, len(order))))
    path.write_bytes(len(head).to_bytes(4, "little") + head + b"".join(blobs) + order)


def header(path: Path) -> list[Any]:
    return read_parts(path)[0]


def plant(entry: Path, change: Callable[[Parts], Parts]) -> None:
    """Rewrite a cache entry in place through `change`, keeping its owner and mode."""
    write_parts(entry, change(read_parts(entry)))


def with_command(parts: Parts, command: str, digest: Any = None) -> Parts:
    """The entry with every handler's command replaced (an event's columns: hook, matcher,
    command, ...), and its digest when given."""
    head, columns, order = parts
    if digest is not None:
        head = [*head[:2], digest, *head[3:]]
    return head, {event: (*c[:2], [command] * len(c[2]), *c[3:])
                  for event, c in columns.items()}, order


GOOD_ROW = ("h", None, "x", 30, "command", True, "/h")


def columns_with(index: int, value: Any) -> tuple[list[Any], ...]:
    """The columns of one good row with one field changed."""
    row = list(GOOD_ROW)
    row[index] = value
    return tuple([field] for field in row)


def test_a_hit_is_served_from_the_cache(tmp_path: Path, home: Path) -> None:
    # An entry that differs observably from the file proves the second load did not parse it.
    path = big_config(tmp_path)
    assert {h.command for h in load_one(path).handlers} == {"true"}
    (entry,) = entries_in(home)
    plant(entry, lambda e: with_command(e, "echo from-cache"))
    assert {h.command for h in load_one(path).handlers} == {"echo from-cache"}
    assert {h.command for h in load_one(path, "PreToolUse").handlers} == {"echo from-cache"}


def test_an_entry_of_another_version_is_not_used(
    tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = big_config(tmp_path)
    load_one(path)
    (entry,) = entries_in(home)
    plant(entry, lambda e: with_command(e, "echo stale"))
    assert {h.command for h in load_one(path).handlers} == {"echo stale"}
    monkeypatch.setattr(entries, "__version__", "99.0")
    assert {h.command for h in load_one(path).handlers} == {"true"}


@pytest.mark.parametrize(
    "bad_columns",
    [
        "not a tuple",
        [[], [], [], [], [], [], []],  # a list of columns
        ([],) * 6,  # too few columns
        (["h"], [None], ["x"], [30], ["command"], [True], []),  # of unequal lengths
        (("h",), [None], ["x"], [30], ["command"], [True], ["/h"]),  # a tuple
        columns_with(3, "30"),
        columns_with(3, True),
        columns_with(3, 0),
        columns_with(3, 2**31),
        columns_with(4, "script"),
        columns_with(4, ["command"]),  # unhashable where a word belongs
        columns_with(5, 1),
        columns_with(1, 5),
        columns_with(2, b"x"),
        columns_with(0, None),
        b"\x00 not marshal",
    ],
)
def test_an_entry_of_the_wrong_shape_is_dropped(
    bad_columns: Any, tmp_path: Path, home: Path
) -> None:
    path = big_config(tmp_path)
    expected = load_one(path).handlers
    (entry,) = entries_in(home)
    for event in ("PreToolUse", None):  # a dropped entry is written again: plant it anew
        plant(entry, lambda e: (e[0], {"PreToolUse": bad_columns}, e[2]))
        assert load_one(path, event).handlers == expected


# Each change, and whether a run's read of one event sees it too (the order is read only
# with every event).
@pytest.mark.parametrize(
    ("change", "one_event_too"),
    [
        (lambda h, c, o: (h, {"NoSuchEvent": c["PreToolUse"]}, o), True),
        (lambda h, c, o: ([h[0], "not a status", *h[2:]], c, o), True),
        (lambda h, c, o: ([h[0][:2], *h[1:]], c, o), True),  # another writer
        (lambda h, c, o: (h, c, o[:-1]), False),  # an order shorter than the rows
        (lambda h, c, o: (h, c, o + b"\x00"), False),
        (lambda h, c, o: (h, c, b"\x01" * len(o)), False),  # rows of an event it lacks
    ],
)
def test_an_entry_whose_header_does_not_fit_is_dropped(
    change: Callable[..., Parts], one_event_too: bool, tmp_path: Path, home: Path,
    settled: None,
) -> None:
    path = big_config(tmp_path)
    expected = load_one(path).handlers
    (entry,) = entries_in(home)
    write_parts(entry, change(*with_command(read_parts(entry), "echo planted")))
    one_event = {h.command for h in load_one(path, "PreToolUse").handlers}
    assert one_event == ({"true"} if one_event_too else {"echo planted"})
    assert load_one(path).handlers == expected  # and the entry is written again, whole


def test_an_entry_shorter_than_its_header_says_is_dropped(tmp_path: Path, home: Path) -> None:
    path = big_config(tmp_path)
    expected = load_one(path).handlers
    (entry,) = entries_in(home)
    planted = with_command(read_parts(entry), "echo planted")
    write_parts(entry, planted)
    entry.write_bytes(entry.read_bytes()[:-1])
    assert load_one(path).handlers == expected
    assert load_one(path, "PreToolUse").handlers == expected


def test_an_entry_of_another_user_is_not_trusted(tmp_path: Path, home: Path) -> None:
    path = big_config(tmp_path)
    load_one(path)
    (entry,) = entries_in(home)
    plant(entry, lambda e: with_command(e, "echo planted"))
    os.chown(entry, 12345, 12345)  # as if another user had written it
    assert {h.command for h in load_one(path).handlers} == {"true"}
    assert {h.command for h in load_one(path, "PreToolUse").handlers} == {"true"}


@pytest.mark.parametrize("mode", [0o666, 0o646, 0o664])
def test_an_entry_others_can_write_is_not_trusted(mode: int, tmp_path: Path, home: Path) -> None:
    path = big_config(tmp_path)
    load_one(path)
    (entry,) = entries_in(home)
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
    (entry,) = entries_in(home)
    plant(entry, lambda e: with_command(e, "echo planted"))
    elsewhere = tmp_path / "elsewhere.marshal"
    entry.rename(elsewhere)
    entry.symlink_to(elsewhere)
    assert {h.command for h in load_one(path).handlers} == {"true"}


def test_an_entry_of_a_very_long_path_is_named_by_a_hash(tmp_path: Path, home: Path) -> None:
    deep = tmp_path / ("d" * 120) / ("e" * 120)
    path = big_config(deep, handlers=2)
    load_one(path)
    (entry,) = entries_in(home)
    assert len(entry.name) == 32 + len(".hooks.marshal")
    plant(entry, lambda e: with_command(e, "echo from-cache"))
    assert {h.command for h in load_one(path).handlers} == {"echo from-cache"}


# --- settings files (Claude Code, Gemini CLI) -----------------------------------------------


def plant_marshal(entry: Path, change: Callable[[Any], Any]) -> None:
    """Rewrite a marshalled cache entry in place through `change`, keeping its owner and
    mode."""
    entry.write_bytes(marshal.dumps(change(marshal.loads(entry.read_bytes()))))


def settings_file(workspace: Path, dialect: str, command: str = "true") -> Path:
    event, folder = ("PreToolUse", ".claude") if dialect == "claude" else ("BeforeTool", ".gemini")
    group = {"matcher": "^x$", "hooks": [{"type": "command", "command": command}]}
    path = workspace / folder / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"hooks": {event: [group]}}))
    return path


def load_settings(path: Path) -> HookFile:
    from agenthooks.sources.dialects.load import load_dialect_files
    from agenthooks.sources.discovery import discover_all

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
    plant_marshal(entry, lambda e: with_settings_command(e, "echo from-cache"))
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
    plant_marshal(entry, lambda e: with_settings_command(e, "echo planted"))
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
    plant_marshal(entry, lambda e: (e[0], e[1], (bad, None, ())))
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
    plant_marshal(entry, lambda e: with_settings_command(e, "echo planted"))
    from agenthooks.sources.dialects.load import load_dialect_files
    from agenthooks.sources.discovery import discover_all

    (source,) = discover_all(configs=[str(path)], no_user=True, dialects=True).dialect_sources
    (moved,) = load_dialect_files([source._replace(workspace=str(tmp_path / "elsewhere"))])
    assert [h.command for h in moved.handlers] == ["true"]


def test_a_settled_settings_file_is_keyed_by_its_status_and_any_change_is_seen(
        tmp_path: Path, home: Path, settled: None) -> None:
    path = settings_file(tmp_path, "claude", command="true")
    assert [h.command for h in load_settings(path).handlers] == ["true"]
    (entry,) = settings_entries(home)
    assert marshal.loads(entry.read_bytes())[1] == entries.identity(os.stat(path))
    assert [h.command for h in load_settings(path).handlers] == ["true"]  # a hit
    wait_past_change(path)
    stat_ = path.stat()
    path.write_text(path.read_text().replace('"true"', '"echo"'))  # same length
    os.utime(path, ns=(stat_.st_atime_ns, stat_.st_mtime_ns))
    assert [h.command for h in load_settings(path).handlers] == ["echo"]


@pytest.mark.parametrize("is_settled", [True, False])
def test_a_fingerprint_is_the_status_once_settled_else_the_bytes(
        is_settled: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"abc")
    monkeypatch.setattr(entries, "RACY_NS", -10**15 if is_settled else 10**15)
    key = cache.fingerprint(os.stat(path), b"abc")
    assert (key == entries.identity(os.stat(path))) is is_settled
    assert (key == (3, os.stat(path).st_mtime_ns, cache.hash_hex(b"abc", 20))) is not is_settled
