"""`agenthooks test`: fixture files run through real `agenthooks run` processes.

Every case here starts real processes (agenthooks, and the hooks it runs); nothing is mocked.
No assertion is about how long anything took.
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml
from signal_state import default_dispositions

from tests.conftest import Run

pytestmark = pytest.mark.program

# A hook that answers with what it sees: $HOME, $GREETING, and its payload's command.
ECHO_HOOK = """\
#!/bin/sh
cat >/dev/null
printf '{"systemMessage": "home=%s greeting=%s"}\\n' "$HOME" "${GREETING:-none}"
"""
FAILING_HOOK = """\
#!/bin/sh
cat >/dev/null
echo broken >&2
exit 1
"""


def _workspace(root: Path, hooks: dict[str, str]) -> Path:
    """A workspace whose .agents/hooks.json runs each script on Stop, by hook name."""
    agents = root / ".agents"
    (agents / "scripts").mkdir(parents=True)
    config = {}
    for name, script in hooks.items():
        path = agents / "scripts" / f"{name}.sh"
        path.write_text(script, encoding="utf-8")
        path.chmod(path.stat().st_mode | stat.S_IXUSR)
        config[name] = {"PreToolUse": [{"matcher": "", "hooks": [
            {"command": f"./scripts/{name}.sh", "timeout": 60}]}]}
    (agents / "hooks.json").write_text(json.dumps(config, indent=2), encoding="utf-8")
    (agents / "tests").mkdir()
    return root


def _fixture(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


# -- the sample suite


def test_sample_suite_passes(agenthooks: Run, samples: Path) -> None:
    done = agenthooks("test", "--workspace", str(samples))
    assert done.code == 0, done.out + done.err
    assert "19 passed, 0 failed (19 cases in 3 files)" in done.out
    assert "✗" not in done.out
    assert "✓ safety-gate refuses rm -rf" in done.out
    assert "✓ redact_secrets rewrites a token before the safety gate reads it" in done.out


def test_sample_fixtures_cover_every_sample_hook(samples: Path) -> None:
    """Every hooks.json hook and Markdown hook of the samples is named by some case."""
    hooks = set(json.loads((samples / ".agents" / "hooks.json").read_text()))
    hooks |= {path.stem for path in (samples / ".harness" / "hooks").glob("*.md")}
    named: set[str] = set()
    for fixture in [*samples.glob(".agents/tests/*.hooktest.yaml"),
                    *samples.glob(".harness/tests/*.hooktest.yaml")]:
        for case in yaml.safe_load(fixture.read_text())["cases"]:
            handlers = case.get("expect", {}).get("handlers", {})
            named |= set(handlers.get("ran", [])) | set(handlers.get("not_ran", []))
    assert hooks - named == set()


def test_default_discovery_from_inside_the_workspace(agenthooks: Run, samples: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(samples / "src")
    done = agenthooks("test")
    assert done.code == 0, done.out + done.err
    assert ".agents/tests/hooks_json.hooktest.yaml" in done.out
    assert ".harness/tests/markdown.hooktest.yaml" in done.out


# -- failures


FAILING = """\
cases:
  - name: expects the wrong decision
    event: PreToolUse
    payload_file: ../../payloads/pre_tool_use_denied.json
    expect:
      decision: allow
      blocked: false
      reason: /^Allowed/
      handlers: {not_ran: [safety-gate]}
  - name: passes
    event: PreToolUse
    payload_file: ../../payloads/pre_tool_use_ask.json
    expect: {decision: ask}
