"""The hook files inside installed plugins, and whether their host loads them.

A plugin is a folder its host installs somewhere of its own; its hooks run only while the
plugin is installed for the project and enabled. Each host's rules, as its docs give them:

    Claude Code  `~/.claude/plugins/installed_plugins.json` lists each installed plugin
                 (`name@marketplace`) with its install records: `scope` user, project or
                 local, `projectPath` for the last two, `installPath` the plugin folder
                 (under `~/.claude/plugins/cache/<marketplace>/<name>/<version>/`). A plugin
                 runs when `enabledPlugins` says `"name@marketplace": true` in the user's,
                 the project's or the local settings (the last one read decides; absent:
                 off). Its hooks: `hooks/hooks.json`, and the files (or the inline object)
                 named by `hooks` in `.claude-plugin/plugin.json`; `${CLAUDE_PLUGIN_ROOT}` is
                 the plugin folder (code.claude.com/docs/en/plugins-reference).
    Cursor       `~/.cursor/plugins/local/<name>/` (cursor.com/docs/plugins, "Test plugins
                 locally"): a Cursor Plugin has `.cursor-plugin/plugin.json`, whose `hooks`
                 (a path, or an inline object) replaces the default `hooks/hooks.json`; an
                 Agent Plugin (a root `plugin.json` alone) brings skills and MCP servers
                 only, so Cursor runs no hook of it; a link there loads only when its target
                 is inside that folder.
    Agent        Agent Plugins 1.0 (agentplugins/agent-plugins-spec spec/1.0.0.md, §8):
    Plugins      a client's own files live in a top-level folder named for its
                 reverse-domain namespace (`com.example.client/hooks/hooks.json`); the spec
                 gives them no meaning, so only the client that owns the namespace loads
                 them. `NAMESPACES` maps the ones agenthooks knows to a host.

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

CLAUDE_PLUGINS = os.path.join(".claude", "plugins")
INSTALLED = "installed_plugins.json"
CLAUDE_MANIFEST = os.path.join(".claude-plugin", "plugin.json")
CURSOR_LOCAL = os.path.join(".cursor", "plugins", "local")
CURSOR_MANIFEST = os.path.join(".cursor-plugin", "plugin.json")
AGENT_MANIFEST = "plugin.json"
HOOKS_FILE = os.path.join("hooks", "hooks.json")
GEMINI_EXTENSIONS = os.path.join(".gemini", "extensions")
GEMINI_MANIFEST = "gemini-extension.json"
GEMINI_ENABLEMENT = "extension-enablement.json"
# The settings files whose `enabledPlugins` say which Claude Code plugins run, in the order
# Claude Code reads them (a later one overrides): the user's, then the project's.
CLAUDE_SETTINGS = (os.path.join(".claude", "settings.json"),
                   os.path.join(".claude", "settings.local.json"))
# Claude Code's managed settings (code.claude.com/docs/en/settings, "Configuration scopes":
# the system-level managed-settings.json; Linux and macOS places), over every other file:
# `disableAllHooks` turns every hook off; `allowManagedHooksOnly` keeps the hooks of every
# plugin but those its own `enabledPlugins` force on from loading (Claude Code 2.1.101 and
# later, anthropics/claude-code#46387).
MANAGED_SETTINGS = ("/etc/claude-code/managed-settings.json",
                    "/Library/Application Support/ClaudeCode/managed-settings.json")
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


def _read(path: str) -> Any:
    """A JSON file's value, or None when it is missing, unreadable or not JSON."""
    from agenthooks._lean import jsontext

    try:
        with open(path, "rb") as stream:
            return jsontext.loads(stream.read(1 << 22))
    except (OSError, ValueError, RecursionError):
        return None


def _same(a: str, b: str) -> bool:
    return os.path.realpath(a) == os.path.realpath(b)


# --- Claude Code --------------------------------------------------------------------------------


