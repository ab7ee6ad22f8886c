#!/usr/bin/env python3
"""Stop hook: keep the agent working while the marker file .tests-failing exists.

The marker is looked up in the workspace root, $GEMINI_PROJECT_DIR (handlers run in the
folder that holds hooks.json). The payload is read and ignored.
"""

import json
import os
import sys
from pathlib import Path

MARKER = ".tests-failing"


def main() -> int:
    sys.stdin.read()
    root = Path(os.environ.get("GEMINI_PROJECT_DIR", ".."))
    if (root / MARKER).exists():
        answer = {
            "decision": "continue",
            "reason": f"Tests are failing (see {MARKER}); keep working.",
        }
    else:
        answer = {}
    print(json.dumps(answer))
    return 0


if __name__ == "__main__":
    sys.exit(main())
