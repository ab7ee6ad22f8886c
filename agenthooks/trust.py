"""Trust in a workspace's hooks: what was reviewed, by hash, so a changed hook does not run.

`agenthooks trust` records, per workspace, the SHA-256 of every workspace hook file
agenthooks would load and of every script their commands name inside the workspace, in
`$XDG_DATA_HOME/agenthooks/trust.json` (else `~/.local/share/...`). With trust required,
`agenthooks run` compares the workspace with its record and skips the hooks of a workspace
that was never trusted or has changed since (`check`).

Imported only when trust is required or by the `trust` command: a plain run pays nothing.
Runs only read the trust file; writers lock it and replace it whole (temp file + rename), so
a run never sees half a file, however many write at once.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence

from agenthooks.errors import AgentHooksError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, NamedTuple

    from agenthooks.config.discovery import Discovered
    from agenthooks.model.handlers import HookFile, Source
else:
    from agenthooks._records import NamedTuple

ENV = "AGENTHOOKS_REQUIRE_TRUST"
FILE_NAME = "trust.json"
VERSION = 1

# The kinds of workspace hook file, as (kind, the `Discovered` field listing them). A new kind
# of hook file (another host's settings file) is one more line here.
HOOK_FILE_KINDS: tuple[tuple[str, str], ...] = (
    ("hooks.json", "sources"),
    ("markdown", "markdown"),
    ("settings", "dialect_sources"),  # Claude Code and Gemini CLI settings, once run loads them
)

# Variables a command may start a script path with; they stand for the workspace root.
PROJECT_VARIABLES = ("CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR")
MAX_LISTED = 5  # changes named in a warning; the rest are counted


class TrustError(AgentHooksError):
    """The trust file cannot be written, or there is nothing to trust."""


class Entry(NamedTuple):
    """One file a workspace's trust covers: its path in the workspace, hash, and why."""

    path: str  # relative to the workspace, with `/`
    sha256: str
    kind: str  # "hooks.json", "markdown", "script", ...
    why: str  # for `trust --show`: which file or hook names it

    def as_json(self) -> dict[str, str]:
        return {"path": self.path, "sha256": self.sha256, "kind": self.kind, "why": self.why}


class Change(NamedTuple):
    path: str
    change: str  # "added", "removed" or "modified"


class Verdict(NamedTuple):
    """How a workspace stands against its record: trusted when `recorded` and no changes."""

    workspace: str
    recorded: bool
    changes: tuple[Change, ...]

    @property
    def trusted(self) -> bool:
        return self.recorded and not self.changes

    @property
    def status(self) -> str:
        return "trusted" if self.trusted else ("changed" if self.recorded else "untrusted")


# --- where -----------------------------------------------------------------------------------


def trust_path(environ: Mapping[str, str] | None = None) -> str:
    env = os.environ if environ is None else environ
    base = env.get("XDG_DATA_HOME") or ""
    if not os.path.isabs(base):  # the XDG spec: a relative value is ignored
        home = env.get("HOME") or os.path.expanduser("~")
        base = os.path.join(home, ".local", "share")
    return os.path.join(base, "agenthooks", FILE_NAME)


def _relative(path: str, workspace: str) -> str | None:
    """`path` relative to the workspace (with `/`), or None when it is outside it."""
    prefix = workspace + os.sep
    candidate = os.path.normpath(os.path.abspath(path))
    if not candidate.startswith(prefix):
        candidate = os.path.realpath(path)  # only then: it costs a system call per part
        if not candidate.startswith(prefix):
            return None
    return candidate[len(prefix):].replace(os.sep, "/")


def _read_regular(path: str) -> bytes | None:
    """A regular file's bytes; None for anything else, which is never waited on (a FIFO)."""
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError:  # gone, unreadable
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


def _sha256(path: str) -> str | None:
    data = _read_regular(path)
    return None if data is None else hashlib.sha256(data).hexdigest()


# --- what a workspace's trust covers ----------------------------------------------------------


def script_paths(command: str, cwd: str, workspace: str) -> Iterator[str]:
    """Every word of a command that names an existing file inside the workspace, relative to
    the handler's folder or absolute, after `$CLAUDE_PROJECT_DIR`/`$GEMINI_PROJECT_DIR`."""
    import shlex

    for name in PROJECT_VARIABLES:
        command = command.replace("${" + name + "}", workspace).replace("$" + name, workspace)
    try:
        words = shlex.split(command, comments=True)
    except ValueError:  # unbalanced quotes: the shell will say so; hash what can be seen
        words = command.split()
    for word in words:
        path = os.path.normpath(os.path.join(cwd, word))
        if _relative(path, workspace) is not None and os.path.isfile(path):
            yield path


def manifests(found: Discovered, files: Sequence[HookFile]) -> dict[str, list[Entry]]:
    """Per workspace (absolute, real), the entries its trust covers, sorted by path.

    Only workspace-level files inside their workspace count: the user's own file and a file
    named with `--config` outside the workspace were chosen by the user, not by the checkout.
    """
    entries: dict[str, dict[str, Entry]] = {}
    for kind, field in HOOK_FILE_KINDS:
        for source in getattr(found, field, ()):
            _add_file(entries, source, kind, "a workspace hook file")
    for hook_file in files:
        source = hook_file.source
        shown = _governed(source)
        if shown is None:
            continue
        for handler in hook_file.handlers:
            why = f"named by hook {handler.hook!r} in {shown}"
            for path in script_paths(handler.command, source.cwd, source.workspace):
                _add(entries, source.workspace, path, "script", why)
    return {ws: sorted(found.values()) for ws, found in entries.items()}


