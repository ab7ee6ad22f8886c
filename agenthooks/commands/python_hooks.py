"""`--python MODULE:ATTR`: Python hooks for `agenthooks run` and `agenthooks list`.

ATTR is a `Hooks` registry (merged after the loaded files) or a function `register(hooks)`
that registers into the loaded one. MODULE is imported from the current directory or
PYTHONPATH. Anything wrong is agenthooks' own error, naming the module and attribute.
"""

from __future__ import annotations

import os
import sys

from agenthooks.api import Hooks
from agenthooks.errors import UsageError


class PythonHooksError(UsageError):
    """A `--python MODULE:ATTR` that cannot be imported or is not a registry or function."""


def load_python_hooks(hooks: Hooks, spec: str) -> Hooks:
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise PythonHooksError(f"--python {spec}: write MODULE:ATTR (e.g. mypolicy:hooks)")
    module = _import(module_name, spec)
    try:
        value = getattr(module, attr)
    except AttributeError:
        raise PythonHooksError(f"--python {spec}: module {module_name!r} has no {attr!r}") from None
    if isinstance(value, Hooks):
        return hooks.merge(value)
    if callable(value):
        try:
            value(hooks)
        except (Exception, SystemExit) as exc:  # sys.exit() in it must not end the gate
            raise PythonHooksError(f"--python {spec}: {attr}(hooks) raised "
                                   f"{type(exc).__name__}: {exc}") from None
        return hooks
    raise PythonHooksError(
        f"--python {spec}: {attr} is a {type(value).__name__}, not a Hooks registry or a "
        "function register(hooks)"
    )


def _import(module_name: str, spec: str) -> object:
    import importlib

    cwd = os.getcwd()
    if cwd not in sys.path:
        sys.path.insert(0, cwd)
    try:
        return importlib.import_module(module_name)
    # ImportError, whatever the module raised while importing, or its sys.exit(): exit 0 with
    # no answer would let the call through.
    except (Exception, SystemExit) as exc:
        raise PythonHooksError(
            f"--python {spec}: cannot import {module_name!r}: {type(exc).__name__}: {exc}"
        ) from None
