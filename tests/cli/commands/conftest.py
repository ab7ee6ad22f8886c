"""The command tests read the sample workspace's hooks.json; its Markdown hooks
(`.harness/hooks`) have their own tests in tests/sources/markdown, and its Claude Code and Gemini
CLI settings (`.claude/`, `.gemini/`) theirs in tests/sources/dialects, so here they are left
out."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest


@pytest.fixture
def samples(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the sample workspace without its Markdown hooks and settings files."""
    from tests.conftest import REPO

    target = tmp_path_factory.mktemp("samples") / "sample_hooks"
    shutil.copytree(REPO / "sample_hooks", target, symlinks=True,
                    ignore=shutil.ignore_patterns(".harness", ".claude", ".gemini"))
    return target
