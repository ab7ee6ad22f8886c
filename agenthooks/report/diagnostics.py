"""Reporters of `validate`'s results: text for people, JSON for tools, GitHub annotations and
SARIF (code scanning) for CI.

Each reporter reads one `ValidationResult` and writes it to a stream; the command decides the
exit code from the same result, so what is printed and what is returned cannot disagree.
"""

from __future__ import annotations

import abc
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO

from agenthooks.escape import printable
from agenthooks.model.handlers import Diagnostic, Source
from agenthooks.report.sarif import Finding, RuleHelp, rule_help, sarif_log
from agenthooks.report.table import display_width, is_terminal
from agenthooks.sources.reading.text import Unusable, read_bytes

if TYPE_CHECKING:
    from rich.console import Console

JSON_VERSION = 1
_SNIPPET = 100  # characters of a long source line shown around the column
# Findings about a whole file (or a skipped one): no source line to show under them.
_WHOLE_FILE_RULES = frozenset({"unreadable", "not-a-file", "too-large", "unsafe-workspace",
                               "fixture-unreadable"})


@dataclass(frozen=True, slots=True)
class ValidationResult:
    """What `validate` found: the files checked, in order, and every diagnostic in them."""

    sources: tuple[Source, ...]
    diagnostics: tuple[Diagnostic, ...]
    empty_dirs: tuple[str, ...] = ()  # directories named on the command line that hold no file

    @property
    def files(self) -> tuple[str, ...]:
        return tuple(source.path for source in self.sources)

    @property
    def errors(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity == "error")

    @property
    def warnings(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity == "warning")

    @property
    def notes(self) -> int:
        """Findings that tell how a file is read, never a problem: they change no exit code."""
        return sum(1 for d in self.diagnostics if d.severity == "note")

    def exit_code(self, *, strict: bool = False) -> int:
        if self.errors or (strict and self.warnings):
            return 1
        return 0

    def summary(self) -> str:
        files = _plural(len(self.sources), "file")
        notes = f", {_plural(self.notes, 'note')}" if self.notes else ""
        if not self.errors and not self.warnings:
            return f"ok: {files}, no problems{notes}"
        return (
            f"{_plural(self.errors, 'error')}, {_plural(self.warnings, 'warning')}{notes} in "
            f"{files}"
        )


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


class _SourceLines:
    """Source lines of the checked files, read once each, for the snippets under diagnostics."""

    def __init__(self, sources: Iterable[Source]) -> None:
        self._files = {source.path: source.file for source in sources}
        self._lines: dict[str, list[str]] = {}

    def line(self, path: str, number: int) -> str | None:
        if path not in self._lines:
            try:  # the loader's reader: a FIFO or /dev/zero must not hang or fill memory here
                data, _ = read_bytes(self._files.get(path, path))
            except Unusable:
                data = b""
            # The BOM is reported, not shown; undecodable bytes show as U+FFFD, as the
            # `encoding` diagnostic counts its column over the same replacement.
            text = data.removeprefix(b"\xef\xbb\xbf").decode("utf-8", "replace")
            # Lines end at "\n" only, as json and the position reader count them.
            self._lines[path] = [line.removesuffix("\r") for line in text.split("\n")]
        lines = self._lines[path]
        return lines[number - 1] if 0 < number <= len(lines) else None


