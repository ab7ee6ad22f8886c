"""Which hook files apply, and which workspace each belongs to.

Order is part of the contract: the user file first, then each workspace in the order given,
and inside a workspace the customization folders in CUSTOMIZATION_DIRS order. Markdown hook
files (`.harness/hooks/*.md`) come from the same workspaces, in file-name order; a workspace
root is the nearest directory upward that has either kind.
"""

from __future__ import annotations

import os

from agenthooks._lean.records import NamedTuple
from agenthooks.errors import ConfigError
from agenthooks.model.handlers import Diagnostic, HookFile, Source
from agenthooks.model.hosts import HOOKS_JSON_DIALECT, HOST_TABLE, HostRow, host_row
from agenthooks.model.rules import RULES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from agenthooks.model.handlers import Level

CUSTOMIZATION_DIRS = (".agents", ".agent", "_agents", "_agent")
HOOKS_FILE = "hooks.json"
HARNESS_DIR = ".harness"
MARKDOWN_DIR = os.path.join(HARNESS_DIR, "hooks")
MARKDOWN_SUFFIX = ".md"
# Where hosts keep installed plugins under home (`sources.plugins`): Claude Code's registry,
# Gemini CLI's extensions, Cursor's local plugins.
PLUGIN_PLACES = (os.path.join(".claude", "plugins", "installed_plugins.json"),
                 os.path.join(".gemini", "extensions"),
                 os.path.join(".cursor", "plugins", "local"))
# Each host's own files under a workspace root (Claude Code's and Gemini CLI's settings...),
# in the order each host reads them: from each host's row (`model.hosts`).
DIALECT_FILES: tuple[tuple[str, str], ...] = tuple(
    (row.id, os.path.join(*rel.split("/"))) for row in HOST_TABLE for rel in row.project_files)
# The same, the deepest places first: `.crush/crush.json` is in `.crush/` of a project, not
# a `crush.json` of a project `.crush` (Charm Crush's `crush.json` is a project's too).
_LONGEST_FIRST: tuple[tuple[str, str], ...] = tuple(
    sorted(DIALECT_FILES, key=lambda place: -place[1].count(os.sep)))
# The hosts whose files only a user has (Kimi Code's `.kimi-code/config.toml`): what a file
# named by path in such a place is, though no project holds one.
USER_ONLY_HOSTS: tuple[HostRow, ...] = tuple(
    row for row in HOST_TABLE if not row.project_files and row.user_files)
# The hosts with a user folder whose every file is a hook (Cline's `~/Documents/Cline/Hooks/*`):
# a file named by path there is that host's, though no project holds such a folder.
_USER_FOLDER_HOSTS: tuple[HostRow, ...] = tuple(
    row for row in HOST_TABLE if any(rel.endswith("/*") for rel in row.user_files))
# The folders those files live in (`.claude`, `.gemini`...): a file in one belongs to the
# project above it.
DIALECT_FOLDERS: tuple[str, ...] = tuple(dict.fromkeys(
    rel.split(os.sep, maxsplit=1)[0] for _, rel in DIALECT_FILES if os.sep in rel))
# The user's hooks.json files, in the order read. Antigravity's hooks page and agy's own log
# name `~/.gemini/config/hooks.json`; Google's migration guide from Gemini CLI
# (google-gemini/gemini-cli@a69d422 docs/resources/migrating-to-antigravity-cli.md, "Hooks")
# names `~/.gemini/antigravity-cli/hooks.json`. Which one a given agy version reads is not
# settled, so both are read, each once.
USER_HOOKS_FILES: tuple[tuple[str, ...], ...] = (
    (".gemini", "config", HOOKS_FILE),
    (".gemini", "antigravity-cli", HOOKS_FILE),
)


def _home() -> str:
    return os.environ.get("HOME") or os.path.expanduser("~")


def user_hooks_path() -> str:
    """`~/.gemini/config/hooks.json`, honouring $HOME."""
    return os.path.join(_home(), *USER_HOOKS_FILES[0])


def user_hooks_paths() -> list[str]:
    """Every user hooks.json place (`USER_HOOKS_FILES`), honouring $HOME."""
    home = _home()
    return [os.path.join(home, *parts) for parts in USER_HOOKS_FILES]


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


