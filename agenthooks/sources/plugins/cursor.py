"""Cursor's plugins: `~/.cursor/plugins/local/<name>/` (cursor.com/docs/plugins, "Test plugins
locally").

A Cursor Plugin has `.cursor-plugin/plugin.json`, whose `hooks` (a path, or an inline object)
replaces the default `hooks/hooks.json`; an Agent Plugin (a root `plugin.json` alone) brings
skills and MCP servers only, so Cursor runs no hook of it; a link there loads only when its
target is inside that folder.
"""

from __future__ import annotations

import os

from agenthooks.sources.plugins import (
    AGENT_MANIFEST,
    HOOKS_FILE,
    PluginFile,
    manifest_hooks,
    once,
    vendor_files,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

LOCAL = os.path.join(".cursor", "plugins", "local")
MANIFEST = os.path.join(".cursor-plugin", "plugin.json")


def installed(home: str, roots: Sequence[str]) -> list[PluginFile]:
    """The hook files of the plugins in `~/.cursor/plugins/local`, each with whether Cursor
    loads it."""
    local = os.path.join(home, LOCAL)
    try:
        names = sorted(os.listdir(local))
    except OSError:
        return []
    found: list[PluginFile] = []
    for name in names:
        folder = os.path.join(local, name)
        if name.startswith(".") or not os.path.isdir(folder):
            continue
        outside = os.path.islink(folder) and not os.path.realpath(folder).startswith(
            os.path.realpath(local) + os.sep)
        off = (f"Cursor skips {name} in ~/.cursor/plugins/local: it is a link to "
               f"{os.path.realpath(folder)}, outside that folder") if outside else None
        found.extend(plugin_folder(folder, name, off))
    return found


def plugin_folder(folder: str, name: str, off: str | None) -> list[PluginFile]:
    manifest = os.path.join(folder, MANIFEST)
    if os.path.isfile(manifest):
        named = manifest_hooks(manifest, folder)
        paths = named or [os.path.join(folder, HOOKS_FILE)]  # `hooks` replaces the default
        return [PluginFile(path, "cursor", folder, name, "user", off)
                for path in once(paths) if os.path.isfile(path)]
    if not os.path.isfile(os.path.join(folder, AGENT_MANIFEST)):
        return []
    hooks = os.path.join(folder, HOOKS_FILE)
    agent_off = off or (f"{name} is an Agent Plugin (a root plugin.json): Cursor loads its "
                        "skills and MCP servers only, never its hooks; a Cursor Plugin has "
                        ".cursor-plugin/plugin.json")
    found = [PluginFile(hooks, None, folder, name, "user", agent_off)] \
        if os.path.isfile(hooks) else []
    return found + vendor_files(folder, name, "user", off)


def folder_files(folder: str) -> list[str]:
    """The hook files of a Cursor Plugin's own checkout."""
    return [found.path for found in plugin_folder(folder, "", None)]
