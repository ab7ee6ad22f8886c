"""The user config file: `$XDG_CONFIG_HOME/agenthooks/config.toml` (else `~/.config/...`).

    require_trust = true                        # run skips untrusted workspaces' hooks
    audit_log = "~/.local/state/agenthooks/audit.jsonl"
    fail_closed = true                          # as --fail-closed
    default_host = "claude"                     # as --host: antigravity, claude or gemini
    other_hosts = true                          # as --other-hosts

Command-line flags beat the environment, which beats this file; `0`, `false` or `no` in the
environment turn off what the file turns on. `agenthooks run` reads it on every call, so a
missing file costs one stat, and `tomllib` is imported only when there is a file to parse.
"""

from __future__ import annotations

import os
import sys

from agenthooks._lean.records import NamedTuple
from agenthooks.errors import AgentHooksError, UsageError
from agenthooks.model.hosts import dialect_ids, host_ids

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

FILE_NAME = "config.toml"
HOSTS: tuple[str, ...] = host_ids()  # every host's row (`model.hosts`) that calls agenthooks
DIALECT_WORDS: tuple[str, ...] = dialect_ids()  # every format's: the hosts' and rulesync's
TRUE_WORDS = ("1", "true", "yes")
FALSE_WORDS = ("0", "false", "no")

# key -> (the Python type its value must have, how a message names that type)
KEYS: dict[str, tuple[type, str]] = {
    "require_trust": (bool, "a boolean (true or false)"),
    "audit_log": (str, "a string (a file path)"),
    "fail_closed": (bool, "a boolean (true or false)"),
    "default_host": (str, f"one of {', '.join(HOSTS)}"),
    "other_hosts": (bool, "a boolean (true or false)"),
}


class UserConfigError(AgentHooksError):
    """The user config file cannot be read or has a bad key or value: `file:line: message`."""


class UserConfig(NamedTuple):
    """The settings of the user config file; None where the file (if any) says nothing."""

    require_trust: bool | None = None
    audit_log: str | None = None  # absolute, `~` expanded
    fail_closed: bool | None = None
    # The host whose words `agenthooks run` answers in when no --host is given.
    default_host: str | None = None
    # Under a host, also run other hosts' settings files (`--other-hosts`).
    other_hosts: bool | None = None
    path: str | None = None  # the file read, if there was one


def config_path(environ: Mapping[str, str] | None = None) -> str:
    env = os.environ if environ is None else environ
    base = env.get("XDG_CONFIG_HOME") or ""
    if not os.path.isabs(base):  # the XDG spec: a relative value is ignored
        home = env.get("HOME") or os.path.expanduser("~")
        base = os.path.join(home, ".config")
    return os.path.join(base, "agenthooks", FILE_NAME)


def read_user_config(environ: Mapping[str, str] | None = None) -> UserConfig:
    """The user config, or the empty one when there is no file; `UserConfigError` when bad."""
    path = config_path(environ)
    try:
        os.stat(path)
    except FileNotFoundError:
        return UserConfig()
    except OSError as exc:
        raise UserConfigError(f"{path}: cannot read the user config file: {exc.strerror}") from None
    return parse_user_config(path)


def parse_user_config(path: str) -> UserConfig:
    try:
        with open(path, "rb") as stream:
            data = stream.read()
    except OSError as exc:
        raise UserConfigError(f"{path}: cannot read the user config file: {exc.strerror}") from None
    text = data.decode("utf-8", "replace")
    values = _parse_toml(path, data)
    settings: dict[str, Any] = {}
    for key, value in values.items():
        settings[key] = _checked(path, text, key, value)
    audit = settings.get("audit_log")
    if audit is not None:
        settings["audit_log"] = _absolute(audit, path)
    return UserConfig(**settings, path=path)


def _parse_toml(path: str, data: bytes) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # the backport, a dependency on Python 3.10
        import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]
    try:
        parsed: dict[str, Any] = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise UserConfigError(f"{path}:{line}: the file is not UTF-8") from None
    except tomllib.TOMLDecodeError as exc:
        raise UserConfigError(_toml_message(path, str(exc))) from None
    return parsed


def _toml_message(path: str, message: str) -> str:
    """`file:line: message` from tomllib's `message (at line L, column C)`."""
    import re

    found = re.search(r"\(at line (\d+), column (\d+)\)$", message)
    if found is None:
        return f"{path}: invalid TOML: {message}"
    text = message[: found.start()].rstrip()
    return f"{path}:{found.group(1)}:{found.group(2)}: invalid TOML: {text}"


