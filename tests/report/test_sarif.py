"""SARIF logs of `validate` and `test`: valid against the official SARIF 2.1.0 schema, and each
result at the same place, rule, level and message as the text report says."""

from __future__ import annotations

import json
import os
import re
import subprocess
import textwrap
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from agenthooks.features.fixtures.loader import RULES as FIXTURE_RULES
from agenthooks.model.rules import DIALECT_RULES, RULES
from agenthooks.report.sarif import DOCS_URL, SARIF_SCHEMA, artifact_location
from tests.conftest import REPO, Run
from tests.docs.examples import blocks

SCHEMA = json.loads((Path(__file__).parent.parent / "data" / "sarif-schema-2.1.0.json")
                    .read_text(encoding="utf-8"))
# `file:line:col: severity [rule] message`, the text report's first line of a finding.
TEXT_LINE = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<column>\d+): "
                       r"(?P<severity>error|warning|note) \[(?P<rule>[a-z-]+)\] (?P<message>.*)$")

# Files with findings of every severity, from each of the rule tables: hooks.json, a Markdown
# hook, Claude Code's settings, a hook fixture.
FILES = {
    ".agents/hooks.json": """\
        {
          "lint": {
            "Stop": [
              { "command": "make lint", "timeout": "10", "timout": 5 }
            ],
            "BeforeTool": [],
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"command": "true"}]}]
          }
        }
        """,
    ".harness/hooks/gate.md": """\
        ---
        event: tool.pre
        priorty: 3
        script: |
          def handle(event, payload):
              return None
        ---
        A gate.
        """,
    ".claude/settings.json": """\
        {"hooks": {"PreToolUse": [
          {"matcher": "Edit.*", "hooks": [{"type": "command", "command": "true"}]}]}}
        """,
    ".agents/tests/typo.hooktest.yaml": """\
        cases:
          - name: x
            event: PreToolUse
            expect:
              decison: deny
        """,
}


def validate_schema(log: dict[str, Any]) -> None:
    jsonschema.Draft4Validator.check_schema(SCHEMA)
    jsonschema.Draft4Validator(SCHEMA).validate(log)


