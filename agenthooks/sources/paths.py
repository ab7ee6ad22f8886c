"""The hook files named on a command line (`validate PATH...`, `list PATH...`), and the
folders under them with `--recursive`.

Discovery (`sources.discovery`) finds what a run reads; this is the other way in, used by the
commands that check or show files by path, so a run never loads it.
"""

from __future__ import annotations

import os

from agenthooks.model.hosts import HOOKS_JSON_DIALECT
from agenthooks.sources.discovery import (
    CUSTOMIZATION_DIRS,
    DIALECT_FILES,
    DIALECT_FOLDERS,
    HARNESS_DIR,
    HOOKS_FILE,
    MARKDOWN_DIR,
    detect,
    dialect_owner,
    dialect_source,
    expand,
    is_markdown,
    is_markdown_folder,
    markdown_files,
    markdown_in,
    owner_of,
    present,
    read_once,
    source_of,
    unsure_format,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence

    from agenthooks.model.handlers import Source


def sources_for_paths(
    paths: Sequence[str], cwd: str | None = None, *, recursive: bool = False,
    dialect: str | None = None,
) -> tuple[list[Source], list[str]]:
    """The files `validate PATH...` checks, and the directories that held none.

    A path is a hooks file (hooks.json, `.md`, a Claude Code or Gemini CLI settings file), a
    customization folder, a `.harness/hooks` folder, a `.claude` or `.gemini` folder, or a
    workspace root (its hooks.json files, its Markdown hooks, then its settings files); with
    `recursive`, a directory stands for every such folder under it. `dialect` (--dialect)
    says how to read every file named, and limits directories to that kind.
    """
    cwd = cwd or os.getcwd()
    sources: list[Source] = []
    empty: list[str] = []
    for given in paths:
        path = os.path.join(cwd, given)
        if not os.path.isdir(path) or os.path.basename(path) == HOOKS_FILE:
            # A file, a broken link, or a directory that only pretends to be a hooks file.
            sources.append(named_source(path, given, cwd, dialect))
            continue
        found = _folder_sources(given, path, cwd, recursive=recursive, dialect=dialect)
        if not found:
            empty.append(given)
        sources.extend(found)
    return read_once(sources), empty


def _folder_sources(
    given: str, path: str, cwd: str, *, recursive: bool, dialect: str | None
) -> list[Source]:
    """The hook files a directory named to `validate` stands for, shown under `given`."""
    real = os.path.realpath(path)
    if os.path.basename(real) in DIALECT_FOLDERS:
        root = os.path.dirname(real)
        found_here = _dialect_files_in(root, dialect, only=os.path.basename(real))
        shown = _dialect_shown(found_here, given, real, root, cwd)
        if os.path.basename(real) not in CUSTOMIZATION_DIRS:
            return shown
        # `.agents` holds hooks.json and Goose's plugins alike: both
        plain = _plain_files_under(path, False) if dialect in (None, HOOKS_JSON_DIALECT) else []
        return [*(source_of(file, owner_of(file, cwd), cwd, given=_shown(given, file, path))
                  for file in plain), *shown]
    plugin = _plugin_folder(given, path, cwd, dialect)
    if plugin:  # a plugin's own checkout: its hook files
        return plugin
    # --dialect claude (or gemini) limits a directory to that dialect's files.
    found = _plain_files_under(path, recursive) if dialect in (None, HOOKS_JSON_DIALECT) else []
    roots = [os.path.dirname(folder) for folder in dialect_folders(path)] if recursive \
        else [path]
    sources = [source_of(file, owner_of(file, cwd), cwd, given=_shown(given, file, path))
               for file in found]
    sources.extend(dialect_source(file, kind, root, cwd, given=_shown(given, file, path))
                   for root in dict.fromkeys(roots)
                   for kind, file in _dialect_files_in(root, dialect))
    return sources


def _plugin_folder(given: str, path: str, cwd: str, dialect: str | None) -> list[Source]:
    """The hook files of a plugin folder named to `validate` (`sources.plugins`), each read
    in its plugin's format (its shape for an Agent Plugin's), run in the current
    directory as a named plugin file is; `dialect` keeps one format's."""
    from agenthooks.sources.plugins import folder_hook_files

    sources = []
    for placed, file in folder_hook_files(path):
        kind = placed or detect(file, dialect)
        if dialect not in (None, kind):
            continue
        shown = _shown(given, file, path)
        sources.append(source_of(file, cwd, cwd, given=shown) if kind == HOOKS_JSON_DIALECT
                       else dialect_source(file, kind, cwd, cwd, given=shown))
    return sources


def _shown(given: str, file: str, folder: str) -> str:
    """How to show a file found in `folder`, which the user named as `given`."""
    return os.path.normpath(os.path.join(given, os.path.relpath(file, folder)))


def _plain_files_under(path: str, recursive: bool) -> list[str]:
    """The hooks.json files and then the Markdown hooks a directory stands for."""
    if recursive:
        folders = customization_folders(path)
    elif os.path.basename(os.path.realpath(path)) in CUSTOMIZATION_DIRS:
        folders = [path]
    elif is_markdown_folder(path):
        folders = []
    else:
        folders = [os.path.join(path, name) for name in CUSTOMIZATION_DIRS]
    found = [
        os.path.join(folder, HOOKS_FILE)
        for folder in folders
        if present(os.path.join(folder, HOOKS_FILE))
    ]
    found.extend(_markdown_under(path, recursive))
    return found


def named_source(path: str, given: str, cwd: str, dialect: str | None,
                 data: bytes | None = None) -> Source:
    """The Source of a file named on the command line, read in the dialect it has; `data`:
    its content, when it is not the file's on disk (an editor's text, perhaps unsaved)."""
    if not is_markdown(path) and (data is not None or os.path.isfile(path)):
        kind = detect(path, dialect, data)
        if kind != HOOKS_JSON_DIALECT:
            return dialect_source(path, kind, dialect_owner(path, cwd), cwd, given=given)
        if unsure_format(path, dialect, data):
            return source_of(path, owner_of(path, cwd), cwd, given=given)._replace(unsure=True)
    return source_of(path, owner_of(path, cwd), cwd, given=given)


def _dialect_files_in(root: str, dialect: str | None, only: str | None = None
                      ) -> list[tuple[str, str]]:
    """(dialect, path) of a root's settings files, limited to a dialect or one folder."""
    home = os.environ.get("HOME") or os.path.expanduser("~")
    if os.path.realpath(root) == os.path.realpath(home) and only is None:
        return []
    found = [(kind, path) for kind, rel in DIALECT_FILES
             for path in expand(os.path.join(root, rel))]
    return [(kind, file) for kind, file in found
            if (dialect in (None, kind)) and (only is None or
                                              _folder_of(os.path.relpath(file, root)) == only)]


def _folder_of(relative: str) -> str:
    """The top folder of a path relative to a project root (`.claude`)."""
    return relative.split(os.sep, maxsplit=1)[0]


def _dialect_shown(found: list[tuple[str, str]], given: str, folder: str, root: str,
                   cwd: str) -> list[Source]:
    return [dialect_source(file, kind, root, cwd,
                           given=os.path.normpath(os.path.join(given,
                                                               os.path.relpath(file, folder))))
            for kind, file in found]


def dialect_folders(top: str) -> list[str]:
    """Every host's folder (`.claude`, `.gemini`...) with a settings file under `top`, by
    path."""
    found = [os.path.join(directory, folder) for directory in _directories(top)
             for folder in DIALECT_FOLDERS
             if _dialect_files_in(directory, None, only=folder)]
    return sorted(found, key=lambda f: f.split(os.sep))


def _directories(top: str) -> Iterator[str]:
    """`top` and every directory under it that `validate --recursive` searches, level by
    level as `customization_folders` walks: one `git check-ignore` call per level prunes
    ignored folders before they are walked; links to directories are not followed."""
    ignored = _git_ignore_check(top)
    level = [top]
    while level:
        children: list[str] = []
        for directory in level:
            yield directory
            _subdirectories(directory, children, [])
        if ignored is not None and children:
            dropped = ignored(children)
            children = [child for child in children if child not in dropped]
        level = children


def walk_directories(top: str) -> Iterator[str]:
    """`top` and every directory below it that `validate --recursive` searches."""
    return _directories(top)


def _markdown_under(path: str, recursive: bool) -> list[str]:
    """The Markdown hooks a directory named to `validate` stands for."""
    if is_markdown_folder(path):
        return markdown_in(path)
    if not recursive:
        return markdown_files(path)
    return [file for folder in harness_folders(path) for file in markdown_in(folder)]


def harness_folders(top: str) -> list[str]:
    """Every `.harness/hooks` folder with Markdown hooks under `top`, by path."""
    found = [folder for directory in _directories(top)
             if markdown_in(folder := os.path.join(directory, MARKDOWN_DIR))]
    return sorted(found, key=lambda f: f.split(os.sep))


# --- the files pre-commit hands to `validate` (.pre-commit-hooks.yaml) ----------------------

# The gate file of a wiring that keeps its gates beside a hooks.json a host runs itself
# (Antigravity's `.agents/agenthooks.json`, named with --config; `agenthooks init` writes it).
GATE_FILE = "agenthooks.json"
FIXTURE_SUFFIXES = ("yaml", "yml", "json")


def _pattern(place: str) -> str:
    """A place (`.github/hooks/*.json`) as a regex over a path relative to a repository."""
    return "[^/]+".join(_escaped(part) for part in place.split("*"))


def _escaped(text: str) -> str:
    return "".join("\\" + char if char in ".^$+?()[]{}|\\" else char for char in text)


def _either(words: Sequence[str]) -> str:
    return "(" + "|".join(words) + ")"


def hook_files_pattern() -> str:
    """The regex of every hook file `validate` checks by path: hooks.json and the gate file
    in each customization folder, Markdown hooks, each host's project files (from the host
    table) and hook fixtures; pre-commit's `files:` for the `agenthooks-validate` hook."""
    folders = _either([_escaped(name) for name in CUSTOMIZATION_DIRS])
    files = _either([_escaped(name) for name in (HOOKS_FILE, GATE_FILE)])
    places = [
        f"{folders}/{files}",
        _pattern(MARKDOWN_DIR.replace(os.sep, "/") + "/*.md"),
        *(_pattern(rel.replace(os.sep, "/")) for _, rel in DIALECT_FILES),
        "[^/]+" + _escaped(".hooktest.") + _either(FIXTURE_SUFFIXES),
    ]
    return f"(^|/){_either(places)}$"


def hook_folders_pattern() -> str:
    """The regex of a path in a folder hook files live in (customization folders, `.harness`,
    each host's folders), or of a host's file that lives in none: pre-commit's `files:` for
    the `agenthooks-test` hook."""
    folders = dict.fromkeys([*CUSTOMIZATION_DIRS, HARNESS_DIR, *(
        os.path.dirname(rel).replace(os.sep, "/") for _, rel in DIALECT_FILES)])
    # A folder under a customization folder (Goose's `.agents/plugins/*/hooks`) is in it.
    own = [_pattern(folder) for folder in folders if folder and not any(
        folder.startswith(outer + "/") for outer in CUSTOMIZATION_DIRS)]
    pattern = f"(^|/){_either(own)}/"
    # A host's file in no folder of its own (Charm Crush's `crush.json`): the file itself.
    alone = [_escaped(rel) for _, rel in DIALECT_FILES if not os.path.dirname(rel)]
    return f"{pattern}|(^|/){_either(alone)}$" if alone else pattern


# Folders never searched by `validate --recursive`: git's own, and installed packages.
SKIPPED_DIRS = frozenset({".git", "node_modules"})

if TYPE_CHECKING:
    IgnoreCheck = Callable[[list[str]], set[str]]


def customization_folders(top: str) -> list[str]:
    """Every customization folder under `top` that holds a hooks.json, sorted by path.

    Level by level, so that one `git check-ignore` call per level prunes ignored folders
    (build output, virtual environments) before they are walked. Symbolic links to
    directories are not followed, except as customization folders themselves.
    """
    ignored = _git_ignore_check(top)
    found: list[str] = []
    level = [top]
    while level:
        children: list[str] = []
        folders: list[str] = []
        for directory in level:
            _subdirectories(directory, children, folders)
        if ignored is not None and (children or folders):
            dropped = ignored(children + folders)
            children = [child for child in children if child not in dropped]
            folders = [folder for folder in folders if folder not in dropped]
        found.extend(folders)
        level = children
    order = {name: index for index, name in enumerate(CUSTOMIZATION_DIRS)}
    return sorted(
        found, key=lambda f: (os.path.dirname(f).split(os.sep), order[os.path.basename(f)])
    )


def _subdirectories(directory: str, children: list[str], folders: list[str]) -> None:
    """Add the directories to walk below `directory` to `children`, its customization folders
    that hold a hooks.json to `folders`."""
    try:
        entries = sorted(os.scandir(directory), key=lambda entry: entry.name)
    except OSError:
        return
    for entry in entries:
        if entry.name in CUSTOMIZATION_DIRS and present(os.path.join(entry.path, HOOKS_FILE)):
            folders.append(entry.path)
        elif entry.name not in SKIPPED_DIRS and entry.is_dir(follow_symlinks=False):
            children.append(entry.path)


def _git_ignore_check(top: str) -> IgnoreCheck | None:
    """A batch test for git-ignored paths under `top`, or None outside a git work tree."""
    import subprocess

    def check(paths: list[str]) -> set[str]:
        try:
            done = subprocess.run(
                ["git", "check-ignore", "--stdin", "-z"], cwd=top, input="\0".join(paths),
                capture_output=True, text=True, check=False, errors="surrogateescape",
            )
        except OSError:
            return set()
        # 0: some ignored, 1: none; anything else (a nested repository) ignores nothing
        if done.returncode != 0:
            return set()
        return {os.path.join(top, path) for path in done.stdout.split("\0") if path}

    try:
        inside = subprocess.run(
            ["git", "rev-parse", "--is-inside-work-tree"], cwd=top, capture_output=True,
            text=True, check=False,
        )
    except OSError:  # no git
        return None
    return check if inside.stdout.strip() == "true" else None
