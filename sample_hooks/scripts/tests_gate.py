#!/usr/bin/env python3
"""Stop hook: keep the agent working while the marker file .tests-failing exists.

The marker is looked up in the cwd (the workspace root). The payload is read and ignored.
"""

import json
import sys
from pathlib import Path

MARKER = ".tests-failing"


def main() -> int:
    sys.stdin.read()
    if Path(MARKER).exists():
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
