"""`convert` never changes what a matcher selects: each converted matcher is compared with
the original over a corpus of tool names (every name of every host in `model.tools`, MCP
names in each host's spelling, case variants, names with regex metacharacters); a matcher
that cannot be carried exactly is reported as lossy, and no inline flag crashes convert."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agenthooks.model.events import counterpart
from agenthooks.model.tools import TOOLS, filled, mcp_name, mcp_parts, tool_for, tool_name
from agenthooks.sources.dialects import matching
from tests.sources.dialects.test_convert import convert_one

filled()  # every derived host's names, which a run fills for the hosts it involves alone

HOSTS = ("antigravity", "claude", "gemini")
EVENT = {"antigravity": "PreToolUse", "claude": "PreToolUse", "gemini": "BeforeTool"}
MATCHERS = {
    "claude": ["Bash", "Edit.*", "Write|Edit", "Edit, Write", ".*", "Notebook.*", "Bash|Read",
               "^(?!Bash$).*", "[A-Z][a-z]+", "mcp__memory__.*", "mcp__.*", "Read|Grep|Glob",
               ".*file.*", "(?i)bash", "Web(Fetch|Search)", "a.b", "^Ba"],
    "gemini": ["run_shell_command", "^run_shell_command$", "^(write_file|replace)$", "file",
               "^read_", ".*", "mcp_memory_.*", "(?i)READ_FILE", "^(?!read_file$).*",
               "grep|glob", "web_fetch|google_web_search"],
    "antigravity": ["run_command", "view_.*", "write_to_file|replace_file_content", ".*file.*",
                    "(?i)run_command", "(?i)VIEW_FILE|grep_search", "run_(?i:COMMAND)",
                    "(?s).*command", "(?x) run _ command", "(?!run_command).*",
                    "mcp__memory__.*", "[a-z_]+"],
}
CASES = [(source, target, matcher) for source, found in MATCHERS.items() for matcher in found
         for target in HOSTS if target != source]
MCP = (("memory", "create_entities"), ("github", "get_issue"), ("my-server", "run"))


def corpus() -> list[str]:
    names = {name for tool in TOOLS for names in tool.names.values() for name in names}
    names |= {mcp_name(host, server, tool) for server, tool in MCP for host in HOSTS}
    # Single lines: no host names a tool with a line break (`.` and `$` differ there).
    names |= {"", "a.b", "a|b", "(x)", "[x]", "x$", "^x", "a+b", "?", "{1}", "a b"}
    found = set()
    for name in names:
        found |= {name, name.lower(), name.upper(), name.swapcase(), f"x{name}", f"{name}y"}
    return sorted(found)


def one_tool(target: str, name: str, source: str, back: str) -> bool:
    """Whether `name` on the target and `back` on the source are one tool of one kind."""
    def kind(host: str, text: str) -> str:
        if tool_for(host, text) is not None:
            return "tool"
        spelled = mcp_parts(host, mcp_name(host, "s", "t")) is not None
        return "mcp" if mcp_parts(host if spelled else "claude", text) else "other"
    return kind(target, name) == kind(source, back)


def selection_of(document: dict, target: str) -> list[matching.Selection]:
    if target == "antigravity":
        (definition,) = document.values()
        (groups,) = definition.values()
    else:
        (groups,) = document["hooks"].values()
    return [matching.selection(target, g.get("matcher"), EVENT[target]) for g in groups]


def differences(source: str, matcher: str, target: str, written: list[matching.Selection]
                ) -> list[str]:
    original = matching.selection(source, matcher, EVENT[source])
    found = []
    for name in corpus():
        back = tool_name(name, target, source)
        if not one_tool(target, name, source, back):
            continue
        if matching.selects(original, back) != any(matching.selects(s, name) for s in written):
            found.append(name)
    return found


@pytest.mark.parametrize(("source", "target", "matcher"), CASES,
                         ids=[f"{s}->{t} {m!r}" for s, t, m in CASES])
def test_exact_or_reported(agenthooks, tmp_path: Path, source: str, target: str,
                           matcher: str) -> None:
    handler = {"type": "command", "command": "true"}
    code, document = convert_one(agenthooks, tmp_path, source, target, handler, EVENT[source],
                                 matcher)
    assert code in (0, 1)
    if code == 0:  # nothing reported: it must select exactly the same tools
        assert differences(source, matcher, target, selection_of(document, target)) == []
        return
    lossy = agenthooks("convert", str(_written(tmp_path, source)), "--to", target, "--lossy")
    if "is not a valid regex" in lossy.err:  # its own host never runs it: not converted
        assert lossy.code == 1 and "nothing converted" in lossy.err
        return
    assert lossy.code == 0 and "lossy: the matcher" in lossy.err, lossy.err


def _written(tmp_path: Path, source: str) -> Path:
    places = {"antigravity": ".agents/hooks.json", "claude": ".claude/settings.json",
              "gemini": ".gemini/settings.json"}
    return tmp_path / places[source]


EXACT = [
    # Matchers convert carries exactly (no loss), each into every other host.
    ("claude", "Bash"), ("claude", "Edit.*"), ("claude", "Write|Edit"), ("claude", ".*"),
    ("claude", "mcp__memory__create_entities"), ("gemini", "^run_shell_command$"),
    ("gemini", "^read_"), ("antigravity", "run_command"), ("antigravity", "view_.*"),
    ("antigravity", "(?i)run_command"), ("antigravity", "(?i)VIEW_FILE|grep_search"),
]


@pytest.mark.parametrize(("source", "matcher"), EXACT, ids=[f"{s} {m!r}" for s, m in EXACT])
def test_carried_exactly(agenthooks, tmp_path: Path, source: str, matcher: str) -> None:
    for target in HOSTS:
        if target == source:
            continue
        code, document = convert_one(agenthooks, tmp_path, source, target,
                                     {"type": "command", "command": "true"}, EVENT[source],
                                     matcher)
        assert code == 0, (target, document)
        assert differences(source, matcher, target, selection_of(document, target)) == []
        assert counterpart(EVENT[source], source, target) == EVENT[target]


@pytest.mark.parametrize("source", HOSTS)
@pytest.mark.parametrize("flags", ["(?i)bash", "(?s).*", "(?x) B a", "(?i:bash)", "(?a)x",
                                   "(?-i:x)", "(?ims)x", "(?P<n>x)", "x++", "(?#c)x"])
def test_flags_never_crash(agenthooks, tmp_path: Path, source: str, flags: str) -> None:
    for target in HOSTS:
        if target == source:
            continue
        for extra in ((), ("--lossy",)):
            code, _ = convert_one(agenthooks, tmp_path, source, target,
                                  {"type": "command", "command": "true"}, EVENT[source],
                                  flags, *extra)
            assert code in (0, 1)


def test_what_claude_code_cannot_compile_is_said() -> None:
    # JavaScript has no inline flags: Claude Code never matches `(?i)bash`, and neither
    # does agenthooks reading Claude Code's settings.
    assert matching.selection("claude", "(?i)bash", "PreToolUse").form == "never"
    assert matching.selection("gemini", "(?i)bash", "BeforeTool").form == "names"
    assert matching.selects(matching.selection("antigravity", "(?i)bash", "PreToolUse"),
                            "BASH")


def test_a_lossy_matcher_is_named_with_the_first_difference(agenthooks,
                                                           tmp_path: Path) -> None:
    code, _ = convert_one(agenthooks, tmp_path, "claude", "gemini",
                          {"type": "command", "command": "true"}, "PreToolUse",
                          "mcp__memory__.*")
    outcome = agenthooks("convert", str(_written(tmp_path, "claude")), "--to", "gemini")
    assert code == 1 and outcome.code == 1
    assert "cannot be carried exactly into Gemini CLI:" in outcome.err
    written = json.loads(agenthooks("convert", str(_written(tmp_path, "claude")), "--to",
                                    "gemini", "--lossy").out)
    assert written["hooks"]["BeforeTool"][0]["matcher"]
