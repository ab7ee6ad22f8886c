"""The results of `agenthooks test`: text for people, JSON for tools, JUnit XML and SARIF
for CI.

JUnit is the dialect GitHub (test-reporter actions), GitLab (`artifacts:reports:junit`) and
Jenkins (the JUnit plugin) all read: `<testsuites>` of one `<testsuite>` per fixture file, one
`<testcase>` per case with `<failure message=...>` when it failed. SARIF is what code scanning
reads (GitHub's `upload-sarif`): one result per failed case, at the case's line.
"""

from __future__ import annotations

import io
import json
import time
from collections.abc import Sequence
from typing import Any, TextIO

from agenthooks.escape import printable
from agenthooks.report.diagnostics import exact_json
from agenthooks.report.sarif import Finding, RuleHelp, sarif_log
from agenthooks.report.table import render_plain
from agenthooks.testing.loader import RULES
from agenthooks.testing.model import FIXTURE_SUFFIXES, CaseResult, Mismatch

JSON_VERSION = 1
FORMATS: tuple[str, ...] = ("text", "json", "junit", "sarif")
# The rule of a failed case in a SARIF log, and where the docs say what a case checks.
CASE_FAILED = "case-failed"
_TEST_PAGE = "test.md#agenthooks-test"
# The rules of `test`'s SARIF logs: fixture files' findings (`testing.loader`), failed cases.
SARIF_RULES: dict[str, RuleHelp] = {
    **{rule: RuleHelp(summary, "error", _TEST_PAGE) for rule, summary in RULES.items()},
    CASE_FAILED: RuleHelp("a case of a hook fixture whose hooks did not answer as it expects",
                          "error", _TEST_PAGE),
}
_STDERR_LINES = 10


class Summary:
    """Counts over a run, for every format's last words."""

    def __init__(self, results: Sequence[CaseResult], files: Sequence[str], seconds: float):
        self.results = results
        self.files = files
        self.seconds = seconds
        self.failed = sum(1 for result in results if not result.passed)
        self.passed = len(results) - self.failed

    def line(self) -> str:
        files = f"{len(self.files)} file" + ("" if len(self.files) == 1 else "s")
        head = f"{self.passed} passed, {self.failed} failed"
        return f"{head} ({len(self.results)} cases in {files}) in {self.seconds:.2f} s"


