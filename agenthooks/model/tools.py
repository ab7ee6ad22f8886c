"""Tools across hosts, as data: one row per canonical tool, with each host's names and arguments.

A row says what one tool is called in each dialect (`names`, the first name is the one written
when translating into that dialect) and how its arguments are spelled there (`args`: canonical
argument name -> the host's argument name). Canonical argument names are Claude Code's where
Claude Code has the tool, plus `cwd` for a shell's working directory and, where only other hosts
have an argument, a snake_case word for it (`instruction`, a list's `path`). With it a hook
written for one host sees another host's tool call in its own words: a matcher `run_command`
selects Claude Code's `Bash`, and `tool_input.command` finds hooks.json's `CommandLine`.

What passes through unchanged: a tool name no row knows; an MCP tool name where either side's
MCP spelling is unknown (Antigravity's); an argument key the row does not map (it keeps its
host's spelling, or is renamed when it happens to be a canonical name the target spells
otherwise); every value (only keys are renamed, nested values are not walked). An argument the
source maps but the target has no word for arrives under its canonical name. Arguments are
mapped only where both hosts mean the same thing in the same unit: Claude Code's Bash `timeout`
(milliseconds) and hooks.json's `WaitMsBeforeAsync` (a wait before going asynchronous) are
different things, and stay unmapped.

`sources` cites where each dialect's names and arguments were read; "[unverified]" marks a cell
resting on third-party material only.
"""

from __future__ import annotations

from agenthooks._lean.records import NamedTuple
from agenthooks.model.hosts import HOOKS_JSON_DIALECT, HOST_TABLE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence
    from typing import Any

DIALECTS: tuple[str, ...] = tuple(row.id for row in HOST_TABLE)


class Tool(NamedTuple):
    """One canonical tool: its names and argument names in each host that has it."""

    id: str  # canonical id: "shell", "read", "write", ...
    names: Mapping[str, tuple[str, ...]]  # dialect -> host names; the first is written into it
    args: Mapping[str, Mapping[str, str]]  # dialect -> {canonical arg name: host arg name}
    meaning: str
    # dialect -> citation, for the hosts of the table's own rows (`citations` adds the
    # derived hosts')
    sources: Mapping[str, str]


# Citations. Claude Code: the docs mirror of code.claude.com at one commit; Gemini CLI: its
# source at one commit; Antigravity: its hooks.json page (tool names) and third parties (args).
_CC = "ericbuess/claude-code-docs@ec68a5b"
_CC_HOOKS = f"{_CC} docs/hooks.md (PreToolUse input)"
_CC_SDK = f"{_CC} docs/agent-sdk__typescript.md (Tool Input Types)"
_CC_REF = f"{_CC} docs/tools-reference.md"
_GM = "google-gemini/gemini-cli@5411f11 packages/core/src"
_GM_DECL = f"{_GM}/tools/definitions/base-declarations.ts, model-family-sets/gemini-3.ts"
_GM_SHELL = f"{_GM}/tools/definitions/base-declarations.ts, dynamic-declaration-helpers.ts"
_GM_GREP = f"{_GM}/tools/definitions/base-declarations.ts; tool-names.ts (legacy alias)"
_GM_AGENT = f"{_GM}/tools/tool-names.ts (AGENT_TOOL_NAME), agents/agent-tool.ts"
_GM_MIG = "google-gemini/gemini-cli@a69d422 docs/resources/migrating-to-antigravity-cli.md"
_AG = "antigravity.google/docs/hooks (Supported Tools)"
_AG_RUN = f"{_AG}, PreToolUse example args"
_AG_3P = f"{_AG}; args [unverified]: third-party agy transcripts and hooks"
_AG_MIG = f"{_AG}; {_GM_MIG}"
# Cursor: the matcher values of its hooks page and the Claude Code tool mapping of its
# third-party hooks page; argument names only where a payload example shows them.
_CU = "cursor.com/docs/hooks (mirror mehmetbaykar/cursor-docs-skill@1cc1c99)"
_CU_SHELL = f"{_CU}: preToolUse input example"
_CU_MAP = ("cursor.com/docs/reference/third-party-hooks (mirror @58b218a): Tool Name Mapping; "
           "args [unverified]")
