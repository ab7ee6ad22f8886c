"""Markdown hooks through the engine: decisions, order, composition, with real Starlark."""

from __future__ import annotations

import json
import os
import stat
import time
from pathlib import Path

import pytest

from agenthooks.model.decision import Decision
from tests.sources.markdown.conftest import call

BLOCK = 'def handle(event, payload):\n    return block("no: " + payload["name"])\n'
ALLOW = "def handle(event, payload):\n    return allow()\n"

# Seed 004's command_guard, character for character (frontmatter and body).
COMMAND_GUARD = '''---
event: tool.pre
priority: 10
when: payload["name"] == "run_command"
script: |
  def handle(event, payload):
      cmd = payload.get("args", {}).get("command", "")
      dangerous = [
          "rm -rf /",
          ":(){ :|:& };:",
          "mkfs",
          "dd if=",
          "shutdown",
      ]
      for d in dangerous:
          if d in cmd:
              metrics.incr("audit.policy.deny")
              return block("dangerous command pattern blocked: '" + d + "'")
      return allow()
---

# command_guard

Hard-blocks well-known destructive shell patterns. Pair with the systemd
unit (`deploy/systemd/harness.service`) for real isolation.
'''


def names(result) -> list[str]:  # type: ignore[no-untyped-def]
    return [outcome.name for outcome in result.hooks]


def test_seed_command_guard_runs_unchanged_on_both_host_shapes(write, load) -> None:
    write("command_guard", text=COMMAND_GUARD)
    hooks = load()
    denied = hooks.run("PreToolUse", call(command="sudo rm -rf / --no-preserve-root"))
    assert denied.blocked and denied.exit_code == 2
    assert denied.output["reason"] == (
        "blocked by hook \"command_guard\": dangerous command pattern blocked: 'rm -rf /'"
    )
    claude = {"tool_name": "run_command", "tool_input": {"command": "mkfs.ext4 /dev/sda"}}
    assert hooks.run("PreToolUse", claude).blocked
    assert not hooks.run("PreToolUse", call(command="ls -la")).blocked
    # `when` is false for other tools: the hook does not run at all
    other = hooks.run("PreToolUse", call("view_file", command="rm -rf /"))
    assert not other.blocked and other.hooks == ()


def test_allow_block_modify_and_none(write, load) -> None:
    write("a", script=ALLOW)
    write("b", script="def handle(event, payload):\n    pass\n")
    write("c", script='def handle(event, payload):\n'
                      '    return modify({"args": {"x": payload["args"]["x"] + 1}})\n')
    result = load().run("PreToolUse", call(x=1))
    assert [(o.name, o.decision) for o in result.hooks] == [
        ("a", Decision.allow()), ("b", Decision.allow()), ("c", Decision.modify({"x": 2})),
    ]
    assert result.updated_args == {"x": 2} and not result.blocked


def test_a_script_that_redefines_a_prelude_name_changes_only_its_own_module(write, load) -> None:
    # Every hook's module loads the one frozen prelude: a name rebound in one is its own.
    write("a", script='def allow():\n    return block("mine")\n'
                      'def handle(event, payload):\n    return allow()\n')
    write("b", script=ALLOW, priority=-1)
    write("c", script=ALLOW, priority=1)
    result = load().run("PreToolUse", call())
    assert [(o.name, o.decision) for o in result.hooks] == [
        ("b", Decision.allow()), ("a", Decision.deny('blocked by hook "a": mine')),
    ]


def test_dict_decisions_as_seed_004_writes_them(write, load) -> None:
    write("a", script='def handle(event, payload):\n    return {"action": "allow"}\n')
    write("b", script='def handle(event, payload):\n'
                      '    return {"action": "block", "reason": "dict says no"}\n')
    result = load().run("PreToolUse", call())
    assert result.output["reason"] == 'blocked by hook "b": dict says no'


def test_priority_then_file_name_order_and_first_block_wins(write, load) -> None:
    log = 'def handle(event, payload):\n    return allow()\n'
    write("z_first", script=log, priority=-5)
    write("b_tie", script=BLOCK, priority=3)
    write("a_tie", script=log, priority=3)
    write("late", script=BLOCK, priority=9)
    result = load().run("PreToolUse", call())
    assert names(result) == ["z_first", "a_tie", "b_tie"]  # late never ran
    assert result.output["reason"] == 'blocked by hook "b_tie": no: run_command'