def present(path: str) -> bool:
    """Whether a hooks.json is at `path` in any form worth reporting.

    Not only a regular file: a dangling or looping symbolic link, a directory, a FIFO, a file
    in a folder that cannot be searched, or a dangling link as the folder. Loading such an
    entry gives a one-line error, so a broken link fails CI instead of hooks vanishing.
    """
    try:
        os.lstat(path)
        return True
    except (FileNotFoundError, NotADirectoryError):
        folder = os.path.dirname(path)
        return os.path.islink(folder) and not os.path.exists(folder)
    except OSError:  # EACCES, ELOOP: something is there that cannot be read
        return os.path.lexists(os.path.dirname(path))


def workspace_files(root: str) -> list[str]:
    """Every hooks.json of a workspace root, in customization-folder order."""
    listed = _may_hold(root)
    candidates = (os.path.join(root, folder, HOOKS_FILE) for folder in CUSTOMIZATION_DIRS
                  if listed(folder))
    return [path for path in candidates if present(path)]


def _is_home(root: str) -> bool:
    """Whether `root` is the home directory, by the folder itself (two stat calls, where
    resolving both paths walks each of their components, on every run)."""
    home = os.environ.get("HOME") or os.path.expanduser("~")
    try:
        return os.path.samestat(os.stat(root), os.stat(home))
    except OSError:  # one of them missing: the same only as the same path
        return os.path.realpath(root) == os.path.realpath(home)


def _may_hold(root: str) -> Callable[[str], bool]:
    """Whether `root` has an entry by that name (a dangling link too), each name looked up
    once: a file in a folder that is not there is not `present` either.

    Each host's files are looked for on every run, in the root and, on the walk up to it, in
    every folder above; most of them are missing, and `present` costs an exception for each
    (two with its link check). A lookup here costs none, whatever the folder holds, where
    reading the folder would cost its every entry (a workspace under `/tmp`, a crowded home).
    """
    found: dict[str, bool] = {}

    def may_hold(name: str) -> bool:
        if name not in found:
            path = os.path.join(root, name)
            found[name] = (os.access(path, os.F_OK, follow_symlinks=False) if _ACCESS_NO_FOLLOW
                           else os.path.lexists(path))
        return found[name]
    return may_hold


# Whether `os.access` can look at a link itself (not on Windows).
_ACCESS_NO_FOLLOW = os.access in os.supports_follow_symlinks


def markdown_in(folder: str) -> list[str]:
    """The `*.md` entries of a folder, in file-name order; none when it cannot be listed."""
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    return [os.path.join(folder, name) for name in sorted(names)
            if name.endswith(MARKDOWN_SUFFIX) and not name.startswith(".")]


def markdown_files(root: str) -> list[str]:
    """A workspace root's Markdown hook files: `.harness/hooks/*.md`, by file name."""
    return markdown_in(os.path.join(root, MARKDOWN_DIR))


def find_workspace_root(start: str) -> str | None:
    """The nearest directory from `start` upward that has a hooks.json in a customization
    folder or a Markdown hook in `.harness/hooks`."""
    directory = os.path.abspath(start)
    while True:
        if workspace_files(directory) or markdown_files(directory):
            return directory
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


def _unsafe(path: str) -> str | None:
    """Why another user could have written `path`, or None when only we (or root) could."""
    try:
        status = os.stat(path)
    except OSError:
        return None  # a broken entry is reported when it is loaded
    if status.st_uid not in (os.geteuid(), 0):
        return f"owned by user id {status.st_uid}"
    if status.st_mode & 0o002:
        return "writable by everyone"
    if status.st_mode & 0o020:
        return "writable by its group"
    return None


UNSAFE_RULE = "unsafe-workspace"


