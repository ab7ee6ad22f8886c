"""The tool table: names and arguments between hosts, MCP names, and the table's own shape."""

from __future__ import annotations

import subprocess
import sys
from itertools import permutations
from typing import Any

import pytest

from agenthooks.model.tools import (
    DIALECTS,
    TOOLS,
    Tool,
    citations,
    filled,
    from_canonical,
    markdown_table,
    mcp_name,
    mcp_parts,
    to_canonical,
    tool_for,
    tool_name,
    translate_args,
)

filled()  # every derived host's names, which a run fills for the hosts it involves alone
PAIRS = [
    pytest.param(tool, source, target, id=f"{tool.id}:{source}->{target}")
    for tool in TOOLS
    for source, target in permutations(tool.names, 2)
]

ALIASES = [
    pytest.param(tool, source, name, target, id=f"{tool.id}:{source}:{name}->{target}")
    for tool in TOOLS
    for source, names in tool.names.items()
    for name in names
    for target in DIALECTS
    if target != source
]


@pytest.mark.parametrize(("tool", "source", "target"), PAIRS)
def test_every_row_translates_its_first_name_each_way(tool: Tool, source: str, target: str) -> None:
    assert tool_name(tool.names[source][0], source, target) == tool.names[target][0]


@pytest.mark.parametrize(("tool", "source", "name", "target"), ALIASES)
def test_every_name_reaches_the_targets_first_name_or_stays(
    tool: Tool, source: str, name: str, target: str
) -> None:
    expected = tool.names[target][0] if target in tool.names else name
    assert tool_name(name, source, target) == expected
    assert tool_for(source, name) is tool


@pytest.mark.parametrize(
    ("name", "source", "target", "expected"),
    [
        ("run_command", "antigravity", "claude", "Bash"),
        ("run_command", "antigravity", "gemini", "run_shell_command"),
        ("Bash", "claude", "gemini", "run_shell_command"),
        ("PowerShell", "claude", "antigravity", "run_command"),
        ("run_shell_command", "gemini", "antigravity", "run_command"),
        ("Edit", "claude", "antigravity", "replace_file_content"),
        ("Write", "claude", "antigravity", "write_to_file"),
        ("replace_file_content", "antigravity", "claude", "Edit"),
        ("write_to_file", "antigravity", "claude", "Write"),
        ("replace", "gemini", "claude", "Edit"),
        ("Task", "claude", "gemini", "invoke_agent"),
        ("search_file_content", "gemini", "claude", "Grep"),
        ("read_file", "gemini", "antigravity", "view_file"),
        ("glob", "gemini", "antigravity", "find_by_name"),
        ("list_directory", "gemini", "antigravity", "list_dir"),
        ("web_fetch", "gemini", "antigravity", "read_url_content"),
        ("google_web_search", "gemini", "antigravity", "search_web"),
        # no counterpart in the target: the name stays
        ("NotebookEdit", "claude", "gemini", "NotebookEdit"),
        ("list_directory", "gemini", "claude", "list_directory"),
        ("define_subagent", "antigravity", "claude", "define_subagent"),
        # unknown to the table
        ("FrobnicateTool", "claude", "gemini", "FrobnicateTool"),
        ("browser_click", "antigravity", "claude", "browser_click"),
        # same host: unchanged, even where the host has a first name
        ("PowerShell", "claude", "claude", "PowerShell"),
        ("Task", "claude", "claude", "Task"),
    ],
)
def test_tool_names_between_hosts(name: str, source: str, target: str, expected: str) -> None:
    assert tool_name(name, source, target) == expected