def test_modify_chains_to_later_hooks_and_into_a_command_handlers_stdin(
    write, load, workspace: Path
) -> None:
    write("a_redact", priority=1, script='''
        def handle(event, payload):
            args = dict(payload["args"])
            args["CommandLine"] = re.sub("ghp_[A-Za-z0-9]+", "[REDACTED]", args["CommandLine"])
            return modify({"args": args})
    ''')
    write("b_sees", priority=2, script='''
        def handle(event, payload):
            if "ghp_" in payload["args"]["CommandLine"]:
                return block("saw the secret")
            if "[REDACTED]" not in payload["toolCall"]["args"]["CommandLine"]:
                return block("the payload's own shape was not rewritten")
    ''')
    agents = workspace / ".agents"
    agents.mkdir()
    (agents / "hooks.json").write_text(json.dumps({"capture": {"PreToolUse": [
        {"matcher": "", "hooks": [{"type": "command", "command": "cat > stdin.json"}]}]}}))
    result = load().run("PreToolUse", call(CommandLine="curl -u x:ghp_abc123 https://x"))
    assert not result.blocked, result.output
    seen = json.loads((agents / "stdin.json").read_text())
    assert seen["toolCall"]["args"] == {"CommandLine": "curl -u x:[REDACTED] https://x"}
    assert "name" not in seen and "args" not in seen  # the script's view is not passed on
    assert seen["workspacePaths"] == ["/workspace/project"]


def test_modify_keeps_the_claude_shape(write, load) -> None:
    write("m", script='def handle(event, payload):\n'
                      '    return modify({"args": {"command": "ls"}})\n')
    result = load().run("PreToolUse", {"tool_name": "Bash", "tool_input": {"command": "rm"}})
    assert result.updated_args == {"command": "ls"}


def test_mutating_the_payload_changes_nothing(write, load) -> None:
    write("a", priority=1, script='''
        def handle(event, payload):
            payload["args"]["x"] = "changed"
            payload["toolCall"]["name"] = "other"
            return allow()
    ''')
    write("b", priority=2, script='''
        def handle(event, payload):
            if payload["args"]["x"] != "kept" or payload["name"] != "run_command":
                return block("saw a mutation")
    ''')
    result = load().run("PreToolUse", call(x="kept"))
    assert not result.blocked and result.updated_args is None


def test_modify_of_fields_other_than_args_is_a_failure(write, load) -> None:
    write("m", script='def handle(event, payload):\n'
                      '    return modify({"workspacePaths": []})\n')
    result = load().run("PreToolUse", call())
    assert result.blocked
    assert "can only rewrite payload[\"args\"]" in result.output["reason"]


def test_handle_gets_the_files_event_word(write, load) -> None:
    write("w", event="agent.stop", script='''
        def handle(event, payload):
            if event != "agent.stop":
                fail("event was " + event)
            return block("keep going")
    ''')
    result = load().run("Stop", {})
    assert result.blocked and "keep going" in json.dumps(result.output)


@pytest.mark.parametrize("script", [
    "def handle(event, payload):\n    fail('boom')\n",
    "def handle(event, payload):\n    return 42\n",
    "def handle(event, payload):\n    return {'action': 'maybe'}\n",
    "def handle(event, payload):\n    return alow()\n",  # does not compile
])
def test_errors_fail_closed_on_tool_pre_and_open_with_on_error_allow(write, load, script) -> None:
    path = write("broken", script=script)
    result = load().run("PreToolUse", call())
    assert result.blocked
    assert result.output["reason"].startswith("hook 'broken' failed: ")
    path.write_text(path.read_text().replace("event: tool.pre", "event: tool.pre\non_error: allow"))
    opened = load().run("PreToolUse", call())
    assert not opened.blocked
    assert any("hook 'broken' failed" in w for w in opened.warnings)
    # the operator's switch beats the author's
    assert load().run("PreToolUse", call(), fail_closed=True).blocked


