"""The command line of `agenthooks run`, parsed by hand.

`run` starts once per tool call of an agent: importing click (or argparse's help machinery)
would cost more than the rest of the run. The options are one table of data, from which both
the parser and the help text are made, so they cannot disagree. Usage errors exit 1, never 2:
for `run`, exit 2 means "blocked" and nothing else.
"""

from __future__ import annotations

import os

from agenthooks._lean.records import NamedTuple
from agenthooks._lean.suppress import suppress
from agenthooks.cli.commands.run import RunOptions, deny_anything, run, write_out
from agenthooks.engine.call import isolate_in_process_hooks
from agenthooks.errors import AgentHooksError, UsageError, describe
from agenthooks.executor import (
    Interrupted,
    Terminated,
    own_descendants,
    reap_orphans,
    under_signals,
)
from agenthooks.model.eventnames import check_event, did_you_mean
from agenthooks.model.events import ALIASES, API_EVENTS, EVENTS
from agenthooks.model.hosts import caller_error
from agenthooks.userconfig import (
    AUDIT_ENV,
    FAIL_CLOSED_ENV,
    HOSTS,
    RECORD_ENV,
    REQUIRE_TRUST_ENV,
    apply_settings,
    read_user_config,
    setting,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any


class Option(NamedTuple):
    """One option: `metavar` None makes it a flag; `repeat` collects every value given.

    (A NamedTuple, not a dataclass: it is as immutable and typed, and ten times cheaper to
    define, which counts on a path that starts once per tool call.)
    """

    flags: tuple[str, ...]
    dest: str
    help: str
    metavar: str | None = None
    repeat: bool = False
    choices: tuple[str, ...] = ()


OPTIONS: tuple[Option, ...] = (
    Option(("--config",), "configs", "a hooks.json file to run (repeatable); turns discovery "
           "off, the user file included", "FILE", repeat=True),
    Option(("--workspace",), "workspaces", "a workspace root (repeatable); default: the "
           "nearest one upward from the current directory", "DIR", repeat=True),
    Option(("--no-user",), "no_user",
           "skip the user files (~/.gemini/config/hooks.json, each host's own)"),
    Option(("--tool",), "tool", "the tool name matchers see; default: toolCall.name, else "
           "tool_name, in the payload", "NAME"),
    Option(("--fail-closed",), "fail_closed", "PreToolUse: deny when a handler times out, "
           "crashes or answers nonsense, a hooks.json is skipped or the payload is bad "
           f"(also {FAIL_CLOSED_ENV}=1, or fail_closed in the user config)"),
    Option(("--default-decision",), "default_decision", "PreToolUse: the decision when no "
           "handler gives one (ask keeps Antigravity's usual permission flow)", "WORD",
           choices=("allow", "deny", "ask", "force_ask")),
    Option(("--host",), "host", "write the answer in this host's JSON and exit status, to be "
           "its one registered hook (also default_host in the user config); default: "
           "Antigravity's words", "HOST", choices=HOSTS),
    Option(("--dialect",), "dialect", "read every --config file in this host's format "
           "(default: from its place, else its shape); discovery finds only that host's "
           "files", "HOST", choices=HOSTS),
    Option(("--other-hosts",), "other_hosts", "with --host: also run other hosts' settings "
           "files (a .gemini/settings.json under Claude Code...), translated to their own "
           "words (also other_hosts in the user config); the host's own files never run"),
    Option(("--report",), "report", "print a report of every handler instead of the merged "
           "answer", "json", choices=("json",)),
    Option(("--python",), "python", "Python hooks: a Hooks registry or a register(hooks) "
           "function, importable from the current directory (repeatable)", "MODULE:ATTR",
           repeat=True),
    Option(("--require-trust",), "require_trust", "skip the hooks of a workspace that was "
           "never trusted or has changed since `agenthooks trust` (also "
           f"{REQUIRE_TRUST_ENV}=1, or require_trust in the user config)"),
    Option(("--audit",), "audit", "append one JSON line per event to FILE (also "
           f"{AUDIT_ENV}=FILE, or audit_log in the user config)", "FILE"),
    Option(("--audit-payloads",), "audit_payloads", "put the payload itself in the audit "
           "record (it may hold secrets)"),
    Option(("--record",), "record", "after answering, write the payload and the answer as a "
           "fixture file (agenthooks test) in DIR, secrets redacted (also "
           f"{RECORD_ENV}=DIR)", "DIR"),
    Option(("--redact",), "redact", "with --record: a regex whose matches are redacted too "
           "(repeatable)", "PATTERN", repeat=True),
    Option(("--dry-run",), "dry_run", "print the handlers that would run; run nothing"),
    Option(("-v", "--verbose"), "verbose", "a table of the handlers on stderr"),
    Option(("-h", "--help"), "help", "show this help and exit"),
)
_BY_FLAG: dict[str, Option] = {flag: option for option in OPTIONS for flag in option.flags}

DESCRIPTION = """\
Run the handlers of EVENT on the JSON object read from stdin (empty stdin: {}) and print
their merged answer, one JSON object, on stdout. Messages for people go to stderr."""

EXIT_STATUS = """\
exit status:
  0  the answer does not block (also when a hooks.json was skipped for errors: the answer
     names it in systemMessage; and for --dry-run)
  1  agenthooks itself failed and printed no answer (bad option, unknown event, bad
     payload, an internal error); never under --fail-closed on PreToolUse, which denies
  2  the answer blocks (PreToolUse deny, Stop continue, decision block, continue false);
     the reasons are on stderr. With --host claude or gemini, only a block that the host's
     JSON cannot say: the others are said in the JSON, on exit 0
  129/130/131/143  ended by SIGHUP/SIGINT/SIGQUIT/SIGTERM: every handler killed, nothing
     printed"""


def _usage_item(option: Option) -> str:
    flag = option.flags[0]
    text = f"[{flag} {option.metavar}]" if option.metavar else f"[{flag}]"
    return text + "..." if option.repeat else text


_USAGE_ITEMS = [_usage_item(option) for option in OPTIONS if option.dest != "help"]
USAGE = "usage: agenthooks run EVENT " + " ".join(_USAGE_ITEMS)
HELP_WIDTH = 92


def help_text() -> str:
    import textwrap  # only for --help

    # Items are wrapped whole: "[--tool NAME]" never splits across lines.
    glued = [item.replace(" ", "\0") for item in _USAGE_ITEMS]
    usage = textwrap.fill(
        "usage: agenthooks run EVENT " + " ".join(glued), HELP_WIDTH,
        subsequent_indent=" " * len("usage: agenthooks run "), break_on_hyphens=False,
    ).replace("\0", " ")
    rows = [
        (", ".join(option.flags) + (f" {option.metavar}" if option.metavar else ""),
         option.help + (f" ({'|'.join(option.choices)})" if len(option.choices) > 1 else ""))
        for option in OPTIONS
    ]
    width = max(len(left) for left, _ in rows) + 4
    events = ", ".join(EVENTS + API_EVENTS)
    lines = [usage, "", DESCRIPTION, "", f"EVENT: {events}", "  (or adk-fluent's names: "
             + ", ".join(ALIASES) + ")", "  (or Claude Code's and Gemini CLI's names, such as "
             "UserPromptSubmit, BeforeTool, AfterAgent: the same row of the event table)", "",
             "options:"]
    for left, right in rows:
        wrapped = textwrap.wrap(right, HELP_WIDTH - width, break_on_hyphens=False)
        lines.append(f"  {left:<{width - 2}}{wrapped[0]}")
        lines.extend(" " * width + more for more in wrapped[1:])
    return "\n".join([*lines, "", EXIT_STATUS, ""])


class _Help(Exception):
    """-h/--help was given: print the help, whatever else is on the line."""


def _unknown_option(flag: str) -> UsageError:
    # Compared without the dashes, which every flag shares and would make anything look close.
    names = {name.lstrip("-"): name for name in _BY_FLAG if name.startswith("--")}
    guess = did_you_mean(flag.lstrip("-"), list(names)) if flag.startswith("--") else None
    hint = f"; did you mean {names[guess]}?" if guess else " (see agenthooks run --help)"
    return UsageError(f"no such option: {flag}{hint}")


def _value(option: Option, flag: str, value: str) -> str:
    if not value:
        raise UsageError(f"option {flag} needs a non-empty {option.metavar}")
    if option.choices and value not in option.choices:
        refused = caller_error(value) if option.metavar == "HOST" else None
        if refused is not None:  # a tool that runs no hook (rulesync) never calls agenthooks
            raise UsageError(f"{flag}: {refused}")
        raise UsageError(
            f"invalid {option.metavar} for {flag}: {value!r} (choose from "
            f"{', '.join(option.choices)})"
        )
    return value


def parse_values(args: Sequence[str]) -> tuple[dict[str, Any], list[str]]:
    """The options given (by dest) and the positional arguments; `--opt=v` and `--opt v`."""
    values: dict[str, Any] = {}
    positionals: list[str] = []
    index = 0
    while index < len(args):
        arg = args[index]
        index += 1
        if arg == "--":
            positionals.extend(args[index:])
            break
        if not arg.startswith("-") or arg == "-":
            positionals.append(arg)
            continue
        index = _option(args, index, arg, values)
    return values, positionals


def _option(args: Sequence[str], index: int, arg: str, values: dict[str, Any]) -> int:
    """Read the option `arg` (and its value, `args[index]` unless given inline) into
    `values`; return the index of the next argument."""
    flag, has_value, inline = arg.partition("=") if arg.startswith("--") else (arg, "", "")
    option = _BY_FLAG.get(flag)
    if option is None:
        raise _unknown_option(flag)
    if option.dest == "help":
        raise _Help
    if option.metavar is None:
        if has_value:
            raise UsageError(f"option {flag} takes no value")
        values[option.dest] = True
        return index
    if has_value:
        value = inline
    elif index < len(args):
        value, index = args[index], index + 1
    else:
        raise UsageError(f"option {flag} needs a value ({option.metavar})")
    value = _value(option, flag, value)
    if option.repeat:
        values.setdefault(option.dest, []).append(value)
    else:
        values[option.dest] = value  # the last one wins, as with argparse
    return index


def config_path(given: str) -> str:
    """A `--config` path as given; a relative one that is not there, named from inside a
    customization folder, against the workspace root above it. Antigravity runs the handlers
    of `.agents/hooks.json` in `.agents/` (docs/format.md, "Where handlers run"), so
    `--config .agents/agenthooks.json` there means the file beside that hooks.json, as it does
    when the same command is tried by hand from the root."""
    if os.path.isabs(given) or os.path.lexists(given):
        return given
    from agenthooks.sources.discovery import CUSTOMIZATION_DIRS

    try:
        here = os.getcwd()
    except OSError:  # the working directory was removed: the path stays as given
        return given
    from_root = os.path.join(os.path.dirname(here), given)
    if os.path.basename(here) in CUSTOMIZATION_DIRS and os.path.lexists(from_root):
        return from_root
    return given


def parse_run_args(
    args: Sequence[str], environ: Mapping[str, str] | None = None
) -> RunOptions:
    """`RunOptions` from the command line, or raises `UsageError` (`_Help` for -h)."""
    values, positionals = parse_values(args)
    if not positionals:
        raise UsageError(f"missing EVENT (one of {', '.join(EVENTS)}); see agenthooks run --help")
    if len(positionals) > 1:
        raise UsageError(f"unexpected argument {positionals[1]!r} (only one EVENT)")
    event = check_event(positionals[0])
    values["given_event"] = positionals[0]
    for dest in ("configs", "workspaces", "python", "redact"):
        if dest in values:
            values[dest] = tuple(values[dest])
    if "configs" in values:
        values["configs"] = tuple(map(config_path, values["configs"]))
    apply_settings(values, os.environ if environ is None else environ)
    return RunOptions(event=event, **values)


def first_positional(args: Sequence[str]) -> str | None:
    """The EVENT of a command line, even one that does not parse: option values skipped."""
    index = 0
    while index < len(args):
        arg = args[index]
        index += 1
        if arg == "--":
            return args[index] if index < len(args) else None
        if not arg.startswith("-") or arg == "-":
            return arg
        option = _BY_FLAG.get(arg)
        if option is not None and option.metavar is not None:
            index += 1  # `--tool PreToolUse` names a tool, not the event
    return None


def _fails_closed(args: Sequence[str]) -> bool:
    """Whether a command line that did not parse asked to fail closed on PreToolUse."""
    try:
        from_file = read_user_config().fail_closed
    except AgentHooksError:  # a bad file: only the flag and the environment can say
        from_file = None
    if not setting("--fail-closed" in args, os.environ, FAIL_CLOSED_ENV, from_file):
        return False
    event = first_positional(args)
    if event is not None and _is_pre_tool_use(event):
        return True
    # An event word the run refuses (`PreToolUse2`) or none: the host's payload says which
    # event it called, and a gate on its call before a tool fails closed.
    return (event is None or not _is_event(event)) and _payload_is_pre_tool_use()


def _is_event(word: str) -> bool:
    try:
        check_event(word)
    except UsageError:
        return False
    return True


def _payload_is_pre_tool_use() -> bool:
    """Whether the payload on stdin names, in its host's own event field, the event before a
    tool call (Claude Code's `hook_event_name: "PreToolUse"`, Gemini CLI's `BeforeTool`...)."""
    from agenthooks.cli.commands.run import read_stdin
    from agenthooks.model.payload import read_payload
    from agenthooks.sources.payloads import SHAPES, detect

    try:
        _, doc = read_payload(read_stdin(note=False))
    except Exception:  # nothing to read it from: the command line alone decides
        return False
    shape = SHAPES.get(detect(doc))
    word = doc.get(shape.event_key) if shape is not None and shape.event_key else None
    return isinstance(word, str) and _is_pre_tool_use(word)


def _host_of(args: Sequence[str]) -> str | None:
    """The host a command line that did not parse asked for: `--host`, else the user config."""
    host: str | None = None
    for index, arg in enumerate(args):
        if arg == "--host" and index + 1 < len(args):
            host = args[index + 1]
        elif arg.startswith("--host="):
            host = arg.partition("=")[2]
    if host in HOSTS:
        return host
    try:
        return read_user_config().default_host
    except AgentHooksError:
        return None


def _is_pre_tool_use(event: str) -> bool:
    try:
        return check_event(event) == "PreToolUse"
    except UsageError:
        return False


def main_run(args: list[str], *, own_process: bool = False) -> int:
    """`agenthooks run ...`; errors other than interruptions are left to `agenthooks.cli.main`.

    `own_process`: this process exists only to run this event (the `agenthooks` program, not
    an embedding harness or a test): its handlers die with it (PR_SET_PDEATHSIG) and it is
    their subreaper, killing whatever escaped their groups before it exits. When it also
    imports `--python` modules, it runs the event in a forked child and keeps the answer
    (`cli.keeper`): a module that ends or crashes its process while it loads, or leaves a
    thread running, cannot take the answer with it. Runs without modules fork nothing.
    """
    modules = _python_modules(args) if own_process and hasattr(os, "fork") else ()
    if modules:
        from agenthooks.cli.keeper import keep_answer

        return keep_answer(lambda: _kept_run(args), lambda error: _answer_lost(args, error),
                           f"the Python hooks (--python {' '.join(modules)})")
    return _main_run_here(args, own_process=own_process)


def _python_modules(args: Sequence[str]) -> tuple[str, ...]:
    """The `--python` modules a command line names (none when it does not parse)."""
    try:
        values, _ = parse_values(args)
    except (UsageError, _Help):  # nothing is imported: the run says what is wrong
        return ()
    return tuple(values.get("python", ()))


def _kept_run(args: list[str]) -> int:
    """The run in the keeper's child: its exit status, whatever it raises, as
    `agenthooks.cli.main` would make of it (the child never returns to it)."""
    try:
        return _main_run_here(args, own_process=True)
    except BaseException as exc:
        return _status_of(exc)


def _status_of(exc: BaseException) -> int:
    from agenthooks.cli import DEBUG_ENV, _fail

    if isinstance(exc, (Interrupted, Terminated)):
        return 128 + exc.signum
    if isinstance(exc, KeyboardInterrupt):
        return 130
    if isinstance(exc, SystemExit):
        return exc.code if isinstance(exc.code, int) else int(exc.code is not None)
    if isinstance(exc, AgentHooksError):
        return _fail(str(exc))
    if isinstance(exc, BrokenPipeError):
        return 1
    hint = f" (set {DEBUG_ENV}=1 for a traceback)"
    if os.environ.get(DEBUG_ENV) == "1":
        import traceback

        traceback.print_exception(exc)
    return _fail(f"{describe(exc)}{hint}")


def _answer_lost(args: list[str], error: AgentHooksError) -> int:
    """The keeper's child ended without an answer: a failure of agenthooks itself, a deny
    under fail-closed on PreToolUse, else an error on stderr (exit 1: no answer)."""
    try:
        options = parse_run_args(args)
    except Exception:  # as `_parse_and_run` answers a command line that does not parse
        closed, host, report = _fails_closed(args), _host_of(args), None
    else:
        closed = options.closed and not options.dry_run
        host, report = options.host, options.report
    if closed:
        return deny_anything("PreToolUse", error, report=report, host=host)
    from agenthooks.cli import _fail

    return _fail(str(error))


def _main_run_here(args: list[str], *, own_process: bool) -> int:
    """`main_run` in this process."""
    if own_process:
        own_descendants()
        isolate_in_process_hooks()  # no hook can crash, exit or write over the answer
    try:
        # A signal: every handler group is already killed; nothing goes to stdout.
        return under_signals(lambda: _parse_and_run(args))
    finally:
        if own_process:
            # The answer is out and its exit status chosen: reaping must not change it.
            with suppress(Exception):
                reap_orphans()


def _parse_and_run(args: list[str]) -> int:
    """Parse, then run; under fail-closed on PreToolUse any failure of either is a deny."""
    try:
        options = parse_run_args(args)
    except _Help:
        write_out(help_text().encode())
        return 0
    except Exception as exc:
        if not _fails_closed(args):
            raise
        return deny_anything("PreToolUse", exc, host=_host_of(args))
    try:
        return run(options)
    # Anything at all, a stray sys.exit() in loaded code too: a gate never fails open by
    # accident.
    except (Exception, SystemExit) as exc:
        if not options.closed or options.dry_run:
            raise
        return deny_anything(options.event, exc, report=options.report, host=options.host)
