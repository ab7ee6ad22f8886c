"""click commands for all but the hot path; each calls one module of `agenthooks.cli.commands`."""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click

from agenthooks._version import __version__
from agenthooks.model.events import EVENTS
from agenthooks.userconfig import DIALECT_WORDS, HOSTS

_discovery_options = [
    click.option(
        "--config",
        "configs",
        multiple=True,
        metavar="FILE",
        help="A hooks.json file to use (repeatable); turns discovery off.",
    ),
    click.option(
        "--workspace",
        "workspaces",
        multiple=True,
        metavar="DIR",
        help="A workspace root (repeatable); default: the nearest one upward.",
    ),
    click.option("--no-user", is_flag=True,
                 help="Skip the user files (~/.gemini/config/hooks.json, each host's own)."),
]


DIALECT_OPTION = click.option(
    "--dialect",
    type=click.Choice(DIALECT_WORDS),
    default=None,
    help="Read every named file in this dialect (default: from its place, else its shape); "
    "limits discovery to that kind of file.",
)


HOST_OPTION = click.option(
    "--host",
    type=click.Choice(HOSTS),
    default=None,
    help="As run's --host: the host's own files are left out, other hosts' settings files "
    "too unless --other-hosts (default: default_host in the user config).",
)
OTHER_HOSTS_OPTION = click.option(
    "--other-hosts", is_flag=True,
    help="With --host: other hosts' settings files run too, as run's --other-hosts.",
)


def discovery_options(func: click.decorators.FC) -> click.decorators.FC:
    for option in reversed(_discovery_options):
        func = option(func)
    return func


# `\b` keeps click from re-wrapping the table.
VALIDATE_EXIT = """\b
Exit status:
  0  no errors (warnings allowed), or no file found
  1  any error, including a missing, unreadable or oversized path;
     with --strict, also any warning
  2  a usage error (unknown option, bad --format)
"""

LIST_EXIT = """\b
Exit status:
  0  listed (or nothing to list, said on stderr)
  1  a file has errors (its handlers are left out), or --event is unknown
  2  a usage error (unknown option, bad --format)
"""


def overview() -> str:
    """The program's help, its hosts named from the host table (`model.hosts`)."""
    from agenthooks.model.hosts import HOST_TABLE

    names = [row.name for row in HOST_TABLE]
    hosts = ", ".join(names[:-1]) + " and " + names[-1]
    return (
        f"One hook engine for AI coding agents: run, check and explain the hooks of {hosts} "
        "(hooks.json and each host's own files), Markdown hooks (.harness/hooks/*.md) and "
        "Python hooks, under any of these hosts.\n\n"
        "\b\nStart here:\n"
        "  agenthooks init --host HOST       wire a workspace for a host\n"
        "  agenthooks validate -r            check every hook file below this folder\n"
        "  agenthooks list                   what would run\n"
        "  agenthooks run EVENT < payload    what a host calls (agenthooks run --help)\n"
        f"  HOST: {', '.join(HOSTS)}\n"
    )


@click.group(context_settings={"help_option_names": ["-h", "--help"]}, help=overview())
@click.version_option(__version__, prog_name="agenthooks", message="%(prog)s %(version)s")
def cli() -> None:
    """The program's group (its help: `overview`)."""


@cli.command(short_help="Check every hook file and the user config, at file:line:col.",
             epilog=VALIDATE_EXIT)
@click.argument("paths", nargs=-1, type=click.Path())
@discovery_options
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "github", "sarif"]),
    default="text",
    show_default=True,
    help="How to print the findings.",
)
@click.option("--strict", is_flag=True, help="Exit 1 on warnings too.")
@click.option(
    "--recursive",
    "-r",
    is_flag=True,
    help="Every customization folder under the PATHs (default: the current directory), "
    "skipping .git, node_modules and git-ignored folders.",
)
@DIALECT_OPTION
def validate(
    paths: tuple[str, ...],
    configs: tuple[str, ...],
    workspaces: tuple[str, ...],
    no_user: bool,
    fmt: str,
    strict: bool,
    recursive: bool,
    dialect: str | None,
) -> int:
    """Check hook files: hooks.json, Markdown hooks, Claude Code and Gemini CLI settings
    (PATHs: files, workspace roots or customization folders)."""
    from agenthooks.cli.commands.validate import validate as run_validate

    return run_validate(
        paths, configs=configs, workspaces=workspaces, no_user=no_user, fmt=fmt, strict=strict,
        recursive=recursive, dialect=dialect,
    )


