"""click commands for all but the hot path; each calls one module of `agenthooks.commands`."""

from __future__ import annotations

from collections.abc import Sequence

import click

from agenthooks import __version__
from agenthooks.events import EVENTS

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
    click.option("--no-user", is_flag=True, help="Skip ~/.gemini/config/hooks.json."),
]


def discovery_options(func: click.decorators.FC) -> click.decorators.FC:
    for option in reversed(_discovery_options):
        func = option(func)
    return func


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="agenthooks", message="%(prog)s %(version)s")
def cli() -> None:
    """Validate, inspect and run the hooks of AI coding agents (hooks.json)."""


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path())
@discovery_options
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "github"]),
    default="text",
    show_default=True,
    help="How to print the findings.",
)
@click.option("--strict", is_flag=True, help="Exit 1 on warnings too.")
def validate(
    paths: tuple[str, ...],
    configs: tuple[str, ...],
    workspaces: tuple[str, ...],
    no_user: bool,
    fmt: str,
    strict: bool,
) -> int:
    """Check hooks.json files (PATHs: files, workspace roots or customization folders)."""
    from agenthooks.commands.validate import validate as run_validate

    return run_validate(
        paths, configs=configs, workspaces=workspaces, no_user=no_user, fmt=fmt, strict=strict
    )


@cli.command(name="list")
@discovery_options
@click.option("--event", type=click.Choice(EVENTS), help="Only handlers that run for this event.")
@click.option("--tool", metavar="NAME", help="Only handlers whose matcher matches this tool.")
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
def list_(
    configs: tuple[str, ...],
    workspaces: tuple[str, ...],
    no_user: bool,
    event: str | None,
    tool: str | None,
    fmt: str,
) -> int:
    """Show the handlers of the hooks.json files, or those that would run for an event and tool."""
    from agenthooks.commands.list import list_handlers

    return list_handlers(
        configs=configs, workspaces=workspaces, no_user=no_user, event=event, tool=tool, fmt=fmt
    )


@cli.command()
def schema() -> int:
    """Print the JSON Schema of hooks.json."""
    from agenthooks.commands.schema import print_schema

    return print_schema()


@cli.command(
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