def claude_plugin_files(home: str, roots: Sequence[str],
                        managed: Sequence[str] = MANAGED_SETTINGS) -> list[PluginFile]:
    """The hook files of the Claude Code plugins installed for the user or for one of
    `roots` (the workspaces), each with whether Claude Code loads it there (`managed`: the
    places of its managed settings)."""
    policy = next((doc for path in managed
                   if isinstance(doc := _read(path), dict)), {})
    installed = _read(os.path.join(home, CLAUDE_PLUGINS, INSTALLED))
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
            off = managed_off(str(plugin_id), policy) or claude_plugin_off(
                str(plugin_id), home, switches[root],
                forced=_enabled_in(policy, str(plugin_id)))
            found.extend(PluginFile(path, "claude", folder, str(plugin_id), level, off)
                         for path in claude_hook_paths(folder))
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
        root = next((root for root in roots if _same(root, os.path.expanduser(project))), None)
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
    files = [os.path.join(home, CLAUDE_SETTINGS[0])]
    if root is not None and not _same(root, home):
        files.extend(os.path.join(root, rel) for rel in CLAUDE_SETTINGS)
    found = []
    for path in files:
        settings = _read(path)
        enabled = settings.get("enabledPlugins") if isinstance(settings, dict) else None
        if isinstance(enabled, dict):
            found.append((path, enabled))
    return found


