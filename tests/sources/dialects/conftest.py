"""Helpers for Claude Code and Gemini CLI settings files in a temporary project."""

from __future__ import annotations

import os
from pathlib import Path

from agenthooks.model.handlers import HookFile
from agenthooks.sources.dialects.load import check_dialect_file
from agenthooks.sources.discovery import dialect_source

FOLDERS = {"claude": ".claude", "gemini": ".gemini"}


def settings(root: Path, dialect: str, text: str, name: str = "settings.json") -> Path:
    """Write a settings file of a dialect under a project root."""
    path = root / FOLDERS[dialect] / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def check(root: Path, dialect: str, text: str) -> HookFile:
    path = settings(root, dialect, text)
    return check_dialect_file(dialect_source(str(path), dialect, str(root), os.getcwd())).hook_file


def check_file(root: Path, rel: str, dialect: str, text: str) -> HookFile:
    """A host's hooks file written at `rel` under a project root, checked as that host's."""
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return check_dialect_file(dialect_source(str(path), dialect, str(root), os.getcwd())).hook_file


def found(hook_file: HookFile) -> list[tuple[str, int, int]]:
    return [(d.rule, d.line, d.column) for d in hook_file.diagnostics]