# Codex: the names its hooks see (openai/codex `HookToolName`: `Bash`, `apply_patch` with the
# matcher aliases Write and Edit, `spawn_agent` with Agent); payload measured with codex 0.169.0.
_CX = "openai/codex codex-rs/hooks (HookToolName); developers.openai.com/codex/hooks"
_CX_RUN = f"{_CX}; tool_input {{command}} measured (codex exec 0.169.0)"

# GitHub Copilot CLI: its hooks reference's tool names and, after them, the Claude Code names
# its PascalCase (VS Code compatible) payloads report instead ("Claude-format matchers");
# argument names from third-party payloads only.
_CP = "github/docs@05da5bc content/copilot/reference/hooks-reference.md (Tool names)"
_CP_3P = f"{_CP}; args [unverified]: third-party payloads"
# create {path, file_text} and edit {path, old_str, new_str}: a copilot transcript of
# `create` and the payload types of a third-party Copilot hook adapter.
_CP_FILES = f"{_CP}; args [unverified]: third-party transcripts and hook adapters"
# Windsurf names no tool: each tool event is one kind of tool (`pre_run_command`), whose
# word, less its `pre_`/`post_`, is its name here; `tool_info` holds the arguments.
_WS = "docs.windsurf.com/windsurf/cascade/hooks (each event's input JSON)"
# Cline: its CLI's tool names (@cline/core `DefaultToolNames`), their arguments in the tools'
# schemas of a request cline 3.0.65 sent, and its hooks' payload (`tool_call.input`).
_CL = "cline@3.0.65 (@cline/core 0.0.86 dist/index.js DefaultToolNames); measured"

# Name prefixes of the tools a host names by family, never listed one by one below
# (Antigravity's browser tools): a matcher naming one is not an unknown tool.
FAMILIES: dict[str, tuple[str, ...]] = {"antigravity": ("browser_",)}

