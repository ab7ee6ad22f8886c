"""What each key of a hook file means, as the schemas' descriptions say it.

One text per key where every host means the same; "<dialect>:<key>" where one host means
something of its own. The keys themselves, their types and which are required come from the
dialects' tables (`sources/dialects/*.py`), never from here.
"""

from __future__ import annotations

FIELD_TEXTS: dict[str, str] = {
    "type": "The kind of handler; case-sensitive.",
    "command": "The shell command to run; it gets the event as JSON on stdin. Must not be "
               "empty or blank, and cannot hold a NUL character.",
    "prompt": "The prompt sent to the model.",
    "model": "The model that answers the prompt.",
    "url": "The http or https URL the event is POSTed to.",
    "headers": "HTTP headers sent with the request; `$NAME` in a value is filled in only for "
               "the variables `allowedEnvVars` names.",
    "allowedEnvVars": "The environment variables `headers` may name.",
    "server": "The MCP server whose tool is called.",
    "tool": "The tool of that server to call.",
    "input": "The arguments of the MCP tool call.",
    "args": "The exec form: `command` is a program run with these arguments, without a shell.",
    "async": "true: start the handler and go on without waiting for it.",
    "asyncRewake": "true: run in the background; an exit 2 wakes the model with the hook's "
                   "message.",
    "shell": "The shell that runs `command` (default bash).",
    "statusMessage": "The text shown while the handler runs.",
    "once": "true: run once per session, then removed (Claude Code applies it to the hooks "
            "of skills only).",
    "if": "A permission rule (`Bash(git *)`, `Edit(src/**)`) that narrows the handler to "
          "the calls whose arguments match.",
    "name": "The handler's name, shown in messages and used by `hooksConfig.disabled`.",
    "description": "What the handler does, for people.",
    "env": "Environment variables set for the command.",
    "matcher": "Which calls the handler runs for (see the event's description); `*`, empty or "
               "none: every call.",
    "sequential": "true: the handlers of this event run one after another, each seeing what "
                  "the previous one changed.",
    "hooks": "The handlers to run.",
    "commandWindows": "The command run on Windows instead of `command`.",
    "command_windows": "Another spelling of `commandWindows`.",
    "loop_limit": "How many follow-up messages of stop and subagentStop continue the agent "
                  "(default 5); null: no limit.",
    "failClosed": "true: a crash, a timeout or output that is not JSON blocks the action "
                  "(on the events that can block).",
    "bash": "The command run with bash on Linux and macOS.",
    "powershell": "The command run with PowerShell on Windows.",
    "exec": "A program run without a shell, with `args`; not together with `bash`, "
            "`powershell` or `command`.",
    "cwd": "The working directory, relative to the repository root.",
    "timeoutSec": "Seconds before the hook is stopped (default 30).",
    "claude:matcher": "Which calls the handlers run for: a tool name, a `|` list of names, or a "
                      "regex (see the event's description); `*`, empty or none: every call.",
    "gemini:matcher": "Which calls the handlers run for: a regex (exact text on lifecycle "
                      "events; see the event's description); `*`, empty or none: every call.",
    "codex:matcher": "Which calls the handlers run for: exact names for a `|` list of letters, "
                     "digits and `_`, else a regex searched anywhere (one that does not "
                     "compile skips the group); `*`, empty or none: every call.",
    "windsurf:show_output": "true: Windsurf shows the hook's output in Cascade (not on "
                            "pre_user_prompt and post_cascade_response).",
    "windsurf:working_directory": "The folder the command runs in.",
    "cursor:matcher": "A regex searched anywhere in the value the event matches (see the "
                      "event's description); `*`, empty or none: every call.",
    "copilot:matcher": "A regex that must match the whole value (see the event's description); "
                       "an invalid one skips the entry.",
    "copilot:timeout": "Another name of `timeoutSec`.",
    "copilot:args": "The arguments `exec` runs its program with.",
    "copilot:command": "The command run on every platform; `bash` and `powershell` win on "
                       "theirs.",
    "claude:sequential": "Gemini CLI's key, which Claude Code ignores; it must still be true or "
                         "false.",
    "codex:sequential": "Gemini CLI's key, which Codex ignores; it must still be true or false.",
    "codex:prompt": "The prompt; Codex parses prompt and agent handlers and skips them.",
}


def field_text(dialect: str, key: str) -> str:
    """The description of a key in one dialect's files."""
    return FIELD_TEXTS.get(f"{dialect}:{key}") or FIELD_TEXTS.get(key) or f"`{key}`."
