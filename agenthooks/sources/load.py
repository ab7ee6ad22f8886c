"""Every command's loading, written once: which hook files apply, each read with its findings.

`load_all` is how `run`, `list`, `explain`, `validate`, `trust` and the Python API
(`load_hooks`) read hook files: discovery (hooks.json, Claude Code and Gemini CLI settings,
Markdown hooks), trust when it is required, then each file read by its own format's reader.
It reads at one of two depths:

- `thorough=False`, run's path, taken once per tool call: hooks.json files through their
  cache with errors only, and the settings and Markdown readers imported only when such
  files exist (nothing else is imported on that path);
- `thorough=True`, for `validate` and `list`: every finding of every file, at its line and
  column (schema included), with `validate`'s PATHs besides discovery; what only a kind can
  tell (a Markdown hook's Starlark compiled) `features.findings` adds.

Which files a host's run leaves out is not decided here: that is the selection's
(`plan.select`), which `Hooks` applies.
"""

from __future__ import annotations

import os

from agenthooks._lean.records import NamedTuple
from agenthooks.model.handlers import Diagnostic, HookFile, Source
from agenthooks.sources import discovery
from agenthooks.sources.hooksjson.loader import load

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from agenthooks.sources.markdown.files import MarkdownFile

class Loaded(NamedTuple):
    """What a command loaded: every file read, in order, each with its diagnostics."""

    # Every file read, Markdown hooks included. Run's order: hooks.json files, settings
    # files, Markdown hooks; validate's: its PATHs as given, then discovery's.
    files: tuple[HookFile, ...]
    markdown: tuple[MarkdownFile, ...]  # the Markdown hooks, as a registry registers them
    notes: tuple[Diagnostic, ...]  # what discovery left out, and why (an unsafe workspace)
    untrusted: tuple[str, ...] = ()  # with trust required: one warning per workspace left out
    empty: tuple[str, ...] = ()  # PATHs named to `validate` that hold no hook file
    workspaces: tuple[str, ...] = ()  # the `--workspace` roots, absolute
    named: bool = False  # the files were named (`--config`), so discovery was off

    @property
    def sources(self) -> tuple[Source, ...]:
        return tuple(f.source for f in self.files)

    @property
    def broken(self) -> tuple[HookFile, ...]:
        """The files with errors."""
        return tuple(f for f in self.files if not f.ok)

    def of_kind(self, kind: str) -> tuple[HookFile, ...]:
        """The files `kind`'s row of `formats.FORMATS` reads."""
        from agenthooks.sources.formats import kind_of

        return tuple(f for f in self.files if kind_of(f.source) == kind)

    @property
    def handler_files(self) -> tuple[HookFile, ...]:
        """What a registry keeps: the hooks.json and settings files, and the Markdown hooks
        that do not load (named in every answer, as a broken hooks.json is)."""
        registered = {md.source.file for md in self.markdown if md.ok}
        return tuple(f for f in self.files if f.source.file not in registered or not f.ok)

    def discovered(self) -> discovery.Discovered:
        """The files read, by kind, as discovery lists them (what trust hashes)."""
        from agenthooks.sources.formats import HOOKS_JSON, MARKDOWN, SETTINGS

        def read(kind: str) -> list[Source]:  # a refused file is not read, nor trusted
            return [f.source for f in self.of_kind(kind) if not is_refused(f)]

        return discovery.Discovered(read(HOOKS_JSON), list(self.notes), tuple(read(MARKDOWN)),
                                    tuple(read(SETTINGS)))


def load_all(
    *,
    configs: Sequence[str] = (),
    workspaces: Sequence[str] = (),
    no_user: bool = False,
    cwd: str | None = None,
    paths: Sequence[str] = (),
    recursive: bool = False,
    dialect: str | None = None,
    thorough: bool = False,
    require_trust: bool = False,
    event: str | None = None,
) -> Loaded:
    """The hook files that apply, each read once, and what was left out and why.

    `configs` names files (hooks.json, `.md`, a `.harness/hooks` folder, a settings file)
    and turns discovery off; else the user files (unless `no_user`) and those of each
    workspace root (default: the nearest safe one upward from `cwd`). `paths` are
    `validate`'s PATHs, read as given (with `recursive`, every hook folder below them);
    discovery then runs only with `configs` or `workspaces`. `dialect` (--dialect) reads
    every named file in that dialect and limits discovery to it. `require_trust`: the files
    of a workspace never trusted, or changed since, are not read (`untrusted` says which).
    `thorough`: see the module's docstring. `event`: the one event a run answers; the
    hooks.json files then yield its handlers alone (every one when trust is required).
    """
    base = cwd or os.getcwd()
    if thorough:
        loaded = _checked(paths, configs, workspaces, no_user, base, recursive, dialect)
    else:
        found = discovery.discover_all(configs=configs, workspaces=workspaces,
                                       no_user=no_user, cwd=base, dialects=True,
                                       dialect=dialect)
        loaded = _for_run(found, configs, base, require_trust, event)
    return loaded._replace(workspaces=tuple(os.path.join(base, w) for w in workspaces),
                           named=bool(configs))


# --- run's path ---------------------------------------------------------------------------