def claude_plugin_off(plugin_id: str, home: str,
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
        return (f'plugin {plugin_id} is disabled: {_shown(said[0], home)} says "{plugin_id}": '
                f"{_json(said[1])} in enabledPlugins")
    return None


def _shown(path: str, home: str) -> str:
    """A path under home as `~/...`."""
    rel = os.path.relpath(path, home)
    return path if rel.startswith("..") else os.path.join("~", rel)


def _json(value: object) -> str:
    from agenthooks._lean import jsontext

    return jsontext.dumps(value)


def claude_hook_paths(folder: str) -> list[str]:
    """A Claude Code plugin's hook files: `hooks/hooks.json`, then those its manifest's
    `hooks` names (a path or a list of them, relative to the plugin folder), or the
    manifest itself when `hooks` is an inline object; each once."""
    found = [os.path.join(folder, HOOKS_FILE)]
    manifest = os.path.join(folder, CLAUDE_MANIFEST)
    named = _manifest_hooks(manifest, folder)
    return _once([path for path in (*found, *named) if os.path.isfile(path)])


def _manifest_hooks(manifest: str, folder: str) -> list[str]:
    """The hook files a manifest's `hooks` names; the manifest for an inline object."""
    doc = _read(manifest)
    hooks = doc.get("hooks") if isinstance(doc, dict) else None
    if isinstance(hooks, dict):
        return [manifest]
    given = [hooks] if isinstance(hooks, str) else hooks if isinstance(hooks, list) else []
    return [os.path.normpath(os.path.join(folder, path)) for path in given
            if isinstance(path, str) and path and not os.path.isabs(path)]


def _once(paths: list[str]) -> list[str]:
    seen: set[str] = set()
    unique = []
    for path in paths:
        if os.path.realpath(path) not in seen:
            seen.add(os.path.realpath(path))
            unique.append(path)
    return unique


# --- Cursor -------------------------------------------------------------------------------------


def cursor_plugin_files(home: str) -> list[PluginFile]:
    """The hook files of the plugins in `~/.cursor/plugins/local`, each with whether Cursor
    loads it."""
    local = os.path.join(home, CURSOR_LOCAL)
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
        found.extend(_cursor_folder(folder, name, off))
    return found


def _cursor_folder(folder: str, name: str, off: str | None) -> list[PluginFile]:
    manifest = os.path.join(folder, CURSOR_MANIFEST)
    if os.path.isfile(manifest):
        named = _manifest_hooks(manifest, folder)
        paths = named or [os.path.join(folder, HOOKS_FILE)]  # `hooks` replaces the default
        return [PluginFile(path, "cursor", folder, name, "user", off)
                for path in _once(paths) if os.path.isfile(path)]
    if not os.path.isfile(os.path.join(folder, AGENT_MANIFEST)):
        return []
    hooks = os.path.join(folder, HOOKS_FILE)
    agent_off = off or (f"{name} is an Agent Plugin (a root plugin.json): Cursor loads its "
                        "skills and MCP servers only, never its hooks; a Cursor Plugin has "
                        ".cursor-plugin/plugin.json")
    found = [PluginFile(hooks, None, folder, name, "user", agent_off)] \
        if os.path.isfile(hooks) else []
    return found + vendor_files(folder, name, "user", off)


# --- Gemini CLI ---------------------------------------------------------------------------------


def gemini_extension_files(home: str, roots: Sequence[str]) -> list[PluginFile]:
    """The hook files of the extensions in `~/.gemini/extensions`, each with whether Gemini
    CLI loads it in the first of `roots`."""
    folder = os.path.join(home, GEMINI_EXTENSIONS)
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    enablement = _read(os.path.join(folder, GEMINI_ENABLEMENT))
    where = roots[0] if roots else os.getcwd()
    found: list[PluginFile] = []
    for entry in names:
        root = os.path.join(folder, entry)
        manifest = _read(os.path.join(root, GEMINI_MANIFEST))
        hooks = os.path.join(root, HOOKS_FILE)
        if not isinstance(manifest, dict) or not os.path.isfile(hooks):
            continue
        given = manifest.get("name")
        name = given if isinstance(given, str) and given else entry
        off = gemini_extension_off(name, enablement, where)
        found.append(PluginFile(hooks, "gemini", root, name, "user", off))
    return found


def gemini_extension_off(name: str, enablement: Any, path: str) -> str | None:
    """Why Gemini CLI does not load an extension in `path`: its overrides in
    `extension-enablement.json` (`/dir/` for that folder, `/dir/*` with its subfolders,
    `!` to disable), the last one matching `path` deciding; an extension is on by default."""
    config = enablement.get(name) if isinstance(enablement, dict) else None
    rules = config.get("overrides") if isinstance(config, dict) else None
    said: str | None = None
    for rule in rules if isinstance(rules, list) else ():
        if isinstance(rule, str) and _override_matches(rule.removeprefix("!"), path):
            said = rule
    if said is None or not said.startswith("!"):
        return None
    return (f"extension {name} is disabled here: ~/.gemini/extensions/{GEMINI_ENABLEMENT} "
            f"says {said!r} (gemini extensions enable {name})")


def _override_matches(rule: str, path: str) -> bool:
    """Whether an enablement rule (`/a/b/`, `/a/b/*`: a `*` stands for any text, a `/*`
    also for nothing) covers a folder, both written with `/` around them."""
    import re

    slashed = "/" + path.replace("\\", "/").strip("/") + "/"
    pattern = re.sub(r"(/?)\\\*", r"(\1.*)?", re.escape(rule))
    return re.fullmatch(pattern, slashed) is not None


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
    checkout): a Claude Code plugin's, a Cursor Plugin's, an Agent Plugin's hooks and client
    folders (dialect None: their shape says); none for a folder that is no plugin."""
    found: list[tuple[str | None, str]] = []
    if os.path.isfile(os.path.join(folder, CLAUDE_MANIFEST)):
        found += [("claude", path) for path in claude_hook_paths(folder)]
    elif os.path.isfile(os.path.join(folder, CURSOR_MANIFEST)):
        found += [("cursor", f.path) for f in _cursor_folder(folder, "", None)]
    elif os.path.isfile(os.path.join(folder, AGENT_MANIFEST)) and os.path.isfile(
            os.path.join(folder, HOOKS_FILE)):
        found.append((None, os.path.join(folder, HOOKS_FILE)))
    found += [(f.dialect, f.path) for f in vendor_files(folder, "", "user", None)]
    return found


def plugin_files(home: str, roots: Sequence[str],
                 managed: Sequence[str] = MANAGED_SETTINGS) -> list[PluginFile]:
    """Every installed plugin's hook files: Claude Code's, Gemini CLI's extensions', then
    Cursor's."""
    return [*claude_plugin_files(home, roots, managed), *gemini_extension_files(home, roots),
            *cursor_plugin_files(home)]
