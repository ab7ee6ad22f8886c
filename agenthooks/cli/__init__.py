"""The command line: a thin layer over `agenthooks.commands`.

`main` is the one place that turns errors into exit codes. `agenthooks run` skips click
entirely: it starts once per tool call of an agent, and click's import alone costs more than
the rest of a run (see `agenthooks.cli.run_args`).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from agenthooks.errors import AgentHooksError


def _fail(message: str) -> int:
    sys.stderr.write(f"agenthooks: error: {message}\n")
    return 1


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        if args[:1] == ["run"]:
            from agenthooks.cli.run_args import main_run

            return main_run(args[1:])
        from agenthooks.cli.app import invoke

        return invoke(args)
    except AgentHooksError as exc:
        return _fail(str(exc))
    except BrokenPipeError:  # `agenthooks list | head`
        return 1
