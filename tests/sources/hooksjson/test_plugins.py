"""The hook files inside installed plugins (`sources.plugins`) and discovery's use of them:
real folders under a temporary HOME, laid out as Claude Code and Cursor install plugins."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from agenthooks.sources import plugins
from agenthooks.sources.discovery import PLUGIN_PLACES, dialect_source, discover_all
from agenthooks.sources.plugins import claude as claude_plugins
from agenthooks.sources.plugins import cursor as cursor_plugins
from agenthooks.sources.plugins import gemini as gemini_plugins
from tests.sources.hooksjson.plugin_trees import (
    CLAUDE_GATE,
    claude_plugin,
    cursor_plugin,
    enabled,
    write,
)

STOP = {"version": 1, "hooks": {"stop": [{"command": "echo done"}]}}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    write(root / ".claude" / "settings.json", {})
    return root


def found(home: Path, project: Path) -> list[tuple[str, str, str | None]]:
    """(plugin, hook file under the plugins folder, why off) of every plugin file."""
    return [(f.plugin, os.path.relpath(f.path, home), f.off)
            for f in plugins.plugin_files(str(home), [str(project)])]


def test_an_enabled_user_plugin_loads(home: Path, project: Path) -> None:
    claude_plugin(home, "guard")
    enabled(home / ".claude" / "settings.json", "guard@mkt")
    assert found(home, project) == [
        ("guard@mkt", ".claude/plugins/cache/mkt/guard/1.0.0/hooks/hooks.json", None)]


@pytest.mark.parametrize(("user", "shared", "local", "off"), [
    (None, None, None, "not enabled"),  # installed, never enabled: off
    (True, None, None, None),
    (True, False, None, "disabled: " + os.path.join("{project}", ".claude", "settings.json")),
    (True, False, True, None),  # the local settings, read last, decide
    (None, True, False, "disabled: " + os.path.join("{project}", ".claude",
                                                    "settings.local.json")),
    ("yes", None, None, 'says "guard@mkt": "yes"'),  # only true enables
])
def test_enabled_plugins_the_last_settings_file_decides(
        home: Path, project: Path, user: object, shared: object, local: object,
        off: str | None) -> None:
    claude_plugin(home, "guard")
    for path, value in ((home / ".claude" / "settings.json", user),
                        (project / ".claude" / "settings.json", shared),
                        (project / ".claude" / "settings.local.json", local)):
        if value is not None:
            enabled(path, "guard@mkt", value)
    (why,) = [f.off for f in plugins.plugin_files(str(home), [str(project)])]
    if off is None:
        assert why is None
    else:
        assert why is not None and off.format(project=project) in why, why


@pytest.mark.parametrize(("policy", "user", "off"), [
    ({}, True, None),
    ({"disableAllHooks": True}, True, "disableAllHooks"),
    ({"allowManagedHooksOnly": True}, True, "allowManagedHooksOnly"),
    # Forced on by the managed settings: loads under allowManagedHooksOnly, and whatever the
    # user's settings say.
    ({"allowManagedHooksOnly": True, "enabledPlugins": {"guard@mkt": True}}, False, None),
])
def test_managed_settings_come_first(home: Path, project: Path, tmp_path: Path,
                                     policy: dict[str, object], user: bool,
                                     off: str | None) -> None:
    claude_plugin(home, "guard")
    enabled(home / ".claude" / "settings.json", "guard@mkt", user)
    managed = write(tmp_path / "etc" / "managed-settings.json", policy)
    (why,) = [f.off for f in claude_plugins.installed(str(home), [str(project)],
                                                  (str(tmp_path / "absent.json"),
                                                   str(managed)))]
    assert why is None if off is None else why is not None and off in why, why


def test_a_project_install_counts_in_its_project_only(home: Path, project: Path,
                                                     tmp_path: Path) -> None:
    folder = tmp_path / "elsewhere"
    claude_plugin(home, "team", records=[{"scope": "project", "projectPath": str(folder),
                                          "installPath": "PLACEHOLDER"}])
    installed = home / ".claude" / "plugins" / "cache" / "mkt" / "team" / "1.0.0"
    registry = home / ".claude" / "plugins" / "installed_plugins.json"
    registry.write_text(registry.read_text().replace("PLACEHOLDER", str(installed)))
    assert found(home, project) == []
    registry.write_text(registry.read_text().replace(str(folder), str(project)))
    enabled(project / ".claude" / "settings.json", "team@mkt")
    (one,) = plugins.plugin_files(str(home), [str(project)])
    assert (one.level, one.off) == ("workspace", None)


def test_version_1_records_and_missing_folders(home: Path, project: Path) -> None:
    folder = claude_plugin(home, "old", records=[])
    registry = home / ".claude" / "plugins" / "installed_plugins.json"
    write(registry, {"version": 1, "plugins": {
        "old@mkt": {"installPath": str(folder)},  # one record, not a list
        "gone@mkt": [{"scope": "user", "installPath": str(home / "nowhere")}],
        "bad@mkt": ["not a record"]}})
    assert [f.plugin for f in plugins.plugin_files(str(home), [str(project)])] == ["old@mkt"]


@pytest.mark.parametrize("registry", ["", "[1, 2]", '{"plugins": []}', "{not json"])
def test_a_registry_that_is_no_registry_finds_nothing(home: Path, project: Path,
                                                      registry: str) -> None:
    write(home / ".claude" / "plugins" / "installed_plugins.json", registry)
    assert found(home, project) == []


@pytest.mark.parametrize(("hooks", "files"), [
    ("./extra/more.json", ["hooks/hooks.json", "extra/more.json"]),
    (["./extra/more.json", "./hooks/hooks.json"], ["hooks/hooks.json", "extra/more.json"]),
    (CLAUDE_GATE["hooks"], ["hooks/hooks.json", ".claude-plugin/plugin.json"]),
    ("/etc/absolute.json", ["hooks/hooks.json"]),  # a plugin's paths are its own
])
def test_the_manifest_names_more_hook_files(home: Path, project: Path, hooks: object,
                                            files: list[str]) -> None:
    folder = claude_plugin(home, "guard", manifest={"hooks": hooks})
    write(folder / "extra" / "more.json", CLAUDE_GATE)
    assert [os.path.relpath(p, folder) for p in claude_plugins.folder_files(str(folder))] == files


def test_cursor_local_plugins(home: Path, project: Path) -> None:
    cursor_plugin(home, "fmt", STOP)
    custom = cursor_plugin(home, "custom", STOP, manifest={"hooks": "./cfg/hooks.json"})
    write(custom / "cfg" / "hooks.json", STOP)
    cursor_plugin(home, "skills", STOP, agent=True)
    got = [(f.plugin, os.path.relpath(f.path, f.root), f.dialect, f.off)
           for f in cursor_plugins.installed(str(home), [])]
    assert got[:2] == [("custom", "cfg/hooks.json", "cursor", None),  # replaces the default
                       ("fmt", "hooks/hooks.json", "cursor", None)]
    (plugin, path, dialect, off) = got[2]
    assert (plugin, path, dialect) == ("skills", "hooks/hooks.json", None)
    assert off is not None and "Agent Plugin" in off and "never its hooks" in off


def test_a_cursor_link_to_a_folder_outside_is_skipped(home: Path, tmp_path: Path) -> None:
    outside = tmp_path / "checkout"
    write(outside / ".cursor-plugin" / "plugin.json", {"name": "dev"})
    write(outside / "hooks" / "hooks.json", STOP)
    local = home / ".cursor" / "plugins" / "local"
    local.mkdir(parents=True)
    (local / "dev").symlink_to(outside)
    (one,) = cursor_plugins.installed(str(home), [])
    assert one.off is not None and "outside that folder" in one.off


@pytest.mark.parametrize(("name", "namespace"), [
    ("com.example.client", True), ("dev.goose", True), ("io.a-b.c_d", True),
    ("hooks", False), ("skills", False), (".hidden", False), ("a..b", False),
    ("com.example/x", False), ("v1.0", True),
])
def test_what_names_a_namespace(name: str, namespace: bool) -> None:
    assert plugins.is_namespace(name) is namespace


def test_client_folders_of_an_agent_plugin(home: Path, project: Path) -> None:
    folder = cursor_plugin(home, "portable", None, agent=True)
    write(folder / "com.example.client" / "hooks" / "hooks.json", CLAUDE_GATE)
    write(folder / "skills" / "hooks" / "hooks.json", CLAUDE_GATE)  # no namespace
    (one,) = plugins.plugin_files(str(home), [str(project)])
    assert os.path.relpath(one.path, folder) == os.path.join("com.example.client", "hooks",
                                                             "hooks.json")
    assert one.off is not None and "com.example.client namespace" in one.off
    assert plugins.vendor_root_of(one.path) == ("com.example.client", str(folder.resolve()))
    named = dialect_source(one.path, "claude", str(project), str(project))
    assert named.plugin_root == str(folder.resolve())


def test_discovery_hands_plugin_files_on(home: Path, project: Path) -> None:
    claude_plugin(home, "guard")
    enabled(home / ".claude" / "settings.json", "guard@mkt")
    fmt = cursor_plugin(home, "fmt", STOP)
    found_files = discover_all(cwd=str(project), dialects=True)
    plugin_sources = [s for s in found_files.dialect_sources if s.plugin is not None]
    assert [(s.plugin, s.dialect, s.level, s.plugin_off) for s in plugin_sources] == [
        ("guard@mkt", "claude", "user", None), ("fmt", "cursor", "user", None)]
    claude, cursor = plugin_sources
    # Claude Code runs a plugin's hooks in the project; Cursor in the plugin's folder.
    assert (claude.cwd, cursor.cwd) == (str(project.resolve()), str(fmt.resolve()))
    assert claude.plugin_root is not None and claude.plugin_root.endswith("1.0.0")
    # --no-user leaves the user's installs out; --dialect keeps one host's.
    assert not [s for s in discover_all(cwd=str(project), dialects=True,
                                        no_user=True).dialect_sources if s.plugin]
    assert [s.plugin for s in discover_all(cwd=str(project), dialects=True,
                                           dialect="cursor").dialect_sources] == ["fmt"]


LOADED = ("import sys; from agenthooks.sources.discovery import discover_all; "
          "discover_all(cwd=sys.argv[1], dialects=True); "
          "print('agenthooks.sources.plugins' in sys.modules)")


@pytest.mark.parametrize("installed", [False, True])
def test_a_discovery_with_no_plugin_folder_imports_no_plugin_reader(
        home: Path, project: Path, installed: bool) -> None:
    if installed:
        cursor_plugin(home, "fmt", STOP)
    done = subprocess.run([sys.executable, "-c", LOADED, str(project)], capture_output=True,
                          text=True, check=True, env={**os.environ, "HOME": str(home)})
    assert done.stdout.strip() == str(installed)
    assert {os.path.join(claude_plugins.PLUGINS, claude_plugins.INSTALLED),
            gemini_plugins.EXTENSIONS, cursor_plugins.LOCAL} == set(PLUGIN_PLACES)


def gemini_extension(home: Path, name: str) -> Path:
    folder = home / ".gemini" / "extensions" / name
    write(folder / "gemini-extension.json", {"name": name, "version": "1.0.0"})
    write(folder / "hooks" / "hooks.json", {"hooks": {"AfterAgent": [{"hooks": [
        {"type": "command", "command": "echo ${extensionPath}"}]}]}})
    return folder


@pytest.mark.parametrize(("overrides", "off"), [
    (None, None),  # on by default
    (["!{project}/"], "'!{project}/'"),
    (["!{project}/*"], "'!{project}/*'"),
    (["!{parent}/*"], "'!{parent}/*'"),  # a folder above, with its subfolders
    (["!{parent}/"], None),  # that folder alone
    (["!{parent}/*", "{project}/"], None),  # the last rule that matches decides
    (["{project}/", "!{project}/*"], "'!{project}/*'"),
    (["!/elsewhere/*"], None),
])
def test_gemini_extension_enablement(home: Path, project: Path, overrides: list[str] | None,
                                     off: str | None) -> None:
    folder = gemini_extension(home, "lint")
    values = {"project": str(project), "parent": str(project.parent)}
    if overrides is not None:
        write(home / ".gemini" / "extensions" / "extension-enablement.json",
              {"lint": {"overrides": [rule.format(**values) for rule in overrides]}})
    (one,) = plugins.plugin_files(str(home), [str(project)])
    assert (one.plugin, one.dialect, one.root) == ("lint", "gemini", str(folder))
    if off is None:
        assert one.off is None
    else:
        assert one.off is not None and f"says {off.format(**values)}" in one.off, one.off


def test_a_gemini_extension_s_hooks_know_their_folder(home: Path, project: Path) -> None:
    folder = gemini_extension(home, "lint")
    write(home / ".gemini" / "extensions" / "notes" / "gemini-extension.json", {"name": "n"})
    (source,) = [s for s in discover_all(cwd=str(project), dialects=True).dialect_sources
                 if s.plugin is not None]
    assert (source.dialect, source.plugin_root, source.plugin) == (
        "gemini", str(folder.resolve()), "lint")
