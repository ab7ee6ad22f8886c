"""The hook files inside installed plugins, and whether their host loads them.

A plugin is a folder its host installs somewhere of its own; its hooks run only while the
plugin is installed for the project and enabled. Each host with plugins has a module here,
named by its row of `model.hosts` (whose `plugin_manifest` says it has plugins), with its
rules as its docs give them: `installed(home, roots)` finds the hook files of the plugins
installed for the user or for one of `roots`, `folder_files(folder)` those of a plugin's own
checkout named by path.

This module holds what they share, and Agent Plugins 1.0 (agentplugins/agent-plugins-spec
spec/1.0.0.md, §8): a client's own files live in a top-level folder named for its
reverse-domain namespace (`com.example.client/hooks/hooks.json`); the spec gives them no
meaning, so only the client that owns the namespace loads them. `NAMESPACES` maps the ones
agenthooks knows to a host.

Read on every run that discovers files, so only `os.path` and the lean JSON reader here.
"""

from __future__ import annotations

import os

from agenthooks._lean.records import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from agenthooks.model.handlers import Level

AGENT_MANIFEST = "plugin.json"
HOOKS_FILE = os.path.join("hooks", "hooks.json")
# An Agent Plugins namespace (`com.example.client`) -> the host that loads its folder. No
# host has documented one yet: such a folder is listed, validated, and run when named with
# --config.
NAMESPACES: dict[str, str] = {}


class PluginFile(NamedTuple):
    """One hook file of a plugin, as discovery hands it on."""

    path: str  # absolute
    dialect: str | None  # whose format it is in; None: its shape says
    root: str  # the plugin folder (`${CLAUDE_PLUGIN_ROOT}`)
    plugin: str  # `name@marketplace` (Claude Code), the folder's name (Cursor)
    level: Level  # "user": installed for the user; "workspace": for one project
    off: str | None  # why its host does not load it; None when it does




def read_json(path: str) -> Any:
    """A JSON file's value, or None when it is missing, unreadable or not JSON."""
    from agenthooks._lean import jsontext

    try:
        with open(path, "rb") as stream:
            return jsontext.loads(stream.read(1 << 22))
    except (OSError, ValueError, RecursionError):
        return None


def same_place(a: str, b: str) -> bool:
    return os.path.realpath(a) == os.path.realpath(b)


def under_home(path: str, home: str) -> str:
    """A path under home as `~/...`."""
    rel = os.path.relpath(path, home)
    return path if rel.startswith("..") else os.path.join("~", rel)


def json_text(value: object) -> str:
    from agenthooks._lean import jsontext

    return jsontext.dumps(value)


def manifest_hooks(manifest: str, folder: str) -> list[str]:
    """The hook files a manifest's `hooks` names; the manifest for an inline object."""
    doc = read_json(manifest)
    hooks = doc.get("hooks") if isinstance(doc, dict) else None
    if isinstance(hooks, dict):
        return [manifest]
    given = [hooks] if isinstance(hooks, str) else hooks if isinstance(hooks, list) else []
    return [os.path.normpath(os.path.join(folder, path)) for path in given
            if isinstance(path, str) and path and not os.path.isabs(path)]


def once(paths: list[str]) -> list[str]:
    """Each path once, by the file it leads to."""
    seen: set[str] = set()
    unique = []
    for path in paths:
        if os.path.realpath(path) not in seen:
            seen.add(os.path.realpath(path))
            unique.append(path)
    return unique


# --- Agent Plugins' client folders ----------------------------------------------------------------


def is_namespace(name: str) -> bool:
    """Whether a folder name is a reverse-domain namespace (`com.example.client`)."""
    parts = name.split(".")
    return len(parts) > 1 and all(
        part and all(char.isalnum() or char in "-_" for char in part) for part in parts)


def vendor_files(folder: str, plugin: str, level: Level, off: str | None) -> list[PluginFile]:
    """The `<namespace>/hooks/hooks.json` files of an Agent Plugin (a root `plugin.json`)."""
    if not os.path.isfile(os.path.join(folder, AGENT_MANIFEST)):
        return []
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    return [PluginFile(path, NAMESPACES.get(name), folder, plugin, level,
                       off or namespace_off(name))
            for name in names if is_namespace(name)
            and os.path.isfile(path := os.path.join(folder, name, HOOKS_FILE))]


def namespace_off(namespace: str) -> str | None:
    """Why no host agenthooks knows loads a client folder, None for one a host owns."""
    if namespace in NAMESPACES:
        return None
    return (f"{namespace}/ belongs to the client that owns the {namespace} namespace "
            "(Agent Plugins, client extensions): no host agenthooks knows loads it; name "
            "the file with --config to run it")


def vendor_root_of(path: str) -> tuple[str, str] | None:
    """(namespace, plugin folder) of an Agent Plugin's `<namespace>/hooks/hooks.json`."""
    real = os.path.realpath(path)
    hooks = os.path.dirname(real)
    vendor = os.path.dirname(hooks)
    root = os.path.dirname(vendor)
    if (os.path.basename(real) != "hooks.json" or os.path.basename(hooks) != "hooks"
            or not is_namespace(os.path.basename(vendor))
            or not os.path.isfile(os.path.join(root, AGENT_MANIFEST))):
        return None
    return os.path.basename(vendor), root


def folder_hook_files(folder: str) -> list[tuple[str | None, str]]:
    """(dialect, path) of the hook files of a plugin folder named by path (a plugin's own
    checkout): the first host's whose manifest it has (`HostRow.plugin_manifest`), else an
    Agent Plugin's hooks; then its client folders (dialect None: their shape says); none
    for a folder that is no plugin."""
    from agenthooks.model.hosts import HOST_TABLE

    found: list[tuple[str | None, str]] = []
    own = next((row for row in HOST_TABLE if row.plugin_manifest is not None and os.path.isfile(
        os.path.join(folder, *row.plugin_manifest.split("/")))), None)
    if own is not None:
        module = host_module(own.id)
        found += [(own.id, path) for path in module.folder_files(folder)]
    elif os.path.isfile(os.path.join(folder, AGENT_MANIFEST)) and os.path.isfile(
            os.path.join(folder, HOOKS_FILE)):
        found.append((None, os.path.join(folder, HOOKS_FILE)))
    found += [(f.dialect, f.path) for f in vendor_files(folder, "", "user", None)]
    return found


def plugin_files(home: str, roots: Sequence[str]) -> list[PluginFile]:
    """Every installed plugin's hook files, host by host in the host table's order."""
    from agenthooks.model.hosts import HOST_TABLE

    return [found for row in HOST_TABLE if row.plugin_manifest is not None
            for found in host_module(row.id).installed(home, roots)]


def host_module(host: str) -> Any:
    """The plugins module of a host (`sources.plugins.<id>`)."""
    # __import__, not importlib: importing `importlib` costs a cold run about 1 ms.
    return getattr(__import__(__name__, fromlist=(host,)), host)