TOOLS: tuple[Tool, ...] = (
    Tool(
        "shell",
        {"antigravity": ("run_command",), "claude": ("Bash", "PowerShell"),
         "gemini": ("run_shell_command",), "cursor": ("Shell",), "codex": ("Bash",),
         "copilot": ("bash", "powershell", "Bash"), "windsurf": ("run_command",),
         "cline": ("run_commands",)},
        {
            "windsurf": {"command": "command_line", "cwd": "cwd"},
            # a list of commands, run side by side: one text here, a command a line
            "cline": {"command": "commands[]"},
            # WaitMsBeforeAsync is a wait before the command goes asynchronous, not a timeout.
            "antigravity": {"command": "CommandLine", "cwd": "Cwd"},
            "cursor": {"command": "command", "cwd": "working_directory"},
            "codex": {"command": "command"},
            "copilot": {"command": "command"},
            "claude": {"command": "command", "description": "description",
                       "run_in_background": "run_in_background"},
            "gemini": {"command": "command", "description": "description", "cwd": "dir_path",
                       "run_in_background": "is_background"},
        },
        "run a shell command",
        {"antigravity": _AG_RUN, "claude": _CC_HOOKS, "gemini": _GM_SHELL, "cursor": _CU_SHELL,
         "codex": _CX_RUN, "copilot": _CP, "windsurf": _WS, "cline": _CL},
    ),
    Tool(
        "read",
        {"antigravity": ("view_file",), "claude": ("Read",), "gemini": ("read_file",),
         "cursor": ("Read",), "copilot": ("view", "Read"), "windsurf": ("read_code",),
         "cline": ("read_files",)},
        {
            "windsurf": {"file_path": "file_path"},
            # Claude's offset/limit (start, count) and Gemini's start_line/end_line (1-based,
            # inclusive end) differ in meaning: left unmapped.
            "antigravity": {"file_path": "AbsolutePath"},
            "copilot": {"file_path": "path"},
            "claude": {"file_path": "file_path"},
            "gemini": {"file_path": "file_path"},
        },
        "read one file",
        {"antigravity": _AG_3P, "claude": _CC_HOOKS, "gemini": _GM_DECL, "cursor": _CU_MAP,
         "copilot": _CP_3P, "windsurf": _WS,
         "cline": f"{_CL}; its `files` list of {{path, start_line, end_line}} left unmapped"},
    ),
    Tool(
        "read-many",
        {"gemini": ("read_many_files",)},
        {},
        "read the files matching glob patterns",
        {"gemini": _GM_DECL},
    ),
    Tool(
        "write",
        # Cursor's `Write` is also what Claude Code's Edit maps to: one name for both.
        {"antigravity": ("write_to_file",), "claude": ("Write",), "gemini": ("write_file",),
         "cursor": ("Write",), "copilot": ("create", "Write"), "windsurf": ("write_code",)},
        {
            "windsurf": {"file_path": "file_path"},
            "antigravity": {"file_path": "TargetFile", "content": "CodeContent"},
            "copilot": {"file_path": "path", "content": "file_text"},
            "claude": {"file_path": "file_path", "content": "content"},
            "gemini": {"file_path": "file_path", "content": "content"},
        },
        "create or overwrite a file",
        {"antigravity": _AG_3P, "claude": _CC_HOOKS, "gemini": _GM_DECL, "cursor": _CU_MAP,
         "copilot": _CP_FILES, "windsurf": _WS},
    ),
    Tool(
        "edit",
        # Codex edits, creates and deletes files with one patch tool, whose matchers Edit and
        # Write also select; its patch text (`command`) has no counterpart here.
        {"antigravity": ("replace_file_content",), "claude": ("Edit",), "gemini": ("replace",),
         "codex": ("apply_patch",), "copilot": ("edit", "str_replace_editor", "Edit"),
         "cline": ("editor", "apply_patch")},
        {
            # its editor also creates a file (no `old_text`) or inserts at `insert_line`
            "cline": {"file_path": "path", "old_string": "old_text", "new_string": "new_text"},
            "antigravity": {"file_path": "TargetFile", "old_string": "TargetContent",
                            "new_string": "ReplacementContent", "replace_all": "AllowMultiple",
                            "instruction": "Instruction"},
            "copilot": {"file_path": "path", "old_string": "old_str", "new_string": "new_str"},
            "claude": {"file_path": "file_path", "old_string": "old_string",
                       "new_string": "new_string", "replace_all": "replace_all"},
            "gemini": {"file_path": "file_path", "old_string": "old_string",
                       "new_string": "new_string", "replace_all": "allow_multiple",
                       "instruction": "instruction"},
        },
        "replace a string in a file",
        {"antigravity": _AG_3P, "claude": _CC_HOOKS, "gemini": _GM_DECL, "codex": _CX,
         "copilot": _CP_FILES, "cline": _CL},
    ),
    Tool(
        "multi-edit",
        {"antigravity": ("multi_replace_file_content",), "claude": ("MultiEdit",)},
        {
            # The edit lists (`edits`, `ReplacementChunks`) differ in their items' keys.
            "antigravity": {"file_path": "TargetFile"},
            "claude": {"file_path": "file_path"},
        },
        "several replacements in one file",
        {"antigravity": _AG_3P,
         "claude": f"[unverified] older Claude Code versions only; absent from {_CC_REF}"},
    ),
    Tool(
        "grep",
        {"antigravity": ("grep_search",), "claude": ("Grep",),
         "gemini": ("grep_search", "search_file_content"), "cursor": ("Grep",),
         "copilot": ("grep", "rg", "Grep"), "cline": ("search_codebase",)},
        {
            # hooks.json's Query is literal unless IsRegex: not Claude's regex `pattern`.
            "antigravity": {"path": "SearchPath"},
            "claude": {"pattern": "pattern", "path": "path", "glob": "glob"},
            "gemini": {"pattern": "pattern", "path": "dir_path", "glob": "include_pattern"},
        },
        "search file contents for a regular expression",
        {"antigravity": _AG_MIG + "; args [unverified]: third parties", "claude": _CC_HOOKS,
         "gemini": _GM_GREP, "cursor": _CU_MAP, "copilot": _CP,
         "cline": f"{_CL}; its `queries` list left unmapped"},
    ),
    Tool(
        "glob",
        {"antigravity": ("find_by_name",), "claude": ("Glob",), "gemini": ("glob",),
         "copilot": ("glob", "Glob")},
        {
            "antigravity": {"pattern": "Pattern", "path": "SearchDirectory"},
            "claude": {"pattern": "pattern", "path": "path"},
            "gemini": {"pattern": "pattern", "path": "dir_path"},
        },
        "find files by glob pattern",
        {"antigravity": _AG_MIG + "; args [unverified]: third parties", "claude": _CC_HOOKS,
         "gemini": _GM_DECL, "copilot": _CP},
    ),
    Tool(
        "list",
        {"antigravity": ("list_dir",), "gemini": ("list_directory",)},
        {
            "antigravity": {"path": "DirectoryPath"},
            "gemini": {"path": "dir_path"},
        },
        "list a directory (Claude Code uses Bash `ls`)",
        {"antigravity": _AG_MIG + "; args [unverified]: third parties", "gemini": _GM_DECL},
    ),
    Tool(
        "web-fetch",
        {"antigravity": ("read_url_content",), "claude": ("WebFetch",), "gemini": ("web_fetch",),
         "cursor": ("WebFetch",), "copilot": ("web_fetch", "WebFetch"),
         "cline": ("fetch_web_content",)},
        {
            # Gemini's `prompt` carries the URLs and the question together: neither `url` nor
            # Claude's extraction `prompt`.
            "antigravity": {"url": "Url"},
            "claude": {"url": "url", "prompt": "prompt"},
        },
        "fetch a web page",
        {"antigravity": _AG_MIG + "; args [unverified]: third parties", "claude": _CC_HOOKS,
         "gemini": _GM_DECL, "cursor": _CU_MAP, "copilot": _CP,
         "cline": f"{_CL}; its `requests` list of {{url, prompt}} left unmapped"},
    ),
    Tool(
        "web-search",
        {"antigravity": ("search_web",), "claude": ("WebSearch",),
         "gemini": ("google_web_search",), "cursor": ("WebSearch",),
         "copilot": ("web_search", "WebSearch")},
        {
            "claude": {"query": "query"},
            "gemini": {"query": "query"},
        },
        "search the web",
        {"antigravity": _AG_MIG, "claude": _CC_HOOKS, "gemini": _GM_DECL, "cursor": _CU_MAP,
         "copilot": _CP},
    ),
    Tool(
        "subagent",
        {"antigravity": ("invoke_subagent",), "claude": ("Agent", "Task"),
         "gemini": ("invoke_agent",), "cursor": ("Task",), "copilot": ("task", "Agent", "Task"),
         "cline": ("spawn_agent",)},
        {
            "cline": {"prompt": "task"},
            "claude": {"prompt": "prompt", "subagent_type": "subagent_type"},
            "gemini": {"prompt": "prompt", "subagent_type": "agent_name"},
        },
        "delegate work to a subagent",
        {"antigravity": _AG, "claude": f"{_CC_SDK} (Agent, alias Task)", "gemini": _GM_AGENT,
         "cursor": _CU_MAP, "copilot": _CP, "cline": _CL},
    ),
    Tool(
        "todo",
        {"claude": ("TodoWrite",), "gemini": ("write_todos",),
         "copilot": ("update_todo", "TodoWrite")},
        {},  # both take `todos`, but the items' keys differ (content vs description)
        "write the agent's todo list",
        {"claude": _CC_SDK, "gemini": _GM_DECL, "copilot": _CP},
    ),
    Tool(
        "ask-user",
        {"antigravity": ("ask_question",), "claude": ("AskUserQuestion",),
         "copilot": ("ask_user", "AskUserQuestion"),
         "gemini": ("ask_user",), "cline": ("ask_question",)},
        {},
        "ask the user multiple-choice questions",
        {"antigravity": _AG, "claude": _CC_HOOKS, "gemini": _GM_DECL, "copilot": _CP,
         "cline": _CL},
    ),
    Tool(
        "plan-enter",
        {"claude": ("EnterPlanMode",), "gemini": ("enter_plan_mode",)},
        {},
        "switch to plan mode",
        {"claude": _CC_REF, "gemini": _GM_DECL},
    ),
    Tool(
        "plan-exit",
        {"claude": ("ExitPlanMode",), "gemini": ("exit_plan_mode",)},
        {},  # Claude's `plan` is the text, Gemini's `plan_filename` a file
        "present the plan and leave plan mode",
        {"claude": _CC_HOOKS, "gemini": _GM_DECL},
    ),
    Tool(
        "skill",
        {"claude": ("Skill",), "gemini": ("activate_skill",), "cline": ("skills",)},
        {},
        "load a skill",
        {"claude": _CC_REF, "gemini": _GM_DECL, "cline": _CL},
    ),
    Tool(
        "mcp-resources",
        {"claude": ("ListMcpResourcesTool",), "gemini": ("list_mcp_resources",)},
        {},
        "list the resources of MCP servers",
        {"claude": _CC_REF, "gemini": _GM_DECL},
    ),
    Tool(
        "mcp-resource",
        {"claude": ("ReadMcpResourceTool",), "gemini": ("read_mcp_resource",)},
        {},
        "read one MCP resource",
        {"claude": _CC_REF, "gemini": _GM_DECL},
    ),
    Tool(
        "send-message",
        {"antigravity": ("send_message",), "claude": ("SendMessage",)},
        {},
        "send a message to another agent",
        {"antigravity": _AG, "claude": _CC_REF},
    ),
    Tool(
        "notebook-edit",
        {"claude": ("NotebookEdit",)},
        {},
        "edit a Jupyter notebook cell",
        {"claude": _CC_SDK},
    ),
    Tool(
        "delete",
        {"cursor": ("Delete",)},
        {},
        "delete a file",
        {"cursor": f"{_CU}: preToolUse matcher values"},
    ),
    Tool(
        "subagent-define",
        {"antigravity": ("define_subagent",)},
        {},
        "define a custom subagent",
        {"antigravity": _AG},
    ),
)
# The hosts derived from another (`model.hosts.derive`) call tools and spell their arguments
# as their parent does but where their row says otherwise: each one's names and arguments are
# filled into every tool's when first asked for (`_Indexes.fill`), so that a run pays for the
# hosts it involves alone. A derived host without a name for a tool has none of its arguments.
_DERIVED_ROWS = tuple(row for row in HOST_TABLE if row.derived_from)
_DERIVED_OF = {row.id: row for row in _DERIVED_ROWS}


