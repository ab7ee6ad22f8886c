"""`agenthooks run` inside agenthooks' own reach: a handler that would read its own file, and
runs nested in runs.

Two guards, one for each way a run can start itself:

- `validate` (rule `runs-itself`): a handler whose command is `agenthooks run` and whose run
  would read the very file it is written in. The selection never runs such a handler
  (`plan.select.fans_out`), but the host does: it then runs agenthooks, which runs the file's
  other hooks a second time, beside the host's own run of them. And a handler that starts
  such a run among other commands (`./check.sh && agenthooks run X`): agenthooks runs it, as
  the handler it is, and the run it starts reads the file again.
- `run` (an environment marker, `DEPTH_ENV`): a handler that starts `agenthooks run` in some
  other way (a script that calls it) gets the marker one higher than its run's; a run that
  finds itself nested deeper than `MAX_DEPTH` refuses to run anything, so a loop ends at the
  second level instead of filling the machine with processes.
"""

from __future__ import annotations

import os

from agenthooks.errors import AgentHooksError
from agenthooks.model.handlers import Diagnostic, Handler, HookFile, Source
from agenthooks.model.hosts import HOOKS_JSON_DIALECT
from agenthooks.plan.select import left_out

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping, MutableMapping, Sequence

RULE = "runs-itself"
DEPTH_ENV = "AGENTHOOKS_RUN_DEPTH"
# A run started by a handler of a run (Antigravity's hooks.json entry, then a script that asks
# agenthooks about another file) is one level; a third is a loop.
MAX_DEPTH = 1


class NestedRunError(AgentHooksError):
    """`agenthooks run` started by a handler of a run started by a handler of a run."""


def depth(environ: Mapping[str, str]) -> int:
    """How many runs this one is nested in (0: started by a host or by hand)."""
    try:
        return max(0, int(environ.get(DEPTH_ENV, "0")))
    except ValueError:
        return 0


def check_depth(environ: Mapping[str, str]) -> None:
    """Raise `NestedRunError` when this run is nested deeper than `MAX_DEPTH`."""
    level = depth(environ)
    if level > MAX_DEPTH:
        raise NestedRunError(
            f"agenthooks run nested {level} levels deep ({DEPTH_ENV}={level}): a handler runs "
            "agenthooks run, whose handlers run it again; nothing ran (find the handler with "
            "agenthooks validate, rule runs-itself, or agenthooks run -v)")


def enter(environ: MutableMapping[str, str]) -> str | None:
    """Mark `environ` (which handlers inherit) one level deeper; returns the value to give
    back to `leave` once the handlers are done."""
    previous = environ.get(DEPTH_ENV)
    environ[DEPTH_ENV] = str(depth(environ) + 1)
    return previous


def leave(environ: MutableMapping[str, str], previous: str | None) -> None:
    """Undo `enter`: a harness that runs many events in one process stays at its level."""
    if previous is None:
        environ.pop(DEPTH_ENV, None)
    else:
        environ[DEPTH_ENV] = previous


def runs_of(handler: Handler) -> tuple[bool, list[tuple[str, ...]]]:
    """(whether the handler is `agenthooks run` itself, the words after `run` of each run it
    is or starts): itself, the entry point; else the runs it starts among other commands."""
    if handler.kind != "command" or not any(
            "agenthooks" in word for word in (handler.command, *(handler.args or ()))):
        return False, []
    from agenthooks.model.itself import nested_runs, run_arguments

    own = run_arguments(handler.command, handler.args)
    if own is not None:
        return True, [own]
    return False, nested_runs(handler.command, handler.args)


def run_options(handler: Handler) -> tuple[list[str], str | None, bool] | None:
    """The `--config` files, `--host` and `--other-hosts` of a handler that is `agenthooks
    run` itself; None for any other handler."""
    itself, runs = runs_of(handler)
    return options_of(runs[0]) if itself else None