@cli.command(name="list", short_help="Show the handlers, or those that would run for an event.",
             epilog=LIST_EXIT)
@discovery_options
# Any string: an unknown event gets the same hint as `run` gives (other hosts' names), exit 1.
@click.option(
    "--event", metavar="EVENT", help=f"Only handlers that run for this event ({', '.join(EVENTS)})."
)
@click.option("--tool", metavar="NAME", help="Only handlers whose matcher matches this tool.")
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@click.option(
    "--python", "python", multiple=True, metavar="MODULE:ATTR",
    help="Python hooks too: a Hooks registry or a register(hooks) function (repeatable).",
)
@click.option("--wide", is_flag=True,
              help="One line per row on a terminal too (default there: long cells fold at "
              "separators, never inside a word).")
@DIALECT_OPTION
@HOST_OPTION
@OTHER_HOSTS_OPTION
def list_(
    configs: tuple[str, ...],
    workspaces: tuple[str, ...],
    no_user: bool,
    event: str | None,
    tool: str | None,
    fmt: str,
    python: tuple[str, ...],
    dialect: str | None,
    host: str | None,
    other_hosts: bool,
    wide: bool,
) -> int:
    """Show the handlers and hooks, or those that would run for an event and tool."""
    from agenthooks.cli.commands.list import list_handlers

    return list_handlers(
        configs=configs, workspaces=workspaces, no_user=no_user, event=event, tool=tool, fmt=fmt,
        python=python, dialect=dialect, host=host, other_hosts=other_hosts, wide=wide,
    )


EXPLAIN_EXIT = """\b
Exit status:
  0  explained (files with errors included: they are named, with their first error)
  1  a usage error (unknown event, bad option), or a payload that is not JSON
"""


@cli.command(short_help="Say, for every handler and hook, whether it runs for an event, "
             "and why not.", epilog=EXPLAIN_EXIT)
@click.argument("event")
@discovery_options
@click.option("--tool", metavar="NAME", help="The tool name (default: the payload's).")
@HOST_OPTION
@OTHER_HOSTS_OPTION
@click.option("--require-trust", is_flag=True,
              help="As run's: untrusted workspaces' hooks do not run (also "
              "AGENTHOOKS_REQUIRE_TRUST=1, or require_trust in the user config).")
@click.option("--python", "python", multiple=True, metavar="MODULE:ATTR",
              help="Python hooks too, as run --python (repeatable).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
def explain(event: str, configs: tuple[str, ...], workspaces: tuple[str, ...], no_user: bool,
            tool: str | None, host: str | None, other_hosts: bool, require_trust: bool,
            python: tuple[str, ...], fmt: str) -> int:
    """Every handler and in-process hook of the workspace, and whether it would run for
    EVENT on the payload from stdin (optional; a terminal means none), and if not, why."""
    from agenthooks.cli.commands.explain import ExplainOptions
    from agenthooks.cli.commands.explain import explain as run_explain

    return run_explain(ExplainOptions(
        event=event, configs=configs, workspaces=workspaces, no_user=no_user, tool=tool,
        host=host, other_hosts=other_hosts, require_trust=require_trust, python=python,
        fmt=fmt))


CONVERT_EXIT = """\b
Exit status:
  0  converted, nothing lost (or lost with --lossy)
  1  the input has errors, something cannot be carried over, or OUT exists and
     the merge was not confirmed (nothing written)
  2  a usage error
"""


@cli.command(short_help="Rewrite a hook config for another host.", epilog=CONVERT_EXIT)
@click.argument("file", type=click.Path())
@click.option("--to", "target", required=True,
              type=click.Choice(DIALECT_WORDS), help="The output dialect.")
@click.option("-o", "--output", metavar="OUT", help="Write here instead of to stdout.")
@click.option("--lossy", is_flag=True,
              help="Write the output even when something cannot be carried over.")
@click.option("-y", "--yes", is_flag=True,
              help="Merge into an existing OUT without asking (its diff is shown).")
@DIALECT_OPTION
def convert(file: str, target: str, output: str | None, lossy: bool, yes: bool,
            dialect: str | None) -> int:
    """Convert FILE (hooks.json, Claude Code or Gemini CLI settings) to another dialect.
    An existing OUT keeps what it has: the converted hooks are merged in, the diff shown."""
    from agenthooks.cli.commands.convert import convert as run_convert

    ask = _ask if sys.stdin.isatty() and sys.stdout.isatty() else None
    return run_convert(file, target=target, output=output, lossy=lossy, dialect=dialect,
                       yes=yes, confirm=ask)


TEST_EXIT = """\b
Exit status:
  0  every case passed (or default discovery found no fixture file)
  1  a case failed (with --replay: a decision changed under some host); with --record, a
     payload got no answer
  2  a fixture file is invalid (nothing runs), a PATH is missing, or a usage error
"""


@cli.command(name="test", short_help="Run hook fixtures (*.hooktest.yaml) and check the answers.",
             epilog=TEST_EXIT)
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--workspace", "workspaces", multiple=True, metavar="DIR",
              help="Where to look for .agents/tests/ and .harness/tests/ (default: the nearest "
              "workspace upward); the workspace of fixtures that name none.")
