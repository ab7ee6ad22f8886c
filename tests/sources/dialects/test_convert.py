"""`agenthooks convert`: by table, there and back, validating cleanly, lossy or not."""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path

import pytest

from agenthooks.features.convert import reread
from agenthooks.model.handlers import Handler
from agenthooks.model.tools import tool_name
from agenthooks.sources.dialects.load import check_dialect_file
from agenthooks.sources.dialects.matching import selects
from agenthooks.sources.discovery import discover_all
from agenthooks.sources.hooksjson.loader import check_file
from tests.conftest import REPO

SAMPLES = REPO / "sample_hooks"
PLACES = {
    "antigravity": ".agents/hooks.json",
    "claude": ".claude/settings.json",
    "gemini": ".gemini/settings.json",
}
# Where a converted file is written: a Claude Code or Gemini CLI handler keeps its own host's
# payload in hooks.json (`dialect`), which Antigravity, running its own hooks.json, would not
# give it, so it goes to a file agenthooks alone reads.
OUT_PLACES = {**PLACES, "antigravity": ".agents/agenthooks.json"}
# Tool names to compare what two matchers select: each host's, MCP ones, and look-alikes.
PROBES = ("Bash", "BashOutput", "Edit", "NotebookEdit", "MultiEdit", "Write", "Read",
          "run_shell_command", "replace", "write_file", "read_file", "mcp_x_read_file_v2",
          "run_command", "replace_file_content", "write_to_file", "multi_replace_file_content",
          "view_file", "mcp__memory__x", "startup", "resume")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the sample workspace (scripts included), without any hook file."""
    root = tmp_path / "project"
    shutil.copytree(SAMPLES, root, symlinks=True,
                    ignore=shutil.ignore_patterns(".harness", ".claude", ".gemini", "hooks.json"))
    return root


def handlers_of(path: Path, dialect: str | None = None) -> list[Handler]:
    found = discover_all(configs=[str(path)], dialects=True, dialect=dialect)
    if found.dialect_sources:
        hook_file = check_dialect_file(found.dialect_sources[0]).hook_file
    else:
        hook_file = check_file(found.sources[0])
    assert hook_file.ok, hook_file.diagnostics
    return list(hook_file.handlers)


def meaning(handler: Handler, target: str) -> tuple[object, ...]:
    """What "the same handler" means: command (its words, as the shell passes them on),
    timeout, event and the tools it selects, said in the target dialect's words."""
    from agenthooks.features.convert import translate_tools
    from agenthooks.model.events import counterpart

    chosen = translate_tools(reread(handler.matcher, handler.dialect, handler.event),
                             handler.dialect, target)
    return (counterpart(handler.event, handler.dialect, target), words(handler.command),
            handler.timeout, handler.enabled,
            tuple(probe for probe in PROBES if selects(chosen, probe)))


def words(command: str) -> tuple[str, ...]:
    """A command's words: `"$CLAUDE_PROJECT_DIR"/x` and `$CLAUDE_PROJECT_DIR/x` alike."""
    return tuple(shlex.split(command))


def by_words(document: object) -> object:
    """A settings document with each command as its words, and Claude Code's shell matcher
    as the samples write it: Antigravity's run_command and Gemini CLI's run_shell_command
    are Claude Code's Bash and PowerShell both, so convert names both."""
    if isinstance(document, dict):
        return {key: words(value) if key == "command" else
                "Bash" if key == "matcher" and value == "Bash|PowerShell" else by_words(value)
                for key, value in document.items()}
    if isinstance(document, list):
        return [by_words(item) for item in document]
    return document