def options_of(words: Sequence[str]) -> tuple[list[str], str | None, bool]:
    """The `--config` files, `--host` and `--other-hosts` among the words of a run."""
    hosts = option_values(words, "--host")
    return option_values(words, "--config"), hosts[-1] if hosts else None, \
        "--other-hosts" in words


def option_values(words: Sequence[str], name: str) -> list[str]:
    """Every value of one option among a run's words, `--config X` and `--config=X` alike
    (the last one wins where the option is given once)."""
    found = []
    for index, word in enumerate(words):
        if word == name:
            found.append(words[index + 1] if index + 1 < len(words) else "")
        elif word.startswith(name + "="):
            found.append(word.partition("=")[2])
    return found


def reads_its_own_file(handler: Handler, default_host: str | None = None) -> bool | None:
    """Whether a handler is (True), or starts among other commands (None), an `agenthooks
    run` that would read the handler's own file: it names no `--config` (so discovery finds
    the file again, run where the host runs it) or names this very file, and its `--host`
    (else `default_host`, the user config's) does not leave the file out. False otherwise."""
    itself, runs = runs_of(handler)
    for words in runs:
        if _reads(handler.source, options_of(words), default_host):
            return True if itself else None
    return False


def _reads(source: Source, options: tuple[list[str], str | None, bool],
           default_host: str | None) -> bool:
    configs, host, other_hosts = options
    host = host or default_host
    if configs:
        own = os.path.realpath(source.file)
        # Relative to where the host runs the handler, or to the workspace root, as run
        # reads a relative --config.
        named = {os.path.realpath(os.path.join(base, c)) for c in configs
                 for base in (source.cwd, source.workspace)}
        if own not in named:
            return False
    elif not discovered(source):
        return False
    return left_out(source, host, other_hosts) is None


def discovered(source: Source) -> bool:
    """Whether a run that names no file finds this one: a hooks.json in a customization
    folder, a user file, or a settings file in its host's folder."""
    from agenthooks.sources import discovery

    if source.level == "user":
        return True
    if source.dialect != HOOKS_JSON_DIALECT:
        return discovery.dialect_owner(source.file, "") != ""
    return discovery.owner_of(source.file, "") != ""


def runs_itself(files: Sequence[HookFile], default_host: str | None = None
                ) -> Iterator[Diagnostic]:
    """An error at each handler that is, or starts, `agenthooks run` reading its own file."""
    def why(handler: Handler) -> str | None:
        found = reads_its_own_file(handler, default_host)
        return None if found is False else ITSELF if found else NESTED

    return command_errors(files, RULE, why)


def command_errors(files: Sequence[HookFile], rule: str,
                   why: Callable[[Handler], str | None]) -> Iterator[Diagnostic]:
    """An error of `rule` at the command of each handler `why` has a message for."""
    for hook_file in files:
        for handler in hook_file.handlers:
            message = why(handler)
            if message is None:
                continue
            line, column = _position(hook_file, handler.pointer + "/command")
            yield Diagnostic(hook_file.source.path, line, column, "error", rule, message,
                             handler.pointer + "/command")


ITSELF = ("this handler runs agenthooks run, which reads this file again: agenthooks skips the "
          "entry, but the host runs it, and it then runs every other hook of the file a second "
          "time; name the file agenthooks should run with --config (or give the run --host "
          "for this host)")
NESTED = ("this handler runs agenthooks run among other commands, so it is a handler, not "
          "agenthooks' entry: the run it starts reads this file again and runs this handler "
          "again, until the run nested two deep refuses (a failure, a deny under "
          "--fail-closed); make the command `agenthooks run` alone, or name another file "
          "with --config")


def _position(hook_file: HookFile, pointer: str) -> tuple[int, int]:
    """The line and column of `pointer` in the file (1, 1 when it cannot be read again)."""
    try:
        with open(hook_file.source.file, encoding="utf-8") as handle:
            text = handle.read()
        from agenthooks.sources.reading.jsonpos import read_positions

        _, positions = read_positions(text)
    except (OSError, ValueError, AgentHooksError, RecursionError):
        return 1, 1
    return positions.locate(pointer, "value")