@pytest.mark.parametrize(
    ("args", "name", "source", "target", "expected"),
    [
        ({"command": "rm -rf x"}, "Bash", "claude", "antigravity", {"CommandLine": "rm -rf x"}),
        ({"CommandLine": "rm -rf x"}, "run_command", "antigravity", "claude",
         {"command": "rm -rf x"}),
        ({"command": "ls", "dir_path": "/w"}, "run_shell_command", "gemini", "antigravity",
         {"CommandLine": "ls", "Cwd": "/w"}),
        ({"CommandLine": "ls", "Cwd": "/w"}, "run_command", "antigravity", "gemini",
         {"command": "ls", "dir_path": "/w"}),
        # Claude's Bash has no working directory: the canonical word carries it
        ({"CommandLine": "ls", "Cwd": "/w"}, "run_command", "antigravity", "claude",
         {"command": "ls", "cwd": "/w"}),
        # not a timeout: stays under the host's own name
        ({"CommandLine": "make", "WaitMsBeforeAsync": 5000}, "run_command", "antigravity",
         "claude", {"command": "make", "WaitMsBeforeAsync": 5000}),
        ({"command": "make", "timeout": 120000}, "Bash", "claude", "gemini",
         {"command": "make", "timeout": 120000}),
        ({"command": "serve", "run_in_background": True}, "Bash", "claude", "gemini",
         {"command": "serve", "is_background": True}),
        ({"file_path": "/a", "old_string": "x", "new_string": "y", "replace_all": True},
         "Edit", "claude", "antigravity",
         {"TargetFile": "/a", "TargetContent": "x", "ReplacementContent": "y",
          "AllowMultiple": True}),
        ({"file_path": "/a", "old_string": "x", "new_string": "y", "allow_multiple": False,
          "instruction": "rename"}, "replace", "gemini", "claude",
         {"file_path": "/a", "old_string": "x", "new_string": "y", "replace_all": False,
          "instruction": "rename"}),
        ({"file_path": "/a", "content": "hi"}, "Write", "claude", "antigravity",
         {"TargetFile": "/a", "CodeContent": "hi"}),
        ({"AbsolutePath": "/a", "StartLine": 3}, "view_file", "antigravity", "gemini",
         {"file_path": "/a", "StartLine": 3}),
        ({"file_path": "/a", "offset": 10, "limit": 5}, "Read", "claude", "gemini",
         {"file_path": "/a", "offset": 10, "limit": 5}),
        ({"pattern": "TODO", "path": "/src", "glob": "*.py"}, "Grep", "claude", "gemini",
         {"pattern": "TODO", "dir_path": "/src", "include_pattern": "*.py"}),
        ({"pattern": "**/*.ts", "dir_path": "/src"}, "glob", "gemini", "antigravity",
         {"Pattern": "**/*.ts", "SearchDirectory": "/src"}),
        ({"dir_path": "/src"}, "list_directory", "gemini", "antigravity",
         {"DirectoryPath": "/src"}),
        ({"url": "https://x", "prompt": "sum"}, "WebFetch", "claude", "antigravity",
         {"Url": "https://x", "prompt": "sum"}),
        ({"prompt": "go", "subagent_type": "Explore"}, "Agent", "claude", "gemini",
         {"prompt": "go", "agent_name": "Explore"}),
        # unknown tools and same-host calls: a plain copy
        ({"a": 1}, "FrobnicateTool", "claude", "gemini", {"a": 1}),
        ({"command": "ls"}, "mcp__srv__run", "claude", "antigravity", {"command": "ls"}),
        ({"CommandLine": "ls"}, "run_command", "antigravity", "antigravity",
         {"CommandLine": "ls"}),
    ],
)
def test_arguments_between_hosts(
    args: dict[str, Any], name: str, source: str, target: str, expected: dict[str, Any]
) -> None:
    assert translate_args(args, name, source, target) == expected


def test_a_mapped_key_wins_over_a_passed_through_key_of_the_same_name() -> None:
    args = {"CommandLine": "mapped", "command": "passed through"}
    assert translate_args(args, "run_command", "antigravity", "claude") == {"command": "mapped"}