@pytest.mark.parametrize("source", ["claude", "gemini"])
@pytest.mark.parametrize("target", ["antigravity", "claude", "gemini"])
def test_there_and_back_yields_the_same_handlers(agenthooks, project: Path, source: str,
                                                 target: str) -> None:
    original = SAMPLES / PLACES[source]
    there = project / OUT_PLACES[target] if target != source else project / "there.json"
    there.parent.mkdir(parents=True, exist_ok=True)
    outcome = agenthooks("convert", str(original), "--to", target, "-o", str(there))
    assert (outcome.code, outcome.err) == (0, "")
    back = project / "back.json"
    outcome = agenthooks("convert", str(there), "--to", source, "-o", str(back),
                         "--dialect", target)
    assert (outcome.code, outcome.err) == (0, "")
    before = [meaning(h, source) for h in handlers_of(original)]
    after = [meaning(h, source) for h in handlers_of(back, source)]
    assert after == before
    # The sample files are what convert writes: back is the original, but that convert
    # quotes "$CLAUDE_PROJECT_DIR", as Claude Code's hooks reference does.
    if source == "claude" or target != "claude":
        written, sample = json.loads(back.read_text()), json.loads(_without_comments(original))
        assert by_words(written) == by_words(sample)
        if source == "gemini":
            assert written == sample


def _without_comments(path: Path) -> str:
    from agenthooks.sources.dialects.load import strip_comments

    return strip_comments(path.read_text())


@pytest.mark.parametrize(("source", "target"), [
    ("antigravity", "gemini"), ("claude", "gemini"), ("gemini", "claude"),
    ("claude", "antigravity"), ("gemini", "antigravity"),
])
def test_output_validates_with_no_findings(agenthooks, project: Path, source: str,
                                           target: str) -> None:
    out = project / OUT_PLACES[target]
    out.parent.mkdir(parents=True, exist_ok=True)
    outcome = agenthooks("convert", str(SAMPLES / PLACES[source]), "--to", target, "-o",
                         str(out), "--lossy")
    assert outcome.code == 0
    checked = agenthooks("validate", str(out))
    assert (checked.code, checked.out, checked.err) == (0, "ok: 1 file, no problems\n", "")


def test_hooks_json_to_claude_is_the_claude_sample_but_for_the_disabled_hook(
        agenthooks, project: Path) -> None:
    outcome = agenthooks("convert", str(SAMPLES / PLACES["antigravity"]), "--to", "claude")
    assert outcome.code == 1 and outcome.out == ""
    assert outcome.err.splitlines() == [
        f"{SAMPLES / PLACES['antigravity']}:52:11: lossy: a disabled handler: Claude Code has "
        "no switch for one handler",
        "agenthooks: nothing written: the lines above cannot be carried over (--lossy writes "
        "the rest)"]
    lossy = agenthooks("convert", str(SAMPLES / PLACES["antigravity"]), "--to", "claude",
                       "--lossy")
    assert lossy.code == 0
    written = json.loads(lossy.out)
    sample = json.loads((SAMPLES / PLACES["claude"]).read_text())
    # The same handlers; hooks.json's default timeout (30 s) is written out for Claude Code
    # (whose default is 600 s) and its PreToolUse matcher is its own tool's name. Script
    # paths relative to .agents/ are on "$CLAUDE_PROJECT_DIR", quoted.
    for event in ("Stop", "PreToolUse"):
        assert by_words(written["hooks"][event]) == by_words(sample["hooks"][event])
    assert written["hooks"]["Stop"][0]["hooks"][0]["command"] == (
        '"$CLAUDE_PROJECT_DIR"/.agents/scripts/tests_gate.py')


LOSSY = """{
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [
        {"type": "command", "command": "./gate.sh", "if": "Bash(git push *)", "async": true},
        {"type": "http", "url": "http://127.0.0.1:9/hook"}
      ]}
    ],
    "SubagentStop": [{"hooks": [{"type": "command", "command": "./x.sh"}]}]
  }
}
"""