def write_files(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")


def text_findings(out: str) -> list[dict[str, Any]]:
    found = [match.groupdict() for match in map(TEXT_LINE.match, out.splitlines()) if match]
    return [{**f, "line": int(f["line"]), "column": int(f["column"])} for f in found]


def region_of(result: dict[str, Any]) -> dict[str, Any] | None:
    region: dict[str, Any] | None = result["locations"][0]["physicalLocation"].get("region")
    return region


@pytest.mark.parametrize(("file", "location"), [
    (".agents/hooks.json", {"uri": ".agents/hooks.json", "uriBaseId": "%SRCROOT%"}),
    ("./.agents/../.agents/hooks.json", {"uri": ".agents/hooks.json", "uriBaseId": "%SRCROOT%"}),
    ("/work/repo/a b/100%.json", {"uri": "a%20b/100%25.json", "uriBaseId": "%SRCROOT%"}),
    ("/work/repo/é.json", {"uri": "%C3%A9.json", "uriBaseId": "%SRCROOT%"}),
    ("/work/repo/\udcff.json", {"uri": "%FF.json", "uriBaseId": "%SRCROOT%"}),
    ("../other/hooks.json", {"uri": "file:///work/other/hooks.json"}),
    ("/home/me/.gemini/settings.json", {"uri": "file:///home/me/.gemini/settings.json"}),
    ("/work/repository/x.json", {"uri": "file:///work/repository/x.json"}),
])
def test_paths_under_the_folder_are_relative_to_it_others_file_uris(
        file: str, location: dict[str, str]) -> None:
    assert artifact_location(file, "/work/repo") == location


def test_validate_sarif_has_the_text_reports_places(agenthooks: Run, isolated: Path) -> None:
    write_files(isolated, FILES)
    text = agenthooks("validate", ".", "missing.json")
    sarif = agenthooks("validate", "--format", "sarif", ".", "missing.json")
    assert sarif.code == text.code == 1
    assert sarif.err.endswith("4 errors, 3 warnings, 1 note in 5 files\n")
    log = json.loads(sarif.out)
    validate_schema(log)
    assert (log["version"], log["$schema"]) == ("2.1.0", SARIF_SCHEMA)
    [run] = log["runs"]
    expected = text_findings(text.out)
    assert {f["severity"] for f in expected} == {"error", "warning", "note"}
    assert len(run["results"]) == len(expected) == 8
    for finding, result in zip(expected, run["results"], strict=True):
        location = result["locations"][0]["physicalLocation"]["artifactLocation"]
        assert location == {"uri": finding["file"], "uriBaseId": "%SRCROOT%"}
        assert (result["ruleId"], result["level"], result["message"]["text"]) == (
            finding["rule"], finding["severity"], finding["message"])
        if finding["rule"] == "unreadable":  # the whole file: no region
            assert region_of(result) is None
        else:
            assert region_of(result) == {"startLine": finding["line"],
                                         "startColumn": finding["column"]}
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == f"file://{isolated}/"


def test_validate_sarif_describes_each_rule_once_from_the_rule_tables(
        agenthooks: Run, isolated: Path) -> None:
    write_files(isolated, FILES)
    run = json.loads(agenthooks("validate", "--format", "sarif", ".").out)["runs"][0]
    driver = run["tool"]["driver"]
    assert (driver["name"], driver["informationUri"]) == ("agenthooks", DOCS_URL.split("/blob")[0])
    rules = driver["rules"]
    ids = [rule["id"] for rule in rules]
    assert ids == list(dict.fromkeys(result["ruleId"] for result in run["results"]))
    assert all(rules[r["ruleIndex"]]["id"] == r["ruleId"] for r in run["results"])
    by_id = {rule["id"]: rule for rule in rules}
    pages = {"timeout-invalid": "validate.md#rules", "frontmatter-unknown-key": "validate.md#rules",
             "matcher-unanchored": "dialects.md#validate",
             "fixture-unknown-key": "test.md#agenthooks-test"}
    summaries = {**{k: v.summary for k, v in {**RULES, **DIALECT_RULES}.items()},
                 **FIXTURE_RULES}
    for rule_id, page in pages.items():
        rule = by_id[rule_id]
        assert rule["helpUri"] == DOCS_URL + page
        assert rule["shortDescription"]["text"].lower() == summaries[rule_id].lower()
        assert rule["help"]["text"].endswith(DOCS_URL + page)
        assert rule_id in rule["fullDescription"]["text"]
    assert by_id["matcher-other-host"]["defaultConfiguration"] == {"level": "note"}
    assert by_id["unknown-key"]["defaultConfiguration"] == {"level": "warning"}


def test_a_clean_folder_is_a_log_without_results(agenthooks: Run, isolated: Path) -> None:
    write_files(isolated, {".agents/hooks.json": '{"ok": {"Stop": [{"command": "true"}]}}\n'})
    done = agenthooks("validate", "--format", "sarif")
    assert done.code == 0
    log = json.loads(done.out)
    validate_schema(log)
    assert log["runs"][0]["results"] == [] and log["runs"][0]["tool"]["driver"]["rules"] == []


def test_strict_keeps_the_exit_status_of_the_other_formats(agenthooks: Run,
                                                           isolated: Path) -> None:
    write_files(isolated, {".agents/hooks.json": '{"ok": {"Stop": [{"command": "true", "x": 1}]}}'})
    assert agenthooks("validate", "--format", "sarif").code == 0
    assert agenthooks("validate", "--format", "sarif", "--strict").code == 1


@pytest.mark.program
def test_the_installed_command_writes_a_valid_log(installed_agenthooks: Path,
                                                  isolated: Path) -> None:
    write_files(isolated, FILES)
    done = subprocess.run([str(installed_agenthooks), "validate", "--format", "sarif", "."],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 1, done.stderr
    log = json.loads(done.stdout)
    validate_schema(log)
    assert [r["ruleId"] for r in log["runs"][0]["results"]] == [
        "timeout-invalid", "unknown-key", "unknown-event", "matcher-other-host",
        "frontmatter-unknown-key", "matcher-unanchored", "fixture-unknown-key"]
    assert done.stderr == "3 errors, 3 warnings, 1 note in 4 files\n"


# -- agenthooks test

WRONG = """\
    workspace: sample_hooks
    cases:
      - name: passes
        event: PreToolUse
        payload: {toolCall: {name: run_command, args: {CommandLine: rm -rf /}}}
        expect: {decision: deny}
      - name: git status is refused
        event: PreToolUse
        payload: {toolCall: {name: run_command, args: {CommandLine: git status}}}
        expect: {decision: deny}
    """


@pytest.mark.program
def test_a_failed_case_is_an_error_at_its_line(agenthooks: Run, isolated: Path,
                                               samples: Path) -> None:
    os.symlink(samples, isolated / "sample_hooks")
    write_files(isolated, {"gate.hooktest.yaml": WRONG})
    text = agenthooks("test", "gate.hooktest.yaml")
    done = agenthooks("test", "--format", "sarif", "gate.hooktest.yaml")
    assert done.code == text.code == 1
    log = json.loads(done.out)
    validate_schema(log)
    [run] = log["runs"]
    [result] = run["results"]
    assert "✗ gate.hooktest.yaml:7: git status is refused" in text.out
    assert (result["ruleId"], result["level"], result["ruleIndex"]) == ("case-failed", "error", 0)
    assert result["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "gate.hooktest.yaml", "uriBaseId": "%SRCROOT%"},
        "region": {"startLine": 7}}
    message = result["message"]["text"]
    assert message.startswith("case 'git status is refused' failed:\ndecision:\n")
    assert 'expected "deny"' in message and 'actual   "allow"' in message
    assert run["tool"]["driver"]["rules"][0]["helpUri"] == DOCS_URL + "test.md#agenthooks-test"


def test_an_invalid_fixture_is_a_log_of_its_errors(agenthooks: Run, isolated: Path) -> None:
    write_files(isolated, {".agents/hooks.json": FILES[".agents/hooks.json"],
                           "typo.hooktest.yaml": FILES[".agents/tests/typo.hooktest.yaml"]})
    done = agenthooks("test", "--format", "sarif", "typo.hooktest.yaml", "missing.hooktest.yaml")
    assert done.code == 2
    log = json.loads(done.out)
    validate_schema(log)
    results = log["runs"][0]["results"]
    assert [(r["ruleId"], region_of(r)) for r in results] == [
        ("fixture-unreadable", None),
        ("fixture-unknown-key", {"startLine": 5, "startColumn": 7})]
    assert "no case ran" in done.err


def test_no_fixture_is_an_empty_log(agenthooks: Run, isolated: Path, tmp_path: Path) -> None:
    (isolated / ".agents").mkdir()
    report = tmp_path / "hooks.sarif"
    done = agenthooks("test", "--format", "sarif", "-o", str(report))
    assert done.code == 0 and done.out == ""
    log = json.loads(report.read_text(encoding="utf-8"))
    validate_schema(log)
    assert log["runs"][0]["results"] == []


def test_the_schema_refuses_what_sarif_does_not_allow() -> None:
    """The schema check has teeth: a level SARIF does not have, or no version, is refused."""
    log = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "agenthooks"}},
                                        "results": [{"message": {"text": "x"}, "level": "fatal"}]}]}
    with pytest.raises(jsonschema.ValidationError):
        validate_schema(log)
    with pytest.raises(jsonschema.ValidationError):
        validate_schema({"runs": []})


def test_the_result_validate_md_shows_is_the_one_it_prints(agenthooks: Run,
                                                           isolated: Path) -> None:
    """docs/validate.md's SARIF result, from its own example file, run from the same folder."""
    page = blocks(REPO / "docs" / "validate.md")
    example = next(b for b in page if b.notes.get("file") == ".agents/hooks.json")
    shown = next(b for b in page if "test_sarif.py" in b.notes.get("checked by", ""))
    write_files(isolated, {".agents/hooks.json": example.text})
    # The first result, script-missing, names the folder, which the page shows as another one.
    done = agenthooks("validate", "--format", "sarif")
    assert json.loads(done.out)["runs"][0]["results"][1] == json.loads(shown.text)