def unsafe_file(file: str) -> tuple[str, str] | None:
    """(the path, why) another user could have written a discovered hook file: the file, or
    the folder that holds it (for `.harness/hooks/x.md`, `.harness` too: whoever can write it
    can swap `hooks`); None when only we (or root) could."""
    if not hasattr(os, "geteuid"):  # Windows: ownership is ACLs, not modes
        return None
    folder = os.path.dirname(file)
    parents = (os.path.dirname(folder), folder) if file.endswith(MARKDOWN_SUFFIX) else (folder,)
    for path in (*parents, file):
        reason = _unsafe(path)
        if reason is not None:
            return path, reason
    return None


def refusal(source: Source, path: str, reason: str, cwd: str) -> HookFile:
    """A discovered hook file others could have written, as a file with one error: it runs
    nothing, every answer names it, and under `--fail-closed` it denies, as a file with
    errors does; the workspace's other files run."""
    shown = display_path(path, cwd)
    mend = f"`chmod go-w {shown}` if it is yours"
    if os.path.islink(path):
        shown += f" (a link to {os.path.realpath(path)})"
        mend = "remove the link, or point it at a file of yours"
    message = (
        f"skipped: {shown} is {reason}, so another user could have written its hooks; "
        "agenthooks runs a discovered hook file only when it and its folder belong to you "
        f"(or root) and only you can write them ({mend}; name it with --config, or its "
        "workspace with --workspace, to use it as it is)")
    rule = RULES[UNSAFE_RULE]
    return HookFile(source, (), (Diagnostic(source.path, 1, 1, rule.severity, rule.id,
                                            message, ""),))


def refuse_unsafe(sources: Sequence[Source], upward: str | None, cwd: str
                  ) -> tuple[list[Source], list[HookFile]]:
    """(the files to read, those refused): each file of the workspace found upward that
    others could have written is refused on its own, as git's safe.directory refuses a
    repository; a workspace named with --workspace, and the user's files, are used as given."""
    if upward is None:
        return list(sources), []
    root = os.path.realpath(upward)
    kept: list[Source] = []
    refused: list[HookFile] = []
    for source in sources:
        found = unsafe_file(source.file) if (
            source.level == "workspace" and source.workspace == root) else None
        if found is None:
            kept.append(source)
        else:
            refused.append(refusal(source, *found, cwd))
    return kept, refused


def owner_of(path: str, fallback: str) -> str:
    """The workspace a named file belongs to: the parent of its customization folder (or of
    `.harness` for a Markdown hook), if any."""
    parent = os.path.dirname(os.path.realpath(path))
    if os.path.basename(parent) in CUSTOMIZATION_DIRS:
        return os.path.dirname(parent)
    if is_markdown_folder(parent):
        return os.path.dirname(os.path.dirname(parent))
    return fallback


def is_markdown_folder(path: str) -> bool:
    """Whether `path` is a `.harness/hooks` folder."""
    real = os.path.realpath(path)
    return (os.path.basename(real) == "hooks"
            and os.path.basename(os.path.dirname(real)) == HARNESS_DIR)


def is_markdown(path: str) -> bool:
    return path.endswith(MARKDOWN_SUFFIX)


def source_of(path: str, workspace: str, cwd: str, *, given: str | None = None) -> Source:
    real = os.path.realpath(path)
    users = {os.path.realpath(user) for user in user_hooks_paths()}
    level: Level = "user" if real in users else "workspace"
    shown = given if given is not None else display_path(path, cwd)
    file = os.path.abspath(path)
    return Source(
        path=shown,
        file=file,
        workspace=os.path.realpath(workspace),
        level=level,
        cwd=os.path.dirname(real),  # `file` resolves where `path` does
        dialect=HOOKS_JSON_DIALECT,  # which every host's run reads
    )


def workspace_roots(workspaces: Sequence[str], cwd: str) -> list[str]:
    """The `--workspace` directories, which must exist."""
    roots: list[str] = []
    for given in workspaces:
        root = os.path.join(cwd, given)
        if not os.path.isdir(root):
            raise ConfigError(f"--workspace {given}: no such directory")
        roots.append(root)
    return roots