def _window(line: str, column: int) -> tuple[str, int]:
    """A long line cut to the part around `column` (1-based), and the column within the cut."""
    if len(line) <= _SNIPPET:
        return line, column
    start = max(0, min(column - 1 - _SNIPPET // 3, len(line) - _SNIPPET))
    cut = line[start : start + _SNIPPET]
    if start > 0:
        cut, column = "…" + cut, column - start + 1
    if start + _SNIPPET < len(line):
        cut += "…"
    return cut, column


def _caret_pad(line: str, column: int) -> str:
    """Blanks that put a caret under `column` in a terminal: tabs stay tabs, wide chars count 2."""
    return "".join(
        "\t" if char == "\t" else " " * display_width(char) for char in line[: column - 1]
    )


class Reporter(abc.ABC):
    """Writes one result to a stream. `rules` describes rules beyond the rule table (a
    fixture's), for the formats that describe each rule (SARIF)."""

    def __init__(self, stream: TextIO, *, color: bool | None = None,
                 rules: Mapping[str, RuleHelp] | None = None) -> None:
        self.stream = stream
        self.color = is_terminal(stream) if color is None else color
        self.rules = rules or {}

    @abc.abstractmethod
    def report(self, result: ValidationResult) -> None: ...


class TextReporter(Reporter):
    """`file:line:col: severity [rule] message`, the source line with a caret, a summary."""

    def __init__(
        self, stream: TextIO, *, color: bool | None = None, summary: bool = True,
        rules: Mapping[str, RuleHelp] | None = None,
    ) -> None:
        super().__init__(stream, color=color, rules=rules)
        self.show_summary = summary

    def report(self, result: ValidationResult) -> None:
        lines = _SourceLines(result.sources)
        if self.color:
            self._report_rich(result, lines)
            return
        for diagnostic in result.diagnostics:
            # Text from configs (names, commands, paths) must not drive the terminal.
            self.stream.write(printable(str(diagnostic)) + "\n")
            snippet = _snippet(diagnostic, lines)
            if snippet is not None:
                gutter, text, pad = snippet
                self.stream.write(f"{gutter} | {text}\n{' ' * len(gutter)} | {pad}^\n")
        if self.show_summary and (result.sources or result.diagnostics):
            self.stream.write(result.summary() + "\n")

    def _report_rich(self, result: ValidationResult, lines: _SourceLines) -> None:
        from rich.console import Console
        from rich.text import Text

        console = Console(file=self.stream, highlight=False, markup=False, soft_wrap=True)
        for diagnostic in result.diagnostics:
            style = _STYLES[diagnostic.severity]
            heading = Text()
            place = f"{printable(diagnostic.file)}:{diagnostic.line}:{diagnostic.column}:"
            heading.append(place, "bold")
            heading.append(" ")
            heading.append(diagnostic.severity, style)
            heading.append(" ")
            heading.append(f"[{diagnostic.rule}]", "cyan")
            heading.append(f" {printable(diagnostic.message)}")
            console.print(heading)
            snippet = _snippet(diagnostic, lines)
            if snippet is not None:
                gutter, text, pad = snippet
                source = Text(f"{gutter} | ", "dim")
                source.append(text)
                caret = Text(f"{' ' * len(gutter)} | ", "dim")
                caret.append(pad)
                caret.append("^", style)
                console.print(source)
                console.print(caret)
        if self.show_summary and (result.sources or result.diagnostics):
            _print_summary(console, result)


_STYLES = {"error": "bold red", "warning": "bold yellow", "note": "bold blue"}


def _print_summary(console: Console, result: ValidationResult) -> None:
    from rich.text import Text

    if not result.errors and not result.warnings:
        console.print(Text(result.summary(), "bold green"))
    else:
        console.print(Text(result.summary(), "bold red" if result.errors else "bold yellow"))


def _snippet(diagnostic: Diagnostic, lines: _SourceLines) -> tuple[str, str, str] | None:
    """(gutter, source text, blanks before the caret), or None when there is no line to show.

    Control characters in the line are shown escaped, and the caret moves with them.
    """
    if diagnostic.rule in _WHOLE_FILE_RULES:
        return None
    line = lines.line(diagnostic.file, diagnostic.line)
    if line is None:
        return None
    text, column = _window(line, diagnostic.column)
    shown_column = len(printable(text[: column - 1])) + 1
    shown = printable(text)
    return f"{diagnostic.line:>4}", shown, _caret_pad(shown, shown_column)


class JsonReporter(Reporter):
    """One JSON object: `{"version": 1, "files": [...], "diagnostics": [...]}`."""

    def report(self, result: ValidationResult) -> None:
        document = {
            "version": JSON_VERSION,
            "files": list(result.files),
            "diagnostics": [diagnostic.as_json() for diagnostic in result.diagnostics],
        }
        self.stream.write(exact_json(document) + "\n")


def exact_json(document: Any) -> str:
    """Indented JSON, readable UTF-8 where possible; `\\uXXXX` escapes when the text holds
    lone surrogates (from `"\\ud800"` in a file, or undecodable file names), which no
    UTF-8 stream can write. Either way a JSON reader gets exactly the same strings."""
    text = json.dumps(document, indent=2, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(document, indent=2, ensure_ascii=True)
    return text


def escape_data(text: str) -> str:
    """Escape a workflow command's message (GitHub Actions' `escapeData`)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Escape a workflow command's property value (GitHub Actions' `escapeProperty`)."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


class GithubReporter(Reporter):
    """GitHub Actions workflow commands, which the runner turns into annotations on the diff."""

    def report(self, result: ValidationResult) -> None:
        for d in result.diagnostics:
            properties = ",".join(
                f"{key}={escape_property(printable(str(value)))}"
                for key, value in (
                    ("file", d.file), ("line", d.line), ("col", d.column), ("title", d.rule),
                )
            )
            message = escape_data(printable(d.message))
            # GitHub's word for an annotation that is neither error nor warning: `notice`.
            level = "notice" if d.severity == "note" else d.severity
            self.stream.write(f"::{level} {properties}::{message}\n")


class SarifReporter(Reporter):
    """A SARIF 2.1.0 log (`report.sarif`): one result per diagnostic, at its line and column;
    a finding about a whole file (an unreadable one) at the file alone."""

    def report(self, result: ValidationResult) -> None:
        findings = [sarif_finding(d) for d in result.diagnostics]
        log = sarif_log(findings, {**rule_help(), **self.rules})
        self.stream.write(exact_json(log) + "\n")


def sarif_finding(diagnostic: Diagnostic) -> Finding:
    """A diagnostic as a SARIF result: at its line and column, as the text report has it, or
    at its file alone when it is about the whole file."""
    if diagnostic.rule in _WHOLE_FILE_RULES:
        return Finding(diagnostic.rule, diagnostic.severity, diagnostic.message, diagnostic.file)
    return Finding(diagnostic.rule, diagnostic.severity, diagnostic.message, diagnostic.file,
                   diagnostic.line, diagnostic.column)


REPORTERS: dict[str, type[Reporter]] = {
    "text": TextReporter,
    "json": JsonReporter,
    "github": GithubReporter,
    "sarif": SarifReporter,
}


def report(result: ValidationResult, fmt: str, stream: TextIO,
           rules: Mapping[str, RuleHelp] | None = None) -> None:
    """Write `result` to `stream` in the format `fmt` (a key of `REPORTERS`); `rules`
    describes rules beyond the rule table."""
    REPORTERS[fmt](stream, rules=rules).report(result)