def citations(tool: Tool) -> dict[str, str]:
    """Each host's citation for a tool's names: its row's own, and for a host derived from
    another its row of `model.hosts` (or its parent's citation, where it states nothing of the
    tool). Made when asked: the docs and their tests read them, a run never does."""
    filled()
    sources = dict(tool.sources)
    for row in _DERIVED_ROWS:
        parent = row.derived_from or ""
        if row.id in tool.names and row.id not in sources:
            stated = tool.id in row.tool_args
            sources[row.id] = (sources.get(parent, "") if tool.id not in row.tool_names
                               else f"{row.name}: its row of model.hosts" if stated
                               else f"{row.name}: its row of model.hosts; args [unverified]: "
                                    f"{parent}'s")
    return sources


# (Each row's names and arguments are dicts of its own, which `_Indexes.fill` fills in place:
# a test keeps them apart.) The hosts each row names before any is filled, by its dict.
_BASE_HOSTS = {id(tool.names): tuple(tool.names) for tool in TOOLS}


def _names_of(dialect: str) -> dict[str, Tool]:
    """A host's tool name -> its row."""
    filled(dialect)
    return {name: tool for tool in TOOLS for name in tool.names.get(dialect, ())}


class _Indexes:
    """The lookups built from the table, each when first asked: `agenthooks run` looks a name
    up per tool call, in its caller's and its files' hosts, never in every host's (a plain
    class: a namedtuple costs an `eval` at import, on the path of every run)."""

    __slots__ = ("_by_any_name", "_by_name", "_to_canonical", "by_id", "filled", "table")

    def __init__(self, table: tuple[Tool, ...]) -> None:
        self.table = table
        self.filled: set[str] = set()  # the derived hosts whose cells the rows hold
        self._by_name: dict[str, dict[str, Tool]] = {}
        self._by_any_name: dict[str, Tool] | None = None
        self._to_canonical: dict[tuple[str, str], dict[str, str]] = {}
        self.by_id = {tool.id: tool for tool in table}

    def names_of(self, dialect: str) -> dict[str, Tool]:
        found = self._by_name.get(dialect)
        if found is None:
            found = self._by_name[dialect] = _names_of(dialect)
        return found

    @property
    def by_any_name(self) -> dict[str, Tool]:
        if self._by_any_name is None:
            self._by_any_name = {name: tool for tool in self.table for name in every_name(tool)}
        return self._by_any_name

    def to_canonical(self, tool: Tool, dialect: str) -> dict[str, str]:
        """A host's argument name -> the canonical one, for one tool."""
        key = (tool.id, dialect)
        found = self._to_canonical.get(key)
        if found is None:
            filled(dialect)
            found = self._to_canonical[key] = {
                host.removesuffix(_LIST): canonical + (_JOINED if host.endswith(_LIST) else "")
                for canonical, host in tool.args.get(dialect, {}).items()}
        return found


    def fill(self, host: str) -> None:
        """A derived host's names and arguments in every tool: those its row states where it
        states them, else its parent's (filled first); none where that is empty."""
        row = _DERIVED_OF.get(host)
        if host in self.filled or row is None:
            return
        self.filled.add(host)
        parent = row.derived_from or ""
        self.fill(parent)
        own_names, own_args = row.tool_names, row.tool_args
        for tool in self.table:
            names, args = tool.names, tool.args
            if host not in names:
                called = own_names[tool.id] if tool.id in own_names else names.get(parent)
                if called:
                    names[host] = called  # type: ignore[index]
            if host in names and host not in args:
                spelled = own_args[tool.id] if tool.id in own_args else args.get(parent)
                if spelled:
                    args[host] = spelled  # type: ignore[index]