def test_when_errors_are_failures_not_a_silent_no_match(write, load) -> None:
    write("w", when='payload["nope"] == 1', script=ALLOW)
    result = load().run("PreToolUse", call())
    assert result.blocked and "`when` predicate" in result.output["reason"]


def test_when_may_call_the_scripts_functions(write, load) -> None:
    write("w", when="is_shell(payload)", script='''
        def is_shell(p):
            return p["name"] == "run_command"

        def handle(event, payload):
            return block("shell")
    ''')
    hooks = load()
    assert hooks.run("PreToolUse", call()).blocked
    assert not hooks.run("PreToolUse", call("view_file")).blocked


def test_a_failure_on_another_event_is_a_warning(write, load) -> None:
    write("post", event="tool.post", script="def handle(event, payload):\n    fail('x')\n")
    result = load().run("PostToolUse", call())
    assert not result.blocked
    assert any("hook 'post' failed" in w and "x" in w for w in result.warnings)


def test_a_runaway_loop_is_cancelled_and_reported_as_a_timeout(write, load) -> None:
    write("spin", timeout_ms=50, script='''
        def handle(event, payload):
            n = 0
            for i in range(2147483647):
                for j in range(2147483647):
                    n += 1
            return allow()
    ''')
    hooks = load()
    started = time.monotonic()
    result = hooks.run("PreToolUse", call())
    elapsed = time.monotonic() - started
    assert elapsed < 5  # cancelled, not run to its end (which would take years)
    assert result.blocked
    assert "timed out after 50 ms" in result.output["reason"]
    assert ".harness/hooks/spin.md:" in result.output["reason"]


def test_a_runaway_when_is_cancelled_too(write, load) -> None:
    write("spin", timeout_ms=30, when="spin()", script='''
        def spin():
            for i in range(2147483647):
                pass
            return True

        def handle(event, payload):
            return allow()
    ''')
    result = load().run("PreToolUse", call())
    assert result.blocked and "timed out after 30 ms" in result.output["reason"]


def test_log_and_metrics_records(write) -> None:
    """log() and metrics.* record per call, in order, for the run report."""
    from agenthooks.kinds import starlark as kind
    from agenthooks.kinds.inprocess.context import Context, turn_for
    from agenthooks.kinds.inprocess.frozen import freeze
    from agenthooks.kinds.markdown import MarkdownHook, view
    from agenthooks.sources.discovery import discover_all
    from agenthooks.sources.markdown.files import load_markdown

    write("audit", script='''
        def handle(event, payload):
            log("saw " + payload["name"])
            metrics.incr("calls")
            metrics.incr("weighted", n=3)
            metrics.set("last_step", payload["stepIdx"])
    ''')
    md = load_markdown(discover_all(no_user=True).markdown)[0]
    assert md.front is not None
    hook = MarkdownHook(md.name, md.source.path, md.front)
    doc = {"stepIdx": 7, "toolCall": {"name": "t", "args": {}}}
    ctx = Context("PreToolUse", freeze(doc), "t", freeze({}), turn_for(None))
    records: list[dict[str, object]] = []
    _, text = view(ctx, "tool.pre")
    hook._call(kind.HANDLE_FUNCTION, "handle", text, records)
    assert records == [
        {"log": "saw t"},
        {"metric": "calls", "op": "incr", "value": 1},
        {"metric": "weighted", "op": "incr", "value": 3},
        {"metric": "last_step", "op": "set", "value": 7},
    ]


@pytest.mark.parametrize(("script", "expected"), [
    ('def handle(event, payload):\n    return re.match("a(b)?c", "ac")\n', ["ac", None]),
    ('def handle(event, payload):\n    return re.search("(\\\\d+)", "ab12")\n', ["12", "12"]),
    ('def handle(event, payload):\n    return re.findall("[a-z]=(\\\\d)", "a=1 b=2")\n',
     ["1", "2"]),
    ('def handle(event, payload):\n    return re.sub("\\\\d", "#", "a1b2")\n', "a#b#"),
    ('def handle(event, payload):\n    return json.decode(json.encode({"k": [1]}))\n',
     {"k": [1]}),
])
def test_re_and_json_builtins(write, script, expected) -> None:
    from agenthooks.kinds import starlark as kind
    from agenthooks.kinds.markdown import MarkdownHook
    from agenthooks.sources.discovery import discover_all
    from agenthooks.sources.markdown.files import load_markdown

    write("r", script=script)
    md = load_markdown(discover_all(no_user=True).markdown)[0]
    assert md.front is not None
    hook = MarkdownHook(md.name, md.source.path, md.front)
    assert hook._call(kind.HANDLE_FUNCTION, "handle", "{}", None) == expected


