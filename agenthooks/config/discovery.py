"""Which hooks.json files apply, and which workspace each belongs to.

Order is part of the contract: the user file first, then each workspace in the order given,
and inside a workspace the customization folders in CUSTOMIZATION_DIRS order.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from agenthooks.config.model import Level, Source
from agenthooks.errors import ConfigError

CUSTOMIZATION_DIRS = (".agents", ".agent", "_agents", "_agent")
HOOKS_FILE = "hooks.json"


def user_hooks_path() -> str:
    """`~/.gemini/config/hooks.json`, honouring $HOME."""
    home = os.environ.get("HOME") or os.path.expanduser("~")
    return os.path.join(home, ".gemini", "config", HOOKS_FILE)


def display_path(path: str, cwd: str | None = None) -> str:
    """A path relative to the current directory when under it, else as it is."""
    if not os.path.isabs(path):
        return path
    base = cwd or os.getcwd()
    try:
        rel = os.path.relpath(path, base)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel


# os.path rather than pathlib throughout: this runs on every `agenthooks run`, and pathlib's
# import alone costs more than the whole discovery.


def workspace_files(root: str) -> list[str]:
    """Every hooks.json of a workspace root, in customization-folder order."""
    candidates = (os.path.join(root, folder, HOOKS_FILE) for folder in CUSTOMIZATION_DIRS)
    return [path for path in candidates if os.path.isfile(path)]


def find_workspace_root(start: str) -> str | None:
    """The nearest directory from `start` upward that has a hooks.json in a customization folder."""
    directory = os.path.abspath(start)
    while True:
        if workspace_files(directory):
            return directory
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


def owner_of(path: str, fallback: str) -> str:
    """The workspace a named file belongs to: the parent of its customization folder, if any."""
    parent = os.path.dirname(os.path.realpath(path))
    if os.path.basename(parent) in CUSTOMIZATION_DIRS:
        return os.path.dirname(parent)
    return fallback


def _source(path: str, workspace: str, cwd: str, *, given: str | None = None) -> Source:
    real = os.path.realpath(path)
    level: Level = "user" if real == os.path.realpath(user_hooks_path()) else "workspace"
    shown = given if given is not None else display_path(path, cwd)
    file = os.path.abspath(path)
    return Source(
        path=shown,
        file=file,
        workspace=os.path.realpath(workspace),
        level=level,
        cwd=os.path.dirname(os.path.realpath(file)),
    )


def workspace_roots(workspaces: Sequence[str], cwd: str) -> list[str]:
    """The `--workspace` directories (which must exist), else the nearest discovered root."""
    roots: list[str] = []
    for given in workspaces:
        root = os.path.join(cwd, given)
        if not os.path.isdir(root):
            raise ConfigError(f"--workspace {given}: no such directory")
        roots.append(root)
    if not workspaces:
        found = find_workspace_root(cwd)
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
    default_root = roots[0] if roots else cwd
    sources: list[Source] = []
    if configs:
        for given in configs:
            path = os.path.join(cwd, given)
            sources.append(_source(path, owner_of(path, default_root), cwd, given=given))
    else:
        user = user_hooks_path()
        if not no_user and os.path.isfile(user):
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
        path = os.path.join(cwd, given)
        if os.path.isdir(path):
            if os.path.basename(os.path.realpath(path)) in CUSTOMIZATION_DIRS:
                own = os.path.join(path, HOOKS_FILE)
                files = [own] if os.path.isfile(own) else []
                root = os.path.dirname(os.path.realpath(path))
            else:
                files, root = workspace_files(path), path
            if not files:
                empty.append(given)
            sources.extend(
                _source(f, root, cwd, given=os.path.join(given, os.path.relpath(f, path)))
                for f in files
            )
        else:
            sources.append(_source(path, owner_of(path, cwd), cwd, given=given))
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
