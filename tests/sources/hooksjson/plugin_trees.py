"""Installed plugins laid out as their hosts install them, under a temporary HOME.

Claude Code: `~/.claude/plugins/installed_plugins.json` (version 2: each `name@marketplace`
with its install records) and the plugin folder under `~/.claude/plugins/cache/`; `enabled`
writes `enabledPlugins` into a settings file. Cursor: a folder in `~/.cursor/plugins/local`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

CLAUDE_GATE = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
    {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/hooks/gate.sh"}]}]}}
# A gate that denies and says where it ran and what it was given.
GATE_SCRIPT = ('#!/bin/sh\necho "root=$CLAUDE_PLUGIN_ROOT data=$CLAUDE_PLUGIN_DATA '
               'cursor=$CURSOR_PLUGIN_ROOT pwd=$(pwd)" >&2\nexit 2\n')


def write(path: Path, value: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(value if isinstance(value, str) else json.dumps(value), encoding="utf-8")
    return path


def script(path: Path, text: str = GATE_SCRIPT) -> Path:
    write(path, text)
    path.chmod(0o755)
    return path


def claude_plugin(home: Path, name: str, marketplace: str = "mkt", *,
                  hooks: Any = CLAUDE_GATE, manifest: dict[str, Any] | None = None,
                  records: list[dict[str, Any]] | None = None) -> Path:
    """A Claude Code plugin installed from a marketplace; returns its folder."""
    folder = home / ".claude" / "plugins" / "cache" / marketplace / name / "1.0.0"
    write(folder / ".claude-plugin" / "plugin.json", {"name": name, **(manifest or {})})
    if hooks is not None:
        write(folder / "hooks" / "hooks.json", hooks)
        script(folder / "hooks" / "gate.sh")
    registry = home / ".claude" / "plugins" / "installed_plugins.json"
    doc = json.loads(registry.read_text()) if registry.exists() else {"version": 2,
                                                                       "plugins": {}}
    doc["plugins"][f"{name}@{marketplace}"] = records if records is not None else [
        {"scope": "user", "installPath": str(folder), "version": "1.0.0"}]
    write(registry, doc)
    return folder


def enabled(settings: Path, plugin: str, value: object = True) -> Path:
    """`enabledPlugins` of a Claude Code settings file says `plugin: value`."""
    doc = json.loads(settings.read_text()) if settings.exists() else {}
    doc.setdefault("enabledPlugins", {})[plugin] = value
    return write(settings, doc)


def cursor_plugin(home: Path, name: str, hooks: Any, *, manifest: dict[str, Any] | None = None,
                  agent: bool = False) -> Path:
    """A plugin in `~/.cursor/plugins/local`: a Cursor Plugin, or an Agent Plugin."""
    folder = home / ".cursor" / "plugins" / "local" / name
    if agent:
        write(folder / "plugin.json", {
            "$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
            "name": name})
    else:
        write(folder / ".cursor-plugin" / "plugin.json", {"name": name, **(manifest or {})})
    if hooks is not None:
        write(folder / "hooks" / "hooks.json", hooks)
    return folder
