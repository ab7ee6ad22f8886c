"""The pure parts of the one selection, as tables: which files a host's run includes, the tool
a handler's matcher sees, and a program wired for several hosts running once."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from agenthooks.model.handlers import Handler, Source
from agenthooks.plan.select import (
    fans_out,
    left_out,
    needed_text,
    once_across,
    selects,
    tool_in,
)
from tests.support import program


def source(dialect: str, path: str = "f") -> Source:
    return Source(path, f"/w/{path}", "/w", "workspace", "/w", dialect=dialect)


@pytest.mark.parametrize(("dialect", "host", "other_hosts", "why"), [
    # Offline, everything runs.
    ("antigravity", None, False, None),
    ("claude", None, False, None),
    ("gemini", None, False, None),
    # hooks.json is written for no one host but Antigravity, which runs its own.
    ("antigravity", "claude", False, None),
    ("antigravity", "gemini", False, None),
    ("antigravity", "antigravity", False, "Antigravity runs this file itself"),
    # A host's own settings: never, whatever --other-hosts says.
    ("claude", "claude", True, "Claude Code runs this file itself"),
    ("gemini", "gemini", False, "Gemini CLI runs this file itself"),
    # Another host's settings: only when asked for.
    ("gemini", "claude", False,
     "Gemini CLI's file, not run under Claude Code without --other-hosts"),
    ("gemini", "claude", True, None),
    ("claude", "gemini", True, None),
    ("claude", "antigravity", False,
     "Claude Code's file, not run under Antigravity without --other-hosts"),
])
def test_which_files_a_hosts_run_includes(dialect: str, host: str | None, other_hosts: bool,
                                          why: str | None) -> None:
    assert left_out(source(dialect), host, other_hosts) == why


@pytest.mark.parametrize(("host", "path", "level", "why"), [
    # Copilot CLI and Cursor read Claude Code's settings and run them themselves: left to
    # them, even with --other-hosts, as their own files are.
    ("copilot", ".claude/settings.json", "workspace",
     "GitHub Copilot CLI runs this Claude Code file itself"),
    ("copilot", ".claude/settings.local.json", "workspace",
     "GitHub Copilot CLI runs this Claude Code file itself"),
    ("cursor", ".claude/settings.json", "user", "Cursor runs this Claude Code file itself"),
    ("cursor", ".claude/settings.local.json", "workspace",
     "Cursor runs this Claude Code file itself"),
    # Copilot CLI reads no user-level Claude Code settings, nor a plugin's hooks.
    ("copilot", ".claude/settings.json", "user", None),
    ("copilot", "plugins/p/hooks/hooks.json", "workspace", None),
    ("codex", ".claude/settings.json", "workspace", None),
])
def test_a_host_leaves_the_files_it_reads_of_another_host_to_itself(
        host: str, path: str, level: str, why: str | None, monkeypatch: pytest.MonkeyPatch
        ) -> None:
    monkeypatch.setenv("HOME", "/w")
    found = Source(path, f"/w/{path}", "/w", level, "/w", dialect="claude")  # type: ignore[arg-type]
    assert left_out(found, host, True) == why


@pytest.mark.parametrize(("tool", "caller", "dialect", "seen"), [
    ("Bash", "claude", "antigravity", "run_command"),
    ("Bash", "claude", "gemini", "run_shell_command"),
    ("run_command", "antigravity", "claude", "Bash"),
    ("write_to_file", "antigravity", "gemini", "write_file"),
    ("Write", "claude", "claude", "Write"),
    ("my_tool", "claude", "antigravity", "my_tool"),  # unknown tools keep their name
    ("mcp__memory__read", "claude", "gemini", "mcp_memory_read"),
    (None, "claude", "gemini", None),
])
def test_a_matcher_sees_the_tool_in_its_own_dialects_words(
        tool: str | None, caller: str, dialect: str, seen: str | None) -> None:
    assert tool_in(tool, caller, dialect) == seen


def handler(dialect: str, command: str, cwd: str = "/w/.agents") -> Handler:
    src = Source("f", "/w/f", "/w", "workspace", cwd, dialect=dialect)
    return Handler(src, command, "PreToolUse", None, command, 10.0, "command", True, "",
                   dialect=dialect)


def test_a_program_wired_for_several_hosts_runs_once_as_its_first() -> None:
    first = (handler("antigravity", "./scripts/gate.py"),)
    then = (handler("claude", "$CLAUDE_PROJECT_DIR/.agents/scripts/gate.py", cwd="/w"),
            handler("gemini", "$GEMINI_PROJECT_DIR/.agents/scripts/other.py", cwd="/w"))
    assert [h.dialect for h in once_across(first, then)] == ["antigravity", "gemini"]


@pytest.mark.parametrize(("command", "itself"), [
    ("agenthooks run PreToolUse", True),
    ("/usr/local/bin/agenthooks run PreToolUse --host claude", True),
    ("'/opt/my tools/agenthooks' run Stop", True),
    ('"/opt/my tools/agenthooks" run Stop', True),
    ("python3 -m agenthooks run PreToolUse", True),
    ("agenthooks.exe run PreToolUse", True),
    ("cd /w && agenthooks run Stop", True),
    ("agenthooks validate", False),
    ("agenthooks", False),
    ("/tmp/agenthooks-trusted-12-ab/w/gate.sh run", False),  # trust's copy of a script
    ("./agenthooks_gate.sh run", False),
    ("echo agenthooksrun", False),
])
def test_agenthooks_itself_is_told_from_commands_that_only_mention_it(command: str,
                                                                      itself: bool) -> None:
    assert fans_out(handler("antigravity", command)) is itself


@pytest.mark.program
def test_agenthooks_registered_in_a_file_it_reads_never_runs_itself(tmp_path: Path) -> None:
    """`agenthooks run` in the hooks.json it reads is the entry point, not a handler: run, it
    would start itself again on every call, without end."""
    hooks = tmp_path / ".agents" / "hooks.json"
    hooks.parent.mkdir()
    hooks.write_text(json.dumps({"entry": {"PreToolUse": [{"matcher": "", "hooks": [
        {"command": "agenthooks run PreToolUse"},
        {"command": f"{sys.executable} -m agenthooks run PreToolUse"},
        {"command": "echo ran >> ../marks"}]}]}}), encoding="utf-8")
    bin_dir = Path(sys.executable).parent
    done = program("run", "PreToolUse", "--no-user",
                   stdin='{"toolCall": {"name": "run_command", "args": {}}}', cwd=tmp_path,
                   home=tmp_path, env={"PATH": f"{bin_dir}:{os.environ.get('PATH', '')}",
                                       "XDG_CONFIG_HOME": str(tmp_path / "config")})
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "marks").read_text() == "ran\n"


# --- patterns ruled out without the regex engine ---------------------------------------------


@pytest.mark.parametrize(("pattern", "needed"), [
    ("browser_.*", ("browser_",)),
    ("mcp_.*", ("mcp_",)),
    ("(invoke|define|manage)_subagents?", ("_subagent",)),
    ("run_command", ("run_command",)),
    ("^abc$", ("abc",)),
    ("a{2}b", ("b",)),  # a count: its digits are not text, and the atom before is repeated
    ("a{,3}bc", ("bc",)),
    ("a{2,x}b", ("2", "x", "b")),  # no count: a plain `{`
    ("[ab]c+d", ("d",)),  # `c+` may repeat: left out
    ("a[]b]c", ("a", "c")),  # `]` first in a class is plain
    ("a[^]x]b", ("a", "b")),
    ("x(y)?z", ("x", "z")),
    # Nothing certain: alternation at the top, an escape, an inline flag, an open class.
    ("a|b", ()),
    ("{?b|}+_", ()),  # `{` that starts no count, then a top-level `|`
    ("ab\\.c", ()),
    ("(?i)browser_.*", ()),
    ("x(?i)y", ()),
    ("a[bc", ()),
    (".*", ()),
])
def test_the_text_every_name_a_pattern_matches_holds(pattern: str,
                                                      needed: tuple[str, ...]) -> None:
    assert needed_text(pattern) == needed


def test_a_name_without_the_needed_text_is_never_matched() -> None:
    # Every pattern of a small alphabet that compiles, against every name of another up to
    # four characters: a match always holds the needed text.
    import itertools
    import random
    import re
    import warnings

    names = ["".join(t) for n in range(5) for t in itertools.product("ab_1{,", repeat=n)]
    rng = random.Random(3)
    checked = matched = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # `[[` and the like: still valid
        for _ in range(3000):
            pattern = "".join(rng.choice("ab_().*?+|[]{}^$1,")
                              for _ in range(rng.randint(1, 8)))
            try:
                compiled = re.compile(pattern)
            except re.error:
                continue
            needed = needed_text(pattern)
            checked += bool(needed)
            for name in filter(compiled.fullmatch, names):
                matched += bool(needed)
                assert all(text in name for text in needed), (pattern, name, needed)
    assert checked > 300 and matched > 500  # the check had cases to catch


@pytest.mark.parametrize(("matcher", "tool", "runs"), [
    ("browser_.*", "browser_click", True),
    ("browser_.*", "run_command", False),
    ("(invoke|define|manage)_subagents?", "manage_subagents", True),
    ("(invoke|define|manage)_subagents?", "list_subagent", False),  # has the text, no match
    ("(invoke|define|manage)_subagents?", "bench_target", False),
    ("mcp_.*", None, False),  # no tool: only match-all matchers
    ("", "anything", True),
    ("*", "anything", True),
])
def test_selects_is_the_matchers_verdict(matcher: str, tool: str | None, runs: bool) -> None:
    assert selects(matcher, True, tool) is runs
    assert selects(matcher, False, tool) is True  # flat events ignore matchers


def test_a_run_whose_patterns_are_ruled_out_imports_no_regex_engine(tmp_path: Path) -> None:
    config = tmp_path / ".agents" / "hooks.json"
    config.parent.mkdir()
    groups = [{"matcher": m, "hooks": [{"command": f"true {i}"}]} for i, m in enumerate(
        ["browser_.*", "mcp_.*", "(invoke|define|manage)_subagents?", "view_file|list_dir"])]
    config.write_text(json.dumps({"h": {"PreToolUse": groups}}))
    code = (
        "import io, sys\n"
        "sys.stdin = io.TextIOWrapper(io.BytesIO(b'{}'))\n"
        "from agenthooks.cli import main\n"
        "main(['run', 'PreToolUse', '--no-user', '--tool', 'run_command', '--config',"
        f" {str(config)!r}])\n"
        "print('re' in sys.modules)\n"
    )
    # The first run checks the file (the checker uses `re`) and caches it; the second does not.
    first, second = (subprocess.run([sys.executable, "-c", code], capture_output=True,
                                    text=True, check=False, timeout=60, cwd=tmp_path)
                     for _ in range(2))
    assert first.stdout.strip().splitlines()[-1] == "True"  # the control
    assert second.returncode == 0, second.stderr
    assert second.stdout.strip().splitlines()[-1] == "False"
