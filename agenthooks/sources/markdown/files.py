"""Loading Markdown hook files (`kinds.markdown.register_markdown` registers the good ones).

    files = load_markdown(sources)      # frontmatter read and checked, scripts not compiled

A file whose frontmatter has errors is kept as a skipped `HookFile` (`skipped(files)`), so a
run names it in its answer as it names a broken hooks.json. A script that does not compile is
not a skipped file: the hook fails when its event runs, and `on_error` decides (fail-closed
on tool.pre by default); `validate` reports it (`kinds.markdown.script_findings`).
"""

from __future__ import annotations

import os
from _collections_abc import Sequence  # collections.abc's, unimported

from agenthooks._lean.records import NamedTuple
from agenthooks.model.handlers import Diagnostic, HookFile, Source
from agenthooks.sources.markdown.frontmatter import Frontmatter, diagnostic, parse
from agenthooks.sources.reading.text import Unusable, not_utf8, read_bytes

SUFFIX = ".md"


class MarkdownFile(NamedTuple):
    """One `.md` hook file: its name (the file's stem), frontmatter and findings."""

    source: Source
    name: str
    front: Frontmatter | None  # may be set with errors too: `ok` says whether it runs
    diagnostics: tuple[Diagnostic, ...] = ()

    @property
    def errors(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.severity == "error")

    @property
    def ok(self) -> bool:
        return self.front is not None and not self.errors

    def as_hook_file(self) -> HookFile:
        """The `HookFile` record a registry keeps for a skipped file."""
        return HookFile(self.source, (), self.diagnostics)


def hook_name(path: str) -> str:
    base = os.path.basename(path)
    return base[: -len(SUFFIX)] if base.endswith(SUFFIX) else base


def read_text(source: Source, data: bytes | None = None) -> tuple[str | None, Diagnostic | None]:
    """The file's text (from `data`, when given), or the finding that says why there is none
    (the loader's reader: a FIFO never hangs, a huge file is refused)."""
    if data is None:
        try:
            data, _ = read_bytes(source.file, source.path)
        except Unusable as exc:
            return None, diagnostic(source, exc.rule, exc.message)
    data = data.removeprefix(b"\xef\xbb\xbf")
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        return None, diagnostic(source, "encoding", *not_utf8(data, exc))


def load_file(source: Source, data: bytes | None = None) -> MarkdownFile:
    """A file's frontmatter and its findings (frontmatter only: scripts compile on use);
    `data`: its bytes, when they are not the file's on disk (an editor's text)."""
    text, problem = read_text(source, data)
    if text is None:
        assert problem is not None
        return MarkdownFile(source, hook_name(source.file), None, (problem,))
    parsed = parse(source, text)
    return MarkdownFile(source, hook_name(source.file), parsed.front, parsed.diagnostics)


def load_markdown(sources: Sequence[Source]) -> list[MarkdownFile]:
    """Every file read and checked, in the order given; for running (a good file's
    frontmatter comes from the cache when it has not changed, see `sources.markdown.cache`)."""
    return [load_cached(source) for source in sources]


def load_cached(source: Source) -> MarkdownFile:
    """`load_file`, through the cache: only a file with no finding at all is cached."""
    from agenthooks.sources.markdown import cache
    from agenthooks.sources.reading.cache import fingerprint

    try:
        data, status = read_bytes(source.file, source.path)
    except Unusable:
        return load_file(source)
    key = fingerprint(status, data)
    front = cache.read(source.file, key)
    if front is not None:
        return MarkdownFile(source, hook_name(source.file), front)
    md = load_file(source)
    if md.front is not None and not md.diagnostics:
        cache.write(source.file, key, md.front)
    return md


def skipped(files: Sequence[MarkdownFile]) -> list[HookFile]:
    """The files with errors, as the `HookFile`s a registry lists in `skipped_files`."""
    return [f.as_hook_file() for f in files if not f.ok]


def check_markdown(source: Source) -> HookFile:
    """Every finding in a file's frontmatter, as `validate` reports them (its Starlark is
    compiled by its kind: `kinds.markdown.script_findings`)."""
    return check_loaded(load_file(source))


def check_loaded(md: MarkdownFile) -> HookFile:
    """`check_markdown` of a file already read (`load_file`)."""
    found = sorted(md.diagnostics, key=lambda d: (d.line, d.column))
    return HookFile(md.source, (), tuple(found))
