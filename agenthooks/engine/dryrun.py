"""`--dry-run`: what `run` would start for one event, starting nothing (`Hooks.plan`, and
`list` and `explain` through it). The event is read and planned as `engine.runner.run` does
it; apart from the runner because a run never asks this: the cold path does not load it.
"""

from __future__ import annotations

from agenthooks._lean.records import NamedTuple
from agenthooks.engine.call import Call
from agenthooks.engine.runner import plan_for, read, warnings_of
from agenthooks.kinds.process import runs_beside
from agenthooks.model.handlers import Handler, HookFile, prompt_warning, run_folder

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.engine.runner import Registry
    from agenthooks.kinds.inprocess.hookspec import PythonHook
    from agenthooks.model.payload import Payload


class Plan(NamedTuple):
    """What `run` would start for an event, without starting anything (`--dry-run`)."""

    event: str
    tool: str | None
    handlers: tuple[Handler, ...]  # command handlers, in the order they would run
    warnings: list[str]
    skipped_files: tuple[HookFile, ...] = ()
    hooks: tuple[PythonHook, ...] = ()  # in-process hooks that may run (before `when`)
    left_out: tuple[tuple[str, str], ...] = ()  # (file, why) the host's run leaves out

    def to_json(self) -> dict[str, Any]:
        return {
            "event": self.event,
            "tool": self.tool,
            "handlers": [
                {
                    "hook": h.hook,
                    "source": h.source.path,
                    "matcher": h.matcher,
                    "command": h.command,
                    "timeout": h.timeout,
                    "cwd": run_folder(h),
                }
                for h in self.handlers
            ],
            "hooks": [
                {"hook": h.name, "kind": h.phase, "priority": h.priority, "tool": h.tool}
                for h in self.hooks
            ],
            "leftOut": [{"source": path, "why": why} for path, why in self.left_out],
        }


def dry_run(registry: Registry, event: str, payload: Payload, *, tool: str | None = None
            ) -> Plan:
    """What `run` would start for this event and payload (`Hooks.plan`): read and plan as
    `run` does, and start nothing."""
    call = read(registry, event, payload, tool=tool, fail_closed=False, default_decision=None,
                context=None)
    assert isinstance(call, Call)  # only a closed call is answered without running
    event, tool, doc, caller = call.event, call.tool, call.doc, call.caller
    warnings = warnings_of(registry, event, tool)
    selected = registry.selector(event, tool, doc, caller)
    warnings.extend(prompt_warning(h) for h in selected
                    if h.kind != "command" and not runs_beside(h))
    commands = tuple(h for h in selected if h.kind == "command" or runs_beside(h))
    plan = plan_for(registry, event, tool, doc, caller)
    return Plan(event=event, tool=tool, handlers=commands, warnings=warnings,
                skipped_files=registry.skipped_files, hooks=plan.chain + plan.inspect,
                left_out=tuple((f.source.path, why) for f, why in registry.left_out))
