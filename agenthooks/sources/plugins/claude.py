"""Claude Code's plugins (code.claude.com/docs/en/plugins-reference).

`~/.claude/plugins/installed_plugins.json` lists each installed plugin (`name@marketplace`)
with its install records: `scope` user, project or local, `projectPath` for the last two,
`installPath` the plugin folder (under `~/.claude/plugins/cache/<marketplace>/<name>/<version>/`).
A plugin runs when `enabledPlugins` says `"name@marketplace": true` in the user's, the
project's or the local settings (the last one read decides; absent: off). Its hooks:
`hooks/hooks.json`, and the files (or the inline object) named by `hooks` in
`.claude-plugin/plugin.json`; `${CLAUDE_PLUGIN_ROOT}` is the plugin folder.
"""

from __future__ import annotations

import os

from agenthooks.sources.plugins import (
    HOOKS_FILE,
    PluginFile,
    json_text,
    manifest_hooks,
    once,
    read_json,
    same_place,
    under_home,
    vendor_files,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from agenthooks.model.handlers import Level

PLUGINS = os.path.join(".claude", "plugins")
INSTALLED = "installed_plugins.json"
MANIFEST = os.path.join(".claude-plugin", "plugin.json")
# The settings files whose `enabledPlugins` say which Claude Code plugins run, in the order
# Claude Code reads them (a later one overrides): the user's, then the project's.
SETTINGS = (os.path.join(".claude", "settings.json"),
            os.path.join(".claude", "settings.local.json"))
# Claude Code's managed settings (code.claude.com/docs/en/settings, "Configuration scopes":
# the system-level managed-settings.json; Linux and macOS places), over every other file:
# `disableAllHooks` turns every hook off; `allowManagedHooksOnly` keeps the hooks of every
# plugin but those its own `enabledPlugins` force on from loading (Claude Code 2.1.101 and
# later, anthropics/claude-code#46387).
MANAGED_SETTINGS = ("/etc/claude-code/managed-settings.json",
                    "/Library/Application Support/ClaudeCode/managed-settings.json")


def installed(home: str, roots: Sequence[str],
              managed: Sequence[str] = MANAGED_SETTINGS) -> list[PluginFile]:
    """The hook files of the Claude Code plugins installed for the user or for one of
    `roots` (the workspaces), each with whether Claude Code loads it there (`managed`: the
    places of its managed settings)."""
    policy = next((doc for path in managed
                   if isinstance(doc := read_json(path), dict)), {})
    installed = read_json(os.path.join(home, PLUGINS, INSTALLED))
    plugins = installed.get("plugins") if isinstance(installed, dict) else None
    if not isinstance(plugins, dict):
        return []
    found: list[PluginFile] = []
    seen: set[str] = set()
    switches: dict[str | None, list[tuple[str, dict[str, Any]]]] = {}  # read once per root
    for plugin_id, records in plugins.items():
        for record in records if isinstance(records, list) else [records]:
            place = _install_place(record, roots)
            if place is None:
                continue
            folder, level, root = place
            if os.path.realpath(folder) in seen:
                continue
            seen.add(os.path.realpath(folder))
            if root not in switches:
                switches[root] = enabled_plugins(home, root)
            off = managed_off(str(plugin_id), policy) or plugin_off(
                str(plugin_id), home, switches[root],
                forced=_enabled_in(policy, str(plugin_id)))
            found.extend(PluginFile(path, "claude", folder, str(plugin_id), level, off)
                         for path in folder_files(folder))
            found.extend(vendor_files(folder, str(plugin_id), level, off))
    return found


def _install_place(record: Any, roots: Sequence[str]) -> tuple[str, Level, str | None] | None:
    """(plugin folder, level, the project it is installed for) of one install record that
    applies here: user scope anywhere, project and local scope in their project only."""
    if not isinstance(record, dict) or not isinstance(record.get("installPath"), str):
        return None
    folder = os.path.expanduser(record["installPath"])
    scope = record.get("scope", "user")
    if not os.path.isdir(folder):
        return None
    if scope in ("user", "managed"):
        return folder, "user", roots[0] if roots else None
    project = record.get("projectPath")
    if scope in ("project", "local") and isinstance(project, str):
        root = next((root for root in roots if same_place(root, os.path.expanduser(project))), None)
        if root is not None:
            return folder, "workspace", root
    return None


def _enabled_in(settings: Any, plugin_id: str) -> bool:
    enabled = settings.get("enabledPlugins") if isinstance(settings, dict) else None
    return isinstance(enabled, dict) and enabled.get(plugin_id) is True


def managed_off(plugin_id: str, policy: dict[str, Any]) -> str | None:
    """Why Claude Code's managed settings keep a plugin's hooks from loading."""
    if policy.get("disableAllHooks") is True:
        return ("Claude Code's managed settings say disableAllHooks: no hook runs, plugin "
                f"{plugin_id}'s neither")
    if policy.get("allowManagedHooksOnly") is True and not _enabled_in(policy, plugin_id):
        return (f"Claude Code's managed settings say allowManagedHooksOnly: the hooks of "
                f"plugin {plugin_id}, which they do not enable, never load")
    return None


def enabled_plugins(home: str, root: str | None) -> list[tuple[str, dict[str, Any]]]:
    """(settings file, its `enabledPlugins`) of the user's, the project's and the local
    settings, in the order Claude Code reads them."""
    files = [os.path.join(home, SETTINGS[0])]
    if root is not None and not same_place(root, home):
        files.extend(os.path.join(root, rel) for rel in SETTINGS)
    found = []
    for path in files:
        settings = read_json(path)
        enabled = settings.get("enabledPlugins") if isinstance(settings, dict) else None
        if isinstance(enabled, dict):
            found.append((path, enabled))
    return found


def plugin_off(plugin_id: str, home: str,
                      switches: Sequence[tuple[str, dict[str, Any]]], *,
                      forced: bool = False) -> str | None:
    """Why Claude Code does not load a plugin's hooks: the `enabledPlugins` of its settings
    (`enabled_plugins`), the last one that names the plugin deciding; `forced`: the managed
    settings enable it, which no other file overrides."""
    if forced:
        return None
    said: tuple[str, object] | None = None
    for path, enabled in switches:
        if plugin_id in enabled:
            said = (path, enabled[plugin_id])
    if said is None:
        return (f"plugin {plugin_id} is installed but not enabled: no settings file says "
                f'"enabledPlugins": {{"{plugin_id}": true}} (claude plugin enable {plugin_id})')
    if said[1] is not True:
        return (f'plugin {plugin_id} is disabled: {under_home(said[0], home)} says "{plugin_id}": '
                f"{json_text(said[1])} in enabledPlugins")
    return None


def folder_files(folder: str) -> list[str]:
    """A Claude Code plugin's hook files: `hooks/hooks.json`, then those its manifest's
    `hooks` names (a path or a list of them, relative to the plugin folder), or the
    manifest itself when `hooks` is an inline object; each once."""
    found = [os.path.join(folder, HOOKS_FILE)]
    manifest = os.path.join(folder, MANIFEST)
    named = manifest_hooks(manifest, folder)
    return once([path for path in (*found, *named) if os.path.isfile(path)])
