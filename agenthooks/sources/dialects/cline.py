"""Cline's hooks, as data (`model.hosts`: a host with files of its own, no matcher, no JSON).
Each fact read in the `cline` CLI 3.0.65 from npm (its compiled binary embeds @cline/core
0.0.86 and @cline/shared 0.0.86, whose dist/index.js and dist/storage/index.js hold the same
code readably) and measured with cline 3.0.65 against a fake model server:

    files       every entry of four folders, each a script named after the event it runs
                on: `~/Documents/Cline/Hooks/`, `$CLINE_DIR/hooks/` (`~/.cline/hooks/`, or
                `<--config dir>/hooks/`), and `.clinerules/hooks/` and `.cline/hooks/` of the
                workspace, which is the git root above Cline's working folder, else that
                folder (@cline/shared storage `resolveHooksConfigSearchPaths`; measured from a
                subfolder of a repository). `--hooks-dir` sets CLINE_HOOKS_DIR, which nothing
                reads in 3.0.65. No JSON, no matcher: the script filters the calls itself.
    names       the event, in any case, with no extension or one of `.sh .bash .zsh .js .mjs
                .cjs .ts .mts .cts .py .ps1` (@cline/core `toHookConfigFileName`): `pretooluse.sh`
                runs, `pre-tool-use.sh` and `PreToolUse.rb` never do; a directory or a symbolic
                link is skipped (`Dirent.isFile()` of a listing that follows no link). Every
                file of every folder runs, one after another in the order of their full paths.
    running     no exec bit needed: the first line's `#!` names the program (`/usr/bin/env X`
                read as X), else the extension does: bash for none, .sh, .bash and .zsh, node
                for .js, .mjs and .cjs, `bun run` for .ts, .mts and .cts, python3 for .py,
                `pwsh -File` for .ps1 (@cline/core `resolveHookCommand`); in Cline's working
                folder, with Cline's environment and no variable of its own; the payload on
                stdin; 120 s to answer, then SIGKILL (`toolCallTimeoutMs ?? 120000`).
    events      PreToolUse and PostToolUse, awaited; TaskStart, TaskResume, TaskCancel (a run
                aborted: "cancel", "abort" or "interrupt" in its reason), TaskComplete,
                TaskError, UserPromptSubmit and SessionShutdown started detached, their answers
                never read; PreCompact, a name Cline lists, mapped to no event in the CLI: it
                never runs (`HOOK_CONFIG_FILE_EVENT_MAP`). UserPromptSubmit did not run in any
                `cline "prompt"` run measured.
    answers     `kinds.protocols.cline`.

`sources.dialects.cline_check` reads the folders' entries; this module is what a run needs.
"""

from __future__ import annotations

from agenthooks.sources.dialects.matching import ALL, Selection
from agenthooks.sources.dialects.spec import Dialect, HandlerType

# Its events, as its file names spell them (`HookConfigFileName`); none has a matcher.
EVENTS: dict[str, str | None] = dict.fromkeys((
    "TaskStart", "TaskResume", "TaskCancel", "TaskComplete", "TaskError", "PreToolUse",
    "PostToolUse", "UserPromptSubmit", "PreCompact", "SessionShutdown"))
# The events whose answer Cline reads: the tool calls', awaited (`beforeTool`, `afterTool`).
AWAITED = frozenset(("PreToolUse", "PostToolUse"))
# A name Cline lists but maps to no event of the CLI's agent: its file never runs.
NEVER_FIRES = frozenset(("PreCompact",))
# The extensions a hook file may have ("" for none), lowercase (`toHookConfigFileName`).
EXTENSIONS = ("", ".sh", ".bash", ".zsh", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".py",
              ".ps1")
# The program of a file without `#!`, by its extension (`resolveHookCommand`); bash for
# another one, and for none.
PROGRAMS: dict[str, tuple[str, ...]] = {
    ".sh": ("bash",), ".bash": ("bash",), ".zsh": ("bash",), ".js": ("node",),
    ".mjs": ("node",), ".cjs": ("node",), ".ts": ("bun", "run"), ".mts": ("bun", "run"),
    ".cts": ("bun", "run"), ".py": ("python3",), ".ps1": ("pwsh", "-File"),
}
DEFAULT_PROGRAM = ("bash",)
# `#!` programs Cline runs by their name alone (`normalizeShebangCommand`): `/bin/bash` is
# run as `bash`, `/usr/bin/env python3` as `python3`.
BY_NAME = frozenset(("bash", "sh", "zsh", "python3", "python"))

CLINE = Dialect(
    name="cline",
    host="Cline",
    events=EVENTS,
    exact_events=frozenset(),
    # A file is one handler: its "command" is how Cline runs the script.
    types={"command": HandlerType("command", ("command",), (), True)},
    group_keys=(),
    settings_keys=(),
    timeout_unit=1.0,
    default_timeout=120.0,
    timeout_by_event={},
    project_var="",
    option_types={},
    # Cline starts the program itself, with no shell; agenthooks runs the command it makes
    # (`cline_check.command_of`) with bash, as Cline runs a script without `#!`.
    shell="bash",
    reader="agenthooks.sources.dialects.cline_check:read",
    parser="agenthooks.sources.dialects.cline_check:parse",
    script=True,
)


def selection(matcher: str | None, event: str) -> Selection:
    """Cline has no matchers: every hook of an event runs on every call, and filters itself."""
    return ALL


def event_of(name: str) -> str | None:
    """The event a file name runs on, as Cline reads it (`toHookConfigFileName`): its
    extension one of EXTENSIONS in any case, its stem (trimmed) an event in any case; None
    for a name Cline never runs."""
    stem, extension = split_name(name)
    if extension.lower() not in EXTENSIONS:
        return None
    wanted = stem.strip().lower()
    return next((event for event in EVENTS if event.lower() == wanted), None)


def split_name(name: str) -> tuple[str, str]:
    """(stem, extension) as Node's `path.extname` splits a file name: the extension from the
    last dot, none for a name whose only dot leads it (`.PreToolUse`)."""
    dot = name.rfind(".")
    if dot <= 0:
        return name, ""
    return name[:dot], name[dot:]


def program_of(name: str, first_line: str | None) -> tuple[str, ...]:
    """The program Cline starts a hook file with, its path to follow: the `#!` line's words
    (past `env`; bash, sh, zsh and Python by name alone), else its extension's."""
    if first_line is not None and first_line.strip().startswith("#!"):
        words = tuple(first_line.strip()[2:].split())
        if words:
            return _by_name(words) or words
    return PROGRAMS.get(split_name(name)[1].lower(), DEFAULT_PROGRAM)


def _by_name(words: tuple[str, ...]) -> tuple[str, ...] | None:
    """`normalizeShebangCommand`: `env` dropped, bash, sh, zsh and Python named alone."""
    if not words:
        return None
    base = words[0].replace("\\", "/").lower().rsplit("/", 1)[-1]
    if base == "env":
        return _by_name(words[1:])
    if base in BY_NAME:
        return (base, *words[1:])
    return words
