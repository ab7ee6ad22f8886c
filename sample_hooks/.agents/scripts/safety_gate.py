#!/usr/bin/env python3
"""PreToolUse hook for shell commands: block destructive commands, ask before pushing.

Reads the command from whichever host wrote the payload: Antigravity's
toolCall.args.CommandLine, or Claude Code's and Gemini CLI's tool_input.command.

Decision, in order:
  * CommandLine contains "rm -rf"      -> reason on stderr, exit 2 (block)
  * CommandLine contains "git push"    -> {"decision": "ask", ...}
  * CommandLine starts with a read-only command (ls, cat, git status, git diff, pwd)
    and has no shell operator that could chain or redirect (; & | > < ` $( newline)
                                       -> {"decision": "allow", ...}
  * anything else                      -> no output, exit 0 (no opinion)
"""

import json
import sys

READ_ONLY = ("ls", "cat", "git status", "git diff", "pwd")
# "cat x > y" or "ls; make deploy" start read-only but are not: give no opinion on them.
SHELL_OPERATORS = (";", "&", "|", ">", "<", "`", "$(", "\n")


def is_read_only(command: str) -> bool:
    if any(op in command for op in SHELL_OPERATORS):
        return False
    for prefix in READ_ONLY:
        if command == prefix or command.startswith((prefix + " ", prefix + "\t")):
            return True
    return False


def shell_command(payload: dict) -> object:
    tool_call = payload.get("toolCall")
    if isinstance(tool_call, dict):
        args = tool_call.get("args")
        return args.get("CommandLine") if isinstance(args, dict) else None
    tool_input = payload.get("tool_input")
    return tool_input.get("command") if isinstance(tool_input, dict) else None


def main() -> int:
    try:
        payload = json.load(sys.stdin)
    except ValueError:
        print("safety-gate: payload is not valid JSON", file=sys.stderr)
        return 1
    command = shell_command(payload) if isinstance(payload, dict) else None
    if not isinstance(command, str):
        return 0
    command = command.strip()

    if "rm -rf" in command:
        print(f"Refusing to run a recursive force delete: {command}", file=sys.stderr)
        return 2
    if "git push" in command:
        print(json.dumps({"decision": "ask", "reason": "git push needs a human"}))
        return 0
    if is_read_only(command):
        reason = f"Read-only command: {command}"
        print(json.dumps({"decision": "allow", "reason": reason}))
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
