"""The command line: a thin layer over `agenthooks.cli.commands`.

`main` is the one place that turns errors into exit codes. `agenthooks run` skips click
entirely: it starts once per tool call of an agent, and click's import alone costs more than
the rest of a run (see `agenthooks.cli.run_args`).
"""

from __future__ import annotations

import gc
import os
import sys

from agenthooks._lean.imports import install

install()  # before the program's other modules: each is imported faster behind it

from agenthooks.errors import AgentHooksError, describe  # noqa: E402

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import NoReturn

DEBUG_ENV = "AGENTHOOKS_DEBUG"


def _fail(message: str) -> int:
    try:
        sys.stderr.write(f"agenthooks: error: {message}\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):  # stderr closed: the exit status says it
        pass
    return 1


def split_run(args: list[str]) -> list[str] | None:
    """The arguments of `run` when the command is `run`, options given before it included.

    `agenthooks -v run Stop` means `agenthooks run Stop -v`: `run` parses its own options,
    and click would otherwise exit 2, which for `run` means "block".
    """
    for index, arg in enumerate(args):
        if arg == "run":
            return args[index + 1:] + args[:index]
        if not arg.startswith("-") or arg in ("--help", "-h", "--version"):
            return None
    return None


def leave(status: int) -> None:
    """End the `agenthooks run` program at once with `status`, its answer already written.

    The interpreter's own exit would tear down every module's objects and run a last
    collection: about a tenth of a cold run, to free memory the kernel takes back anyway.
    Streams are flushed and exit functions run first (trust registers one to remove its
    copies); a process with `threading` loaded exits the usual way, which joins its threads.
    """
    if "threading" in sys.modules:
        return
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):  # a closed or broken stream: nothing more can be said
            continue
    atexit = sys.modules.get("atexit")
    if atexit is not None:
        atexit._run_exitfuncs()
    os._exit(status)


def program() -> NoReturn:
    """The `agenthooks` program (bin/agenthooks, `python -m agenthooks`): `main`, then exit;
    a run leaves at once (`leave`)."""
    status = main()
    if split_run(sys.argv[1:]) is not None:
        leave(status)
    raise SystemExit(status)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        run = split_run(args)
        if run is not None:
            if argv is None:
                # The program lives for one tool call and makes few reference cycles: the
                # collector's passes over every imported module's objects (about a dozen a
                # run, 1-2 ms) would free next to nothing. The Python API leaves its
                # caller's collector alone.
                gc.disable()
            from agenthooks.cli.run_args import main_run

            # Only the real program may change its process (subreaper, death signal).
            return main_run(run, own_process=argv is None)
        from agenthooks.cli.app import invoke

        return invoke(args)
    except AgentHooksError as exc:
        return _fail(str(exc))
    except BrokenPipeError:  # `agenthooks list | head`
        return 1
    except Exception as exc:  # MemoryError, RecursionError, a deleted cwd, a bug: one line
        if os.environ.get(DEBUG_ENV) == "1":
            import traceback

            traceback.print_exc()
        return _fail(f"{describe(exc)} (set {DEBUG_ENV}=1 for a traceback)")