class Discovered(NamedTuple):
    """The hook files that apply, in order, and warnings about what discovery left out."""

    sources: list[Source]  # hooks.json files
    diagnostics: list[Diagnostic]
    markdown: tuple[Source, ...] = ()  # Markdown hook files (.harness/hooks/*.md)
    # Claude Code and Gemini CLI settings files (only with `dialects=True`).
    dialect_sources: tuple[Source, ...] = ()
    # Discovered files others could have written, each an error (`refuse_unsafe`).
    refused: tuple[HookFile, ...] = ()


def user_dialect_files() -> list[tuple[str, str]]:
    """(dialect, path) of each host's machine-wide files (`/etc/cursor/hooks.json`), then its
    user files (`~/.claude/settings.json`...), from each host's row (`model.hosts`)."""
    home = _home()
    # A system file of another platform (`C:\\ProgramData\\...` on Linux) is no path here.
    return [(row.id, found) for row in HOST_TABLE for path in (
        *(system for system in row.system_files if os.path.isabs(system)),
        *(_user_file(row, home, rel) for rel in row.user_files))
        for found in (expand(path) if "*" in path else [path])]


def _user_file(row: HostRow, home: str, relative: str) -> str:
    """A user file's path: under home, or under the folder the host's variable names
    (`$CODEX_HOME/hooks.json` for `.codex/hooks.json`) when it is set."""
    if row.user_folder_env is not None:
        variable, folder = row.user_folder_env
        moved = os.environ.get(variable)
        if moved and relative.startswith(folder + "/"):
            return os.path.join(moved, *relative[len(folder) + 1:].split("/"))
    return os.path.join(home, *relative.split("/"))


def workspace_dialect_files(root: str) -> list[tuple[str, str]]:
    """(dialect, path) of a workspace root's Claude Code and Gemini CLI settings files.

    None when the root is the home directory: its `.claude/` and `.gemini/` hold the user
    files, as both hosts read them.
    """
    if _is_home(root):
        return []
    listed = _may_hold(root)
    return [(dialect, path) for dialect, rel in DIALECT_FILES
            if listed(rel.split(os.sep, maxsplit=1)[0])
            for path in expand(os.path.join(root, rel))]


def expand(path: str) -> list[str]:
    """The files a host's place names: the path itself when present, or, for a place with a
    `*` in its file name (`.github/hooks/*.json`) or in a folder's (Goose's
    `.agents/plugins/*/hooks/hooks.json`, a `*` standing for one folder's name), its matches
    in name order."""
    if "*" not in path:
        return [path] if present(path) else []
    head, _, rest = path.partition("*")
    cut = head.rfind(os.sep)
    folder, tail = head[:cut] or os.sep, rest.split(os.sep, 1)
    pattern = head[cut + 1:] + "*" + tail[0]
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    found = [os.path.join(folder, name) for name in names
             if glob_match(name, pattern) and not name.startswith(".")]
    if len(tail) == 1:
        # A place that is a whole folder's entries (Cline's `.clinerules/hooks/*`, each file
        # a hook named after its event) names its files: a folder there is passed over, as
        # that host passes over it (a link is kept, for what reads it to say).
        return [name for name in found if not (pattern == "*" and os.path.isdir(name)
                                                and not os.path.islink(name))]
    return [each for name in found for each in expand(os.path.join(name, tail[1]))]


def star_folder(path: str, dialect: str) -> str | None:
    """The folder a `*` of one of the host's places stands for in `path` (Goose's plugin,
    `.agents/plugins/<name>/`), None when no place of the host has a `*` folder."""
    row = host_row(dialect)
    parts = os.path.abspath(path).split(os.sep)
    for rel in (*row.project_files, *row.user_files) if row is not None else ():
        wanted = rel.split("/")
        star = next((index for index, part in enumerate(wanted[:-1]) if "*" in part), None)
        if star is None or len(parts) <= len(wanted):
            continue
        tail = parts[-len(wanted):]
        if all(glob_match(have, want) for have, want in zip(tail, wanted, strict=True)):
            return os.sep.join(parts[:len(parts) - len(wanted) + star + 1])
    return None


