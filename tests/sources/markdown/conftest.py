"""Helpers for Markdown hook tests: write real `.md` files, load them as `run` does."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from agenthooks.api import Hooks, load_hooks

Write = Callable[..., Path]


def hook_text(
    event: str = "tool.pre",
    script: str = "def handle(event, payload):\n    return allow()\n",
    **keys: object,
) -> str:
    lines = ["---", f"event: {event}"]
    for key, value in keys.items():
        if key == "when":
            lines.append(f"when: {value}")
        else:
            lines.append(f"{key}: {value}")
    lines.append("script: |")
    lines.extend("  " + line if line else "" for line in textwrap.dedent(script).split("\n"))
    lines.append("---")
    lines.append("")
    lines.append("# documentation, never executed: fail('body')")
    return "\n".join(lines) + "\n"


@pytest.fixture
def workspace(isolated: Path) -> Path:
    (isolated / ".harness" / "hooks").mkdir(parents=True)
    return isolated


@pytest.fixture
def write(workspace: Path) -> Write:
    """write("name", script=..., event=..., priority=...) -> the .md path (or text=...)."""

    def make(name: str, text: str | None = None, **options: object) -> Path:
        path = workspace / ".harness" / "hooks" / f"{name}.md"
        path.write_text(text if text is not None else hook_text(**options), encoding="utf-8")
        return path

    return make


@pytest.fixture
def load(workspace: Path) -> Callable[[], Hooks]:
    return lambda: load_hooks(workspaces=[str(workspace)], no_user=True, cwd=str(workspace))


def call(tool: str = "run_command", **args: object) -> dict[str, object]:
    """An Antigravity PreToolUse payload."""
    return {"workspacePaths": ["/workspace/project"], "toolCall": {"name": tool, "args": args}}
