"""The files of Grok Build (`model.hosts`, a host derived from Claude Code): read as Claude
Code's groups (`sources.dialects.check`); what differs is said here.

What Grok does (xai-org/grok-build@19d42e3, paths under crates/codegen/), as findings:

    trust       a project's `.grok/hooks/*.json` runs only in a folder Grok trusts: the
                closest of its ancestors, itself first, that `$GROK_HOME/trusted_folders.toml`
                decides on (`[folders."<path>"] trusted = true`) says so, a record of the
                filesystem root or the home folder never counting; headless (`grok -p`) it asks
                no one and skips the project's hooks without a word
                (xai-grok-workspace/src/trust.rs `TrustStore::is_trusted`, measured with grok
                1.0.41: `--trust` trusts the folder; `GROK_FOLDER_TRUST=0` turns the gate off)
                (`grok-untrusted-folder`)
    disabled    a hook named in `$GROK_HOME/disabled-hooks` (one name a line, `#` comments;
                `/hooks disable` writes it) never runs: its name is the file's stem, the
                event in snake_case and its place, `gate:pre_tool_use[0].hooks[1]`
                (xai-grok-hooks/src/trust.rs `is_hook_disabled`, config.rs `build_specs`)
                (`grok-hook-disabled`)
"""

from __future__ import annotations

import os
import re

from agenthooks.model.events import snake_case
from agenthooks.sources.dialects.check import DialectChecker, closest_decision

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.model.handlers import Source

TRUST_FILE = "trusted_folders.toml"
DISABLED_FILE = "disabled-hooks"
# A handler's place in its file (`Handler.pointer`): its event's key, group and handler.
_PLACE = re.compile(r"^/hooks/(?P<key>(?:[^/~]|~[01])+)/(?P<group>\d+)/hooks/(?P<hook>\d+)$")


class GrokChecker(DialectChecker):
    """Walks a Grok Build hook file."""

    def document(self, doc: Any) -> None:
        super().document(doc)
        if self.thorough and self.source.level == "workspace" and self.handlers:
            self.trusted_folder()
        if self.thorough and self.handlers:
            self.disabled_hooks()

    def disabled_hooks(self) -> None:
        names = disabled_names()
        if not names:
            return
        stem = os.path.splitext(os.path.basename(self.source.file))[0]
        for handler in self.handlers:
            place = _PLACE.match(handler.pointer)
            if place is None:
                continue
            name = (f"{stem}:{snake_case(handler.event)}[{place['group']}]"
                    f".hooks[{place['hook']}]")
            if name in names:
                self.add("grok-hook-disabled", f"Grok Build never runs this hook: {name} is "
                                               f"listed in $GROK_HOME/{DISABLED_FILE} (remove "
                                               "the line to run it)", handler.pointer)

    def trusted_folder(self) -> None:
        if os.environ.get("GROK_FOLDER_TRUST") == "0":
            return
        root = os.path.realpath(self.source.workspace)
        decision = grok_trusts(root)
        if decision is True:
            return
        why = ("its $GROK_HOME/trusted_folders.toml marks it, or the closest folder above it, "
               "untrusted" if decision is False else "no entry of its $GROK_HOME/"
               "trusted_folders.toml trusts it or a folder above it")
        self.add("grok-untrusted-folder", f"Grok Build does not trust {root} ({why}), so it "
                                          "skips these hooks without a word: trust the folder "
                                          "in Grok once (/hooks-trust), or run `grok --trust`",
                 "", "value")


def grok_home() -> str:
    """Grok's user folder: $GROK_HOME, else ~/.grok."""
    return os.path.expanduser(os.environ.get("GROK_HOME") or os.path.join("~", ".grok"))


def disabled_names() -> frozenset[str]:
    """The hook names `$GROK_HOME/disabled-hooks` lists (none when it cannot be read)."""
    try:
        with open(os.path.join(grok_home(), DISABLED_FILE), encoding="utf-8",
                  errors="replace") as stream:
            lines = stream.read(1 << 20).splitlines()
    except OSError:
        return frozenset()
    return frozenset(line.strip() for line in lines
                     if line.strip() and not line.strip().startswith("#"))


def grok_trusts(folder: str) -> bool | None:
    """Grok's decision on a folder, by its closest decided ancestor; None where none is."""
    home = os.path.expanduser("~")
    from agenthooks.sources.reading import toml

    try:
        with open(os.path.join(grok_home(), TRUST_FILE),
                  encoding="utf-8") as stream:
            stored = toml.values(stream.read(1 << 20)) or {}
    except (OSError, UnicodeDecodeError):
        return None
    folders = stored.get("folders")
    # A record of the root or of the home folder would trust everything below: Grok ignores it.
    too_wide = {os.path.sep, os.path.realpath(home)}
    decided = {os.path.realpath(os.path.expanduser(path)): record["trusted"]
               for path, record in (folders.items() if isinstance(folders, dict) else ())
               if isinstance(path, str) and os.path.isabs(path) and isinstance(record, dict)
               and isinstance(record.get("trusted"), bool)}
    return closest_decision(folder, {path: verdict for path, verdict in decided.items()
                                     if path not in too_wide})


def read(doc: Any, source: Source, *, thorough: bool) -> DialectChecker:
    """Every finding of a Grok Build hook file, and the handlers Grok would register."""
    from agenthooks.sources.dialects import dialect_spec

    checker = GrokChecker(source, dialect_spec("grok"), thorough=thorough)
    checker.document(doc)
    return checker