def glob_match(name: str, pattern: str) -> bool:
    """`fnmatch.fnmatchcase(name, pattern)`; a pattern with at most one `*` and no other
    wildcard (every host file pattern) is matched without `fnmatch`, which imports `re`."""
    parts = pattern.split("*")
    if len(parts) > 2 or "?" in pattern or "[" in pattern:
        from fnmatch import fnmatchcase

        return fnmatchcase(name, pattern)
    if len(parts) == 1:
        return name == pattern
    prefix, suffix = parts
    return (len(name) >= len(prefix) + len(suffix) and name.startswith(prefix)
            and name.endswith(suffix))


def place_of(path: str) -> tuple[str, str] | None:
    """(dialect, project root) of a file in one of a host's project places, else None."""
    parts = os.path.abspath(path).split(os.sep)
    for kind, rel in _LONGEST_FIRST:
        wanted = rel.split(os.sep)
        tail = parts[-len(wanted):]
        if len(parts) > len(wanted) and all(glob_match(have, want)
                                             for have, want in zip(tail, wanted, strict=True)):
            return kind, os.sep.join(parts[:-len(wanted)]) or os.sep
    return None


def find_dialect_root(start: str) -> str | None:
    """The nearest directory from `start` upward with a Claude Code or Gemini CLI settings
    file (the home directory's are user files, not a workspace's)."""
    directory = os.path.abspath(start)
    while True:
        if workspace_dialect_files(directory):
            return directory
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


def plugin_root_of(path: str) -> tuple[str, str] | None:
    """(dialect, plugin folder) of a plugin's or extension's `hooks/hooks.json`, else None."""
    real = os.path.realpath(path)
    folder = os.path.dirname(real)
    if os.path.basename(real) != "hooks.json" or os.path.basename(folder) != "hooks":
        return None
    root = os.path.dirname(folder)
    return next(((row.id, root) for row in HOST_TABLE if row.plugin_manifest is not None
                 and os.path.isfile(os.path.join(root, row.plugin_manifest))), None)


def dialect_of_place(path: str) -> str | None:
    """The dialect a file's place says: a customization folder's hooks.json, a user
    hooks.json, any host's own file (`.claude/settings*.json`, `.gemini/settings.json`...:
    `DIALECT_FILES`), a plugin's or extension's `hooks/hooks.json`; None
    when the place says nothing."""
    full = os.path.abspath(path)
    name = os.path.basename(full)
    folder = os.path.basename(os.path.dirname(full))
    if (folder in CUSTOMIZATION_DIRS and name == "hooks.json") or full in user_hooks_paths():
        return HOOKS_JSON_DIALECT
    found = place_of(full)
    if found is not None:
        return found[0]
    for row in _USER_FOLDER_HOSTS:  # a user folder whose every file is a hook (Cline's)
        for rel in row.user_files:
            if rel.endswith("/*") and os.path.dirname(full) == os.path.dirname(
                    os.path.abspath(_user_file(row, _home(), rel))):
                return row.id
    for row in USER_ONLY_HOSTS:
        for rel in row.user_files:  # its place, or where the host's variable moved it
            if full.endswith(os.sep + os.path.join(*rel.split("/"))) \
                    or full == os.path.abspath(_user_file(row, _home(), rel)):
                return row.id
    plugin = plugin_root_of(path)
    return plugin[0] if plugin is not None else None


def detect(path: str, override: str | None = None, data: bytes | None = None) -> str:
    """A file's dialect: `override` (--dialect), else its place, else its shape (of `data`,
    when given, instead of the file's bytes on disk)."""
    if override is not None:
        return override
    # Only for a file its place says nothing of: a run in a workspace without settings files
    # never imports the dialects.
    from agenthooks.sources.dialects import dialect_of_shape

    return dialect_of_place(path) or dialect_of_shape(path, data)


def unsure_format(path: str, override: str | None = None, data: bytes | None = None) -> bool:
    """Whether a file named by path (no place, no `--dialect`) reads as hooks.json and as
    another host's settings alike (`dialects.unsure_shape`): `validate` says which to name."""
    if override is not None or dialect_of_place(path) is not None:
        return False
    # Only here: a run in a workspace without settings files never imports the dialects.
    from agenthooks.sources.dialects import unsure_shape

    return unsure_shape(path, data)


