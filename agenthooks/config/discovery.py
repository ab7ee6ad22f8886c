"""Which hooks.json files apply, and which workspace each belongs to.

Order is part of the contract: the user file first, then each workspace in the order given,
and inside a workspace the customization folders in CUSTOMIZATION_DIRS order.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from agenthooks.config.model import Level, Source
from agenthooks.errors import ConfigError

CUSTOMIZATION_DIRS = (".agents", ".agent", "_agents", "_agent")
HOOKS_FILE = "hooks.json"


def user_hooks_path() -> Path:
    """`~/.gemini/config/hooks.json`, honouring $HOME."""
    home = os.environ.get("HOME") or os.path.expanduser("~")
    return Path(home) / ".gemini" / "config" / HOOKS_FILE


def display_path(path: Path | str, cwd: str | None = None) -> str:
    """A path relative to the current directory when under it, else as it is."""
    text = os.fspath(path)
    if not os.path.isabs(text):
        return text
    base = cwd or os.getcwd()
    try:
        rel = os.path.relpath(text, base)
    except ValueError:
        return text
    return text if rel.startswith("..") else rel


def workspace_files(root: Path) -> list[Path]:
    """Every hooks.json of a workspace root, in customization-folder order."""
    return [
        root / folder / HOOKS_FILE
        for folder in CUSTOMIZATION_DIRS
        if (root / folder / HOOKS_FILE).is_file()
    ]


def find_workspace_root(start: Path) -> Path | None:
    """The nearest directory from `start` upward that has a hooks.json in a customization folder."""
    for directory in (start, *start.parents):
        if workspace_files(directory):
            return directory
    return None


def owner_of(path: Path, fallback: Path) -> Path:
    """The workspace a named file belongs to: the parent of its customization folder, if any."""
    parent = path.resolve().parent
    if parent.name in CUSTOMIZATION_DIRS:
        return parent.parent
    return fallback


def _source(path: Path, workspace: Path, cwd: str, *, given: str | None = None) -> Source:
    user = user_hooks_path()
    level: Level = "user" if path.resolve() == user.resolve() else "workspace"
    shown = given if given is not None else display_path(path, cwd)
    return Source(
        path=shown,
        file=os.fspath(path.absolute()),
        workspace=os.fspath(workspace.resolve()),
        level=level,
    )


def workspace_roots(workspaces: Sequence[str], cwd: str) -> list[Path]:
    """The `--workspace` directories (which must exist), else the nearest discovered root."""
    roots: list[Path] = []
    for given in workspaces:
        root = Path(cwd, given)
        if not root.is_dir():
            raise ConfigError(f"--workspace {given}: no such directory")
        roots.append(root)
    if not workspaces:
        found = find_workspace_root(Path(cwd))
        if found is not None:
            roots.append(found)
    return roots


def discover(
    *,
    configs: Sequence[str] = (),
    workspaces: Sequence[str] = (),
    no_user: bool = False,
    cwd: str | None = None,
) -> list[Source]:
    """The hook files that apply, in order, each read once.

    `configs` names files explicitly and turns discovery off, the user file included.
    """
    cwd = cwd or os.getcwd()
    roots = workspace_roots(workspaces, cwd)
    default_root = roots[0] if roots else Path(cwd)
    sources: list[Source] = []
    if configs:
        for given in configs:
            path = Path(cwd, given)
            sources.append(_source(path, owner_of(path, default_root), cwd, given=given))
    else:
        user = user_hooks_path()
        if not no_user and user.is_file():
            sources.append(_source(user, default_root, cwd))
        for root in roots:
            sources.extend(_source(path, root, cwd) for path in workspace_files(root))
    return _read_once(sources)


def sources_for_paths(
    paths: Sequence[str], cwd: str | None = None
) -> tuple[list[Source], list[str]]:
    """The files `validate PATH...` checks, and the directories that held none.

    A path is a hooks file, a customization folder, or a workspace root.
    """
    cwd = cwd or os.getcwd()
    sources: list[Source] = []
    empty: list[str] = []
    for given in paths:
        path = Path(cwd, given)
        if path.is_dir():
            if path.resolve().name in CUSTOMIZATION_DIRS:
                files = [path / HOOKS_FILE] if (path / HOOKS_FILE).is_file() else []
                root = path.resolve().parent
            else:
                files, root = workspace_files(path), path
            if not files:
                empty.append(given)
            sources.extend(
                _source(f, root, cwd, given=os.path.join(given, os.path.relpath(f, path)))
                for f in files
            )
        else:
            sources.append(_source(path, owner_of(path, Path(cwd)), cwd, given=given))
    return _read_once(sources), empty


def _read_once(sources: list[Source]) -> list[Source]:
    seen: set[str] = set()
    unique: list[Source] = []
    for source in sources:
        key = os.path.realpath(source.file)
        if key not in seen:
            seen.add(key)
            unique.append(source)
    return unique
