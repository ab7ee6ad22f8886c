"""`run --config PATH` from inside a customization folder, where Antigravity runs the handlers
of `.agents/hooks.json`: a relative path that names nothing there is read from the workspace
root above it (the table: where run is started, the path given, the path read)."""

from __future__ import annotations

from pathlib import Path

import pytest

from agenthooks.cli.run_args import config_path


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / ".agents").mkdir()
    (tmp_path / ".agents" / "agenthooks.json").write_text("{}", encoding="utf-8")
    (tmp_path / "other").mkdir()
    return tmp_path


@pytest.mark.parametrize(("cwd", "given", "read"), [
    # From the root the path is what it says; from .agents/ it is the same file.
    (".", ".agents/agenthooks.json", ".agents/agenthooks.json"),
    (".agents", ".agents/agenthooks.json", "{root}/.agents/agenthooks.json"),
    # A path that names a file from where run is started is that file.
    (".agents", "agenthooks.json", "agenthooks.json"),
    # Only a customization folder looks above itself; a path found nowhere stays as given,
    # and the error names it.
    ("other", ".agents/agenthooks.json", ".agents/agenthooks.json"),
    (".agents", ".agents/missing.json", ".agents/missing.json"),
    ("/", "{root}/.agents/agenthooks.json", "{root}/.agents/agenthooks.json"),
])
def test_a_relative_config_is_read_from_the_workspace_root_too(
    project: Path, monkeypatch: pytest.MonkeyPatch, cwd: str, given: str, read: str
) -> None:
    monkeypatch.chdir(project / cwd)
    root = project.resolve()
    assert config_path(given.format(root=root)) == read.format(root=root)