def _for_run(found: discovery.Discovered, configs: Sequence[str], base: str,
             require_trust: bool, event: str | None = None) -> Loaded:
    """Each file read for running: hooks.json and settings files first, since trust hashes
    what their commands reach; an untrusted workspace's Markdown hooks are then never read."""
    # Trust fingerprints every handler of a file: only then are all made.
    files = [load(source, None if require_trust else event) for source in found.sources]
    if found.dialect_sources:  # imported only then: a hooks.json run pays nothing
        files.extend(load_dialects(found.dialect_sources))
    untrusted: tuple[str, ...] = ()
    if require_trust:
        found, files, untrusted = _trusted(found, files, configs, base)
    markdown: tuple[MarkdownFile, ...] = ()
    if found.markdown:  # imported only then: a run without Markdown hooks pays nothing
        from agenthooks.sources.markdown.files import load_markdown

        markdown = tuple(load_markdown(found.markdown))
        files.extend(md.as_hook_file() for md in markdown)
    files.extend(found.refused)  # files others could have written: each an error
    notes = tuple(found.diagnostics)
    return Loaded(tuple(files), markdown, notes, untrusted)


def _trusted(
    found: discovery.Discovered, files: list[HookFile], configs: Sequence[str], base: str
) -> tuple[discovery.Discovered, list[HookFile], tuple[str, ...]]:
    """What discovery found and the files read, less the workspaces that are not trusted,
    and one warning per such workspace; the trusted ones' handlers run verified copies of
    their scripts (`trust.pinned`)."""
    from agenthooks.sources import trust  # only then: a run that does not ask pays nothing

    verdicts, trusted = trust.check(found, files)
    files = trust.pinned(files, trusted)
    if not verdicts:
        return found, files, ()
    dropped = {v.workspace for v in verdicts}
    kept = [f for f in files if not trust.dropped(f.source, dropped)]
    named = [os.path.join(base, c) for c in configs]
    untrusted = tuple(trust.warning(v, trust.command(v.workspace, named)) for v in verdicts)
    return trust.without(found, dropped), kept, untrusted


def load_dialects(sources: Sequence[Source]) -> list[HookFile]:
    """Claude Code and Gemini CLI settings files, read with their hosts' rules; each handler
    named by its `name`, else its place (`file#/json/pointer`), for warnings and reports."""
    from agenthooks.sources.dialects.load import load_dialect_files

    files = load_dialect_files(sources)
    return [f._replace(handlers=tuple(
        h._replace(hook=h.name or f"{f.source.path}#{h.pointer}") for h in f.handlers))
        for f in files]


# --- every finding: validate and list -------------------------------------------------------


def _checked(paths: Sequence[str], configs: Sequence[str], workspaces: Sequence[str],
             no_user: bool, base: str, recursive: bool, dialect: str | None) -> Loaded:
    refused: list[HookFile] = []
    sources, empty, notes = collect(paths, configs=configs, workspaces=workspaces,
                                    no_user=no_user, cwd=base, recursive=recursive,
                                    dialect=dialect, refused=refused)
    from agenthooks.sources.formats import check_every

    files, markdown = check_every(sources)
    return Loaded((*files, *refused), tuple(markdown), tuple(notes), (), tuple(empty))


def is_refused(hook_file: HookFile) -> bool:
    """Whether a file was refused unread (others could have written it)."""
    return any(d.rule == discovery.UNSAFE_RULE for d in hook_file.diagnostics)


def collect(
    paths: Sequence[str], *, configs: Sequence[str], workspaces: Sequence[str], no_user: bool,
    cwd: str, recursive: bool = False, dialect: str | None = None,
    refused: list[HookFile] | None = None,
) -> tuple[list[Source], list[str], list[Diagnostic]]:
    """The files to check, each once, the named directories that hold none, and what
    discovery skipped.

    PATHs are checked as given (with `recursive`, every hook folder under them, the current
    directory by default); `configs`/`workspaces` add what `list` and `run` would read; with
    neither PATHs nor options, discovery decides (the user files, then the nearest safe
    workspace). `refused` gets the discovered files others could have written.
    """
    if recursive and not paths:
        paths = ["."]
    sources: list[Source] = []
    empty: list[str] = []
    notes: list[Diagnostic] = []
    if paths:
        from agenthooks.sources.paths import sources_for_paths

        sources, empty = sources_for_paths(paths, cwd, recursive=recursive, dialect=dialect)
    if configs or workspaces or not paths:
        seen = {os.path.realpath(source.file) for source in sources}
        found = discovery.discover_all(configs=configs, workspaces=workspaces, no_user=no_user,
                                       cwd=cwd, dialects=True, dialect=dialect)
        notes = found.diagnostics
        named = {os.path.realpath(source.file) for source in sources}
        if refused is not None:  # a file named as a PATH is checked as given
            refused.extend(f for f in found.refused if os.path.realpath(f.source.file) not in named)
        for source in (*found.sources, *found.markdown, *found.dialect_sources):
            if os.path.realpath(source.file) not in seen:
                seen.add(os.path.realpath(source.file))
                sources.append(source)
    return sources, empty, notes