_built: list[_Indexes] = []


def filled(host: str | None = None) -> None:
    """Every tool's names and arguments hold a derived host's (`host`), or every host's
    (None): what reads a tool's `names` or `args` for any host calls this first (the lookups
    here do)."""
    index = _index()
    for each in (host,) if host is not None else _DERIVED_OF:
        index.fill(each)


def _index() -> _Indexes:
    """The indexes of `TOOLS`, built once, and again only when the table itself is replaced
    (a host added by a table row at run time, as the seam tests do)."""
    if not _built or _built[0].table is not TOOLS:
        _built[:] = [_Indexes(TOOLS)]
    return _built[0]


def tool_for(dialect: str, name: str) -> Tool | None:
    """The row of a host's tool name; None for an unknown name or an MCP tool."""
    return _index().names_of(dialect).get(name)


def every_name(tool: Tool) -> tuple[str, ...]:
    """Each host's names for a tool, once each, in table order: those of the hosts its row
    names, then those the derived hosts' rows state (the others are their parents', named
    already), whichever hosts' cells are filled yet."""
    base = _BASE_HOSTS.get(id(tool.names))
    if base is None:  # a row made at run time (as the seam tests make one): as it stands
        return tuple(dict.fromkeys(name for names in tool.names.values() for name in names))
    found = [name for host in base for name in tool.names[host]]
    for row in _DERIVED_ROWS:
        if row.id not in base:
            found.extend(row.tool_names.get(tool.id) or ())
    return tuple(dict.fromkeys(found))