@click.option("--python", "python", multiple=True, metavar="MODULE:ATTR",
              help="Python hooks for every case, as run --python (repeatable).")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "junit", "sarif"]),
              default="text", show_default=True, help="How to print the results.")
@click.option("-o", "--output", metavar="FILE",
              help="Write the results (with --record: the fixture) to FILE, not stdout.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), metavar="N",
              help="Cases at once (default: the CPU count).")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=120.0,
              show_default=True, metavar="SECONDS", help="Time limit of each case.")
@click.option("--record", is_flag=True,
              help="PATHs are payload files: write a fixture of what the hooks decide now.")
@click.option("--replay", is_flag=True,
              help="Run each case under the host that recorded it and under every other host, "
              "its payload translated (PATHs: folders of run --record).")
@click.option("--event", metavar="EVENT", help="With --record: the event of the payloads.")
@click.option("--tool", metavar="NAME", help="With --record: the tool name (run --tool).")
def test(
    paths: tuple[str, ...],
    workspaces: tuple[str, ...],
    python: tuple[str, ...],
    fmt: str,
    output: str | None,
    jobs: int | None,
    timeout: float,
    record: bool,
    replay: bool,
    event: str | None,
    tool: str | None,
) -> int:
    """Run the cases of hook fixture files (PATHs: files or folders; default: every
    *.hooktest.yaml|json under .agents/tests/ and .harness/tests/ of the workspace).

    \b
    agenthooks test --record PAYLOAD... --event EVENT [--tool NAME] -o FILE
    writes a fixture from what the hooks decide today (YAML for .yaml/.yml, else JSON).

    \b
    agenthooks test --replay DIR...
    runs the fixtures `agenthooks run --record DIR` wrote under every host.
    """
    if record and replay:
        raise click.UsageError("--record writes a fixture and --replay runs one: give one")
    if record:
        from agenthooks.cli.commands.test import record_fixture

        return record_fixture(paths, event=event, tool=tool, output=output,
                              workspaces=workspaces, python=python, timeout=timeout)
    from agenthooks.cli.commands.test import run_tests

    return run_tests(paths, workspaces=workspaces, python=python, fmt=fmt, output=output,
                     jobs=jobs, timeout=timeout, replay=replay)


def _since(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is not None:
        from agenthooks.cli.commands.audit import parse_since
        from agenthooks.errors import UsageError

        try:
            parse_since(value)
        except UsageError as exc:
            raise click.BadParameter(str(exc)) from None
    return value


@cli.command(short_help="Summarize the audit log: per hook, decisions, deny rate, times.")
@click.argument("file", required=False, type=click.Path(dir_okay=False))
@click.option("--since", metavar="DURATION", callback=_since,
              help="Only events of the last DURATION: 30m, 2h, 7d.")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table",
              show_default=True)
def audit(file: str | None, since: str | None, fmt: str) -> int:
    """Summarize an audit log (default: $AGENTHOOKS_AUDIT_LOG, else audit_log in the user
    config): per hook, its calls and decisions, deny rate, p50/p95/max ms, timeouts and
    failures."""
    from agenthooks.cli.commands.audit import audit as run_audit

    return run_audit(file, since=since, fmt=fmt)


