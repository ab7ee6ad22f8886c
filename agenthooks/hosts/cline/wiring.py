"""The scripts that make agenthooks Cline's hook: `agenthooks init --host cline` writes one per
event as `.clinerules/hooks/<Event>`, which Cline runs before (PreToolUse) and after
(PostToolUse) every tool call, with `sh`, as its `#!` line says (cline@3.0.65: no exec bit
needed). Each is a shell script whose one command is `agenthooks run`, which agenthooks reads
as its own wiring (`sources.dialects.cline_check.own_wiring`) and never runs as a hook."""

from __future__ import annotations

# When Cline runs each event's script.
WHEN = {"PreToolUse": "before every tool call", "PostToolUse": "after every tool call"}


def script_text(event: str, command: str) -> str:
    """An event's script, as init writes it."""
    when = WHEN.get(event, f"on {event}")
    return (f"#!/bin/sh\n"
            f"# Cline runs this file {when} (its name is the event); agenthooks answers for\n"
            f"# the gates in .agents/hooks.json. Written by `agenthooks init --host cline`.\n"
            f"exec {command}\n")