"""


def test_a_failing_suite_shows_expected_against_actual(agenthooks: Run,
                                                        sample_copy: Path) -> None:
    fixture = _fixture(sample_copy / ".agents" / "tests" / "wrong.hooktest.yaml", FAILING)
    done = agenthooks("test", str(fixture))
    assert done.code == 1, done.out + done.err
    out = done.out
    assert "✗ expects the wrong decision" in out and "✓ passes" in out
    assert f"{fixture}:2: expects the wrong decision" in out
    assert 'decision:\n      expected "allow"\n      actual   "deny"' in out
    assert "blocked:\n      expected false\n      actual   true" in out
    assert ('reason:\n      expected "/^Allowed/"\n'
            '      actual   "Refusing to run a recursive force delete: rm -rf build/"\n'
            "      (the regex does not match)") in out
    assert "(ran: safety-gate)" in out
    # the per-handler report of the run
    assert "agenthooks run PreToolUse: exit 2" in out
    assert re.search(r"\n +hook +kind +status +exit +ms +decision +note\n", out)
    assert re.search(r"\n +audit_tool_pre +transform +ok +\d+ *\n", out)
    assert re.search(r"\n +safety-gate +command +blocked +2 +\d+ +deny +Refusing to run a ", out)
    assert "1 passed, 1 failed (2 cases in 1 file)" in out


def test_modified_args_and_system_message_mismatch(agenthooks: Run, samples: Path,
                                                   tmp_path: Path) -> None:
    fixture = _fixture(tmp_path / "t.hooktest.yaml", f"""\
        workspace: {samples}
        cases:
          - name: redaction
            event: PreToolUse
            payload_file: {samples}/payloads/md_secret_in_command.json
            expect:
              modified_args: {{CommandLine: "curl secret"}}
              system_message: anything
          - name: no rewrite at all
            event: PreToolUse
            payload_file: {samples}/payloads/pre_tool_use_allowed.json
            expect:
              modified_args: {{CommandLine: git status}}
        """)
    done = agenthooks("test", str(fixture))
    assert done.code == 1
    assert "(differs at CommandLine)" in done.out
    assert "[REDACTED]" in done.out
    assert "(the answer has no system message)" in done.out
    assert "(the hooks did not rewrite the arguments)" in done.out


def test_a_misspelt_hook_name_in_not_ran_fails(agenthooks: Run, samples: Path,
                                               tmp_path: Path) -> None:
    """`not_ran: [safety-gat]` would pass forever; it fails with a did-you-mean."""
    fixture = _fixture(tmp_path / "t.hooktest.json", json.dumps({
        "workspace": str(samples),
        "cases": [{"name": "typo", "event": "Stop", "expect": {
            "handlers": {"not_ran": ["safety-gat"]}}}],
    }))
    done = agenthooks("test", str(fixture))
    assert done.code == 1
    assert "no hook of the workspace is named 'safety-gat'; did you mean 'safety-gate'?" \
        in done.out


def test_a_run_that_fails_is_a_failure_with_its_stderr(agenthooks: Run, samples: Path,
                                                       tmp_path: Path) -> None:
    payload = tmp_path / "bad.json"
    payload.write_text("[1, 2]")
    fixture = _fixture(tmp_path / "t.hooktest.yaml", f"""\
        workspace: {samples}
        cases:
          - {{name: not an object, event: Stop, payload_file: bad.json}}
          - name: expected to fail
            event: Stop
            payload_file: bad.json
            expect: {{exit_code: 1}}
        """)
    done = agenthooks("test", str(fixture))
    assert done.code == 1
    assert "✓ expected to fail" in done.out
    assert 'exit_code:\n      expected "0 or 2"\n      actual   1' in done.out
    assert "agenthooks: error:" in done.out  # the run's stderr, under the failure


# -- invalid fixture files


BAD_KEYS = """\
cases:
  - name: misspelt
    event: PreToolUse
    payload: {toolCall: {name: run_command}}
    expect:
      decison: deny
      handlers: {ran: [safety-gate], notran: [x]}
  - name: misspelt
    event: PreToolUs
    expect: {decision: block}
