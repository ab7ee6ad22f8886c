"""XDG folders in the test's temporary folder, and a real `agenthooks run` (tests.usersettings)."""

from tests.usersettings import agenthooks_run, user_config, xdg

__all__ = ["agenthooks_run", "user_config", "xdg"]