def test_values_pass_untouched_and_nested_values_are_not_walked() -> None:
    chunks = [{"TargetContent": "a", "ReplacementContent": "b"}]
    out = translate_args({"TargetFile": "/f", "ReplacementChunks": chunks},
                         "multi_replace_file_content", "antigravity", "claude")
    assert out == {"file_path": "/f", "ReplacementChunks": chunks}
    assert out["ReplacementChunks"] is chunks


def test_the_result_is_a_new_dict() -> None:
    args = {"command": "ls"}
    out = translate_args(args, "Bash", "claude", "claude")
    assert out == args and out is not args


def test_canonical_both_ways() -> None:
    assert to_canonical({"Cwd": "/w", "X": 1}, "run_command", "antigravity") == {"cwd": "/w",
                                                                                 "X": 1}
    assert from_canonical({"cwd": "/w", "X": 1}, "shell", "gemini") == {"dir_path": "/w", "X": 1}
    assert to_canonical({"a": 1}, "nope", "claude") == {"a": 1}
    assert from_canonical({"a": 1}, "nope", "claude") == {"a": 1}
    assert from_canonical({"command": "ls"}, "notebook-edit", "gemini") == {"command": "ls"}


ROUND_TRIPS = [
    pytest.param(tool, source, target, id=f"{tool.id}:{source}->{target}")
    for tool in TOOLS
    for source, target in permutations(tool.args, 2)
    if set(tool.args[source]) == set(tool.args[target])  # the mapping is total both ways
]


@pytest.mark.parametrize(("tool", "source", "target"), ROUND_TRIPS)
def test_round_trips_are_identity_where_the_mapping_is_total(
    tool: Tool, source: str, target: str
) -> None:
    args: dict[str, Any] = {host: f"v-{canon}" for canon, host in tool.args[source].items()}
    args["unmapped_extra"] = 1
    name = tool.names[source][0]
    there = translate_args(args, name, source, target)
    assert translate_args(there, tool.names[target][0], target, source) == args


@pytest.mark.parametrize(
    ("args", "name", "source", "target"),
    [
        ({"command": "ls", "dir_path": "/w"}, "run_shell_command", "gemini", "antigravity"),
        ({"CommandLine": "ls", "Cwd": "/w"}, "run_command", "antigravity", "gemini"),
        ({"command": "ls"}, "Bash", "claude", "antigravity"),
        ({"CommandLine": "ls", "Cwd": "/w"}, "run_command", "antigravity", "claude"),
    ],
)
def test_shell_round_trips(args: dict[str, Any], name: str, source: str, target: str) -> None:
    there = translate_args(args, name, source, target)
    assert translate_args(there, tool_name(name, source, target), target, source) == args


@pytest.mark.parametrize(
    ("dialect", "name", "parts"),
    [
        ("claude", "mcp__memory__create_entities", ("memory", "create_entities")),
        ("claude", "mcp__brave-search__web_search", ("brave-search", "web_search")),
        ("claude", "mcp__my_server__list_items", ("my_server", "list_items")),
        ("claude", "mcp__plugin_p_srv__tool", ("plugin_p_srv", "tool")),
        ("claude", "mcp__memory", None),
        ("claude", "Bash", None),
        ("gemini", "mcp_memory_create_entities", ("memory", "create_entities")),
        # Gemini CLI's own reading: the server ends at the first underscore
        ("gemini", "mcp_my_server_list_items", ("my", "server_list_items")),
        ("gemini", "mcp__memory__create", None),
        ("gemini", "mcp_memory", None),
        ("gemini", "read_mcp_resource", None),
        ("antigravity", "mcp__memory__create_entities", None),
        ("antigravity", "mcp_memory_create_entities", None),
    ],
)
def test_mcp_parts(dialect: str, name: str, parts: tuple[str, str] | None) -> None:
    assert mcp_parts(dialect, name) == parts
    if parts is not None:
        assert tool_for(dialect, name) is None