def _marks(stream: TextIO) -> tuple[str, str]:
    """✓ and ✗ where the stream can write them, PASS and FAIL where it cannot."""
    try:
        "✓✗".encode(getattr(stream, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return "PASS", "FAIL"
    return "✓", "✗"


def _shown(value: Any) -> str:
    if value is None:
        return "(none)"
    if isinstance(value, str):
        return printable(json.dumps(value, ensure_ascii=False))
    return printable(json.dumps(value, ensure_ascii=False, sort_keys=True))


def mismatch_lines(mismatch: Mismatch) -> list[str]:
    """`field: expected X`, `  got X`, and why: the diff of one expectation."""
    lines = [f"{mismatch.field}:",
             f"  expected {_shown(mismatch.expected)}",
             f"  actual   {_shown(mismatch.actual)}"]
    if mismatch.note:
        lines.append(f"  ({printable(mismatch.note)})")
    return lines


def handler_rows(report: dict[str, Any]) -> list[list[str]]:
    """One row per command handler and per in-process hook of a `--report json`."""
    rows = []  # in-process hooks run first (a terminal one stops the event before handlers)
    for h in report.get("hooks", []):
        note = h.get("error") or h.get("reason") or ""
        rows.append([h.get("hook", "?"), str(h.get("kind")), "error" if h.get("error") else "ok",
                     "", _ms(h.get("durationMs")), str(h.get("decision") or ""),
                     _first_line(note)])
    for h in report.get("handlers", []):
        exit_code = h.get("exitCode")
        rows.append([h.get("hook", "?"), "command", str(h.get("status")),
                     "" if exit_code is None else str(exit_code), _ms(h.get("durationMs")),
                     str(h.get("decision") or ""), _first_line(h.get("stderr"))])
    return [[printable(str(cell)) for cell in row] for row in rows]


def _ms(value: Any) -> str:
    return f"{value:.0f}" if isinstance(value, (int, float)) else ""


def _first_line(text: Any) -> str:
    return text.strip().split("\n", 1)[0][:120] if isinstance(text, str) else ""


def failure_text(result: CaseResult) -> str:
    """Everything about one failed case: each mismatch, the exit status, the per-handler
    report, and the end of stderr."""
    lines = [f"{printable(result.case.file)}:{result.case.line}: {printable(result.case.name)}"]
    for mismatch in result.mismatches:
        lines += mismatch_lines(mismatch)
    status = "did not finish" if result.exit_code is None else f"exit {result.exit_code}"
    host = f" --host {result.case.host}" if result.case.host else ""
    lines.append(f"agenthooks run {result.case.event}{host}: {status}, {result.ms:.0f} ms")
    if result.report is not None:
        rows = handler_rows(result.report)
        if rows:
            table = io.StringIO()
            render_plain(["hook", "kind", "status", "exit", "ms", "decision", "note"], rows,
                         stream=table)
            lines += ["handlers:", *("  " + row for row in table.getvalue().splitlines())]
        else:
            lines.append("handlers: none ran")
        for warning in result.report.get("warnings", []):
            lines.append(f"warning: {printable(str(warning))}")
    stderr = result.stderr.strip().splitlines()
    if stderr:
        lines.append("stderr:")
        lines += ["  " + printable(line) for line in stderr[-_STDERR_LINES:]]
    return "\n".join(lines)


def case_line(result: CaseResult, previous_file: str | None, stream: TextIO) -> str:
    """A case's line (under its file's name when the file changes); returns its file."""
    good, bad = _marks(stream)
    if result.case.file != previous_file:
        stream.write(f"{printable(result.case.file)}\n")
    mark = good if result.passed else bad
    stream.write(f"  {mark} {printable(result.case.name)} ({result.ms:.0f} ms)\n")
    return result.case.file


def write_tail(summary: Summary, stream: TextIO) -> None:
    """What follows the cases' lines: each failure in full, then the counts."""
    _, bad = _marks(stream)
    failures = [result for result in summary.results if not result.passed]
    for result in failures:
        stream.write(f"\n{bad} " + failure_text(result).replace("\n", "\n    ") + "\n")
    stream.write(("\n" if failures else "") + summary.line() + "\n")


def write_text(summary: Summary, stream: TextIO) -> None:
    current: str | None = None
    for result in summary.results:
        current = case_line(result, current, stream)
    write_tail(summary, stream)


class Live:
    """The text report written while the cases run, the same lines in the same order as
    `write_text` writes at the end: a case's line as soon as every case before it has
    finished (`lines`), and on a terminal (`progress`) a last line that says how many have
    finished and failed, rewritten in place and cleared when the run ends.

    Called from the runner's threads, as `on_result(index, result)`.
    """

    def __init__(self, stream: TextIO, total: int, *, lines: bool, progress: bool) -> None:
        self.stream = stream
        self.total = total
        self.lines = lines
        self.progress = progress
        self.results: dict[int, CaseResult] = {}
        self.printed = 0
        self.failed = 0
        self.file: str | None = None
        self.shown = False  # a progress line is on the screen
        import threading

        self.lock = threading.Lock()

    def __call__(self, index: int, result: CaseResult) -> None:
        with self.lock:
            self.results[index] = result
            self.failed += not result.passed
            self._clear()
            while self.lines and self.printed in self.results:
                self.file = case_line(self.results[self.printed], self.file, self.stream)
                self.printed += 1
            if self.progress and len(self.results) < self.total:
                done = len(self.results)
                text = (f"[{done}/{self.total}] {self.failed} failed; last: "
                        f"{printable(result.case.name)}")
                self.stream.write(text[:_terminal_width() - 1])
                self.shown = True
            self.stream.flush()

    def _clear(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.shown = False

    def finish(self, summary: Summary) -> None:
        """Clear the progress line; with `lines`, the failures and the counts follow."""
        with self.lock:
            self._clear()
            if self.lines:
                for result in summary.results[self.printed:]:
                    self.file = case_line(result, self.file, self.stream)
                write_tail(summary, self.stream)
            self.stream.flush()


def _terminal_width() -> int:
    import shutil

    return shutil.get_terminal_size().columns


def result_json(result: CaseResult) -> dict[str, Any]:
    case = result.case
    return {
        "name": case.name,
        "file": case.file,
        "line": case.line,
        "event": case.event,
        "tool": case.tool,
        "host": case.host,
        "passed": result.passed,
        "exitCode": result.exit_code,
        "ms": round(result.ms, 3),
        "mismatches": [mismatch._asdict() for mismatch in result.mismatches],
        "report": result.report,
        "stderr": result.stderr,
    }


def write_json(summary: Summary, stream: TextIO) -> None:
    document = {
        "version": JSON_VERSION,
        "passed": summary.passed,
        "failed": summary.failed,
        "files": list(summary.files),
        "cases": [result_json(result) for result in summary.results],
    }
    stream.write(json.dumps(document, indent=2, ensure_ascii=False, default=str) + "\n")


def _xml_text(text: str) -> str:
    """Text XML 1.0 can hold: control characters (not tab/newline) and lone surrogates
    escaped, as a JUnit reader would choke on them."""
    return "\n".join(printable(line) for line in text.split("\n"))


def write_junit(summary: Summary, stream: TextIO) -> None:
    import xml.etree.ElementTree as ET

    root = ET.Element("testsuites", name="agenthooks test", tests=str(len(summary.results)),
                      failures=str(summary.failed), errors="0",
                      time=f"{summary.seconds:.3f}")
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime())
    for file in summary.files:
        results = [result for result in summary.results if result.case.file == file]
        failed = sum(1 for result in results if not result.passed)
        suite = ET.SubElement(root, "testsuite", name=_xml_text(file), tests=str(len(results)),
                              failures=str(failed), errors="0", skipped="0",
                              time=f"{sum(r.ms for r in results) / 1000:.3f}", timestamp=stamp)
        for result in results:
            _testcase(suite, file, result)
    ET.indent(root)
    stream.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    stream.write(ET.tostring(root, encoding="unicode") + "\n")


def _testcase(suite: Any, file: str, result: CaseResult) -> None:
    import xml.etree.ElementTree as ET

    case = ET.SubElement(suite, "testcase", name=_xml_text(result.case.name),
                         classname=_xml_text(_classname(file)), file=_xml_text(file),
                         line=str(result.case.line), time=f"{result.ms / 1000:.3f}")
    if not result.passed:
        first = result.mismatches[0]
        message = f"{first.field}: expected {_shown(first.expected)}, got {_shown(first.actual)}"
        failure = ET.SubElement(case, "failure", message=_xml_text(message),
                                type="HookExpectationFailed")
        failure.text = _xml_text(failure_text(result))
    if result.stderr:
        ET.SubElement(case, "system-err").text = _xml_text(result.stderr)


def _classname(file: str) -> str:
    """`.agents/tests/gate.hooktest.yaml` as a dotted class name, as JUnit readers group by."""
    stem = file
    for suffix in FIXTURE_SUFFIXES:
        stem = stem.removesuffix(suffix)
    parts = [part.lstrip(".") for part in stem.replace("\\", "/").split("/")]
    return ".".join(part for part in parts if part) or "hooktest"


def write_sarif(summary: Summary, stream: TextIO) -> None:
    """A SARIF log with a result for each failed case, at its line of its fixture file."""
    findings = [Finding(CASE_FAILED, "error", _case_message(result), result.case.file,
                        result.case.line)
                for result in summary.results if not result.passed]
    stream.write(exact_json(sarif_log(findings, SARIF_RULES)) + "\n")


def _case_message(result: CaseResult) -> str:
    """`case 'NAME' failed:` then everything `failure_text` says after its place."""
    details = failure_text(result).split("\n", 1)[1]
    return f"case '{printable(result.case.name)}' failed:\n{details}"


WRITERS = {"text": write_text, "json": write_json, "junit": write_junit, "sarif": write_sarif}


def write(summary: Summary, fmt: str, stream: TextIO) -> None:
    WRITERS[fmt](summary, stream)
