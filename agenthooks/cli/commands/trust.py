"""`agenthooks trust`: record a workspace's hook files and scripts as reviewed, show, revoke.

    agenthooks trust                    # the workspace found upward from here, as it is now
    agenthooks trust --show             # what would be trusted, and why; records nothing
    agenthooks trust --revoke           # forget it: runs that require trust skip its hooks
    agenthooks trust --host codex       # record Codex's own trust of its hooks (config.toml)
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from agenthooks.errors import AgentHooksError
from agenthooks.escape import printable
from agenthooks.features.audit import rfc3339
from agenthooks.sources import trust
from agenthooks.sources.discovery import find_workspace_root
from agenthooks.sources.load import is_refused, load_all

PLURALS = ("script", "module", "file")  # the kinds counted as words: "2 scripts"
# What trust never follows, whatever the commands: said under every `--show`.
NEVER_FOLLOWED = ("programs found on PATH (`jq`, `python3`...), and what a covered script "
                  "imports, sources, reads or runs by itself")


def covered(configs: Sequence[str], workspaces: Sequence[str]) -> dict[str, trust.Manifest]:
    """Per workspace, what its trust covers: the files a run with these options would load,
    and what their command handlers reach."""
    loaded = load_all(configs=configs, workspaces=workspaces, no_user=True)
    refused = [d for f in loaded.files if is_refused(f) for d in f.diagnostics]
    for diagnostic in (*loaded.notes, *refused):  # skipped as a run skips them
        sys.stderr.write(f"agenthooks: warning: {printable(str(diagnostic))}\n")
    # What a run's trust check hashes: every hook file, and what their command handlers reach.
    manifests = trust.manifests(loaded.discovered(), loaded.handler_files)
    if not manifests:
        where = ", ".join(workspaces) or os.getcwd()
        raise AgentHooksError(f"no workspace hook files found for {where}: nothing to trust")
    return manifests


def trust_workspace(
    *,
    configs: Sequence[str] = (),
    workspaces: Sequence[str] = (),
    show: bool = False,
    revoke: bool = False,
    fmt: str = "text",
) -> int:
    path = trust.trust_path()
    if revoke:
        return revoke_trust(path, workspaces)
    manifests = covered(configs, workspaces)
    store = trust.read_store(path)
    verdicts = {ws: trust.verdict(ws, m.entries, store) for ws, m in manifests.items()}
    if show:
        if fmt == "json":
            write_json(manifests, verdicts, sys.stdout)
        else:
            write_text(manifests, verdicts, sys.stdout)
        return 0
    when = rfc3339(time.time())
    for ws, manifest in manifests.items():
        trust.record(path, ws, manifest.entries, when=when)
        found = verdicts[ws]
        changes = "".join(f"\n  {c.change}: {printable(c.path)}" for c in found.changes)
        again = " again" if found.recorded else ""
        sys.stdout.write(f"trusted{again} {printable(ws)}: {_counted(manifest.entries)}"
                         f"{changes}\n")
    return 0


def revoke_trust(path: str, workspaces: Sequence[str]) -> int:
    roots = [os.path.realpath(w) for w in workspaces]
    if not roots:
        cwd = os.getcwd()
        roots = [os.path.realpath(find_workspace_root(cwd) or cwd)]
    for root in roots:
        if trust.revoke(path, root):
            sys.stdout.write(f"revoked trust in {printable(root)}\n")
        else:
            sys.stdout.write(f"{printable(root)} was not trusted\n")
    return 0


def _counted(entries: Sequence[trust.Entry]) -> str:
    counts: dict[str, int] = {}
    for entry in entries:
        counts[entry.kind] = counts.get(entry.kind, 0) + 1
    parts = [f"{count} {kind}{'s' if count != 1 and kind in PLURALS else ''}"
             for kind, count in counts.items()]
    return f"{len(entries)} file{'s' if len(entries) != 1 else ''} ({', '.join(parts)})"


def write_json(manifests: dict[str, trust.Manifest], verdicts: dict[str, trust.Verdict],
               stream: TextIO) -> None:
    items: list[dict[str, Any]] = []
    for ws, manifest in manifests.items():
        found = verdicts[ws]
        items.append({
            "workspace": ws,
            "status": found.status,
            "changes": [{"path": c.path, "change": c.change} for c in found.changes],
            "files": [e.as_json() for e in manifest.entries],
            "notCovered": [u.as_json() for u in manifest.unfollowed],
        })
    stream.write(json.dumps({"workspaces": items, "neverCovered": NEVER_FOLLOWED}, indent=2)
                 + "\n")


def write_text(manifests: dict[str, trust.Manifest], verdicts: dict[str, trust.Verdict],
               stream: TextIO) -> None:
    from agenthooks.report.table import render_table

    for ws, manifest in manifests.items():
        found = verdicts[ws]
        stream.write(f"{printable(ws)}: {found.status}\n")
        for change in found.changes:
            stream.write(f"  {change.change}: {printable(change.path)}\n")
        rows = [[printable(e.path), e.kind, e.sha256, printable(e.why)]
                for e in manifest.entries]
        render_table(["FILE", "KIND", "SHA-256", "WHY"], rows, stream=stream)
        for item in manifest.unfollowed:
            stream.write(f"not covered: {printable(item.what)} ({printable(item.why)})\n")
    stream.write(f"never covered: {NEVER_FOLLOWED}\n")


def trust_codex(*, workspace: str | None = None, show: bool = False, yes: bool = False,
                confirm: Callable[[str], bool] | None = None) -> int:
    """`trust --host codex`: record in Codex's config.toml the hash of every Codex hook it
    would skip as untrusted (agenthooks.sources.dialects.codex_trust); shown as a diff, then
    asked on a terminal or written with --yes, never silently. 1 when nothing was written that was
    needed."""
    from agenthooks.cli.commands.init import workspace_root
    from agenthooks.sources.dialects import codex_trust as codex

    found = codex.review(workspace_root(workspace))
    out = sys.stdout
    if not found.hooks:
        out.write("no Codex hooks found (hooks.json or [hooks] in config.toml, under "
                  f"{printable(codex.codex_home())} and the workspace's .codex/)\n")
        return 0
    out.write("Codex hooks:\n" + "".join(codex.describe(h, s) for h, s in found.hooks))
    if found.after == found.before:
        out.write("every Codex hook here is trusted already; nothing to change\n")
        return 0
    out.write(codex.diff(found))
    out.flush()
    if show:
        return 0
    if not yes:
        if confirm is None:
            sys.stderr.write("agenthooks: nothing written: run again with --yes to trust these "
                             "hooks (or on a terminal, to be asked)\n")
            return 1
        if not confirm("Trust these hooks in Codex's config.toml?"):
            sys.stderr.write("agenthooks: nothing written\n")
            return 1
    from agenthooks.userfiles import written

    out.write(printable(written(codex.write_config(found))) + "\n")
    return 0
