"""Trust in a workspace's hooks: what was reviewed, by hash, so a changed hook does not run.

`agenthooks trust` records, per workspace, the SHA-256 of every workspace hook file
agenthooks would load (every source's) and of every file their command handlers reach inside
the workspace (`sources.reach`), in `$XDG_DATA_HOME/agenthooks/trust.json` (else
`~/.local/share/...`). With trust required, `agenthooks run` compares the workspace with its
record and skips the hooks of a workspace that was never trusted or has changed since
(`check`); the handlers of a trusted one run private copies of the bytes hashed (`pinned`).

Imported only when trust is required or by the `trust` command: a plain run pays nothing.
Runs only read the trust file; writers lock it and replace it whole (temp file + rename), so
a run never sees half a file, however many write at once.
"""

from __future__ import annotations

import os
import sys

from agenthooks._lean import jsontext
from agenthooks._lean.records import NamedTuple
from agenthooks._lean.suppress import suppress
from agenthooks.errors import AgentHooksError
from agenthooks.model.handlers import run_folder

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
    from typing import Any

    from agenthooks.model.handlers import Handler, HookFile, Source
    from agenthooks.sources.discovery import Discovered
    from agenthooks.sources.reach import Reached

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

# The variables that stand for the workspace root in a handler's environment.
WORKSPACE_VARIABLES = ("AGENTHOOKS_WORKSPACE", "CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR")
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


class Unfollowed(NamedTuple):
    """Something a hook's command reaches that trust cannot follow, and which hook names it."""

    what: str
    why: str

    def as_json(self) -> dict[str, str]:
        return {"what": self.what, "why": self.why}


class Manifest(NamedTuple):
    """What a workspace's trust covers, what it cannot follow, and the scripts that can run
    from a verified copy (path -> the very bytes hashed)."""

    entries: list[Entry]
    unfollowed: list[Unfollowed]
    runs: dict[str, bytes]
    # What each command reaches (`handler_key`), walked once: `pinned` puts the copies in.
    reached: dict[tuple[object, ...], Reached]


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
    candidate = os.path.abspath(path)  # normalised
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
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None
        chunks = []
        if info.st_size < 1 << 30:  # as a rule the whole file in one read, and no second
            first = os.read(fd, info.st_size + 1)
            if len(first) == info.st_size:
                return first
            chunks.append(first)  # it changed since: read to its end
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


# SHA-256, the same digest from either of CPython's implementations: its own small module,
# which imports in a tenth of a millisecond, or OpenSSL's through `hashlib`, six times faster
# but about 3 ms to import. A run hashes a few kilobytes: OpenSSL's is taken once it is
# loaded, or once this process has hashed a MiB (where its import has paid for itself).
_OPENSSL_AFTER = 1 << 20
_hashed = [0]  # bytes this process has hashed
_small: list[Callable[[bytes], Any]] = []


def digest(data: bytes) -> str:
    """The SHA-256 of `data`, in hex."""
    _hashed[0] += len(data)
    if _hashed[0] > _OPENSSL_AFTER or "_hashlib" in sys.modules:
        from hashlib import sha256

        return sha256(data).hexdigest()
    small = _small[0] if _small else _small_sha256()
    return str(small(data).hexdigest())


def _small_sha256() -> Callable[[bytes], Any]:
    for name in ("_sha256", "_sha2"):  # CPython up to 3.11, from 3.12
        try:
            _small.append(__import__(name).sha256)
        except (ImportError, AttributeError):
            continue
        return _small[0]
    from hashlib import sha256  # a build without them

    _small.append(sha256)
    return sha256


# --- what a workspace's trust covers ----------------------------------------------------------


def handler_variables(handler: Handler) -> dict[str, str]:
    """The variables whose values a handler's command may use before it runs, as the run sets
    them (`kinds.process.handler_env`): the workspace under every host's name, the hook file,
    a plugin's folder, and HOME. Those set per call (GEMINI_CWD...) are known only then."""
    source = handler.source
    found = {"HOME": os.environ.get("HOME") or os.path.expanduser("~"),
             "AGENTHOOKS_CONFIG": source.file}
    found.update(dict.fromkeys(WORKSPACE_VARIABLES, source.workspace))
    if source.plugin_root is not None and handler.plugin_vars is not None:
        found[handler.plugin_vars[0]] = source.plugin_root
    return found