def tool_named(name: str) -> Tool | None:
    """The tool some host calls `name` (at most one: no name of the table means two tools,
    which a test keeps so), whichever host."""
    return _index().by_any_name.get(name)


def as_named_by(names: Iterable[str], dialect: str, *, keep: bool = True) -> list[str]:
    """Matcher names as `dialect` knows their tools: after each name any host gives a tool,
    that tool's names in `dialect` (every host's, where `dialect` has none: such a tool is
    matched under its caller's name). A hooks.json matcher's `Bash|run_shell_command` selects
    `run_command` (`matcher`). `keep`: the names themselves stay, for a caller that sends
    another host's name as its own (a Python hook's `tool="bash"` called with `bash`);
    without it, what a call in `dialect`'s words can be matched against."""
    found: list[str] = []
    filled(dialect)
    for name in names:
        tool = tool_named(name)
        mine = () if tool is None else tool.names.get(dialect) or every_name(tool)
        found.extend((name, *mine) if keep or not mine else mine)
    return list(dict.fromkeys(found))


# A host's argument spelled `name[]` is a list of texts whose canonical value is one text,
# an item a line (Cline's run_commands `commands`): a text given it becomes a list of one.
_LIST = "[]"
# The same argument read into its canonical name (`_Indexes.to_canonical`): its items joined.
_JOINED = "\n"


