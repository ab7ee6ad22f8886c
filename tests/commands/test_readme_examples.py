"""The README's `list` and `explain` examples print what the commands print: each console
block is run as written, from the repository root, on a copy of the samples."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

PAGES = ("list.md", "explain.md")


def examples() -> list[tuple[str, str]]:
    """(command, output) of every console block of the sections."""
    found = []
    for name in PAGES:
        section = (REPO / "docs" / name).read_text(encoding="utf-8")
        for block in re.findall(r"```console\n(.*?)```", section, re.S):
            command, _, output = block.partition("\n")
            found.append((command.removeprefix("$ "), output))
    return found


@pytest.mark.parametrize(("command", "output"), examples(),
                         ids=[command for command, _ in examples()])
def test_the_readme_example_prints_what_it_shows(tmp_path: Path, command: str,
                                                 output: str) -> None:
    shutil.copytree(REPO / "sample_hooks", tmp_path / "sample_hooks", symlinks=True)
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
           "XDG_CACHE_HOME": str(home / ".cache"), "COLUMNS": "200",
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(["bash", "-c", f"{command} 2>&1"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.stdout == output  # messages (stderr) first, then the output, as a terminal shows
