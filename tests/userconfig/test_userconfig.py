"""The user config file: its keys, its errors, and flags > environment > file, in real runs."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from agenthooks.cli.run_args import parse_run_args
from agenthooks.userconfig import (
    HOSTS,
    UserConfig,
    UserConfigError,
    config_path,
    read_user_config,
)
from tests import support

from .conftest import agenthooks_run

pytestmark = pytest.mark.program

DENYING_GATE = {"gate": {"PreToolUse": [{"matcher": "", "hooks": [{"command": "exit 5"}]}]}}


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_no_file_is_the_empty_config(user_config: Path) -> None:
    assert not user_config.exists()
    assert read_user_config() == UserConfig()


def test_the_path_follows_xdg_config_home_else_home(tmp_path: Path) -> None:
    assert config_path({"XDG_CONFIG_HOME": "/x", "HOME": "/h"}) == "/x/agenthooks/config.toml"
    assert config_path({"HOME": "/h"}) == "/h/.config/agenthooks/config.toml"
    # The XDG spec: a relative XDG_CONFIG_HOME is ignored.
    assert config_path({"XDG_CONFIG_HOME": "rel", "HOME": "/h"}) == \
        "/h/.config/agenthooks/config.toml"


def test_every_key_is_read(user_config: Path, home: Path) -> None:
    write(user_config, 'require_trust = true\nfail_closed = false\n'
                       'audit_log = "~/logs/audit.jsonl"\ndefault_host = "claude"\n'
                       'other_hosts = true\n')
    assert read_user_config() == UserConfig(
        True, str(home / "logs" / "audit.jsonl"), False, "claude", True, str(user_config))


def test_a_relative_audit_log_is_beside_the_config_file(user_config: Path) -> None:
    write(user_config, 'audit_log = "audit.jsonl"\n')
    assert read_user_config().audit_log == str(user_config.parent / "audit.jsonl")


@pytest.mark.parametrize(("text", "message"), [
    ('require_trust = true\nrequire_trust_x = 1\n',
     ":2: unknown key 'require_trust_x'; did you mean 'require_trust'?"),
    ('\n\nrequire_trust = "yes"\n',
     ":3: require_trust must be a boolean (true or false), not 'yes'"),
    ('fail_closed = 1\n', ":1: fail_closed must be a boolean (true or false), not 1"),
    ('audit_log = false\n', ":1: audit_log must be a string (a file path), not False"),
    ('default_host = "nobody"\n',
     f":1: default_host must be one of {', '.join(HOSTS)}, not 'nobody'"),
    ('\n[audit]\nlog = "x"\n', ":2: unknown key 'audit'"),
    ('require_trust = true\nfail_closed = tru\n', ":2:15: invalid TOML: Invalid value"),
])
def test_a_bad_file_is_one_line_naming_the_file_and_line(user_config: Path, text: str,
                                                         message: str) -> None:
    write(user_config, text)
    with pytest.raises(UserConfigError) as caught:
        read_user_config()
    assert str(caught.value).startswith(f"{user_config}{message}")
    assert "\n" not in str(caught.value)


def test_a_bad_file_exits_1_with_the_one_line(user_config: Path, workspace: Path) -> None:
    write(user_config, 'require_trust = "yes"\n')
    done = agenthooks_run("Stop", cwd=workspace)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == (f"agenthooks: error: {user_config}:1: require_trust must be a "
                           "boolean (true or false), not 'yes'\n")


def test_a_bad_file_denies_under_fail_closed(user_config: Path, workspace: Path) -> None:
    write(user_config, "fail_closed = [\n")
    done = agenthooks_run("PreToolUse", "--fail-closed", "--tool", "x", cwd=workspace)
    assert done.returncode == 2
    answer = json.loads(done.stdout)
    assert answer["decision"] == "deny"
    assert str(user_config) in answer["reason"] and "invalid TOML" in answer["reason"]
    # The environment asks for fail-closed as well as the flag does.
    done = agenthooks_run("PreToolUse", "--tool", "x", cwd=workspace,
                          env={"AGENTHOOKS_FAIL_CLOSED": "1"})
    assert done.returncode == 2 and json.loads(done.stdout)["decision"] == "deny"


# --- precedence: flags > environment > file ----------------------------------------------------


@pytest.mark.parametrize(("file", "env", "flag", "expected"), [
    (None, None, False, False),
    ("true", None, False, True),
    ("true", "0", False, False),
    ("true", "false", False, False),
    ("true", "no", False, False),
    ("false", "1", False, True),
    (None, "yes", False, True),
    ("false", "0", True, True),
    ("true", "", False, True),  # empty: not set
])
def test_flags_beat_the_environment_which_beats_the_file(
    user_config: Path, file: str | None, env: str | None, flag: bool, expected: bool
) -> None:
    if file is not None:
        write(user_config, f"require_trust = {file}\nfail_closed = {file}\n")
    environ = {"XDG_CONFIG_HOME": os.environ["XDG_CONFIG_HOME"]}
    if env is not None:
        environ |= {"AGENTHOOKS_REQUIRE_TRUST": env, "AGENTHOOKS_FAIL_CLOSED": env}
    args = ["PreToolUse", *(["--require-trust", "--fail-closed"] if flag else [])]
    options = parse_run_args(args, environ)
    assert (options.require_trust, options.fail_closed) == (expected, expected)


def test_audit_log_flag_beats_environment_beats_file(user_config: Path, tmp_path: Path) -> None:
    write(user_config, f'audit_log = "{tmp_path / "file.log"}"\n')
    base = {"XDG_CONFIG_HOME": os.environ["XDG_CONFIG_HOME"]}
    assert parse_run_args(["Stop"], base).audit == str(tmp_path / "file.log")
    env = base | {"AGENTHOOKS_AUDIT_LOG": str(tmp_path / "env.log")}
    assert parse_run_args(["Stop"], env).audit == str(tmp_path / "env.log")
    flag = ["Stop", "--audit", str(tmp_path / "flag.log")]
    assert parse_run_args(flag, env).audit == str(tmp_path / "flag.log")
    assert parse_run_args(["Stop"], base | {"AGENTHOOKS_AUDIT_LOG": "0"}).audit is None


def test_fail_closed_in_the_file_denies_a_failing_handler(user_config: Path,
                                                         workspace: Path) -> None:
    (workspace / ".agents").mkdir()
    (workspace / ".agents" / "hooks.json").write_text(json.dumps(DENYING_GATE))
    payload = {"tool_name": "run_command"}
    assert agenthooks_run("PreToolUse", payload=payload, cwd=workspace).returncode == 0
    write(user_config, "fail_closed = true\n")
    done = agenthooks_run("PreToolUse", payload=payload, cwd=workspace)
    assert done.returncode == 2 and json.loads(done.stdout)["decision"] == "deny"
    done = agenthooks_run("PreToolUse", payload=payload, cwd=workspace,
                          env={"AGENTHOOKS_FAIL_CLOSED": "0"})
    assert done.returncode == 0


def test_no_file_costs_no_toml_import(user_config: Path, workspace: Path) -> None:
    code = ("import sys, io\nsys.stdin = io.TextIOWrapper(io.BytesIO(b'{}'))\n"
            "from agenthooks.cli import main\ncode = main(['run', 'Stop', '--no-user'])\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('tomllib', 'tomli', 'agenthooks') and m.split('.')[-1] in "
            "('tomllib', 'tomli', 'audit', 'trust')))\n")
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=workspace, check=False, timeout=60)
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stderr
    write(user_config, "require_trust = false\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=workspace, check=False, timeout=60)
    # Python 3.10 reads it with the tomli backport.
    assert done.stdout.strip().splitlines()[-1] in ("['tomllib']", "['tomli']"), done.stderr


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return support.workspace(tmp_path / "ws", {})
