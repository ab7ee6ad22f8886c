"""The Markdown hooks of one `agenthooks run` share a child process (`kinds.inprocess.supervise`):
each still sees the arguments earlier hooks rewrote, and a hook whose process crashes fails
alone, the hooks after it running in a new one. Real runs, real Starlark."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import CliFn
from .test_inprocess_isolation import DEEP, denied, markdown, run

pytestmark = pytest.mark.program

MODIFY = """
    def handle(event, payload):
        return modify({"args": {"CommandLine": "ls -l"}})
"""
SHOW = """
    def handle(event, payload):
        return block("saw " + payload["args"]["CommandLine"])
"""
PASS = """
    def handle(event, payload):
        return None
"""


def test_a_hook_sees_the_arguments_an_earlier_hook_rewrote(cli: CliFn, workspace: Path) -> None:
    markdown(workspace, "a_pass", PASS)
    markdown(workspace, "b_modify", MODIFY)
    markdown(workspace, "c_pass", PASS)
    markdown(workspace, "d_show", SHOW)
    denied(run(cli, workspace), "d_show", "saw ls -l")


def test_the_hooks_after_a_crashed_one_run_in_a_new_process(cli: CliFn, workspace: Path) -> None:
    markdown(workspace, "a_modify", MODIFY)
    markdown(workspace, "b_deep", DEEP.format(use="json.encode(x)"), on_error="allow")
    markdown(workspace, "c_show", SHOW)
    done = run(cli, workspace, closed=False)
    denied(done, "c_show", "saw ls -l")
    assert "b_deep" in done.err and "SIGSEGV" in done.err, done.err


def test_a_crash_fails_closed_and_stops_the_chain(cli: CliFn, workspace: Path) -> None:
    markdown(workspace, "a_pass", PASS)
    markdown(workspace, "b_deep", DEEP.format(use="str(x)"))
    markdown(workspace, "c_show", SHOW)
    reason = denied(run(cli, workspace), "b_deep", "SIGSEGV")
    assert "saw" not in reason