@cli.command(short_help="Trust a workspace's hook files and scripts as they are now.")
@click.option("--workspace", "workspaces", multiple=True, metavar="DIR",
              help="A workspace root (repeatable); default: the nearest one upward.")
@click.option("--config", "configs", multiple=True, metavar="FILE",
              help="A hooks file the runs name with --config (repeatable).")
@click.option("--show", is_flag=True, help="Print what would be trusted and why; record nothing.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="With --show.")
@click.option("--revoke", is_flag=True, help="Forget the workspace's trust.")
@click.option("--host", type=click.Choice(["codex"]),
              help="Record the host's own trust instead: Codex runs only hooks whose hash its "
              "config.toml records; shows the diff, asks (or --yes).")
@click.option("-y", "--yes", is_flag=True, help="With --host: write without asking.")
def trust(workspaces: tuple[str, ...], configs: tuple[str, ...], show: bool, fmt: str,
          revoke: bool, host: str | None, yes: bool) -> int:
    """Record the SHA-256 of every workspace hook file and of every script their commands
    name, so that runs with trust required (--require-trust) run them only unchanged."""
    from agenthooks.cli.commands.trust import trust_codex, trust_workspace

    if show and revoke:
        raise click.UsageError("--show and --revoke do not go together")
    if host is not None:
        if revoke or configs or len(workspaces) > 1:
            raise click.UsageError("--host goes with one --workspace and --show or --yes")
        ask = _ask if sys.stdin.isatty() and sys.stdout.isatty() else None
        return trust_codex(workspace=workspaces[0] if workspaces else None, show=show,
                           yes=yes, confirm=ask)
    return trust_workspace(configs=configs, workspaces=workspaces, show=show, revoke=revoke,
                           fmt=fmt)


INIT_EXIT = """\b
Exit status:
  0  wired (now, or already: nothing to change); with --check, wired right
  1  changes not written (declined, or no terminal to ask on without --yes),
     a settings file init cannot add to; with --check, anything not right
  2  a usage error
"""


@cli.command(short_help="Wire a workspace for a host: its settings and a starter gate.",
             epilog=INIT_EXIT)
@click.option("--host", "hosts", multiple=True, type=click.Choice(HOSTS),
              help="The host to wire (repeatable with --check; default: default_host in the "
              "user config).")
@click.option("--workspace", metavar="DIR",
              help="The workspace root (default: the top of the git work tree, else here).")
@click.option("-y", "--yes", is_flag=True, help="Write the changes without asking.")
@click.option("--check", is_flag=True,
              help="Write nothing; say whether the workspace is wired right (with no --host: "
              "every host whose settings file exists).")
def init(hosts: tuple[str, ...], workspace: str | None, yes: bool, check: bool) -> int:
    """Make agenthooks the one hook of a host in this workspace: add its entries to the
    host's settings file (what is there stays as it is; the diff is shown, then asked on a
    terminal, or written with --yes) and create a starter gate where agenthooks reads gates,
    if there is none. A second run changes nothing."""
    from agenthooks.cli.commands import init as setup

    if check:
        return setup.check(hosts, workspace=workspace)
    if len(hosts) > 1:
        raise click.UsageError("give one --host to wire (several go with --check)")
    host = hosts[0] if hosts else _default_host()
    if host is None:
        raise click.UsageError(f"--host is required ({', '.join(setup.every_wiring())})")
    ask = _ask if sys.stdin.isatty() and sys.stdout.isatty() else None
    return setup.init(host, workspace=workspace, yes=yes, confirm=ask)


def _default_host() -> str | None:
    from agenthooks.userconfig import read_user_config

    return read_user_config().default_host


def _ask(question: str) -> bool:
    return click.confirm(question, default=False)


AHP_EXIT = """\b
Exit status:
  0  stdin ended (every message was answered)
  1  agenthooks could not start serving, or stdout closed
  128+N  ended by signal N
"""


@cli.command(short_help="Serve the Agent Hooks Protocol (AHP v0.1) on stdio.", epilog=AHP_EXIT)
@discovery_options
@click.option("--fail-closed", is_flag=True,
              help="As run's: a hook's failure or agenthooks' own is a deny effect (also "
              "AGENTHOOKS_FAIL_CLOSED=1, or fail_closed in the user config).")
@click.option("--require-trust", is_flag=True,
              help="As run's: untrusted workspaces' hooks do not run (also "
              "AGENTHOOKS_REQUIRE_TRUST=1, or require_trust in the user config).")
@click.option("--tool-names", "host", type=click.Choice(HOSTS), default=None,
              help="Read the harness's tool names and inputs as this host's (default: the "
              "host that names the tool so).")
def ahp(configs: tuple[str, ...], workspaces: tuple[str, ...], no_user: bool,
        fail_closed: bool, require_trust: bool, host: str | None) -> int:
    """An AHP backend: answer each JSON-RPC hooks/intercept request on stdin (one per line)
    with the effect of the workspace's PreToolUse hooks, one response line on stdout."""
    import os

    from agenthooks.cli.commands.ahp import AhpOptions
    from agenthooks.cli.commands.ahp import ahp as serve_ahp
    from agenthooks.userconfig import (
        FAIL_CLOSED_ENV,
        REQUIRE_TRUST_ENV,
        check_fail_closed_env,
        read_user_config,
        setting,
    )

    # As run's switches: the flag, else the environment, else the user config.
    check_fail_closed_env(os.environ)
    user = read_user_config(os.environ)
    return serve_ahp(AhpOptions(
        configs=configs, workspaces=workspaces, no_user=no_user,
        fail_closed=setting(fail_closed, os.environ, FAIL_CLOSED_ENV, user.fail_closed),
        require_trust=setting(require_trust, os.environ, REQUIRE_TRUST_ENV,
                              user.require_trust),
        host=host))


@cli.command(short_help="Serve editors over stdio: validate's findings as you type (lsp extra).")
def lsp() -> int:
    """A language server over stdin and stdout: validate's findings of each hook file an
    editor opens, as it is typed, with quick fixes, hover and completion of event names.
    Needs the `lsp` extra (pygls, lsprotocol)."""
    from agenthooks.cli.commands.lsp import serve_lsp

    return serve_lsp()


@cli.command(short_help="Show what each host can enforce: block, rewrite, context, failures.")
@click.option("--host", type=click.Choice(HOSTS), default=None, help="Only this host.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]),
              default="text", show_default=True)
def hosts(host: str | None, fmt: str) -> int:
    """Per host, its fail-closed switch and what a timeout or another exit code does; per host
    and event, whether a hook can block, rewrite the call and add context, each fact from the
    host's own documentation or source (--format json names them)."""
    from agenthooks.cli.commands.hosts import hosts as run_hosts

    return run_hosts(host, fmt)


@cli.command(short_help="Print or write the JSON Schemas of the hook files.")
@click.option("--host", type=click.Choice(HOSTS), default=None,
              help="The schema of this host's files (default: hooks.json's).")
@click.option("--write", "write_dir", metavar="DIR", default=None,
              help="Write every schema (or --host's) into DIR instead of printing one.")
@click.option("--check", "check_dir", metavar="DIR", default=None,
              help="Exit 1 when a schema file in DIR is missing or out of date.")
def schema(host: str | None, write_dir: str | None, check_dir: str | None) -> int:
    """Print the JSON Schema of hooks.json, or of --host's files; --write DIR writes them all."""
    from agenthooks.cli.commands import schema as command

    if write_dir is not None and check_dir is not None:
        raise click.UsageError("--write and --check do not go together")
    if write_dir is not None:
        return command.write_schemas(write_dir, host)
    if check_dir is not None:
        return command.check_schemas(check_dir, host)
    return command.print_schema(host)


@cli.command(
    short_help="Run the handlers for an event (see run --help).",
    context_settings={
        "ignore_unknown_options": True,
        "allow_extra_args": True,
        "help_option_names": [],
    }
)
@click.pass_context
def run(ctx: click.Context) -> int:
    """Run the handlers for an event: agenthooks run EVENT < payload.json (see run --help)."""
    from agenthooks.cli.run_args import main_run  # reached only through `invoke`; see main()

    return main_run(ctx.args)


def invoke(args: Sequence[str]) -> int:
    """Run the click group, mapping click's outcomes to exit codes."""
    try:
        result = cli.main(list(args), prog_name="agenthooks", standalone_mode=False)
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except click.Abort:
        click.echo("Aborted!", err=True)
        return 1
    return result if isinstance(result, int) else 0