@pytest.mark.parametrize("script", [
    'load("//x.star", "y")\ndef handle(event, payload):\n    return allow()\n',
    'def handle(event, payload):\n    return open("/etc/passwd")\n',
    'def handle(event, payload):\n    return os.environ\n',
    'def handle(event, payload):\n    return getenv("HOME")\n',
    'def handle(event, payload):\n    return __import__("os")\n',
    'def handle(event, payload):\n    print("x")\n',
    'def handle(event, payload):\n    return exec("x")\n',
])
def test_sandbox_escapes_are_refused(write, load, isolated: Path, script) -> None:
    write("escape", script=script)
    result = load().run("PreToolUse", call())
    assert result.blocked
    assert result.output["reason"].startswith("hook 'escape' failed: ")
    assert "does not compile" in result.output["reason"]


def test_getattr_reaches_nothing_outside(write, load) -> None:
    write("escape", script='''
        def handle(event, payload):
            return block(str([hasattr(json, "__class__"), hasattr(re, "_compile"), dir(metrics)]))
    ''')
    result = load().run("PreToolUse", call())
    assert result.output["reason"].endswith('[False, False, ["incr", "set"]]')


def test_a_file_with_frontmatter_errors_is_a_skipped_file(write, load) -> None:
    write("bad", event="PreToolUse")
    write("good", script=BLOCK)
    hooks = load()
    assert [f.source.path for f in hooks.skipped_files] == [".harness/hooks/bad.md"]
    result = hooks.run("PreToolUse", call())
    assert result.blocked  # the good file still runs
    assert "agenthooks skipped .harness/hooks/bad.md (1 error)" in result.output["systemMessage"]


def test_the_cli_runs_markdown_hooks(write, agenthooks, workspace, monkeypatch) -> None:
    import io

    write("command_guard", text=COMMAND_GUARD)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(
        json.dumps(call(command="shutdown -h now")).encode())))
    outcome = agenthooks("run", "PreToolUse")
    assert outcome.code == 2
    assert json.loads(outcome.out)["decision"] == "deny"


def test_config_names_a_md_file_or_a_harness_folder(write, workspace: Path) -> None:
    from agenthooks.api import load_hooks

    write("a", script=BLOCK)
    write("b", script=ALLOW)
    one = load_hooks(configs=[".harness/hooks/b.md"], cwd=str(workspace))
    assert [h.name for h in one.python_hooks] == ["b"]
    folder = load_hooks(configs=[".harness/hooks"], cwd=str(workspace))
    assert [h.name for h in folder.python_hooks] == ["a", "b"]


def test_custom_events_run_only_through_the_api(write, load) -> None:
    script = 'def handle(event, payload):\n    return block(event + " to " + payload["target"])\n'
    write("c", event="custom.deploy", script=script)
    hooks = load()
    assert hooks.skipped_files == ()
    assert [(h.name, h.event) for h in hooks.python_hooks] == [("c", "custom.deploy")]
    result = hooks.run("custom.deploy", {"target": "prod"})
    assert result.blocked and result.decision.kind == "deny"
    assert result.reason == 'blocked by hook "c": custom.deploy to prod'


def test_discovery_finds_a_root_with_only_markdown_hooks(write, workspace: Path) -> None:
    from agenthooks.api import load_hooks

    write("a", script=BLOCK)
    below = workspace / "src" / "deep"
    below.mkdir(parents=True)
    hooks = load_hooks(no_user=True, cwd=str(below))
    assert [h.name for h in hooks.python_hooks] == ["a"]