@pytest.mark.parametrize(
    ("dialect", "server", "tool", "name"),
    [
        ("claude", "memory", "create_entities", "mcp__memory__create_entities"),
        ("gemini", "memory", "create_entities", "mcp_memory_create_entities"),
        ("gemini", "brave-search", "web_search", "mcp_brave-search_web_search"),
        ("gemini", "my server", "do/it", "mcp_my_server_do_it"),
        ("antigravity", "memory", "create_entities", "mcp__memory__create_entities"),
    ],
)
def test_mcp_name(dialect: str, server: str, tool: str, name: str) -> None:
    assert mcp_name(dialect, server, tool) == name


@pytest.mark.parametrize(
    ("name", "source", "target", "expected"),
    [
        ("mcp__memory__create_entities", "claude", "gemini", "mcp_memory_create_entities"),
        ("mcp_memory_create_entities", "gemini", "claude", "mcp__memory__create_entities"),
        ("mcp__brave-search__search", "claude", "gemini", "mcp_brave-search_search"),
        # an underscore in the server name does not survive Gemini's single underscore
        ("mcp__my_server__list", "claude", "gemini", "mcp_my_server_list"),
        ("mcp_my_server_list", "gemini", "claude", "mcp__my__server_list"),
        # Antigravity's MCP spelling is unknown: names pass through either way
        ("mcp__memory__create_entities", "claude", "antigravity", "mcp__memory__create_entities"),
        ("mcp_memory_create_entities", "gemini", "antigravity", "mcp_memory_create_entities"),
        ("mcp__memory__create_entities", "antigravity", "gemini", "mcp__memory__create_entities"),
    ],
)
def test_mcp_names_between_hosts(name: str, source: str, target: str, expected: str) -> None:
    assert tool_name(name, source, target) == expected


def test_every_dialect_named_is_known_and_cited() -> None:
    for tool in TOOLS:
        assert tool.names, tool.id
        assert set(tool.names) <= set(DIALECTS), tool.id
        assert set(tool.args) <= set(tool.names), tool.id
        assert set(citations(tool)) == set(tool.names), tool.id
        assert all(citation.strip() for citation in citations(tool).values()), tool.id
        assert all(names for names in tool.names.values()), tool.id


def test_ids_and_host_names_are_unique() -> None:
    assert len({tool.id for tool in TOOLS}) == len(TOOLS)
    for dialect in DIALECTS:
        names = [name for tool in TOOLS for name in tool.names.get(dialect, ())]
        assert len(names) == len(set(names)), dialect


def test_argument_mappings_are_one_to_one() -> None:
    for tool in TOOLS:
        for dialect, mapping in tool.args.items():
            assert len(set(mapping.values())) == len(mapping), (tool.id, dialect)


def test_unverified_cells_say_so() -> None:
    by_id = {tool.id: tool for tool in TOOLS}
    assert "[unverified]" in citations(by_id["multi-edit"])["claude"]
    assert "[unverified]" in citations(by_id["read"])["antigravity"]
    assert "[unverified]" not in citations(by_id["shell"])["antigravity"]


def test_markdown_table_has_a_row_per_tool() -> None:
    lines = markdown_table().splitlines()
    assert lines[0].startswith("| Tool |")
    assert len(lines) == 2 + len(TOOLS)
    shell = next(line for line in lines if line.startswith("| `shell` |"))
    assert "`run_command` (command→CommandLine, cwd→Cwd)" in shell
    assert "`Bash` / `PowerShell`" in shell
    assert "cwd→dir_path" in shell
    # Claude Code's, and the hosts' derived from it that keep its name or name it otherwise
    # (their rows say so).
    notebook = next(tool for tool in TOOLS if tool.id == "notebook-edit")
    others = [d for d in DIALECTS if d not in ("antigravity", "claude")]
    cells = "".join(f" `{notebook.names[d][0]}` |" if notebook.names.get(d) else " - |"
                    for d in others)
    assert "| `notebook-edit` | - | `NotebookEdit` |" + cells in lines


