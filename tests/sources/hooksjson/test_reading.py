"""What is named as a config cannot hang, exhaust memory or crash agenthooks.

A FIFO, a device, a directory or a huge file is one diagnostic; so is nesting beyond the
200-level limit, however deep. `validate` reports it (exit 1); `load`, which `run` uses,
returns it as a file with errors, which `run` skips.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from agenthooks.jsonlimits import MAX_DEPTH
from agenthooks.model.handlers import HookFile
from agenthooks.sources.discovery import discover
from agenthooks.sources.hooksjson.loader import check_file, load

pytestmark = pytest.mark.program


def agenthooks_process(*args: str, env: dict[str, str] | None = None,
                       cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The CLI in a child with a time and memory limit: a regression fails, never hangs
    the suite or fills the machine's memory."""
    def limit_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    return subprocess.run(
        [sys.executable, "-m", "agenthooks", *args], capture_output=True, text=True,
        timeout=60, check=False, preexec_fn=limit_memory, env={**os.environ, **(env or {})},
        cwd=cwd,
    )


def loaded(path: Path | str) -> HookFile:
    (source,) = discover(configs=[str(path)], no_user=True)
    return load(source)


def only_error(hook_file: HookFile) -> tuple[str, str]:
    (diagnostic,) = hook_file.diagnostics
    assert diagnostic.severity == "error"
    return diagnostic.rule, diagnostic.message


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "hooks.json"
    os.mkfifo(fifo)
    done = agenthooks_process("validate", str(fifo))
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        f"{fifo}:1:1: error [not-a-file] {fifo} is a FIFO (named pipe), not a hooks file",
        "1 error, 0 warnings in 1 file",
    ]
    rule, _ = only_error(loaded(fifo))
    assert rule == "not-a-file"


def test_dev_zero_is_refused_without_reading_it() -> None:
    done = agenthooks_process("validate", "--config", "/dev/zero")
    assert done.returncode == 1, done.stderr
    assert "/dev/zero:1:1: error [not-a-file] /dev/zero is a character device" in done.stdout
    assert loaded("/dev/zero").errors[0].rule == "not-a-file"


def test_a_directory_named_hooks_json_is_not_a_file(tmp_path: Path) -> None:
    (tmp_path / "hooks.json").mkdir()
    rule, message = only_error(loaded(tmp_path / "hooks.json"))
    assert (rule, message) == ("not-a-file", f"{tmp_path / 'hooks.json'} is a directory, "
                                             "not a hooks file")
    done = agenthooks_process("validate", str(tmp_path / "hooks.json"))
    assert done.returncode == 1 and "[not-a-file]" in done.stdout


def test_a_file_over_the_size_cap_is_one_error(tmp_path: Path) -> None:
    path = tmp_path / "hooks.json"
    path.write_text(json.dumps({"a": {"Stop": [{"command": "x" * 2000}]}}))
    env = {"AGENTHOOKS_MAX_CONFIG_BYTES": "1000"}
    done = agenthooks_process("validate", str(path), env=env)
    assert done.returncode == 1
    assert f"error [too-large] {path} is 2034 bytes, over the 1000 bytes limit" in done.stdout
    assert agenthooks_process("validate", str(path)).returncode == 0  # the default: 16 MiB


def test_the_default_cap_is_16_mib_and_nothing_is_read(tmp_path: Path) -> None:
    path = tmp_path / "hooks.json"
    with path.open("wb") as handle:  # sparse, so the test writes nothing
        handle.truncate(16 * 1024 * 1024 + 1)
    rule, message = only_error(loaded(path))
    assert rule == "too-large"
    assert "is 16.0 MiB, over the 16.0 MiB limit" in message
    with path.open("r+b") as handle:
        handle.truncate(16 * 1024 * 1024)  # at the cap: read, and then not JSON
    assert only_error(loaded(path))[0] == "json-syntax"


def test_load_of_an_oversized_file_is_a_skipped_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "hooks.json"
    path.write_text(json.dumps({"a": {"Stop": [{"command": "x" * 200}]}}))
    assert loaded(path).ok
    monkeypatch.setenv("AGENTHOOKS_MAX_CONFIG_BYTES", "100")
    hook_file = loaded(path)
    assert (hook_file.ok, hook_file.handlers) == (False, ())
    assert hook_file.errors[0].rule == "too-large"


def nested(depth: int, inner: str = "1") -> str:
    """A config whose `deep` value brings the document to `depth` levels in all."""
    return '{\n  "deep": ' + "[" * (depth - 1) + inner + "]" * (depth - 1) + "\n}\n"


@pytest.mark.parametrize("depth", [600, 5000, 100_000])
def test_nesting_too_deep_is_one_error_at_its_line(depth: int, tmp_path: Path) -> None:
    path = tmp_path / "hooks.json"
    path.write_text(nested(depth))
    done = agenthooks_process("validate", str(path))
    assert done.returncode == 1, done.stderr
    assert done.stdout.splitlines()[0] == (
        f"{path}:2:{11 + MAX_DEPTH - 1}: error [nesting-too-deep] nesting too deep: "
        f"more than {MAX_DEPTH} levels of lists and objects"
    )
    assert "Traceback" not in done.stderr
    hook_file = loaded(path)
    assert [(d.rule, d.line) for d in hook_file.diagnostics] == [("nesting-too-deep", 2)]


def test_the_limit_itself_is_allowed(tmp_path: Path) -> None:
    path = tmp_path / "hooks.json"
    path.write_text(nested(MAX_DEPTH))
    at_limit = check_file(discover(configs=[str(path)], no_user=True)[0])
    assert [d.rule for d in at_limit.diagnostics] == ["definition-type"]  # not too deep
    path.write_text(nested(MAX_DEPTH + 1))
    assert only_error(loaded(path))[0] == "nesting-too-deep"


def test_brackets_inside_strings_do_not_count(tmp_path: Path) -> None:
    path = tmp_path / "hooks.json"
    command = "echo '" + "[{" * 500 + "'"
    path.write_text(json.dumps({"a": {"Stop": [{"command": command}]}}))
    hook_file = loaded(path)
    assert hook_file.ok and hook_file.handlers[0].command == command
    assert check_file(hook_file.source).diagnostics == ()


def test_the_position_reader_stops_at_the_limit() -> None:
    from agenthooks.sources.reading.jsonpos import TooDeep, read_positions, too_deep_at

    text = "[" * 300 + "]" * 300
    assert too_deep_at(text) == MAX_DEPTH
    with pytest.raises(TooDeep) as caught:
        read_positions(text)
    assert caught.value.offset == MAX_DEPTH
    value, _ = read_positions("[" * MAX_DEPTH + "]" * MAX_DEPTH)
    assert isinstance(value, list)
    assert too_deep_at('["\\"[[[", {"a": "]]]"}]', limit=2) is None