def test_a_lossy_conversion_writes_nothing_unless_lossy(agenthooks, tmp_path: Path) -> None:
    source = tmp_path / ".claude" / "settings.json"
    source.parent.mkdir()
    source.write_text(LOSSY)
    out = tmp_path / "out.json"
    outcome = agenthooks("convert", str(source), "--to", "gemini", "-o", str(out))
    assert outcome.code == 1 and not out.exists()
    assert outcome.err.splitlines()[:4] == [
        f"{source}:5:88: lossy: `async` has no counterpart in Gemini CLI",
        f"{source}:5:59: lossy: `if` has no counterpart in Gemini CLI",
        f"{source}:6:9: lossy: a http handler cannot be written for Gemini CLI",
        f"{source}:9:33: lossy: SubagentStop has no counterpart in Gemini CLI",
    ]
    outcome = agenthooks("convert", str(source), "--to", "gemini", "-o", str(out), "--lossy")
    assert outcome.code == 0
    assert json.loads(out.read_text()) == {"hooks": {"BeforeTool": [{
        "matcher": "^run_shell_command$",
        "hooks": [{"type": "command", "command": "./gate.sh", "timeout": 600000}],
    }]}}


def test_an_input_with_errors_is_not_converted(agenthooks, tmp_path: Path) -> None:
    source = tmp_path / ".gemini" / "settings.json"
    source.parent.mkdir()
    source.write_text('{"hooks": {"BeforeTool": [{"hooks": [{"type": "Command"}]}]}}')
    outcome = agenthooks("convert", str(source), "--to", "claude")
    assert outcome.code == 1 and outcome.out == ""
    assert "[handler-kind]" in outcome.err and "nothing converted" in outcome.err


def convert_one(agenthooks, tmp_path: Path, source: str, target: str, handler: dict,
                event: str, matcher: str | None = None, *extra: str) -> tuple[int, dict]:
    group = {"hooks": [handler]} if matcher is None else {"matcher": matcher,
                                                          "hooks": [handler]}
    if source == "antigravity":
        path = tmp_path / ".agents" / "hooks.json"
        tool_event = event in ("PreToolUse", "PostToolUse")
        document: dict = {"h": {event: [group if tool_event else handler]}}
    else:
        path = tmp_path / PLACES[source]
        document = {"hooks": {event: [group]}}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document))
    outcome = agenthooks("convert", str(path), "--to", target, *extra)
    return outcome.code, json.loads(outcome.out) if outcome.out else {}


# (source, target, the source's `timeout`, the target's; None: left out, its default)
TIMEOUTS = [
    ("claude", "gemini", 10, 10000),
    ("claude", "gemini", None, 600000),  # Claude Code's default is 600 s
    ("claude", "gemini", 0.5, 500),
    ("gemini", "claude", 5000, 5),
    ("gemini", "claude", None, 60),  # Gemini CLI's default is 60 s
    ("gemini", "claude", 600000, None),  # Claude Code's default, left out
    ("antigravity", "claude", None, 30),
    ("antigravity", "gemini", 7, 7000),
    ("gemini", "antigravity", 30000, None),
    ("gemini", "antigravity", 60000, 60),
]


@pytest.mark.parametrize(("source", "target", "given", "written"), TIMEOUTS)
def test_timeouts_between_seconds_and_milliseconds(agenthooks, tmp_path: Path, source: str,
                                                   target: str, given: float | None,
                                                   written: int | None) -> None:
    handler = {"type": "command", "command": "true"}
    if given is not None:
        handler["timeout"] = given
    event = {"claude": "Stop", "gemini": "AfterAgent", "antigravity": "Stop"}[source]
    code, document = convert_one(agenthooks, tmp_path, source, target, handler, event)
    assert code == 0
    out = _only_handler(document, target)
    assert out.get("timeout") == written


def test_whole_seconds_round_up_and_say_so(agenthooks, tmp_path: Path) -> None:
    handler = {"type": "command", "command": "true", "timeout": 2500}
    code, _ = convert_one(agenthooks, tmp_path, "gemini", "claude", handler, "AfterAgent")
    assert code == 1
    code, document = convert_one(agenthooks, tmp_path, "gemini", "claude", handler,
                                 "AfterAgent", None, "--lossy")
    assert (code, _only_handler(document, "claude")["timeout"]) == (0, 3)


def _only_handler(document: dict, target: str) -> dict:
    if target == "antigravity":
        (definition,) = document.values()
        (handlers,) = definition.values()
        return handlers[0]
    (groups,) = document["hooks"].values()
    return groups[0]["hooks"][0]