def _governed(source: Source) -> str | None:
    """The path of a workspace file inside its workspace, or None when trust does not cover it."""
    if source.level != "workspace":
        return None
    return _relative(source.file, source.workspace)


def _add_file(entries: dict[str, dict[str, Entry]], source: Source, kind: str, why: str) -> None:
    if _governed(source) is not None:
        _add(entries, source.workspace, source.file, kind, why)


def _add(entries: dict[str, dict[str, Entry]], workspace: str, path: str, kind: str,
         why: str) -> None:
    rel = _relative(path, workspace)
    found = entries.setdefault(workspace, {})
    if rel is None or rel in found:
        return
    digest = _sha256(path)
    # A hook file that cannot be read is still part of the workspace: it is recorded as such.
    found[rel] = Entry(rel, digest or "unreadable", kind, why)


def dropped(source: Source, workspaces: Iterable[str]) -> bool:
    """Whether a file is one of the untrusted workspaces' own, which a run leaves out."""
    return source.workspace in workspaces and _governed(source) is not None


def without(found: Discovered, workspaces: Iterable[str]) -> Discovered:
    """What discovery found, less the hook files of these workspaces (every kind)."""
    gone = set(workspaces)
    kept = {field: type(getattr(found, field))(s for s in getattr(found, field)
                                               if not dropped(s, gone))
            for _, field in HOOK_FILE_KINDS}
    return found._replace(**kept)


def command(workspace: str, configs: Sequence[str] = ()) -> str:
    """The command that trusts a workspace as a run with these `--config` files sees it."""
    import shlex

    words = ["agenthooks", "trust", "--workspace", workspace]
    for config in configs:
        words += ["--config", config]
    return " ".join(shlex.quote(w) for w in words)


# --- the trust file ----------------------------------------------------------------------------


def read_store(path: str) -> dict[str, Any]:
    """The trust file's workspaces (path -> record); empty when there is none or it is bad."""
    raw = _read_regular(path)
    try:
        data = json.loads(raw) if raw is not None else None
    except ValueError:
        return {}
    workspaces = data.get("workspaces") if isinstance(data, dict) else None
    return workspaces if isinstance(workspaces, dict) else {}


def verdict(workspace: str, entries: Iterable[Entry], store: Mapping[str, Any]) -> Verdict:
    record = store.get(workspace)
    recorded = record.get("files") if isinstance(record, dict) else None
    if not isinstance(recorded, dict):
        return Verdict(workspace, False, ())
    changes: list[Change] = []
    current = {e.path: e.sha256 for e in entries}
    for rel, digest in current.items():
        if rel not in recorded:
            changes.append(Change(rel, "added"))
        elif recorded[rel] != digest:
            changes.append(Change(rel, "modified"))
    for rel in recorded:
        # A recorded file this run does not load (another --config) still counts while it is
        # there; one that is gone was removed.
        if rel not in current and not os.path.lexists(os.path.join(workspace, rel)):
            changes.append(Change(rel, "removed"))
    return Verdict(workspace, True, tuple(sorted(changes)))


def check(found: Discovered, files: Sequence[HookFile],
          environ: Mapping[str, str] | None = None) -> list[Verdict]:
    """The verdict of every workspace whose hooks this run would load that is not trusted."""
    covered = manifests(found, files)
    if not covered:
        return []
    store = read_store(trust_path(environ))
    verdicts = (verdict(ws, entries, store) for ws, entries in covered.items())
    return [v for v in verdicts if not v.trusted]


def warning(found: Verdict, command: str) -> str:
    """The one line a run gives about a workspace whose hooks it skipped."""
    if not found.recorded:
        why = "it is not trusted"
    else:
        listed = [f"{c.path} {c.change}" for c in found.changes[:MAX_LISTED]]
        more = len(found.changes) - MAX_LISTED
        if more > 0:
            listed.append(f"{more} more")
        why = f"it changed since it was trusted ({', '.join(listed)})"
    return (f"skipped the hooks of the workspace {found.workspace}: {why}; "
            f"review them, then run `{command}`")


def record(path: str, workspace: str, entries: Sequence[Entry], *, when: str) -> None:
    """Trust a workspace as it is now: its record replaced, atomically, under a lock."""
    def replace(store: dict[str, Any]) -> None:
        store[workspace] = {"trusted_at": when, "files": {e.path: e.sha256 for e in entries}}

    _update(path, replace)


def revoke(path: str, workspace: str) -> bool:
    """Drop a workspace's record; whether there was one."""
    dropped: list[bool] = []
    if not os.path.exists(path):
        return False
    _update(path, lambda store: dropped.append(store.pop(workspace, None) is not None))
    return bool(dropped and dropped[0])


def _update(path: str, change: Any) -> None:
    import fcntl
    import tempfile

    folder = os.path.dirname(path)
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        lock = os.open(path + ".lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    except OSError as exc:
        raise TrustError(f"cannot write the trust file {path}: {exc.strerror}") from None
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)  # writers one at a time; readers never wait
        store = read_store(path)
        change(store)
        data = json.dumps({"version": VERSION, "workspaces": store}, indent=2, sort_keys=True)
        fd, temp = tempfile.mkstemp(prefix=".trust-", dir=folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as stream:
                stream.write(data + "\n")
                stream.flush()
                os.fsync(stream.fileno())
            os.replace(temp, path)
        except BaseException:
            os.unlink(temp)
            raise
    except OSError as exc:
        raise TrustError(f"cannot write the trust file {path}: {exc.strerror or exc}") from None
    finally:
        os.close(lock)