def handler_key(handler: Handler) -> tuple[object, ...]:
    """What `reach_handler` finds depends on: handlers alike in these reach the same files."""
    return (handler.command, handler.args, handler.shell, handler.dialect, handler.source)


def reach_handler(handler: Handler, copies: Mapping[str, str] | None = None) -> Reached:
    """What a command handler reaches (`sources.reach`): its command, exec-form arguments and
    shell; with `copies`, the command and arguments that run the copies instead."""
    from agenthooks.sources.reach import Hit, reach, reach_exec

    variables = handler_variables(handler)
    cwd = run_folder(handler)
    if handler.args is None:
        found = reach(handler.command, cwd, variables, copies)
    else:
        found = reach_exec(handler.command, handler.args, cwd, variables, copies)
    shell = handler.shell
    if shell is not None and "/" in shell:  # a shell named by its path is a script too
        path = os.path.normpath(os.path.join(cwd, shell))
        if os.path.isfile(path):
            found = found._replace(hits=(*found.hits, Hit(path, "script")))
    return found


def manifests(found: Discovered, files: Sequence[HookFile]) -> dict[str, Manifest]:
    """Per workspace (absolute, real), what its trust covers: its hook files, and what every
    command handler of `files` (hooks.json and settings files) reaches inside it, sorted.

    Only workspace-level files inside their workspace count: the user's own file and a file
    named with `--config` outside the workspace were chosen by the user, not by the checkout.
    """
    covered: dict[str, _Covered] = {}
    places: dict[Source, str | None] = {}  # each file's place in its workspace, found once
    for kind, field in HOOK_FILE_KINDS:
        for source in getattr(found, field, ()):
            rel = places[source] = _governed(source)
            if rel is not None:
                _of(covered, source.workspace).add(source.file, kind, "a workspace hook file",
                                                   rel)
    for hook_file in files:
        source = hook_file.source
        shown = places[source] if source in places else _governed(source)
        if shown is not None:
            _of(covered, hook_file.source.workspace).handlers(hook_file, shown)
    return {ws: c.manifest() for ws, c in covered.items()}


def _of(covered: dict[str, _Covered], workspace: str) -> _Covered:
    found = covered.get(workspace)
    if found is None:
        found = covered[workspace] = _Covered(workspace)
    return found


class _Covered:
    """One workspace's manifest as it is gathered."""

    def __init__(self, workspace: str) -> None:
        self.workspace = workspace
        self.entries: dict[str, Entry] = {}
        self.unfollowed: list[Unfollowed] = []
        self.runs: dict[str, bytes] = {}
        self.data: dict[str, bytes | None] = {}
        self.seen: dict[str, str | None] = {}  # path -> its place in the workspace (None: out)
        self.reached: dict[tuple[object, ...], Reached] = {}

    def handlers(self, hook_file: HookFile, shown: str) -> None:
        for handler in hook_file.handlers:
            if handler.kind != "command":  # http, prompt...: nothing of the workspace runs
                continue
            why = f"named by hook {handler.hook!r} in {shown}"
            key = handler_key(handler)
            reached = self.reached.get(key)
            if reached is None:
                reached = self.reached[key] = reach_handler(handler)
            for hit in reached.hits:
                data = self.add(hit.path, hit.role, why)
                if data is not None and hit.role == "script":
                    self.runs.setdefault(hit.path, data)
            self.unfollowed.extend(Unfollowed(what, why) for what in reached.unfollowed
                                   if Unfollowed(what, why) not in self.unfollowed)

    def add(self, path: str, kind: str, why: str, rel: str | None = None) -> bytes | None:
        """Hash a file inside the workspace, once; the bytes hashed (None: outside, unreadable).
        `rel`: its place in the workspace, when it is known."""
        if rel is not None:
            self.seen[path] = rel
        elif path in self.seen:
            rel = self.seen[path]
        else:
            rel = self.seen[path] = _relative(path, self.workspace)
        if rel is None:
            return None
        if rel not in self.entries:
            data = self.data[rel] = _read_regular(path)
            # A hook file that cannot be read is still part of the workspace: recorded as such.
            sha256 = "unreadable" if data is None else digest(data)
            self.entries[rel] = Entry(rel, sha256, kind, why)
        return self.data[rel]

    def manifest(self) -> Manifest:
        return Manifest(sorted(self.entries.values()), self.unfollowed, self.runs, self.reached)


