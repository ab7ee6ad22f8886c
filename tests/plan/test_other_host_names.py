"""A hooks.json matcher may name a tool in any host's words: `Bash|run_shell_command` selects
the shell tool whoever calls it. Tables of (matcher, calling host, the tool as it calls it)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from agenthooks.model.tools import TOOLS, every_name
from agenthooks.model.toolwords import distance, near_miss, words
from agenthooks.plan.select import selects, tool_in
from tests.support import program, workspace


@pytest.mark.parametrize(("matcher", "caller", "tool", "selected"), [
    # The README's gate: Claude Code's and Gemini CLI's names, under every host.
    ("Bash|run_shell_command", "claude", "Bash", True),
    ("Bash|run_shell_command", "gemini", "run_shell_command", True),
    ("Bash|run_shell_command", "antigravity", "run_command", True),
    ("Bash|run_shell_command", "cursor", "Shell", True),
    ("Bash|run_shell_command", "codex", "Bash", True),
    ("Bash|run_shell_command", "copilot", "bash", True),
    ("Bash|run_shell_command", "claude", "PowerShell", True),  # the same tool
    ("Bash|run_shell_command", "claude", "Read", False),
    ("Bash|run_shell_command", "gemini", "read_file", False),
    # One name alone (the quick test on the text a name holds must not rule it out).
    ("Bash", "gemini", "run_shell_command", True),
    ("Bash", "antigravity", "run_command", True),
    ("bash", "claude", "Bash", True),  # Copilot CLI's name
    ("Edit", "antigravity", "replace_file_content", True),
    ("Edit", "gemini", "replace", True),
    ("Edit", "claude", "Write", False),  # another tool: no widening
    ("Edit", "claude", "MultiEdit", False),
    ("read_file", "claude", "Read", True),
    # A tool hooks.json has no name for is compared under the caller's name.
    ("TodoWrite", "gemini", "write_todos", True),
    ("write_todos", "claude", "TodoWrite", True),
    ("TodoWrite", "claude", "Read", False),
    # hooks.json's own names, as before.
    ("run_command", "claude", "Bash", True),
    ("run_command|view_file", "gemini", "read_file", True),
    # A name beside a pattern stands for its tool as a list's does (a real gate's matcher)...
    ("Read|NotebookRead|Bash|Grep|mcp__.*", "codex", "Bash", True),
    ("Read|NotebookRead|Bash|Grep|mcp__.*", "gemini", "run_shell_command", True),
    ("Read|NotebookRead|Bash|Grep|mcp__.*", "claude", "mcp__github__create_issue", True),
    ("Read|NotebookRead|Bash|Grep|mcp__.*", "claude", "Write", False),
    ("mcp__.*|Edit", "antigravity", "replace_file_content", True),
    # ...but a name inside a pattern is the pattern's: regexes are read as written there.
    ("Bash.*", "gemini", "run_shell_command", False),
    ("^Bash$", "antigravity", "run_command", False),
    ("(Bash)|mcp__.*", "gemini", "run_shell_command", False),
    ("(?i)bash|mcp__.*", "gemini", "run_shell_command", False),
    ("[|]|Bash\\|x", "gemini", "run_shell_command", False),
    # A misspelling or an unknown name selects only that very name.
    ("run_comand", "antigravity", "run_command", False),
    ("Run_Command", "antigravity", "run_command", False),
    ("my_tool", "claude", "my_tool", True),
    ("Bash", "claude", "mcp__x__Bash", False),
])
def test_a_plain_name_selects_its_tool_under_every_host(matcher: str, caller: str, tool: str,
                                                        selected: bool) -> None:
    assert selects(matcher, True, tool_in(tool, caller, "antigravity")) is selected


def test_no_name_means_two_tools() -> None:
    # What makes another host's name unambiguous: each name, whatever its case, is one tool's.
    owners: dict[str, set[str]] = {}
    for tool in TOOLS:
        for name in every_name(tool):
            owners.setdefault(name.lower(), set()).add(tool.id)
    assert {name: ids for name, ids in owners.items() if len(ids) > 1} == {}


@pytest.mark.parametrize(("a", "b", "apart"), [
    ("run_comand", "run_command", 1),
    ("Run_Command", "run_command", 0),  # case-blind
    ("Edti", "Edit", 1),  # a swap is one step
    ("ls", "rg", 2),
    ("", "abc", 3),
])
def test_distance(a: str, b: str, apart: int) -> None:
    assert distance(a, b) == apart


@pytest.mark.parametrize(("name", "meant"), [
    ("run_comand", "run_command"),
    ("Run_Command", "run_command"),
    ("Bassh", "Bash"),
    ("run_shel_comand", "run_shell_command"),  # two letters in a long name
    ("ls", "LS"),  # short names differ by case alone (deepagents-code's LS): not `rg`
    ("Gerp", "Grep"),
    ("read_bash", None),  # Copilot's own tool, far from every name of the table
    ("NotebookRead", None),  # Claude Code's, likewise
])
def test_near_miss(name: str, meant: str | None) -> None:
    known = [name for tool in TOOLS for name in every_name(tool)]
    assert near_miss(name, known) == meant


@pytest.mark.parametrize(("dialect", "names", "rules"), [
    ("antigravity", ["Bash", "run_shell_command"], ["matcher-other-host"] * 2),
    ("antigravity", ["run_command", "view_file"], []),
    ("antigravity", ["run_comand"], ["matcher-misspelt"]),
    ("antigravity", ["my_tool"], ["matcher-unknown-tool"]),
    ("antigravity", ["mcp__github__create_issue", "browser_click", "mcp_x_y"], []),
    ("gemini", ["Bash"], ["matcher-wrong-host"]),
    ("gemini", ["read"], []),  # Gemini CLI searches anywhere: `read` is part of read_file
    ("claude", ["run_shell_command"], ["matcher-wrong-host"]),
    ("claude", ["BashOutput"], []),  # a tool of Claude Code's the table does not hold
    ("cursor", ["TodoWrite"], []),  # no Cursor name for the tool: nothing to say it by
    ("codex", ["Write", "Edit", "Agent"], []),  # Codex's matcher aliases
    ("codex", ["run_shell_command"], ["matcher-wrong-host"]),
    ("cursor", ["Bash"], ["matcher-wrong-host"]),
    ("copilot", ["Bash", "bash"], []),
])
def test_words(dialect: str, names: list[str], rules: list[str]) -> None:
    also = ("Write", "Edit", "Agent") if dialect == "codex" else ()
    found = words(dialect, names, anywhere=dialect == "gemini", also=also)
    assert [word.rule for word in found] == rules


def test_the_message_names_whose_name_it_is_and_the_word_meant() -> None:
    (other,) = words("antigravity", ["run_shell_command"])
    # Qwen Code, a fork of Gemini CLI, names its tools as Gemini CLI does.
    assert "Gemini CLI and Qwen Code's name for the shell tool" in other.message
    assert "`run_command` here" in other.message
    (wrong,) = words("gemini", ["Bash"], anywhere=True)
    assert "Gemini CLI calls it 'run_shell_command'" in wrong.message
    (typo,) = words("antigravity", ["run_comand"])
    assert "did you mean 'run_command'" in typo.message


HOOKS = {"gate": {"PreToolUse": [{"matcher": "Bash|run_shell_command", "hooks": [
    {"type": "command", "command": "echo 'no shell here' >&2; exit 2"}]}]}}


@pytest.mark.program
def test_a_gate_in_claude_and_gemini_words_denies_under_both(tmp_path: Path) -> None:
    project = workspace(tmp_path / "project", {".agents/hooks.json": HOOKS})
    claude = program("run", "PreToolUse", "--host", "claude", "--fail-closed", stdin=
                     json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash",
                                 "tool_input": {"command": "rm -rf victim"}}), cwd=project)
    answer = json.loads(claude.stdout)["hookSpecificOutput"]
    assert answer["permissionDecision"] == "deny", claude
    assert answer["permissionDecisionReason"] == "no shell here"
    gemini = program("run", "BeforeTool", "--host", "gemini", "--fail-closed", stdin=
                     json.dumps({"hook_event_name": "BeforeTool",
                                 "tool_name": "run_shell_command",
                                 "tool_input": {"command": "rm -rf victim"}}), cwd=project)
    assert json.loads(gemini.stdout)["decision"] == "deny", gemini
    # Another tool is let through.
    read = program("run", "PreToolUse", "--host", "claude", "--fail-closed", stdin=
                   json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Read",
                               "tool_input": {"file_path": "x"}}), cwd=project)
    assert read.returncode == 0 and "deny" not in read.stdout, read
    # validate says how it reads the names, and a note fails nothing, --strict included.
    checked = program("validate", "--strict", cwd=project)
    assert checked.returncode == 0, checked
    assert "note [matcher-other-host] 'Bash' is Claude Code" in checked.stdout
    assert checked.stdout.strip().endswith("ok: 1 file, no problems, 2 notes")


# A gate written for Claude Code (its payload, its names beside an MCP pattern), in hooks.json.
CANARY = {"gate": {"PreToolUse": [{"matcher": "Read|NotebookRead|Bash|Grep|mcp__.*", "hooks": [
    {"type": "command", "command": sys.executable + " -c \"import json, sys; call = json.load("
     "sys.stdin); sys.exit(2 if call['tool_name'] == 'Bash' and 'rm' in call['tool_input']"
     "['command'] and not print('no rm', file=sys.stderr) else 0)\""}]}]}}
SHELL_CALLS = {
    "claude": ("PreToolUse", {"tool_name": "Bash"}),
    "gemini": ("BeforeTool", {"tool_name": "run_shell_command"}),
    "codex": ("PreToolUse", {"tool_name": "Bash", "turn_id": "t", "model": "m",
                             "permission_mode": "default", "tool_use_id": "call_1",
                             "transcript_path": None}),
}


@pytest.mark.program
@pytest.mark.parametrize("host", sorted(SHELL_CALLS))
def test_a_gate_with_names_beside_a_pattern_acts_under_every_host(tmp_path: Path,
                                                                  host: str) -> None:
    """Selected by the names beside `mcp__.*`, and given the payload of the one host whose
    words they are, whoever calls."""
    project = workspace(tmp_path / "project", {".agents/hooks.json": CANARY})
    event, fields = SHELL_CALLS[host]
    call = {"hook_event_name": event, "session_id": "s", "cwd": str(project),
            "tool_input": {"command": "rm -rf victim"}, **fields}
    done = program("run", event, "--host", host, "--fail-closed", stdin=json.dumps(call),
                   cwd=project)
    assert done.returncode == 2 or "deny" in done.stdout, done
    assert "no rm" in done.stdout + done.stderr, done
    checked = program("validate", "--strict", cwd=project)
    assert "note [matcher-other-host] 'Bash' is Claude Code" in checked.stdout, checked


@pytest.mark.program
def test_a_misspelt_name_fails_validate(tmp_path: Path) -> None:
    hooks = json.loads(json.dumps(HOOKS))
    hooks["gate"]["PreToolUse"][0]["matcher"] = "Run_Command"
    project = workspace(tmp_path / "project", {".agents/hooks.json": hooks})
    checked = program("validate", cwd=project)
    assert checked.returncode == 1, checked
    assert "error [matcher-misspelt]" in checked.stdout
    assert "did you mean 'run_command'" in checked.stdout


@pytest.mark.program
def test_explain_gives_validates_reason(tmp_path: Path) -> None:
    hooks = json.loads(json.dumps(HOOKS))
    hooks["gate"]["PreToolUse"][0]["matcher"] = "run_comand"
    project = workspace(tmp_path / "project", {".agents/hooks.json": hooks})
    workspace(project, {".gemini/settings.json": {"hooks": {"BeforeTool": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "echo g"}]}]}}})
    checked = program("validate", cwd=project)
    said = program("explain", "PreToolUse", "--tool", "Bash", "--format", "json", cwd=project)
    assert said.returncode == 0, said
    for rule in ("matcher-misspelt", "matcher-wrong-host"):
        (line,) = [line for line in checked.stdout.splitlines() if f"[{rule}]" in line]
        message = line.split(f"[{rule}] ", 1)[1]
        assert f"{rule}: {message}" in said.stdout.replace('\\"', '"'), (rule, said.stdout)
    # The host runs the file, and so does agenthooks: the Gemini file is not skipped.
    assert "skipped for errors" not in said.stdout


@pytest.mark.parametrize(("matcher", "names"), [
    ("Bash|run_shell_command", ("run_command",)),
    ("run_command|Edit", ("run_command", "replace_file_content")),
    ("TodoWrite", ("TodoWrite", "write_todos", "update_todo", "vibe.todo", "todo_write",
                   "todos", "todowrite", "todo_list")),  # (none in hooks.json)
    ("my_tool|Bash", ("my_tool", "run_command")),
])
def test_what_a_hooks_json_matcher_selects(matcher: str, names: tuple[str, ...]) -> None:
    # The one meaning list, explain and convert read, the run's own.
    from agenthooks.sources.dialects.matching import Selection, selection

    assert selection("antigravity", matcher, "PreToolUse") == Selection("names", names)


def test_a_hooks_json_pattern_selects_by_the_names_beside_it() -> None:
    # The run's meaning, which list and explain read and convert carries.
    from agenthooks.sources.dialects.matching import Selection, selection

    assert selection("antigravity", "Read|Bash|mcp__.*", "PreToolUse") == Selection(
        "full", pattern="view_file|run_command|mcp__.*", python=True)


def test_convert_carries_another_hosts_names(agenthooks, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".agents").mkdir()
    (tmp_path / ".agents" / "hooks.json").write_text(json.dumps(HOOKS))
    monkeypatch.chdir(tmp_path)
    done = agenthooks("convert", ".agents/hooks.json", "--to", "gemini", "--lossy")
    assert "cannot be carried exactly" not in done.err, done.err
    assert json.loads(done.out)["hooks"]["BeforeTool"][0]["matcher"] == "^run_shell_command$"


def test_a_hosts_file_is_held_to_its_own_names() -> None:
    # Copilot CLI's `skill` may be its own tool: no error for being near Claude Code's Skill.
    assert words("copilot", ["skill"]) == []
    # Elsewhere it is Qwen Code's name for the skill tool, and a near miss of Claude Code's.
    assert [w.rule for w in words("antigravity", ["skill"])] == ["matcher-other-host"]
    assert [w.rule for w in words("antigravity", ["Skil"])] == ["matcher-misspelt"]


def test_a_note_is_a_notice_on_github_and_counts_apart(agenthooks, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".agents").mkdir()
    (tmp_path / ".agents" / "hooks.json").write_text(json.dumps(HOOKS))
    monkeypatch.chdir(tmp_path)
    github = agenthooks("validate", "--format", "github", "--strict")
    assert github.code == 0
    assert github.out.startswith("::notice file=.agents/hooks.json,line=1,")
    assert "title=matcher-other-host" in github.out
    assert github.err == "ok: 1 file, no problems, 2 notes\n"
    data = json.loads(agenthooks("validate", "--format", "json").out)
    assert {d["severity"] for d in data["diagnostics"]} == {"note"}