def dialect_source(path: str, dialect: str, workspace: str, cwd: str, *,
                   given: str | None = None) -> Source:
    """A Source for a Claude Code or Gemini CLI file: its handlers run in the project root,
    and a plugin's (or extension's) hooks know their plugin folder."""
    real = os.path.realpath(path)
    users = {os.path.realpath(user) for _, user in user_dialect_files()}
    plugin = plugin_root_of(path) or _vendor_root(path)
    if plugin is None and "*" in "".join(row.project_files if (row := host_row(dialect))
                                         else ()):
        folder_of = star_folder(path, dialect)  # a plugin of its own places (Goose's)
        plugin = (dialect, os.path.realpath(folder_of)) if folder_of is not None else None
    root = os.path.realpath(workspace)
    level: Level = "user" if real in users else "workspace"
    row = host_row(dialect)
    own_folder = row is not None and row.own_folder
    folder = root
    if own_folder and plugin is not None:  # Cursor: a plugin's hooks run in the plugin
        folder = plugin[1]
    elif own_folder and level == "user":
        folder = os.path.dirname(real)
    return Source(
        path=given if given is not None else display_path(path, cwd),
        file=os.path.abspath(path),
        workspace=root,
        level=level,
        cwd=folder,
        dialect=dialect,
        plugin_root=plugin[1] if plugin is not None else None,
    )


def _vendor_root(path: str) -> tuple[str, str] | None:
    """(namespace, plugin folder) of an Agent Plugin's client folder's hook file; the
    plugins module is imported only for a file so placed."""
    if os.path.basename(os.path.dirname(os.path.dirname(path))).count(".") == 0:
        return None
    from agenthooks.sources.plugins import vendor_root_of

    return vendor_root_of(path)


def plugin_sources(roots: Sequence[str], cwd: str) -> tuple[list[Source], list[Source]]:
    """(hooks.json files, other hosts' files) inside the plugins installed for the user or
    for one of `roots` (`sources.plugins`), each knowing its plugin and whether its host loads
    it; nothing read when no host has a plugin folder here."""
    home = _home()
    if not any(os.path.exists(os.path.join(home, place)) for place in PLUGIN_PLACES):
        return [], []  # no host has a plugin here: the plugins module is not even imported
    from agenthooks.sources import plugins

    workspace = os.path.realpath(roots[0])
    plain: list[Source] = []
    settings: list[Source] = []
    for found in plugins.plugin_files(home, roots):
        kind = found.dialect or detect(found.path)
        row = host_row(kind)
        source = Source(
            path=_home_path(found.path, home, cwd), file=os.path.abspath(found.path),
            workspace=workspace, level=found.level,
            # Cursor runs a user file's hooks in its folder: a plugin's, in the plugin's.
            cwd=os.path.realpath(found.root) if row is not None and row.own_folder
            else os.path.dirname(os.path.realpath(found.path)) if kind == HOOKS_JSON_DIALECT
            else workspace,
            dialect=kind, plugin_root=os.path.realpath(found.root), plugin=found.plugin,
            plugin_off=found.off)
        (plain if kind == HOOKS_JSON_DIALECT else settings).append(source)
    return plain, settings


def _home_path(path: str, home: str, cwd: str) -> str:
    """How to show an installed plugin's file: under the current directory relative to it,
    else under home as `~/...` (`~/.claude/plugins/cache/...`), else as it is."""
    shown = display_path(path, cwd)
    if not os.path.isabs(shown):
        return shown
    rel = os.path.relpath(path, home)
    return path if rel.startswith("..") else os.path.join("~", rel)


def dialect_owner(path: str, fallback: str) -> str:
    """The project root of a named settings file: the parent of its `.claude`/`.gemini`
    (any host's folder, `DIALECT_FOLDERS`)."""
    real = os.path.realpath(path)
    parent = os.path.dirname(real)
    if os.path.basename(parent) in DIALECT_FOLDERS:
        return os.path.dirname(parent)
    found = place_of(real)  # a file deeper in its host's folder (`.github/hooks/x.json`)
    return found[1] if found is not None else fallback


