"""Helpers shared by the tests: a project tree from a mapping, the program run as a host runs
it, and what a host's answer says.

A plain module (no fixtures), imported as `from tests.support import program, workspace`.
A test that calls `program` starts agenthooks: it must be marked `program`
(tests/program_marker.py fails it otherwise).
"""

from __future__ import annotations

import json
import os
import pwd
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
# The caller's own settings of agenthooks and the variables its host sets for a hook (a test
# run from a shell inside Claude Code or Gemini CLI inherits them): either would change what
# the program does. A test that wants one passes it in `env`.
CALLERS_PREFIXES = ("AGENTHOOKS_", "CLAUDE_", "GEMINI_")
XDG_FOLDERS = ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME")


def workspace(root: Path, files: Mapping[str, object]) -> Path:
    """Write `files` (relative path -> text, or a value written as `json.dumps` writes it)
    below `root`, making the folders on the way, and return `root` (made even when empty)."""
    root.mkdir(parents=True, exist_ok=True)
    for relative, content in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        text = content if isinstance(content, str) else json.dumps(content)
        path.write_text(text, encoding="utf-8")
    return root


def program_env(env: Mapping[str, str] | None = None, home: Path | None = None
                ) -> dict[str, str]:
    """The environment `program` gives agenthooks: this process's, without the caller's
    settings (`CALLERS_PREFIXES`) and XDG folders in the real home, with this checkout on
    PYTHONPATH (the installed wheel wins where the checkout holds no package, as under
    scripts/test-pythons), HOME at `home` (else this test's temporary HOME, set by
    tests/conftest.py), then `env` laid over it."""
    found = {key: value for key, value in os.environ.items()
             if not key.startswith(CALLERS_PREFIXES)}
    found["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), found.get("PYTHONPATH")]))
    if home is not None:
        found["HOME"] = str(home)
    real_home = os.path.realpath(pwd.getpwuid(os.getuid()).pw_dir)
    # An XDG folder of the caller's real home would be read (or written) in spite of the
    # temporary HOME: without it, the program takes the one below HOME.
    for name in XDG_FOLDERS:
        value = found.get(name)
        if value and _inside(value, real_home) and not _inside(value, tempfile.gettempdir()):
            del found[name]
    found.update(env or {})
    if os.path.realpath(found.get("HOME", real_home)) == real_home:
        raise AssertionError("the program would run with the real home directory as HOME: "
                             "give `home`, or call it from a test (tests/conftest.py "
                             "points HOME at a temporary folder)")
    return found


def _inside(path: str, folder: str) -> bool:
    return os.path.commonpath([os.path.realpath(path), os.path.realpath(folder)]) \
        == os.path.realpath(folder)


def program(*args: str, cwd: Path, stdin: str = "", env: Mapping[str, str] | None = None,
            home: Path | None = None, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """`python -m agenthooks ARGS` in `cwd`, as a host or a user starts it: `stdin` then EOF,
    output captured as text, never raising on the exit status (see `program_env`)."""
    return subprocess.run([sys.executable, "-m", "agenthooks", *args], input=stdin,
                          capture_output=True, text=True, cwd=cwd,
                          env=program_env(env, home), timeout=timeout, check=False)


def denied(answer: Mapping[str, Any]) -> bool:
    """Whether a host's parsed answer denies the call: in Claude Code's words
    (`hookSpecificOutput.permissionDecision`) or the `decision` of Gemini CLI and
    Antigravity."""
    specific = answer.get("hookSpecificOutput")
    if isinstance(specific, Mapping) and specific.get("permissionDecision") == "deny":
        return True
    return answer.get("decision") == "deny"