def _rename(args: Mapping[str, Any], renames: Mapping[str, str]) -> dict[str, Any]:
    """`args` with keys renamed; a renamed key wins over an unrenamed key of the same name.
    A list argument (`_LIST`) is made a list of one text from a text; one read into its
    canonical name (`_JOINED`), its texts joined a line each."""
    out = {key: value for key, value in args.items() if key not in renames}
    for key, value in args.items():
        if key in renames:
            target = renames[key]
            if target.endswith(_LIST):
                out[target[:-len(_LIST)]] = [value] if isinstance(value, str) else value
            elif target.endswith(_JOINED):
                out[target[:-len(_JOINED)]] = "\n".join(value) if isinstance(
                    value, list) and all(isinstance(item, str) for item in value) else value
            else:
                out[target] = value
    return out


def to_canonical(args: Mapping[str, Any], name: str, source: str) -> dict[str, Any]:
    """A host tool's arguments under canonical names; unmapped keys unchanged."""
    tool = tool_for(source, name)
    if tool is None:
        return dict(args)
    return _rename(args, _index().to_canonical(tool, source))


def from_canonical(args: Mapping[str, Any], tool_id: str, target: str) -> dict[str, Any]:
    """Canonical arguments of a tool under the target host's names; unmapped keys unchanged."""
    tool = _index().by_id.get(tool_id)
    if tool is None:
        return dict(args)
    filled(target)
    return _rename(args, tool.args.get(target, {}))


def translate_args(
    args: Mapping[str, Any], name: str, source: str, target: str
) -> dict[str, Any]:
    """The arguments of source-host tool `name` under the target host's argument names."""
    tool = tool_for(source, name)
    if tool is None or source == target:
        return dict(args)
    return from_canonical(to_canonical(args, name, source), tool.id, target)


# MCP tool names: (prefix, separator between server and tool). Claude Code writes
# `mcp__<server>__<tool>` (docs/hooks.md "Match MCP tools"); Gemini CLI `mcp_<server>_<tool>`
# (packages/core/src/tools/mcp-tool.ts: MCP_TOOL_PREFIX, MCP_QUALIFIED_NAME_SEPARATOR; older docs
# say `mcp__`). Antigravity's spelling in hooks.json is unknown (its SDK carries server and tool
# apart): it has no entry, so its MCP names pass through unchanged.
_MCP_STYLE: dict[str, tuple[str, str]] = {
    "claude": ("mcp__", "__"),
    "gemini": ("mcp_", "_"),
    "codex": ("mcp__", "__"),  # developers.openai.com/codex/hooks: mcp__<server>__<tool>
    # charmbracelet/crush internal/agent/tools/mcp-tools.go@37f36e9: mcp_<server>_<tool>, as
    # given (Gemini CLI's spelling without its character rule)
    "crush": ("mcp_", "_"),
    # an extension's tool is `<extension>__<tool>` (measured with goose 1.52.0:
    # `todo__todo_write`), MCP servers being extensions; its built-in tools are bare
    "goose": ("", "__"),
    # kiro.dev/docs/cli/hooks, "MCP Example": `@<server>/<tool>` (`@postgres/query`)
    "kiro": ("@", "/"),
    # @cline/core 0.0.86 `defaultMcpToolNameTransform`: `<server>__<tool>`, characters outside
    # its set made `_`, a name over its length cut and hashed
    "cline": ("", "__"),
}


def mcp_parts(dialect: str, name: str) -> tuple[str, str] | None:
    """(server, tool) of a host's MCP tool name; None if not MCP (or the spelling is unknown).

    Gemini CLI's single underscore is ambiguous: `mcp_my_server_list` may be server `my` with
    tool `server_list` or server `my_server` with tool `list`. This reads it as Gemini CLI's own
    parser does (`parseMcpToolName`: the server ends at the first underscore), so a server name
    with an underscore comes back split differently than it went in. A name with an empty
    server (`mcp__x`, the older docs' spelling) is not an MCP name to Gemini CLI, nor here.
    """
    style = _MCP_STYLE.get(dialect)
    if style is None or not name.startswith(style[0]):
        return None
    server, sep, tool = name[len(style[0]):].partition(style[1])
    if not (server and sep and tool):
        return None
    return server, tool


def _gemini_safe(text: str) -> str:
    # Gemini CLI registers MCP tools under generateValidName(), which turns every character
    # outside [A-Za-z0-9_.:-] into `_`; the name a hook sees is that one. (Its truncation of
    # names over 63 characters is not reproduced.)
    return "".join(c if c.isascii() and (c.isalnum() or c in "_-.:") else "_" for c in text)


