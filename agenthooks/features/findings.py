"""Every finding in hook files, as `validate`, `list`, `init --check` and the language server
report them: each source's (`sources.load`, thorough), then each kind's of the handlers it
would run, which only the kind can tell: a Markdown hook's Starlark compiled
(`kinds.markdown.script_findings`).

The sources read files and never run what they hold; compiling a script runs its top level in
the kind's sandbox, so it is asked for here, above both.
"""

from __future__ import annotations

from agenthooks.kinds.markdown import script_findings
from agenthooks.sources import formats, load

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from agenthooks.model.handlers import Diagnostic, HookFile, Source
    from agenthooks.sources.markdown.files import MarkdownFile


def load_checked(
    *,
    configs: Sequence[str] = (),
    workspaces: Sequence[str] = (),
    no_user: bool = False,
    cwd: str | None = None,
    paths: Sequence[str] = (),
    recursive: bool = False,
    dialect: str | None = None,
) -> load.Loaded:
    """`load.load_all(thorough=True)` with the kinds' findings in each file's."""
    loaded = load.load_all(configs=configs, workspaces=workspaces, no_user=no_user, cwd=cwd,
                           paths=paths, recursive=recursive, dialect=dialect, thorough=True)
    return loaded._replace(files=with_kinds(loaded.files, loaded.markdown))


def check_every(sources: Sequence[Source]) -> tuple[list[HookFile], list[MarkdownFile]]:
    """`formats.check_every` with the kinds' findings in each file's."""
    files, markdown = formats.check_every(sources)
    return list(with_kinds(files, markdown)), markdown


def check_text(path: str, data: bytes, *, cwd: str | None = None,
               dialect: str | None = None) -> HookFile:
    """`formats.check_text` (an editor's text, saved or not) with the kinds' findings."""
    checked = formats.check_text(path, data, cwd=cwd, dialect=dialect)
    if checked.markdown is None:
        return checked.hook_file
    (hook_file,) = with_kinds((checked.hook_file,), (checked.markdown,))
    return hook_file


def with_kinds(files: Sequence[HookFile], markdown: Sequence[MarkdownFile]
               ) -> tuple[HookFile, ...]:
    """`files`, each Markdown hook's with what compiling its script finds, in file order."""
    found = {md.source.file: script_findings(md) for md in markdown}
    return tuple(_with(f, found[f.source.file]) if found.get(f.source.file) else f
                 for f in files)


def _with(hook_file: HookFile, more: list[Diagnostic]) -> HookFile:
    every = sorted((*hook_file.diagnostics, *more), key=lambda d: (d.line, d.column))
    return hook_file._replace(diagnostics=tuple(every))
