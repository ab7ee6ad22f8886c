"""An `agenthooks run` entry on an event that nothing agenthooks reads has under its host.

A host's wiring registers `agenthooks run EVENT --host HOST` on the host's events. On an
event of that host alone (Cursor's `beforeShellExecution`, `beforeReadFile`...) hooks.json,
Markdown and Python hooks have no word, and the host's own file is the host's to run: the run
answers "no hook" every time, `--fail-closed` or not, and the entry gates nothing. `validate`
says so (rule `wiring-runs-nothing`), naming the event to wire instead.
"""

from __future__ import annotations

from agenthooks.model.handlers import Diagnostic, Handler, HookFile
from agenthooks.plan.recursion import run_options
from agenthooks.plan.select import HOST_NAMES, fans_out

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from agenthooks.model.events import EventRow

RULE = "wiring-runs-nothing"


def runs_nothing(files: Sequence[HookFile], default_host: str | None = None
                 ) -> Iterator[Diagnostic]:
    """An error at each `agenthooks run` entry whose run can select no handler at all."""
    from agenthooks.plan.recursion import command_errors

    return command_errors(files, RULE, lambda handler: why_nothing(handler, default_host))


def why_nothing(handler: Handler, default_host: str | None = None) -> str | None:
    """Why an `agenthooks run` entry runs nothing, or None when some file may give it a
    handler (or it is not such an entry, or its words cannot be read)."""
    if not fans_out(handler):
        return None
    options = run_options(handler)
    event = run_event(handler)
    if options is None or event is None:
        return None
    _, host, other_hosts = options
    host = host or default_host
    if host is None or "--python" in handler.command:
        return None
    row = _row(host, event)
    if row is None or row.engine is not None:
        return None  # an unknown event is run's own error; an engine event has sources
    from agenthooks.model.events import filled

    filled()
    others = [d for d in row.words if d != host]
    if others and other_hosts:
        return None  # another host's file may have it
    name = HOST_NAMES.get(host, host)
    instead = _instead(host, row)
    also = f" without --other-hosts ({', '.join(HOST_NAMES.get(d, d) for d in others)} " \
           "files have it)" if others else ""
    return (f"agenthooks run {event} --host {host} runs nothing{also}: hooks.json, Markdown "
            f"and Python hooks have no {event}, and {name} runs its own file itself, so this "
            f"entry gates nothing{instead}")


def run_event(handler: Handler) -> str | None:
    """The EVENT of `agenthooks run EVENT`: the first word after `run` that is no option."""
    import shlex

    try:
        words = [*shlex.split(handler.command), *(handler.args or ())]
    except ValueError:
        return None
    if "run" not in words:
        return None
    after = words[words.index("run") + 1:]
    return next((word for word in after if not word.startswith("-")), None)


def _row(host: str, event: str) -> EventRow | None:
    from agenthooks.model.events import find_row, row_of

    return row_of(host, event) or find_row(event)


def _instead(host: str, row: EventRow) -> str:
    """Where a gate on this event belongs: the host's word for a tool call, when the event
    may block one."""
    from agenthooks.model.events import find_row, word_of

    tool_pre = find_row("PreToolUse")
    word = word_of(host, tool_pre) if tool_pre is not None else None
    if word is None or "may block" not in row.meaning:
        return ""
    return f"; wire {word}, which fires before every tool call"
