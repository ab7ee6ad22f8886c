"""The formats of hook file, as rows: which files each reads, and how `validate` checks one.

`FORMATS` is the one place a format is named: hooks.json, each host's settings or hook files
(read by its dialect), Markdown hooks. The first row that claims a file reads it;
`check_every` checks each format's files together and answers in the order given;
`check_text` checks one file from an editor's text. A new format is one row here and one
reader package beside `hooksjson/`, `dialects/` and `markdown/`. The run path reads through
`load`, which does not import this module: what a run needs of a file's format discovery
has already said.
"""

from __future__ import annotations

import os

from agenthooks._lean.records import NamedTuple
from agenthooks.model.hosts import HOOKS_JSON_DIALECT
from agenthooks.sources import discovery
from agenthooks.sources.hooksjson.loader import check_file

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from agenthooks.model.handlers import HookFile, Source
    from agenthooks.sources.markdown.files import MarkdownFile

# The formats, each read by its own reader; the words trust records their files under.
HOOKS_JSON = "hooks.json"
MARKDOWN = "markdown"
SETTINGS = "settings"


class Checked(NamedTuple):
    """One file as `validate` checks it: its findings, and the Markdown hook as read when it
    is one (what the Starlark kind compiles, and a registry registers)."""

    hook_file: HookFile
    markdown: MarkdownFile | None = None


class Format(NamedTuple):
    """One format of hook file: which files it reads, and how each is checked."""

    name: str  # the word trust records its files under
    claims: Callable[[Source], bool]
    # Files of this format, checked together (a host's switches span its files), in order.
    check: Callable[[Sequence[Source]], list[Checked]]
    check_text: Callable[[Source, bytes], Checked]  # one file, from an editor's text


def _is_settings(source: Source) -> bool:
    return source.dialect != HOOKS_JSON_DIALECT


def _is_markdown(source: Source) -> bool:
    return discovery.is_markdown(source.file)


def _check_settings(sources: Sequence[Source]) -> list[Checked]:
    from agenthooks.sources.dialects.load import check_dialect_file, settle

    return [Checked(f) for f in settle([check_dialect_file(source) for source in sources])]


def _settings_text(source: Source, data: bytes) -> Checked:
    from agenthooks.sources.dialects.load import check_dialect_file

    return Checked(check_dialect_file(source, data=data).hook_file)


def _check_markdown(sources: Sequence[Source]) -> list[Checked]:
    return [_markdown_text(source, None) for source in sources]


def _markdown_text(source: Source, data: bytes | None) -> Checked:
    from agenthooks.sources.markdown.files import check_loaded, load_file

    markdown = load_file(source, data)
    return Checked(check_loaded(markdown), markdown)


def _check_hooks_json(sources: Sequence[Source]) -> list[Checked]:
    return [Checked(check_file(source)) for source in sources]


def _hooks_json_text(source: Source, data: bytes) -> Checked:
    return Checked(check_file(source, data=data))


# The first row that claims a file reads it: a settings file by its dialect (a host's),
# a Markdown hook by its `.md` name, else a hooks.json.
FORMATS = (
    Format(SETTINGS, _is_settings, _check_settings, _settings_text),
    Format(MARKDOWN, _is_markdown, _check_markdown, _markdown_text),
    Format(HOOKS_JSON, lambda source: True, _check_hooks_json, _hooks_json_text),
)


def format_of(source: Source) -> Format:
    """The row of `FORMATS` that reads `source`."""
    return next(row for row in FORMATS if row.claims(source))


def kind_of(source: Source) -> str:
    """Which reader a file takes, by its row's name."""
    return format_of(source).name


def check_every(sources: Sequence[Source]) -> tuple[list[HookFile], list[MarkdownFile]]:
    """Every finding in each file, in the order given, and the Markdown hooks as read.

    Each format's files are checked together, by its row: settings files are settled
    together, which changes which handlers are enabled, never a finding."""
    rows = [format_of(source) for source in sources]
    read: dict[int, Checked] = {}
    for row in FORMATS:
        mine = [i for i, of in enumerate(rows) if of is row]
        if mine:
            read.update(zip(mine, row.check([sources[i] for i in mine]), strict=True))
    checked = [read[i] for i in range(len(sources))]
    return ([c.hook_file for c in checked],
            [c.markdown for c in checked if c.markdown is not None])


def check_text(path: str, data: bytes, *, cwd: str | None = None,
               dialect: str | None = None) -> Checked:
    """Every finding in one hook file as `validate PATH` reports it, read from `data` rather
    than from disk: an editor's text, saved or not (the language server). Its place, else
    the shape of `data`, says its format, as for a file named to `validate`."""
    from agenthooks.sources.paths import named_source

    base = cwd or os.getcwd()
    source = named_source(os.path.join(base, path), discovery.display_path(path, base), base,
                          dialect, data)
    return format_of(source).check_text(source, data)