def _governed(source: Source) -> str | None:
    """The path of a workspace file inside its workspace, or None when trust does not cover it."""
    if source.level != "workspace":
        return None
    return _relative(source.file, source.workspace)


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


# --- running what was hashed ------------------------------------------------------------------
#
# A trusted workspace's scripts are checked at load and run later: in between, the file can
# change (an agent's edit, a checkout, another hook). So each script a trusted handler runs is
# run from a copy of the very bytes hashed, in a private folder (0700, made by this process
# for the workspace), its word in the command replaced by the copy's path. The copy sits at
# its workspace path under that folder, beside links to everything else of the workspace, so
# that a script finding its siblings from its own path (`$(dirname "$0")/lib.sh`, a Python
# import beside it) still finds them. Removed when the process ends.

_copies: dict[tuple[str, tuple[tuple[str, bytes], ...]], dict[str, str]] = {}
_place: list[str] = []  # where this process makes its copy folders, once chosen
_made: list[tuple[int, str]] = []  # (the process that made it, folder): removed at its exit


def pinned(files: Sequence[HookFile], trusted: Mapping[str, Manifest]) -> list[HookFile]:
    """The files, each command handler of a trusted workspace made to run the verified copies
    of its scripts (`reach_handler` with the copies)."""
    kept = []
    for hook_file in files:
        source = hook_file.source
        manifest = trusted.get(source.workspace)
        copies = (copies_of(source.workspace, manifest)
                  if manifest is not None and _governed(source) is not None else {})
        kept.append(hook_file._replace(handlers=tuple(
            _pin(h, copies, manifest.reached) for h in hook_file.handlers))
            if copies and manifest is not None else hook_file)
    return kept


def _pin(handler: Handler, copies: Mapping[str, str],
         reached: Mapping[tuple[object, ...], Reached]) -> Handler:
    from agenthooks.sources.reach import pin

    if handler.kind != "command":
        return handler
    walked = reached.get(handler_key(handler))
    found = reach_handler(handler, copies) if walked is None else pin(walked, copies)
    shell = handler.shell
    if shell is not None and "/" in shell:
        path = os.path.normpath(os.path.join(run_folder(handler), shell))
        shell = copies.get(path, path)  # absolute: the file hashed, whatever the run's cwd
    return handler._replace(command=found.command, shell=shell,
                            args=handler.args if handler.args is None else found.args)


def copies_of(workspace: str, manifest: Manifest) -> dict[str, str]:
    """Each script's path -> its verified copy, made once per process and workspace state;
    empty when no private folder can be made (the scripts then run from their place)."""
    key = (workspace, tuple(sorted(manifest.runs.items())))  # the very bytes: nothing hashed again
    if key not in _copies:
        try:
            _copies[key] = _make_copies(workspace, manifest.runs)
        except OSError:
            _copies[key] = {}
    return _copies[key]


def _make_copies(workspace: str, runs: Mapping[str, bytes]) -> dict[str, str]:
    if not runs:
        return {}
    root = _copies_folder()
    made = {root: workspace}  # each folder made in the copy -> the workspace's folder
    copies: dict[str, str] = {}
    for path, data in runs.items():
        rel = _relative(path, workspace)
        if rel is None:
            continue
        parts = rel.split("/")
        for depth in range(1, len(parts)):
            folder = os.path.join(root, *parts[:depth])
            if folder not in made:
                os.mkdir(folder, 0o700)
                made[folder] = os.path.join(workspace, *parts[:depth])
        copies[path] = _write_copy(os.path.join(root, *parts), data, path)
    for folder, real in made.items():
        _link_the_rest(folder, real)
    return copies


def _write_copy(target: str, data: bytes, original: str) -> str:
    try:
        executable = os.stat(original).st_mode & 0o111
    except OSError:
        executable = 0
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(target, flags, 0o500 if executable else 0o400)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)
    return target


def _link_the_rest(folder: str, real: str) -> None:
    """Links to the workspace folder's other entries, so paths from a copy still resolve."""
    try:
        names = os.listdir(real)
    except OSError:
        return
    for name in names:
        # A name the copy has already (a copy, a folder on the way) stays; a name not linked
        # is one path less, no more.
        with suppress(OSError):
            os.symlink(os.path.join(real, name), os.path.join(folder, name))


