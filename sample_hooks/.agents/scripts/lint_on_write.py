#!/usr/bin/env python3
"""PostToolUse hook for file writes: block when a written .py file has tabs or trailing spaces.

The file named by toolCall.args.TargetFile is read relative to the workspace root
($GEMINI_PROJECT_DIR; handlers run in the folder that holds hooks.json) unless it is absolute. Files that are not .py, or do not exist, get "{}".
"""

import json
import os
import sys
from pathlib import Path


def problems(path: Path) -> list[str]:
    found: list[str] = []
    text = path.read_text(encoding="utf-8", errors="replace")
    for number, line in enumerate(text.splitlines(), start=1):
        if "\t" in line:
            found.append(f"line {number}: tab character")
        if line != line.rstrip():
            found.append(f"line {number}: trailing whitespace")
    return found


def written_file(payload: dict) -> object:
    """Antigravity's toolCall.args.TargetFile, or Claude Code's and Gemini CLI's
    tool_input.file_path."""
    tool_call = payload.get("toolCall")
    if isinstance(tool_call, dict):
        args = tool_call.get("args")
        return args.get("TargetFile") if isinstance(args, dict) else None
    tool_input = payload.get("tool_input")
    return tool_input.get("file_path") if isinstance(tool_input, dict) else None


def main() -> int:
    try:
        payload = json.load(sys.stdin)
    except ValueError:
        print("lint-on-write: payload is not valid JSON", file=sys.stderr)
        return 1
    target = written_file(payload) if isinstance(payload, dict) else None

    answer: dict[str, str] = {}
    if isinstance(target, str) and target.endswith(".py"):
        path = Path(os.environ.get("GEMINI_PROJECT_DIR", "..")) / target
        if path.is_file():
            found = problems(path)
            if found:
                shown = "; ".join(found[:5])
                more = f" (and {len(found) - 5} more)" if len(found) > 5 else ""
                answer = {
                    "decision": "block",
                    "reason": f"{target} has whitespace problems: {shown}{more}",
                }
    print(json.dumps(answer))
    return 0


if __name__ == "__main__":
    sys.exit(main())