def _config_markdown(given: str, path: str) -> list[tuple[str, str]]:
    """(shown, path) of the Markdown hooks a `--config` directory names: its own `*.md`, or
    those of its `.harness/hooks` when it is a workspace root."""
    found = markdown_in(path) or markdown_files(path)
    return [(os.path.normpath(os.path.join(given, os.path.relpath(f, path))), f) for f in found]


def discover_all(
    *,
    configs: Sequence[str] = (),
    workspaces: Sequence[str] = (),
    no_user: bool = False,
    cwd: str | None = None,
    dialects: bool = False,
    dialect: str | None = None,
) -> Discovered:
    """The hook files that apply, in order, each read once, and what was skipped.

    `configs` names files explicitly and turns discovery off, the user file included.
    `--workspace` and `--config` are used as given; of a workspace found upward, each file
    others could have written is refused (`refuse_unsafe`), and the others are read.

    With `dialects`, Claude Code and Gemini CLI files are found too (`dialect_sources`), and
    a named file goes where its dialect says (`dialect`, --dialect, overrides); without it,
    discovery is exactly `run`'s.
    """
    if dialects:
        return _discover_dialects(configs=configs, workspaces=workspaces, no_user=no_user,
                                  cwd=cwd, dialect=dialect)
    cwd = cwd or os.getcwd()
    roots = workspace_roots(workspaces, cwd)
    upward = None if workspaces else find_workspace_root(cwd)
    if configs:
        # Named files without --workspace still belong to the workspace found upward, when
        # none of its files is refused; the named files are used as given.
        if upward is not None and not any(map(unsafe_file, _plain_files(upward))):
            roots.append(upward)
        sources, markdown = _named_plain(configs, roots[0] if roots else cwd, cwd)
        return Discovered(read_once(sources), [], tuple(read_once(markdown)))
    if upward is not None:
        roots.append(upward)
    sources, markdown = _workspace_plain(roots, roots[0] if roots else cwd, no_user, cwd)
    sources, refused = refuse_unsafe(read_once(sources), upward, cwd)
    markdown, refused_markdown = refuse_unsafe(read_once(markdown), upward, cwd)
    return Discovered(sources, [], tuple(markdown), refused=(*refused, *refused_markdown))


def _plain_files(root: str) -> list[str]:
    """A workspace root's hooks.json files and Markdown hooks: what makes it one."""
    return [*workspace_files(root), *markdown_files(root)]


def _named_plain(
    configs: Sequence[str], default_root: str, cwd: str
) -> tuple[list[Source], list[Source]]:
    """(hooks.json sources, Markdown sources) of the files and folders named by --config."""
    sources: list[Source] = []
    markdown: list[Source] = []
    for given in configs:
        path = os.path.join(cwd, given)
        if os.path.isdir(path) and os.path.basename(path) != HOOKS_FILE:
            markdown.extend(source_of(file, owner_of(file, default_root), cwd, given=shown)
                            for shown, file in _config_markdown(given, path))
            if not markdown:  # an empty folder is reported as the path it is
                sources.append(source_of(path, owner_of(path, default_root), cwd, given=given))
            continue
        kind = markdown if is_markdown(path) else sources
        kind.append(source_of(path, owner_of(path, default_root), cwd, given=given))
    return sources, markdown


def _workspace_plain(
    roots: list[str], default_root: str, no_user: bool, cwd: str
) -> tuple[list[Source], list[Source]]:
    """(hooks.json sources, Markdown sources): the user file, then each root's files."""
    sources: list[Source] = []
    markdown: list[Source] = []
    if not no_user:
        sources.extend(source_of(user, default_root, cwd) for user in user_hooks_paths()
                       if present(user))
    for root in roots:
        sources.extend(source_of(path, root, cwd) for path in workspace_files(root))
        markdown.extend(source_of(path, root, cwd) for path in markdown_files(root))
    return sources, markdown


