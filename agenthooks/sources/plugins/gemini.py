"""Gemini CLI's extensions: each folder of `~/.gemini/extensions/` with a
`gemini-extension.json`, its hooks in `hooks/hooks.json`, on unless
`extension-enablement.json` disables it for the folder Gemini CLI runs in."""

from __future__ import annotations

import os

from agenthooks.sources.plugins import HOOKS_FILE, PluginFile, read_json

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

EXTENSIONS = os.path.join(".gemini", "extensions")
MANIFEST = "gemini-extension.json"
ENABLEMENT = "extension-enablement.json"


def installed(home: str, roots: Sequence[str]) -> list[PluginFile]:
    """The hook files of the extensions in `~/.gemini/extensions`, each with whether Gemini
    CLI loads it in the first of `roots`."""
    folder = os.path.join(home, EXTENSIONS)
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    enablement = read_json(os.path.join(folder, ENABLEMENT))
    where = roots[0] if roots else os.getcwd()
    found: list[PluginFile] = []
    for entry in names:
        root = os.path.join(folder, entry)
        manifest = read_json(os.path.join(root, MANIFEST))
        hooks = os.path.join(root, HOOKS_FILE)
        if not isinstance(manifest, dict) or not os.path.isfile(hooks):
            continue
        given = manifest.get("name")
        name = given if isinstance(given, str) and given else entry
        off = extension_off(name, enablement, where)
        found.append(PluginFile(hooks, "gemini", root, name, "user", off))
    return found


def extension_off(name: str, enablement: Any, path: str) -> str | None:
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
    return (f"extension {name} is disabled here: ~/.gemini/extensions/{ENABLEMENT} "
            f"says {said!r} (gemini extensions enable {name})")


def _override_matches(rule: str, path: str) -> bool:
    """Whether an enablement rule (`/a/b/`, `/a/b/*`: a `*` stands for any text, a `/*`
    also for nothing) covers a folder, both written with `/` around them."""
    import re

    slashed = "/" + path.replace("\\", "/").strip("/") + "/"
    pattern = re.sub(r"(/?)\\\*", r"(\1.*)?", re.escape(rule))
    return re.fullmatch(pattern, slashed) is not None


def folder_files(folder: str) -> list[str]:
    """The hook file of an extension's own checkout."""
    hooks = os.path.join(folder, HOOKS_FILE)
    return [hooks] if os.path.isfile(hooks) else []