# (claude, gemini, hooks.json) names of the same tool, in agenthooks.model.tools.
TOOL_ROWS = [
    ("Bash", "run_shell_command", "run_command"),
    ("Edit", "replace", "replace_file_content"),
    ("Read", "read_file", "view_file"),
    ("Write", "write_file", "write_to_file"),
    ("Grep", "grep_search", "grep_search"),
    ("Glob", "glob", "find_by_name"),
    ("WebFetch", "web_fetch", "read_url_content"),
]


@pytest.mark.parametrize("names", TOOL_ROWS)
def test_tool_names_by_table(names: tuple[str, str, str]) -> None:
    by = dict(zip(("claude", "gemini", "antigravity"), names, strict=True))
    for source, name in by.items():
        for target, expected in by.items():
            assert tool_name(name, source, target) == expected


# (source, target, matcher, event, written)
MATCHERS = [
    ("claude", "gemini", "Bash", "PreToolUse", "^run_shell_command$"),
    ("claude", "gemini", "Edit|Write", "PreToolUse", "^(replace|write_file)$"),
    ("claude", "gemini", "Notebook.*", "PreToolUse", ".*(?:Notebook.*)"),
    # Edit.* selects MultiEdit too: its Antigravity name is listed.
    ("claude", "antigravity", "Edit.*", "PreToolUse",
     ".*(?:^(?:multi_replace_file_content|replace_file_content)$|(?:Edit.*)).*"),
    ("claude", "antigravity", "Bash|Read", "PreToolUse", "run_command|view_file"),
    ("gemini", "claude", "^read_file$", "BeforeTool", "Read"),
    # Unanchored: read_file in any name, and Claude Code's Read by its name.
    ("gemini", "claude", "read_file", "BeforeTool", ".*(?:^(?:Read)$|(?:read_file))"),
    ("antigravity", "claude", "run_command", "PreToolUse", "Bash|PowerShell"),
    ("antigravity", "gemini", "view_.*", "PreToolUse", "^(?:(?:read_file)|(?:view_.*))$"),
    ("claude", "gemini", "startup", "SessionStart", "startup"),
    # MCP tools in each host's spelling; a tool the target lacks keeps its name.
    ("claude", "gemini", "mcp__memory__read", "PreToolUse", "^mcp_memory_read$"),
    ("gemini", "claude", "^mcp_memory_read$", "BeforeTool", "mcp__memory__read"),
    ("claude", "gemini", "NotebookEdit", "PreToolUse", "^NotebookEdit$"),
]


@pytest.mark.parametrize(("source", "target", "matcher", "event", "written"), MATCHERS)
def test_matchers_select_the_same_tools(agenthooks, tmp_path: Path, source: str, target: str,
                                        matcher: str, event: str, written: str) -> None:
    code, document = convert_one(agenthooks, tmp_path, source, target,
                                 {"type": "command", "command": "true"}, event, matcher)
    assert code == 0
    if target == "antigravity":
        (definition,) = document.values()
        (groups,) = definition.values()
    else:
        (groups,) = document["hooks"].values()
    assert groups[0]["matcher"] == written


def test_a_lifecycle_list_becomes_one_gemini_group_per_value(agenthooks, tmp_path: Path) -> None:
    code, document = convert_one(agenthooks, tmp_path, "claude", "gemini",
                                 {"type": "command", "command": "true"}, "SessionStart",
                                 "startup|resume")
    assert code == 0
    assert [g["matcher"] for g in document["hooks"]["SessionStart"]] == ["startup", "resume"]