def _discover_dialects(
    *,
    configs: Sequence[str],
    workspaces: Sequence[str],
    no_user: bool,
    cwd: str | None,
    dialect: str | None,
) -> Discovered:
    """`discover_all` for validate, list and convert: hooks.json, Markdown hooks, and the
    Claude Code and Gemini CLI files, each kind in its own field."""
    cwd = cwd or os.getcwd()
    if configs:
        return _named_dialects(configs, workspaces, cwd, dialect)
    base = discover_all(workspaces=workspaces, no_user=no_user, cwd=cwd)
    if dialect not in (None, HOOKS_JSON_DIALECT):
        base = Discovered([], base.diagnostics)
    roots = workspace_roots(workspaces, cwd)
    upward = None if workspaces else find_dialect_root(cwd)
    if upward is not None:
        roots.append(upward)
    default_root = roots[0] if roots else cwd
    sources: list[Source] = []
    if not no_user:
        sources.extend(dialect_source(path, kind, default_root, cwd)
                       for kind, path in user_dialect_files() if present(path))
    for root in roots:
        sources.extend(dialect_source(path, kind, root, cwd)
                       for kind, path in workspace_dialect_files(root))
    if not no_user:
        plain, settings = plugin_sources(roots or [cwd], cwd)
        sources.extend(settings)
        if plain and dialect in (None, HOOKS_JSON_DIALECT):
            base = base._replace(sources=read_once([*base.sources, *plain]))
    if dialect is not None:
        sources = [source for source in sources if source.dialect == dialect]
    sources, refused = refuse_unsafe(read_once(unhidden(sources)), upward, cwd)
    return base._replace(dialect_sources=tuple(sources), refused=(*base.refused, *refused))


def unhidden(sources: Sequence[Source]) -> list[Source]:
    """The files but a user plugin's that a project plugin of the same host and name hides
    (Goose loads a project's `.agents/plugins/<name>/` and skips the user's `<name>`:
    block/goose@21aecaf crates/goose/src/plugins/discovery.rs, measured with goose 1.52.0)."""
    def named(source: Source) -> tuple[str, str] | None:
        folder = star_folder(source.file, source.dialect) if source.plugin_root else None
        return None if folder is None else (source.dialect, os.path.basename(folder))

    if not any(source.level == "user" and source.plugin_root for source in sources):
        return list(sources)
    projects = {named(source) for source in sources if source.level == "workspace"}
    return [source for source in sources
            if source.level != "user" or named(source) is None or named(source) not in projects]


def _named_dialects(
    configs: Sequence[str], workspaces: Sequence[str], cwd: str, dialect: str | None
) -> Discovered:
    """Files named by --config, each read in its own dialect (or `dialect`)."""
    # A plugin named with --config runs in the first --workspace, else here.
    default_root = workspace_roots(workspaces, cwd)[0] if workspaces else cwd
    plain: list[str] = []
    named: list[Source] = []
    unsure: set[str] = set()  # files read as hooks.json that another format reads too
    for given in configs:
        path = os.path.join(cwd, given)
        kind = HOOKS_JSON_DIALECT if os.path.isdir(path) or is_markdown(path) else detect(
            path, dialect)
        if kind == HOOKS_JSON_DIALECT:
            plain.append(given)
            if os.path.isfile(path) and unsure_format(path, dialect):
                unsure.add(os.path.realpath(path))
        else:
            named.append(dialect_source(path, kind, dialect_owner(path, default_root), cwd,
                                        given=given))
    base = discover_all(configs=plain, workspaces=workspaces, cwd=cwd) if plain else \
        Discovered([], [])
    sources = [s._replace(unsure=True) if os.path.realpath(s.file) in unsure else s
               for s in base.sources]
    return base._replace(sources=sources, dialect_sources=tuple(read_once(named)))


def discover(
    *,
    configs: Sequence[str] = (),
    workspaces: Sequence[str] = (),
    no_user: bool = False,
    cwd: str | None = None,
) -> list[Source]:
    """The hook files that apply, in order, each read once (see `discover_all`)."""
    return discover_all(configs=configs, workspaces=workspaces, no_user=no_user, cwd=cwd).sources


def read_once(sources: list[Source]) -> list[Source]:
    """Each file once (by its real path), in order."""
    seen: set[str] = set()
    unique: list[Source] = []
    for source in sources:
        key = os.path.realpath(source.file)
        if key not in seen:
            seen.add(key)
            unique.append(source)
    return unique