def test_cursor_names_an_mcp_tool_without_its_server() -> None:
    """Cursor's matchers see `MCP:<tool_name>`: a Claude Code or Gemini CLI MCP call is
    written so; Cursor's name, having no server, passes through unchanged."""
    from agenthooks.model.tools import tool_name

    assert tool_name("mcp__memory__create_entities", "claude", "cursor") == "MCP:create_entities"
    assert tool_name("mcp_github_list_issues", "gemini", "cursor") == "MCP:list_issues"
    assert tool_name("MCP:list_issues", "cursor", "claude") == "MCP:list_issues"


@pytest.mark.parametrize(("matcher", "host"), [
    ("Bash", "claude"),  # Claude Code's and Codex's: the first in the host table
    ("Write|Edit", "claude"),
    ("run_shell_command", "gemini"),
    ("write_file|replace", "gemini"),
    ("bash", "copilot"),
    ("apply_patch", "codex"),
    ("Bash|apply_patch", "codex"),  # the one host whose names are both
    ("Bash|run_shell_command", None),  # two hosts' words: no one host's payload
    ("run_command", None),  # hooks.json's own words
    ("Bash|run_command", None),
    ("*", None), (".*", None), ("", None), ("Bash.*", None),
    ("my_custom_tool", None),
    ("Bash|my_custom_tool", "claude"),  # a custom tool's name says nothing of a host
    # Names beside a pattern speak as a list does; the pattern says nothing of a host.
    ("Read|NotebookRead|Bash|Grep|mcp__.*", "claude"),
    ("run_shell_command|mcp_.*", "gemini"),
    ("(Bash|Write)", None), ("(?i)bash|x", None), ("Bash\\|x", None),
])
def test_the_host_a_matchers_names_speak_for(matcher: str, host: str | None) -> None:
    from agenthooks.model.matcher import named_alternatives
    from agenthooks.model.tools import host_named

    assert host_named(named_alternatives(matcher)) == host


def test_a_derived_hosts_names_and_arguments_are_its_rows_else_its_parents() -> None:
    """Filled when first asked (`filled`), a derived host's names for each tool are the ones
    its row states, else its parent's, and its arguments likewise where it has a name; a
    fresh interpreter asked for one host fills that one alone, the same as every host's
    fill."""
    from tests.support import REPO

    code = (
        "from agenthooks.model import tools\n"
        "from agenthooks.model.hosts import Derived\n"
        "names = {t.id: dict(t.names) for t in tools.TOOLS}\n"
        "args = {t.id: dict(t.args) for t in tools.TOOLS}\n"
        "asked = {t.id: tools.tool_name(t.names['claude'][0], 'claude', 'qwen')\n"
        "         for t in tools.TOOLS if t.names.get('claude')}\n"
        "alone = not any('grok' in t.names for t in tools.TOOLS)\n"
        "tools.filled()\n"
        "named, spelled = Derived('tool_names'), Derived('tool_args')\n"
        "wrong = []\n"
        "for t in tools.TOOLS:\n"
        "    made = {**names[t.id], **named.cells(names[t.id], t.id)}\n"
        "    made_args = {**args[t.id], **{h: v for h, v in spelled.cells(args[t.id], t.id)"
        ".items() if h in made}}\n"
        "    if dict(t.names) != made or dict(t.args) != made_args: wrong.append(t.id)\n"
        "again = {t.id: (t.names.get('qwen') or [t.names['claude'][0]])[0]\n"
        "         for t in tools.TOOLS if t.names.get('claude')}\n"
        "print(wrong, alone, asked == again)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=REPO, check=False, timeout=60)
    assert done.stdout.split() == ["[]", "True", "True"], done.stdout + done.stderr


def test_each_tools_names_and_arguments_are_dicts_of_its_own() -> None:
    """The derived hosts' cells are filled into each row's dicts in place."""
    assert len({id(tool.names) for tool in TOOLS}) == len(TOOLS)
    assert len({id(tool.args) for tool in TOOLS}) == len(TOOLS)