def _checked(path: str, text: str, key: str, value: Any) -> Any:
    where = f"{path}:{key_line(text, key)}"
    expected = KEYS.get(key)
    if expected is None:
        from agenthooks.model.eventnames import did_you_mean

        guess = did_you_mean(key, list(KEYS))
        hint = f"; did you mean {guess!r}?" if guess else f" (known: {', '.join(KEYS)})"
        raise UserConfigError(f"{where}: unknown key {key!r}{hint}")
    kind, described = expected
    if not isinstance(value, kind):
        raise UserConfigError(f"{where}: {key} must be {described}, not {value!r}")
    if key == "default_host":
        from agenthooks.model.hosts import caller_error

        refused = caller_error(str(value))
        if refused is not None:
            raise UserConfigError(f"{where}: default_host: {refused}")
    if key == "default_host" and value not in HOSTS:
        raise UserConfigError(f"{where}: default_host must be one of {', '.join(HOSTS)}, "
                              f"not {value!r}")
    if key == "audit_log" and not str(value).strip():
        raise UserConfigError(f"{where}: audit_log must be a file path, not empty")
    return value


def key_line(text: str, key: str) -> int:
    """The line that sets a top-level key (`key = ...` or `[key]`); 1 when not found."""
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        for prefix in (key, f'"{key}"', f"'{key}'"):
            rest = stripped[len(prefix):].lstrip() if stripped.startswith(prefix) else None
            if rest is not None and rest.startswith(("=", ".")):
                return number
        if stripped.startswith("[") and stripped.strip("[] \t").split(".")[0] == key:
            return number
    return 1


def _absolute(value: str, config_file: str) -> str:
    """`~` expanded; a relative path is relative to the folder of the config file."""
    expanded = os.path.expanduser(value)
    return os.path.join(os.path.dirname(config_file), expanded)


def env_switch(environ: Mapping[str, str], name: str) -> bool | None:
    """True or False when the variable says so (1/true/yes, 0/false/no), else None."""
    word = environ.get(name, "").strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    return None


def setting(flag: bool, environ: Mapping[str, str], name: str, file_value: bool | None) -> bool:
    """A switch: the flag turns it on; else the environment says; else the file; else off."""
    if flag:
        return True
    from_env = env_switch(environ, name)
    if from_env is not None:
        return from_env
    return bool(file_value)


# --- what a run is given: its flags, else the environment, else this file -----------------------

FAIL_CLOSED_ENV = "AGENTHOOKS_FAIL_CLOSED"
REQUIRE_TRUST_ENV = "AGENTHOOKS_REQUIRE_TRUST"
AUDIT_ENV = "AGENTHOOKS_AUDIT_LOG"
RECORD_ENV = "AGENTHOOKS_RECORD"


def check_fail_closed_env(environ: Mapping[str, str]) -> None:
    """A word the fail-closed switch does not know is an error, never a silent "not set"."""
    word = environ.get(FAIL_CLOSED_ENV, "").strip()
    if word and env_switch(environ, FAIL_CLOSED_ENV) is None:
        raise UsageError(f"{FAIL_CLOSED_ENV}={word!r} is not a switch: give "
                         f"{', '.join(TRUE_WORDS)} (fail closed) or {', '.join(FALSE_WORDS)}")


def audit_log(given: str | None, environ: Mapping[str, str], file_value: str | None) -> str | None:
    """The audit log's path: `--audit`, else the environment (0/false/no: none), else the file."""
    if given is not None:
        return os.path.abspath(given)
    from_env = environ.get(AUDIT_ENV, "").strip()
    if from_env.lower() in FALSE_WORDS:
        return None
    if from_env:
        return os.path.abspath(os.path.expanduser(from_env))
    return file_value


def record_folder(given: str | None, environ: Mapping[str, str]) -> str | None:
    """Where payloads are recorded: `--record`, else the environment (0/false/no: nowhere).
    The environment's folder is the outermost run's: a handler's own `agenthooks run`
    inherits it, but its payload is not one a host sent."""
    if given is not None:
        return os.path.abspath(given)
    from_env = environ.get(RECORD_ENV, "").strip()
    if not from_env or from_env.lower() in FALSE_WORDS:
        return None
    from agenthooks.plan.recursion import depth

    if depth(environ) > 0:
        return None
    return os.path.abspath(os.path.expanduser(from_env))


def apply_settings(values: dict[str, Any], environ: Mapping[str, str]) -> None:
    """Flags beat the environment, which beats the user config file (read only if it exists)."""
    check_fail_closed_env(environ)
    user = read_user_config(environ)
    values["fail_closed"] = setting(values.get("fail_closed", False), environ,
                                    FAIL_CLOSED_ENV, user.fail_closed)
    values["require_trust"] = setting(values.get("require_trust", False), environ,
                                      REQUIRE_TRUST_ENV, user.require_trust)
    values["audit"] = audit_log(values.get("audit"), environ, user.audit_log)
    values["record"] = record_folder(values.get("record"), environ)
    values["host"] = values.get("host") or user.default_host
    values["other_hosts"] = values.get("other_hosts", False) or bool(user.other_hosts)
