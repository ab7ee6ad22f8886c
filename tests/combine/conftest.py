"""The merge is tested both as a table and through real handler processes: the workspace
fixtures and run helpers are tests/run/conftest.py's."""

from __future__ import annotations

from tests.run.conftest import (
    RunFn,
    hooks_of,
    on,
    run_doc,
    workspace,
    write_hooks,
)

__all__ = ["RunFn", "hooks_of", "on", "run_doc", "workspace", "write_hooks"]