# (source, target, command, written); the whole table is
# tests/sources/dialects/test_convert_paths.py.
COMMANDS = [
    ("claude", "gemini", "$CLAUDE_PROJECT_DIR/hooks/x.sh", "$GEMINI_PROJECT_DIR/hooks/x.sh"),
    ("claude", "gemini", '"${CLAUDE_PROJECT_DIR}"/x.sh', "$GEMINI_PROJECT_DIR/x.sh"),
    ("gemini", "claude", "python3 $GEMINI_PROJECT_DIR/x.py", 'python3 "$CLAUDE_PROJECT_DIR"/x.py'),
    ("antigravity", "claude", "./scripts/x.sh --fast",
     '"$CLAUDE_PROJECT_DIR"/.agents/scripts/x.sh --fast'),
    ("antigravity", "gemini", "python3 ../tools/x.py", "python3 $GEMINI_PROJECT_DIR/tools/x.py"),
    # Into hooks.json a handler keeps its host's payload and folder (`dialect`): as written.
    ("claude", "antigravity", "$CLAUDE_PROJECT_DIR/.agents/scripts/x.sh",
     "$CLAUDE_PROJECT_DIR/.agents/scripts/x.sh"),
    ("gemini", "antigravity", "node .gemini/hooks/check.js", "node .gemini/hooks/check.js"),
    ("claude", "gemini", "make lint", "make lint"),
]


@pytest.mark.parametrize(("source", "target", "command", "written"), COMMANDS)
def test_project_directory_variables(agenthooks, tmp_path: Path, source: str, target: str,
                                     command: str, written: str) -> None:
    event = {"claude": "Stop", "gemini": "AfterAgent", "antigravity": "Stop"}[source]
    code, document = convert_one(agenthooks, tmp_path, source, target,
                                 {"type": "command", "command": command}, event)
    assert code == 0
    assert _only_handler(document, target)["command"] == written


def test_the_claude_sample_is_what_convert_writes_from_the_gemini_one(agenthooks) -> None:
    outcome = agenthooks("convert", str(SAMPLES / PLACES["gemini"]), "--to", "claude")
    assert (outcome.code, outcome.err) == (0, "")
    written = json.loads(outcome.out)
    assert by_words(written) == by_words(json.loads((SAMPLES / PLACES["claude"]).read_text()))
    # Claude Code's own idiom: "$CLAUDE_PROJECT_DIR" quoted, for a project path with a space.
    assert written["hooks"]["PreToolUse"][0]["hooks"][0]["command"] == (
        '"$CLAUDE_PROJECT_DIR"/.agents/scripts/safety_gate.py')


def test_what_convert_does_not_read(agenthooks, tmp_path: Path) -> None:
    missing = agenthooks("convert", str(tmp_path / "nope.json"), "--to", "claude")
    assert (missing.code, missing.out) == (1, "") and "no such file" in missing.err
    markdown = tmp_path / "hook.md"
    markdown.write_text("---\nevent: tool.pre\n---\n")
    outcome = agenthooks("convert", str(markdown), "--to", "claude")
    assert (outcome.code, outcome.out) == (1, "") and "not Markdown hooks" in outcome.err


def test_hooks_json_there_and_back_through_gemini(agenthooks, project: Path) -> None:
    original = SAMPLES / PLACES["antigravity"]
    there = project / PLACES["gemini"]
    there.parent.mkdir(parents=True)
    assert agenthooks("convert", str(original), "--to", "gemini", "-o", str(there)).code == 0
    back = project / OUT_PLACES["antigravity"]
    back.parent.mkdir(parents=True, exist_ok=True)
    assert agenthooks("convert", str(there), "--to", "antigravity", "-o", str(back)).code == 0
    # multi_replace_file_content has no Gemini CLI tool: kept as it is, it comes back. The
    # handlers come back as Gemini CLI's, which they now are (`dialect`): the same events,
    # timeouts and tools, the commands as Gemini CLI runs them.
    def but_command(handler: Handler) -> tuple[object, ...]:
        found = meaning(handler, "antigravity")
        return (found[0], *found[2:], handler.hook)

    returned = handlers_of(back)
    assert sorted(map(but_command, returned)) == sorted(map(but_command, handlers_of(original)))
    assert {h.speaks for h in returned} == {"gemini"}
    assert sorted(h.command for h in returned) == sorted(
        h.command for h in handlers_of(there, "gemini"))
    assert agenthooks("validate", str(back)).out == "ok: 1 file, no problems\n"