def test_a_group_writable_harness_folder_is_not_trusted(write, workspace: Path) -> None:
    from agenthooks.api import load_hooks

    write("a", script=BLOCK)
    folder = workspace / ".harness" / "hooks"
    folder.chmod(folder.stat().st_mode | stat.S_IWGRP)
    hooks = load_hooks(no_user=True, cwd=str(workspace))
    assert hooks.python_hooks == ()
    (skipped,) = hooks.skipped_files  # the file alone, an error: a deny under --fail-closed
    assert [d.rule for d in skipped.errors] == ["unsafe-workspace"]


def test_without_markdown_hooks_nothing_of_it_is_imported(isolated: Path) -> None:
    import subprocess
    import sys

    code = ("import sys; from agenthooks.api import load_hooks; load_hooks(no_user=True);"
            "print(sorted(m for m in sys.modules if m.startswith(('agenthooks.sources.markdown',"
            " 'starlark', 'yaml'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=isolated, env={**os.environ}, check=True)
    assert done.stdout.strip() == "[]"


def test_a_second_run_reads_the_frontmatter_from_the_cache(write, workspace: Path) -> None:
    import subprocess
    import sys

    path = write("a", script=BLOCK)
    code = ("import sys; from agenthooks.api import load_hooks; h = load_hooks(no_user=True);"
            "print([x.name for x in h.python_hooks], 'yaml' in sys.modules)")

    def run() -> str:
        return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              cwd=workspace, check=True).stdout.strip()

    assert run() == "['a'] True"
    assert run() == "['a'] False"  # no YAML parser on the second run
    path.write_text(path.read_text().replace("event: tool.pre", "event: tool.prre"))
    assert run() == "[] True"  # a changed file is read again, and now has an error


# Values of every kind crossing into Starlark and back: the same whether starlark-pyo3's
# `json` is the real module or the codec agenthooks lends it (`kinds.starlark.LentJson`).
CROSSING = ('def handle(event, payload):\n'
            '    a = payload["args"]\n'
            '    return modify({"args": {"n": a["n"] + 1, "big": a["big"] * 2, "f": a["f"] / 2,'
            ' "t": a["t"] + "\\u00e9\\U0001f600", "none": a["none"], "yes": not a["no"],'
            ' "nested": [a["nested"], {"k": ["v", 1.5e300]}]}})\n')
LENDING = """
import json as real_json_first, sys, threading
{prelude}
from agenthooks.api import load_hooks
payload = {{"toolCall": {{"name": "run_command", "args": {{"n": 1, "big": 2**70, "f": 1.25,
    "t": "caf\\u00e9 \\ud7ff", "none": None, "no": False, "nested": [[1, "x"], {{}}]}}}}}}
result = load_hooks(no_user=True).run("PreToolUse", payload)
print(real_json_first.dumps([result.updated_args, "json" in sys.modules]))
"""
CROSSED = {"big": 2 ** 71, "f": 0.625, "n": 2, "nested": [[[1, "x"], {}], {"k": ["v", 1.5e300]}],
           "none": None, "t": "caf\u00e9 \ud7ff\u00e9\U0001f600", "yes": True}


# As `kinds.inprocess.supervise` marks a hook's own process (`agenthooks run` calls hooks in one).
HOOK_PROCESS = ("from agenthooks.kinds.inprocess import supervise\n"
                "supervise._hook_process[0] = True\n")


@pytest.mark.parametrize(("prelude", "lent"), [
    # A hook's process with no json and one thread: the codec is lent.
    (HOOK_PROCESS + "del sys.modules['json']", True),
    (HOOK_PROCESS, False),  # json imported: its own module converts
    (HOOK_PROCESS + "del sys.modules['json']\nthreading.Thread(target=__import__('time').sleep,"
     " args=(2,), daemon=True).start()", False),  # another thread runs: never lent
    ("del sys.modules['json']", False),  # a caller's process (the Python API): never lent
])
def test_values_cross_the_same_with_the_lent_json_codec(write, workspace: Path, prelude: str,
                                                       lent: bool) -> None:
    import subprocess
    import sys

    write("crossing", script=CROSSING)
    code = LENDING.format(prelude=prelude)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=workspace, env={**os.environ}, check=False)
    assert done.returncode == 0, done.stderr
    updated, json_imported = json.loads(done.stdout)
    assert updated == json.loads(json.dumps(CROSSED))
    assert json_imported is not lent  # a lent codec is gone after the call
