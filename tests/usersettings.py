"""Fixtures for the tests of the user's settings (audit log, trust, user config file).

The user config file and the trust file live under XDG_CONFIG_HOME and XDG_DATA_HOME,
pointed at the test's temporary folder; no setting leaks in from the environment. The
conftest.py of each of those test packages imports these.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SETTINGS_ENV = ("AGENTHOOKS_REQUIRE_TRUST", "AGENTHOOKS_FAIL_CLOSED", "AGENTHOOKS_AUDIT_LOG")


@pytest.fixture(autouse=True)
def xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """XDG_CONFIG_HOME and XDG_DATA_HOME in the test's folder, no setting in the environment."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    for name in SETTINGS_ENV:
        monkeypatch.delenv(name, raising=False)
    return tmp_path


@pytest.fixture
def user_config(xdg: Path) -> Path:
    """The path of the user config file (not written yet)."""
    path = xdg / "config" / "agenthooks" / "config.toml"
    path.parent.mkdir(parents=True)
    return path


def agenthooks_run(*args: str, payload: object = None, cwd: Path | None = None,
                   env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """A real `agenthooks run` process."""
    data = "" if payload is None else json.dumps(payload)
    return subprocess.run([sys.executable, "-m", "agenthooks", "run", *args], input=data,
                          capture_output=True, text=True, cwd=cwd, timeout=60, check=False,
                          env={**os.environ, **(env or {})})