# Hosts whose MCP names carry the tool alone: Cursor's `MCP:<tool_name>` (cursor.com/docs/hooks,
# "Available matchers by hook"). A name in it loses its server, so it is written, never read
# back into another host's name.
_MCP_TOOL_ONLY: dict[str, str] = {"cursor": "MCP:"}


def mcp_tool_only(dialect: str) -> str | None:
    """The prefix of a host's MCP names that carry the tool alone (Cursor's `MCP:`), else
    None."""
    return _MCP_TOOL_ONLY.get(dialect)


def mcp_name(dialect: str, server: str, tool: str) -> str:
    """A host's name for MCP tool `tool` of `server`.

    A dialect whose spelling is unknown (Antigravity) gets Claude Code's `mcp__server__tool`,
    the most widespread form; `tool_name` never writes it there, it passes names through.
    """
    if dialect == "gemini":
        return f"mcp_{_gemini_safe(server)}_{_gemini_safe(tool)}"
    if dialect in _MCP_TOOL_ONLY:
        return _MCP_TOOL_ONLY[dialect] + tool
    prefix, sep = _MCP_STYLE.get(dialect, _MCP_STYLE["claude"])
    return f"{prefix}{server}{sep}{tool}"


def tool_name(name: str, source: str, target: str) -> str:
    """A source-host tool name in the target host's words; unknown names unchanged."""
    if source == target:
        return name
    tool = tool_for(source, name)
    if tool is not None:
        filled(target)
        names = tool.names.get(target)
        return names[0] if names else name
    parts = mcp_parts(source, name)
    if parts is None or (target not in _MCP_STYLE and target not in _MCP_TOOL_ONLY):
        return name
    return mcp_name(target, *parts)


def _cell(tool: Tool, dialect: str) -> str:
    names = tool.names.get(dialect)
    if not names:
        return "-"
    mapping = tool.args.get(dialect, {})
    shown = (host if host == canon else f"{canon}→{host}" for canon, host in mapping.items())
    args = ", ".join(shown)
    text = " / ".join(f"`{name}`" for name in names)
    return f"{text} ({args})" if args else text


def markdown_table() -> str:
    """The table as docs/dialects.md prints it: canonical id, then each host's names and arguments.

    Arguments are listed by the host's name, written `canonical→host` where the two differ.
    """
    filled()
    lines = [
        "| Tool | " + " | ".join(row.title for row in HOST_TABLE) + " |",
        "| --- |" + " --- |" * len(HOST_TABLE),
    ]
    for tool in TOOLS:
        cells = " | ".join(_cell(tool, dialect) for dialect in DIALECTS)
        lines.append(f"| `{tool.id}` | {cells} |")
    return "\n".join(lines) + "\n"


def host_named(names: Sequence[str]) -> str | None:
    """The host a hooks.json matcher speaks for, from its plain names (`matcher.
    named_alternatives`: `Bash|Write`, or `Bash` and `Grep` of `Bash|Grep|mcp__.*`): the
    first, in table order, whose names for tools are every one of them that names a tool of
    the table (a custom tool's name says nothing of a host), when at least one does and none
    is Antigravity's (hooks.json's own words); else None. A handler so matched was written
    for that host's payload and answers (docs/hosts.md)."""
    hosts: list[str] | None = None
    order = [row.id for row in HOST_TABLE]
    for name in names:
        tool = tool_named(name)
        if tool is None:
            continue
        if name in tool.names.get(HOOKS_JSON_DIALECT, ()):
            return None
        calling = [dialect for dialect in order if name in _names_in(tool, dialect)]
        hosts = calling if hosts is None else [h for h in hosts if h in calling]
    return min(hosts, key=order.index) if hosts else None


def _names_in(tool: Tool, host: str) -> tuple[str, ...]:
    """A host's names for a tool, a derived host's filled or not: its row's, else its
    parent's."""
    if host in tool.names:
        return tuple(tool.names[host])
    row = _DERIVED_OF.get(host)
    if row is None:
        return ()
    if tool.id in row.tool_names:
        return tuple(row.tool_names[tool.id])
    return _names_in(tool, row.derived_from or "")