def _copies_folder() -> str:
    """A new private folder for a workspace's copies, removed when this process ends: in
    XDG_RUNTIME_DIR, the cache folder or the temporary folder, the first that lets programs
    run from it (not mounted noexec); its name holds this process's pid (`_sweep`)."""
    import atexit

    prefix = f"{_COPIES_PREFIX}{os.getpid()}-"
    folder = _new_folder(_place[0], prefix) if _place else _first_folder(prefix)
    if not _made:  # once: a process forked later has it too, and removes only its own
        atexit.register(_remove)
    _made.append((os.getpid(), folder))
    return folder


def _first_folder(prefix: str) -> str:
    for place in _places():
        if not os.path.isabs(place) or not _runnable(place):
            continue
        _sweep(place)
        try:
            folder = _new_folder(place, prefix)
        except OSError:
            continue
        _place.append(place)
        return folder
    raise OSError("no private folder to run verified copies from")


def _places() -> Iterator[str]:
    home = os.environ.get("HOME") or os.path.expanduser("~")
    yield os.environ.get("XDG_RUNTIME_DIR") or ""
    yield os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.join(home, ".cache"),
                       "agenthooks")
    import tempfile  # only then: it imports shutil and random

    yield tempfile.gettempdir()


def _new_folder(place: str, prefix: str) -> str:
    """`tempfile.mkdtemp(prefix=prefix, dir=place)`: a folder of a name no one could guess,
    made by this call and only this user's (0700), without importing `tempfile`."""
    for _ in range(100):
        folder = os.path.join(place, prefix + os.urandom(8).hex())
        try:
            os.mkdir(folder, 0o700)
        except FileExistsError:
            continue
        return folder
    raise FileExistsError(f"no new folder could be made in {place}")


def _remove_tree(top: str) -> None:
    """`shutil.rmtree(top, ignore_errors=True)` for a folder of copies, without importing
    `shutil`: every entry removed from the bottom up; a link is removed, never followed."""
    with suppress(OSError), os.scandir(top) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                _remove_tree(entry.path)
            else:
                with suppress(OSError):
                    os.unlink(entry.path)
    with suppress(OSError):
        os.rmdir(top)


_COPIES_PREFIX = "agenthooks-trusted-"  # then the pid of the run that made the folder


def _sweep(place: str) -> None:
    """Remove the copy folders of runs that are gone (a run killed outright cannot remove its
    own): this user's, named with a pid no process has. A pid taken again by another process
    keeps its folder for a later sweep; nothing of another user's is touched."""
    import stat

    try:
        names = [name for name in os.listdir(place) if name.startswith(_COPIES_PREFIX)]
    except OSError:
        return
    for name in names:
        pid = name[len(_COPIES_PREFIX):].partition("-")[0]
        path = os.path.join(place, name)
        try:
            info = os.lstat(path)
        except OSError:
            continue
        if (not pid.isdigit() or not stat.S_ISDIR(info.st_mode)
                or info.st_uid != os.getuid() or _alive(int(pid))):
            continue
        _remove_tree(path)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True


def _remove() -> None:
    """The copy folders this process made; a child forked later must not take its parent's."""
    pid = os.getpid()
    for owner, folder in _made:
        if owner == pid:
            _remove_tree(folder)


def _runnable(place: str) -> bool:
    try:
        os.makedirs(place, 0o700, exist_ok=True)
        return not os.statvfs(place).f_flag & getattr(os, "ST_NOEXEC", 0)
    except OSError:
        return False


# --- the trust file ----------------------------------------------------------------------------


def read_store(path: str) -> dict[str, Any]:
    """The trust file's workspaces (path -> record); empty when there is none or it is bad."""
    raw = _read_regular(path)
    try:
        data = jsontext.loads(raw) if raw is not None else None
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
          environ: Mapping[str, str] | None = None) -> tuple[list[Verdict], dict[str, Manifest]]:
    """The verdict of every workspace whose hooks this run would load that is not trusted, and
    the manifests of those that are."""
    covered = manifests(found, files)
    if not covered:
        return [], {}
    store = read_store(trust_path(environ))
    verdicts = [verdict(ws, m.entries, store) for ws, m in covered.items()]
    return ([v for v in verdicts if not v.trusted],
            {v.workspace: covered[v.workspace] for v in verdicts if v.trusted})


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
    import json
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