"""


def test_unknown_keys_exit_2_at_file_line_col(agenthooks: Run, samples: Path,
                                              tmp_path: Path) -> None:
    fixture = _fixture(tmp_path / "bad.hooktest.yaml", f"workspace: {samples}\n" + BAD_KEYS)
    done = agenthooks("test", str(fixture))
    assert done.code == 2
    err = done.err
    assert (f"{fixture}:7:7: error [fixture-unknown-key] unknown key 'decison'; "
            "did you mean 'decision'?") in err
    assert "   7 |       decison: deny\n     |       ^" in err
    assert (f"{fixture}:8:38: error [fixture-unknown-key] unknown key 'notran'; "
            "did you mean 'not_ran'?") in err
    assert f"{fixture}:9:11: error [fixture-duplicate] case name 'misspelt'" in err
    assert (f"{fixture}:10:12: error [fixture-value] unknown event 'PreToolUs': "
            "did you mean 'PreToolUse'?") in err
    assert f"{fixture}:11:24: error [fixture-value] unknown decision 'block'; did you mean " \
        "'deny'?" in err
    assert "no case ran" in err
    assert done.out == ""


def test_an_invalid_file_stops_every_case(agenthooks: Run, samples: Path,
                                          tmp_path: Path) -> None:
    """One bad file among good ones: nothing runs (exit 2), as a test suite that does not load."""
    _fixture(tmp_path / "good.hooktest.yaml",
             f"workspace: {samples}\ncases:\n  - {{name: ok, event: Stop}}\n")
    _fixture(tmp_path / "bad.hooktest.json",
             f'{{"workspace": "{samples}",\n "cases": [{{"name": "x", "event": "Stop",\n'
             '   "expect": {"exitcode": 0}}]}\n')
    done = agenthooks("test", str(tmp_path), "--format", "json")
    assert done.code == 2
    document = json.loads(done.out)
    [diagnostic] = document["diagnostics"]
    assert (diagnostic["line"], diagnostic["column"]) == (3, 15)
    assert diagnostic["message"] == "unknown key 'exitcode'; did you mean 'exit_code'?"
    assert "cases" not in document


@pytest.mark.parametrize(("text", "where", "message"), [
    ("cases: []\n", "1:8", "`cases` must be a non-empty list of cases"),
    ("- name: x\n", "1:1", "a fixture file is an object"),
    ("cases:\n  - name: x\n    event: Stop\n    payload_file: nowhere.json\n", "4:19",
     "nowhere.json"),
    ("cases:\n  - name: x\n    event: Stop\n    payload_file: /dev/zero\n", "4:19",
     "/dev/zero is a character device, not a payload file"),
    ("cases:\n  - name: x\n    event: Stop\n    env: {DEBUG: yes}\n", "4:18",
     "env DEBUG: the value must be text, not True (quote it)"),
    ("cases:\n  - name: x\n    event: Stop\n    payload: {when: 2024-01-01}\n", "4:21",
     "is not a JSON value: quote it"),
    ("cases:\n  - {name: x, event: Stop, expect: {exit_code: 300}}\n", "2:48",
     "`exit_code` must be a whole number from 0 to 255"),
    ("cases:\n  - {event: Stop}\n", "2:5", "a case needs `name:`"),
    ("cases:\n  - name: x\n    event: Stop\n   bad: [\n", "4:4", "not valid YAML"),
])
def test_fixture_errors(agenthooks: Run, samples: Path, tmp_path: Path, text: str, where: str,
                        message: str) -> None:
    fixture = _fixture(tmp_path / "f.hooktest.yaml", text)
    done = agenthooks("test", str(fixture), "--workspace", str(samples))
    assert done.code == 2, done.out + done.err
    assert f"{fixture}:{where}: error [fixture-" in done.err
    assert message in done.err


def test_json_positions_count_tabs_and_find_duplicates(agenthooks: Run, samples: Path,
                                                       tmp_path: Path) -> None:
    fixture = tmp_path / "t.hooktest.json"
    fixture.write_text('{\n\t"cases": [\n\t\t{"name": "a", "event": "Stop",\n'
                       '\t\t "expect": {"decison": "allow", "blocked": false, '
                       '"blocked": true}}]}\n')
    done = agenthooks("test", str(fixture), "--workspace", str(samples))
    assert done.code == 2
    assert f"{fixture}:4:15: error [fixture-unknown-key] unknown key 'decison'" in done.err
    assert f"{fixture}:4:53: error [fixture-duplicate] key 'blocked' is given twice" in done.err
    deep = tmp_path / "deep.hooktest.json"
    deep.write_text('{"cases": [{"name": "a", "event": "Stop", "payload": '
                    + '{"a": ' * 300 + "1" + "}" * 301 + "]}")
    nested = agenthooks("test", str(deep), "--workspace", str(samples))
    assert nested.code == 2
    assert "[fixture-syntax] not valid JSON: nesting deeper than 200 levels" in nested.err


def test_a_missing_path_exits_2_and_no_fixture_exits_0(agenthooks: Run, tmp_path: Path) -> None:
    missing = agenthooks("test", str(tmp_path / "nope.hooktest.yaml"))
    assert missing.code == 2
    assert "no such file or directory" in missing.err
    absent = agenthooks("test", "--workspace", str(tmp_path / "nowhere"))
    assert absent.code == 2
    assert "is not a directory" in absent.err
    empty = agenthooks("test", "--workspace", str(tmp_path))
    assert empty.code == 0
    assert "no *.hooktest.yaml or *.hooktest.json in" in empty.err


# -- formats


def test_junit_parses_with_the_standard_library(agenthooks: Run, sample_copy: Path,
                                                tmp_path: Path) -> None:
    _fixture(sample_copy / ".agents" / "tests" / "wrong.hooktest.yaml", FAILING)
    report = tmp_path / "junit.xml"
    done = agenthooks("test", "--workspace", str(sample_copy), "--format", "junit",
                      "-o", str(report))
    assert done.code == 1
    assert done.out == ""
    assert "20 passed, 1 failed" in done.err
    root = ET.parse(report).getroot()
    assert root.tag == "testsuites"
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("21", "1", "0")
    suites = {os.path.relpath(suite.get("name", ""), sample_copy): suite
              for suite in root.iter("testsuite")}
    assert set(suites) == {".agents/tests/hooks_json.hooktest.yaml",
                           ".agents/tests/dialects.hooktest.yaml",
                           ".agents/tests/wrong.hooktest.yaml",
                           ".harness/tests/markdown.hooktest.yaml"}
    wrong = suites[".agents/tests/wrong.hooktest.yaml"]
    assert (wrong.get("tests"), wrong.get("failures")) == ("2", "1")
    cases = {case.get("name"): case for case in wrong.iter("testcase")}
    failure = cases["expects the wrong decision"].find("failure")
    assert failure is not None
    assert failure.get("message") == 'decision: expected "allow", got "deny"'
    assert failure.text is not None and "safety-gate" in failure.text
    assert cases["passes"].find("failure") is None
    assert cases["passes"].get("classname", "").endswith("sample_hooks.agents.tests.wrong")
    for case in root.iter("testcase"):
        assert float(case.get("time", "-1")) >= 0


def test_a_report_into_a_missing_folder_is_one_line_before_any_case(
        agenthooks: Run, samples: Path, tmp_path: Path) -> None:
    report = tmp_path / "nowhere" / "junit.xml"
    done = agenthooks("test", "--workspace", str(samples), "--format", "junit",
                      "-o", str(report))
    assert (done.code, done.out) == (1, "")
    assert done.err == (f"agenthooks: error: cannot write {report}: no such folder "
                        f"{report.parent}\n")


def test_junit_to_stdout(agenthooks: Run, samples: Path) -> None:
    done = agenthooks("test", "--workspace", str(samples), "--format", "junit")
    assert done.code == 0
    root = ET.fromstring(done.out)
    assert root.get("failures") == "0"
    assert len(list(root.iter("testcase"))) == 19


def test_json_format(agenthooks: Run, sample_copy: Path) -> None:
    fixture = _fixture(sample_copy / ".agents" / "tests" / "wrong.hooktest.yaml", FAILING)
    done = agenthooks("test", str(fixture), "--format", "json")
    assert done.code == 1
    document = json.loads(done.out)
    assert (document["passed"], document["failed"]) == (1, 1)
    failed = document["cases"][0]
    assert failed["passed"] is False and failed["exitCode"] == 2 and failed["line"] == 2
    fields = [mismatch["field"] for mismatch in failed["mismatches"]]
    assert fields == ["decision", "blocked", "reason", "handlers.not_ran"]
    assert failed["report"]["handlers"][0]["hook"] == "safety-gate"


# -- --record


@pytest.mark.parametrize("name", ["golden.hooktest.yaml", "golden.hooktest.json"])
def test_record_round_trip(agenthooks: Run, samples: Path, tmp_path: Path, name: str) -> None:
    output = tmp_path / name
    payloads = [str(samples / "payloads" / f"{stem}.json")
                for stem in ("pre_tool_use_denied", "pre_tool_use_ask", "md_fork_bomb",
                             "md_secret_in_command")]
    done = agenthooks("test", "--record", *payloads, "--event", "PreToolUse",
                      "--workspace", str(samples), "-o", str(output))
    assert done.code == 0, done.err
    text = output.read_text()
    document = yaml.safe_load(text) if name.endswith(".yaml") else json.loads(text)
    if name.endswith(".json"):
        assert text.lstrip().startswith("{")
    cases = {case["name"]: case for case in document["cases"]}
    assert list(cases) == ["pre_tool_use_denied", "pre_tool_use_ask", "md_fork_bomb",
                           "md_secret_in_command"]
    assert cases["pre_tool_use_denied"]["expect"] == {
        "decision": "deny", "blocked": True,
        "reason": "Refusing to run a recursive force delete: rm -rf build/"}
    assert cases["pre_tool_use_ask"]["payload"]["toolCall"]["args"]["CommandLine"] == \
        "git push origin main"
    assert cases["md_secret_in_command"]["expect"] == {"decision": "modify", "blocked": False}
    assert os.path.normpath(tmp_path / document["workspace"]) == str(samples)
    replay = agenthooks("test", str(output))
    assert replay.code == 0, replay.out
    assert "4 passed, 0 failed" in replay.out


def test_record_adds_to_an_existing_file(agenthooks: Run, samples: Path,
                                         tmp_path: Path) -> None:
    output = tmp_path / "golden.hooktest.yaml"
    first = agenthooks("test", "--record", str(samples / "payloads" / "stop.json"),
                       "--event", "Stop", "--workspace", str(samples), "-o", str(output))
    second = agenthooks("test", "--record", str(samples / "payloads" / "pre_tool_use_denied.json"),
                        "--event", "PreToolUse", "--workspace", str(samples), "-o", str(output))
    assert (first.code, second.code) == (0, 0)
    cases = yaml.safe_load(output.read_text())["cases"]
    assert [(case["name"], case["event"]) for case in cases] == [
        ("stop", "Stop"), ("pre_tool_use_denied", "PreToolUse")]
    assert agenthooks("test", str(output)).code == 0
    # Written whole through agenthooks.userfiles: the first recording kept beside it.
    backup = tmp_path / "golden.hooktest.yaml.bak"
    assert [c["name"] for c in yaml.safe_load(backup.read_text())["cases"]] == ["stop"]
    assert f"what it replaced is kept in {backup}" in second.err


def test_record_writes_through_a_linked_fixture(agenthooks: Run, samples: Path,
                                                tmp_path: Path) -> None:
    real = tmp_path / "shared" / "golden.hooktest.yaml"
    real.parent.mkdir()
    real.write_text("cases: []\n")
    link = tmp_path / "golden.hooktest.yaml"
    link.symlink_to(real)
    done = agenthooks("test", "--record", str(samples / "payloads" / "stop.json"),
                      "--event", "Stop", "--workspace", str(samples), "-o", str(link))
    assert done.code == 0, done.err
    assert link.is_symlink()
    assert [c["name"] for c in yaml.safe_load(real.read_text())["cases"]] == ["stop"]


def test_record_needs_event_and_output(agenthooks: Run, samples: Path) -> None:
    payload = str(samples / "payloads" / "stop.json")
    assert "--record needs --event" in agenthooks("test", "--record", payload, "-o", "x.yaml").err
    assert "--record needs -o FILE" in agenthooks("test", "--record", payload,
                                                  "--event", "Stop").err
    unknown = agenthooks("test", "--record", payload, "--event", "AfterAgent", "-o", "x.yaml")
    assert unknown.code == 2
    assert "AfterAgent is another host's event name; here it is 'Stop'" in unknown.err


# -- how cases run


def test_isolate_home(agenthooks: Run, tmp_path: Path, home: Path) -> None:
    """A hook that reads $HOME sees a fresh temporary directory, unless the case opts out."""
    workspace = _workspace(tmp_path / "ws", {"echo": ECHO_HOOK})
    fixture = _fixture(workspace / ".agents" / "tests" / "home.hooktest.yaml", f"""\
        cases:
          - name: a temporary home
            event: PreToolUse
            tool: run_command
            expect: {{system_message: "/^home=/.*agenthooks-test-home-[^/ ]+ greeting=none$/"}}
          - name: the caller's home
            event: PreToolUse
            tool: run_command
            isolate_home: false
            env: {{GREETING: hello}}
            expect: {{system_message: "home={home} greeting=hello"}}
          - name: a temporary home is not the caller's
            event: PreToolUse
            tool: run_command
            expect: {{system_message: "home={home} "}}
        """)
    done = agenthooks("test", str(fixture))
    assert done.code == 1
    assert "✓ a temporary home (" in done.out
    assert "✓ the caller's home (" in done.out
    assert "✗ a temporary home is not the caller's" in done.out
    assert "agenthooks-test-home-" in done.out.split("✗ a temporary home is not")[1]


def test_the_callers_agenthooks_settings_do_not_leak(agenthooks: Run, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """AGENTHOOKS_FAIL_CLOSED in the caller's environment would turn a failing hook into a
    deny; a case sees it only when its own `env` sets it."""
    workspace = _workspace(tmp_path / "ws", {"broken": FAILING_HOOK})
    monkeypatch.setenv("AGENTHOOKS_FAIL_CLOSED", "1")
    fixture = _fixture(workspace / ".agents" / "tests" / "env.hooktest.yaml", """\
        cases:
          - name: a failing hook is a warning
            event: PreToolUse
            tool: run_command
            expect: {decision: null, blocked: false, exit_code: 0, handlers: {ran: [broken]}}
          - name: fail-closed when the case asks for it
            event: PreToolUse
            tool: run_command
            env: {AGENTHOOKS_FAIL_CLOSED: "1"}
            expect: {decision: deny, blocked: true, reason: "fail-closed: hook 'broken'"}
        """)
    done = agenthooks("test", str(fixture))
    assert done.code == 0, done.out


def test_python_hooks_are_passed_through(agenthooks: Run, samples: Path, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "team_policy.py").write_text(textwrap.dedent("""\
        from agenthooks import policy

        def register(hooks):
            hooks.on("PreToolUse", policy.enforce([
                policy.deny("run_command", when=lambda args: "curl" in args.get("CommandLine", ""),
                            name="no-network"),
            ]))
        """))
    monkeypatch.chdir(tmp_path)
    fixture = _fixture(tmp_path / "py.hooktest.yaml", f"""\
        workspace: {samples}
        cases:
          - name: curl is denied by the Python policy
            event: PreToolUse
            payload: {{toolCall: {{name: run_command, args: {{CommandLine: curl example.com}}}}}}
            expect:
              decision: deny
              reason: "denied by policy 'no-network'"
              handlers: {{ran: [policy], not_ran: [safety-gate]}}
        """)
    without = agenthooks("test", str(fixture))
    assert without.code == 1
    done = agenthooks("test", str(fixture), "--python", "team_policy:register")
    assert done.code == 0, done.out


def test_a_hung_case_times_out_and_leaves_nothing(agenthooks: Run, tmp_path: Path) -> None:
    marker = tmp_path / "pid"
    hung = f"#!/bin/sh\necho $$ > {marker}\nexec sleep 300\n"
    workspace = _workspace(tmp_path / "ws", {"hung": hung})
    fixture = _fixture(workspace / ".agents" / "tests" / "t.hooktest.yaml", """\
        cases:
          - {name: hangs, event: PreToolUse, tool: run_command}
        """)
    done = agenthooks("test", str(fixture), "--timeout", "3")
    assert done.code == 1
    assert "timed out after 3 s" in done.out
    pid = int(marker.read_text())
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_the_installed_command(installed_agenthooks: Path, samples: Path) -> None:
    """The console script, as CI and pre-commit call it."""
    import subprocess

    done = subprocess.run([str(installed_agenthooks), "test", "--workspace", str(samples)],
                          capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "19 passed" in done.stdout
    assert sys.executable  # cases run with the interpreter of the command itself


@default_dispositions()
def test_ctrl_c_ends_every_run(tmp_path: Path) -> None:
    """The runs are in sessions of their own, out of the terminal's reach: an interrupt of
    `agenthooks test` must end them (and their hooks) itself, at once."""
    import signal
    import subprocess
    import time

    marker = tmp_path / "pid"
    hung = f"#!/bin/sh\necho $$ > {marker}\nexec sleep 300\n"
    workspace = _workspace(tmp_path / "ws", {"hung": hung})
    _fixture(workspace / ".agents" / "tests" / "t.hooktest.yaml", """\
        cases:
          - {name: hangs, event: PreToolUse, tool: run_command}
        """)
    process = subprocess.Popen([sys.executable, "-m", "agenthooks", "test", "--workspace",
                                str(workspace)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while not (marker.exists() and marker.read_text().strip()):
            assert time.monotonic() < deadline, "the hook never started"
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=30)  # long before the hook times out (60 s)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode != 0
    pid = int(marker.read_text())
    deadline = time.monotonic() + 10
    while True:  # the hook may still be being reaped by its own parent
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        assert time.monotonic() < deadline, f"hook process {pid} outlived the interrupt"
        time.sleep(0.05)


def test_yaml_aliases_cannot_expand_without_end(agenthooks: Run, samples: Path,
                                                tmp_path: Path) -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 9)]
    lines.append("cases: [{name: x, event: Stop, payload: {p: *a8}}]")
    fixture = _fixture(tmp_path / "laughs.hooktest.yaml", "\n".join(lines) + "\n")
    done = agenthooks("test", str(fixture), "--workspace", str(samples))
    assert done.code == 2
    assert "[fixture-syntax] more than 1000000 values (YAML aliases?)" in done.err


def test_a_fixture_path_that_is_a_fifo_is_named_as_such(agenthooks: Run, tmp_path: Path) -> None:
    fifo = tmp_path / "x.hooktest.yaml"
    os.mkfifo(fifo)
    done = agenthooks("test", str(fifo))  # never a wait for a writer
    assert done.code == 2
    assert "is a FIFO (named pipe), not a fixture file" in done.err
