"""The GitHub Action (action.yml) does what it says: its steps, read from action.yml with PyYAML,
run as the Actions runner runs a composite action's bash steps (each `run` a script for `bash
--noprofile --norc -eo pipefail`, its `env` with the inputs, GITHUB_OUTPUT a file per step),
with the runner's variables pointing at temporary folders. The install step installs this
checkout into a fresh virtual environment, as a workflow's would.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from tests.conftest import REPO
from tests.docs.examples import blocks
from tests.program_marker import INSTALLED

pytestmark = [
    pytest.mark.program,
    pytest.mark.skipif(INSTALLED, reason="the action installs agenthooks from its own checkout, "
                       "which the wheel's test run leaves out"),
]

ACTION = yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))
SCHEMA = json.loads((REPO / "tests" / "data" / "sarif-schema-2.1.0.json").read_text("utf-8"))
# An expression of a step's `env` or of an output: `${{ inputs.X }}`, `${{ steps.S.outputs.X }}`;
# the steps' scripts themselves hold none (an input in a script would be code).
EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")

BROKEN = """\
{
  "lint": {
    "Stop": [
      { "command": "true", "timeout": "10", "timout": 5 }
    ]
  }
}
"""
WARNED = '{"lint": {"Stop": [{"command": "true", "timout": 5}]}}\n'
FIXTURE = """\
cases:
  - name: rm -rf is refused
    event: PreToolUse
    payload: {toolCall: {name: run_command, args: {CommandLine: rm -rf /}}}
    expect: {decision: deny}
  - name: git status is refused
    event: PreToolUse
    payload: {toolCall: {name: run_command, args: {CommandLine: git status}}}
    expect: {decision: deny}
"""
GATE = """\
{"gate": {"PreToolUse": [{"matcher": "run_command", "hooks": [
  {"command": "if grep -q 'rm -rf'; then echo no >&2; exit 2; fi"}]}]}}
