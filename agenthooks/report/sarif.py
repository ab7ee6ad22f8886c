"""SARIF 2.1.0 logs of agenthooks' findings, for code scanning (GitHub's `upload-sarif` and any
other reader of the OASIS format).

One log holds one run of one tool, `agenthooks`: a rule (`reportingDescriptor`) for each rule id
that has a result, in the order they first appear, and a result for each finding, at the same
line and column as the text report. Paths under the current directory are written relative to
it (`uriBaseId` `%SRCROOT%`), so that a reader resolves them against its checkout; others as
`file:` URIs. `validate` builds its log from its diagnostics (`report.diagnostics`), `test` from
its failed cases (`testing.reporters`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple
from urllib.parse import quote

from agenthooks._version import __version__
from agenthooks.model.rules import DIALECT_RULES, RULES, Rule

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA = ("https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/"
                "sarif-schema-2.1.0.json")
# Where agenthooks lives; its documentation pages are under docs/ there. OWNER stands for the
# repository's owner, as in the README's install commands, until the project is published.
PROJECT_URL = "https://github.com/OWNER/agenthooks"
DOCS_URL = f"{PROJECT_URL}/blob/main/docs/"
SOURCE_ROOT = "%SRCROOT%"
# agenthooks' severities in SARIF's words (`result.level`): the same three words.
LEVELS: dict[str, str] = {"error": "error", "warning": "warning", "note": "note"}
_ARTICLES = {"error": "an", "warning": "a", "note": "a"}


class RuleHelp(NamedTuple):
    """What a log says of a rule: its one-line summary, severity, and its docs page#anchor."""

    summary: str
    severity: str
    page: str  # under docs/, such as "validate.md#rules"


class Finding(NamedTuple):
    """One result: where it is (no line: the whole file; no column: the whole line)."""

    rule: str
    severity: str
    message: str
    file: str
    line: int | None = None
    column: int | None = None


def _helps(rules: Iterable[Rule], page: str) -> dict[str, RuleHelp]:
    return {rule.id: RuleHelp(rule.summary, rule.severity, page) for rule in rules}


def rule_help() -> dict[str, RuleHelp]:
    """The rules of the rule table (`model.rules`), each with the page whose table has it:
    hooks.json's and Markdown hooks' in validate.md, the hosts' settings' in dialects.md."""
    return {**_helps(DIALECT_RULES.values(), "dialects.md#validate"),
            **_helps(RULES.values(), "validate.md#rules")}


def _sentence(summary: str) -> str:
    return summary[:1].upper() + summary[1:]


def _descriptor(rule_id: str, described: RuleHelp) -> dict[str, Any]:
    """A rule as SARIF describes it."""
    summary = _sentence(described.summary)
    uri = DOCS_URL + described.page
    return {
        "id": rule_id,
        "shortDescription": {"text": summary},
        "fullDescription": {"text": f"{summary}: {_ARTICLES[described.severity]} "
                                    f"{described.severity} of agenthooks (rule {rule_id})."},
        "help": {"text": f"{summary}. What the rule catches, and how to fix it: {uri}"},
        "helpUri": uri,
        "defaultConfiguration": {"level": LEVELS[described.severity]},
    }


def _file_uri(path: str) -> str:
    """`file:` URI of an absolute path, its bytes percent-encoded (any file name, undecodable
    ones too)."""
    return "file://" + quote(os.fsencode(path), safe="/")


def artifact_location(file: str, cwd: str) -> dict[str, str]:
    """`file` (as a report shows it) relative to `cwd` under %SRCROOT%, else a `file:` URI."""
    absolute = os.path.normpath(os.path.join(cwd, file))
    relative = os.path.relpath(absolute, cwd)
    if relative == os.pardir or relative.startswith(os.pardir + os.sep):
        return {"uri": _file_uri(absolute)}
    return {"uri": quote(os.fsencode(relative), safe="/"), "uriBaseId": SOURCE_ROOT}


def _result(finding: Finding, index: int, cwd: str) -> dict[str, Any]:
    physical: dict[str, Any] = {"artifactLocation": artifact_location(finding.file, cwd)}
    if finding.line is not None:
        region = {"startLine": finding.line}
        if finding.column is not None:
            region["startColumn"] = finding.column
        physical["region"] = region
    return {
        "ruleId": finding.rule,
        "ruleIndex": index,
        "level": LEVELS[finding.severity],
        "message": {"text": finding.message},
        "locations": [{"physicalLocation": physical}],
    }


def sarif_log(findings: Sequence[Finding], rules: Mapping[str, RuleHelp],
              cwd: str | None = None) -> dict[str, Any]:
    """The SARIF log of `findings`, their rules described from `rules`; relative paths are
    relative to `cwd` (default: the current directory)."""
    cwd = cwd or os.getcwd()
    order: dict[str, int] = {}
    described: dict[str, RuleHelp] = {}
    for finding in findings:
        order.setdefault(finding.rule, len(order))
        # A rule no table knows is described by its id, at the level of its first result.
        described.setdefault(finding.rule, rules.get(finding.rule)
                             or RuleHelp(finding.rule, finding.severity, "validate.md#rules"))
    driver = {
        "name": "agenthooks",
        "version": __version__,
        "informationUri": PROJECT_URL,
        "rules": [_descriptor(rule_id, described[rule_id]) for rule_id in order],
    }
    run = {
        "tool": {"driver": driver},
        "originalUriBaseIds": {SOURCE_ROOT: {"uri": _file_uri(os.path.join(cwd, ""))}},
        # Columns count characters, as the text report's do (SARIF's default is UTF-16 units).
        "columnKind": "unicodeCodePoints",
        "results": [_result(f, order[f.rule], cwd) for f in findings],
    }
    return {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION, "runs": [run]}