"""


Installed = tuple[Path, dict[str, Any]]  # RUNNER_TEMP, and the outputs of the steps that ran


@dataclass
class Ran:
    code: int
    out: str
    outputs: dict[str, str]


def resolve(text: str, scope: dict[str, Any]) -> str:
    def value(match: re.Match[str]) -> str:
        found: Any = scope
        for part in match[1].split("."):
            found = found.get(part, {})  # a step that did not run has no outputs: ""
        return str(found or "")

    return EXPRESSION.sub(value, text)


def read_outputs(path: Path) -> dict[str, str]:
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    assert all("=" in line and "<<" not in line for line in lines), lines
    return dict(line.split("=", 1) for line in lines)


def run_steps(inputs: dict[str, str], workspace: Path, runner_temp: Path,
              done_steps: dict[str, Any]) -> Ran:
    """The steps of action.yml in order, as the runner would, until one fails; those whose
    id is in `done_steps` (with their outputs) ran before."""
    given = {name: inputs.get(name, spec.get("default", ""))
             for name, spec in ACTION["inputs"].items()}
    assert set(inputs) <= set(given), f"no such inputs: {set(inputs) - set(given)}"
    scope: dict[str, Any] = {"inputs": given, "steps": dict(done_steps)}
    env = {name: value for name, value in os.environ.items()
           if not name.startswith(("AGENTHOOKS_", "INPUT_", "GITHUB_"))}
    env.update({"GITHUB_ACTION_PATH": str(REPO), "GITHUB_WORKSPACE": str(workspace),
                "RUNNER_TEMP": str(runner_temp), "GITHUB_ACTIONS": "true",
                "PATH": f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"})
    printed, code = "", 0
    for step in ACTION["runs"]["steps"]:
        if step["id"] in done_steps:
            continue
        assert step["shell"] == "bash" and not EXPRESSION.search(step["run"])
        script = workspace.parent / f"{step['id']}.sh"
        script.write_text(step["run"], encoding="utf-8")
        outputs = workspace.parent / f"{step['id']}.output"
        step_env = {**env, "GITHUB_OUTPUT": str(outputs),
                    **{k: resolve(v, scope) for k, v in step.get("env", {}).items()}}
        done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
                              cwd=workspace, env=step_env, capture_output=True, text=True,
                              timeout=600, check=False)
        printed += done.stdout + done.stderr
        scope["steps"][step["id"]] = {"outputs": read_outputs(outputs)}
        code = done.returncode
        if code != 0:
            break
    return Ran(code, printed, {name: resolve(spec["value"], scope)
                               for name, spec in ACTION["outputs"].items()})


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """RUNNER_TEMP after the install step (the first), and that step's outputs: it runs once
    for the module, and the other steps after it in each test."""
    runner_temp = tmp_path_factory.mktemp("runner_temp")
    workspace = tmp_path_factory.mktemp("install") / "repo"
    workspace.mkdir()
    first = ACTION["runs"]["steps"][0]
    later = {step["id"]: {} for step in ACTION["runs"]["steps"][1:]}
    ran = run_steps({}, workspace, runner_temp, later)
    assert (first["id"], ran.code) == ("install", 0), ran.out
    assert ran.out.startswith("agenthooks ")  # the installed command's --version
    outputs = read_outputs(workspace.parent / "install.output")
    assert Path(outputs["bin"], "agenthooks").is_file()
    return runner_temp, {"install": {"outputs": outputs}}


def run_action(inputs: dict[str, str], workspace: Path, installed: Installed) -> Ran:
    """The steps after the install, with these inputs, in `workspace`."""
    runner_temp, done_steps = installed
    return run_steps(inputs, workspace, runner_temp, done_steps)


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_errors_are_annotations_counts_and_a_sarif_file(tmp_path: Path,
                                                        installed: Installed) -> None:
    workspace = write(tmp_path / "repo", {"sub/.agents/hooks.json": BROKEN})
    ran = run_action({"sarif-file": "hooks.sarif"}, workspace, installed)
    assert ran.code == 1, ran.out
    assert ("::error file=sub/.agents/hooks.json,line=4,col=39,title=timeout-invalid::"
            "timeout must be a whole number of seconds, not the string '10'") in ran.out
    assert "::warning file=sub/.agents/hooks.json,line=4,col=45,title=unknown-key::" in ran.out
    assert ran.outputs == {"errors": "1", "warnings": "1", "failed-cases": "0",
                           "sarif-file": "hooks.sarif"}
    log = json.loads((workspace / "hooks.sarif").read_text(encoding="utf-8"))
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    places = [(r["ruleId"], r["locations"][0]["physicalLocation"])
              for r in log["runs"][0]["results"]]
    assert places[0] == ("timeout-invalid", {
        "artifactLocation": {"uri": "sub/.agents/hooks.json", "uriBaseId": "%SRCROOT%"},
        "region": {"startLine": 4, "startColumn": 39}})


def test_strict_fails_on_warnings_and_paths_limit_the_check(tmp_path: Path,
                                                            installed: Installed) -> None:
    workspace = write(tmp_path / "repo", {"a/.agents/hooks.json": WARNED,
                                          "b/.agents/hooks.json": BROKEN})
    lenient = run_action({"paths": "a"}, workspace, installed)
    assert (lenient.code, lenient.outputs["warnings"], lenient.outputs["errors"]) == (0, "1", "0")
    assert "b/.agents" not in lenient.out
    strict = run_action({"paths": "a", "strict": "true"}, workspace, installed)
    assert strict.code == 1 and "title=unknown-key" in strict.out
    # A hook file named alone is validated, and not run as a fixture.
    named = run_action({"paths": "a/.agents/hooks.json  b/.agents/hooks.json"}, workspace,
                       installed)
    assert (named.code, named.outputs["errors"], named.outputs["warnings"]) == (1, "1", "2")
    assert "fixture" not in named.out and "hooktest" not in named.out


def test_fixtures_run_when_there_are_any(tmp_path: Path, installed: Installed) -> None:
    workspace = write(tmp_path / "repo", {".agents/hooks.json": GATE,
                                          ".agents/tests/gate.hooktest.yaml": FIXTURE})
    ran = run_action({}, workspace, installed)
    assert ran.code == 1, ran.out
    assert ran.outputs["errors"] == "0" and ran.outputs["failed-cases"] == "1"
    assert "✗ git status is refused" in ran.out
    skipped = run_action({"test": "false"}, workspace, installed)
    assert (skipped.code, skipped.outputs["failed-cases"]) == (0, "0")
    assert "git status is refused" not in skipped.out


def test_no_fixture_is_no_failure(tmp_path: Path, installed: Installed) -> None:
    workspace = write(tmp_path / "repo", {".agents/hooks.json": GATE})
    ran = run_action({}, workspace, installed)
    assert (ran.code, ran.outputs["failed-cases"]) == (0, "0"), ran.out


def test_the_readme_workflow_uses_the_actions_inputs_and_outputs() -> None:
    """The README's CI example: its `with:` names inputs of action.yml, the SARIF file it
    writes is the one it uploads, and the section names every input and output."""
    [block] = [b for b in blocks(REPO / "README.md")
               if "tests/test_action.py" in b.notes.get("checked by", "")]
    workflow = yaml.safe_load(block.text)
    [job] = workflow["jobs"].values()
    assert job["permissions"]["security-events"] == "write"  # what upload-sarif needs
    uses = {step.get("uses", "").split("@")[0]: step for step in job["steps"]}
    ours, upload = uses["OWNER/agenthooks"], uses["github/codeql-action/upload-sarif"]
    assert set(ours["with"]) <= set(ACTION["inputs"])
    assert upload["with"]["sarif_file"] == ours["with"]["sarif-file"]
    assert upload["if"] == "always()"  # the findings are uploaded when the check fails too
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    ci = re.split(r"\n##+ ", readme.split("\n### CI\n", 1)[1])[0]
    unnamed = [name for name in (*ACTION["inputs"], *ACTION["outputs"]) if f"`{name}`" not in ci]
    assert not unnamed, f"the README's CI section does not name {unnamed}"
