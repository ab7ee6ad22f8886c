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
from agenthooks.executor import Interrupted, Terminated


class PythonHooksError(UsageError):
    """A `--python MODULE:ATTR` that cannot be imported or is not a registry or function."""


def load_python_hooks(hooks: Hooks, spec: str) -> Hooks:
    """The registry with the hooks of `spec` in it. What the module prints while it is
    imported and registers goes to stderr: stdout carries the answer and nothing else."""
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise PythonHooksError(f"--python {spec}: write MODULE:ATTR (e.g. mypolicy:hooks)")
    saved = _stdout_to_stderr()
    try:
        return _load(hooks, spec, module_name, attr)
    finally:
        _stdout_back(saved)


def _stdout_to_stderr() -> int | None:
    """Point file descriptor 1 at stderr; the descriptor it was, to put back (None: could
    not, e.g. no stdout at all)."""
    _flush(sys.stdout)
    try:
        saved = os.dup(1)
    except OSError:
        return None
    try:
        os.dup2(2, 1)
    except OSError:
        os.close(saved)
        return None
    return saved


def _stdout_back(saved: int | None) -> None:
    if saved is None:
        return
    _flush(sys.stdout)
    os.dup2(saved, 1)
    os.close(saved)


def _flush(stream: object) -> None:
    try:
        flush = getattr(stream, "flush", None)
        if flush is not None:
            flush()
    except (OSError, ValueError):
        pass


def _load(hooks: Hooks, spec: str, module_name: str, attr: str) -> Hooks:
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
        except BaseException as exc:  # sys.exit(), KeyboardInterrupt...: not the gate's end
            _reraise_signals(exc)
            raise PythonHooksError(f"--python {spec}: {attr}(hooks) raised "
                                   f"{type(exc).__name__}: {exc}") from None
        return hooks
    raise PythonHooksError(
        f"--python {spec}: {attr} is a {type(value).__name__}, not a Hooks registry or a "
        "function register(hooks)"
    )


def _reraise_signals(exc: BaseException) -> None:
    """A signal that ends the run (`executor.Interrupted`, `Terminated`) is the run's, not the
    module's: it goes on up."""
    if isinstance(exc, (Interrupted, Terminated)):
        raise exc


def _import(module_name: str, spec: str) -> object:
    import importlib

    cwd = os.getcwd()
    if cwd not in sys.path:
        sys.path.insert(0, cwd)
    try:
        return importlib.import_module(module_name)
    # ImportError, whatever the module raised while importing, or its sys.exit() (exit 0
    # with no answer would let the call through), KeyboardInterrupt and every other
    # BaseException it raised itself.
    except BaseException as exc:
        _reraise_signals(exc)
        raise PythonHooksError(
            f"--python {spec}: cannot import {module_name!r}: {type(exc).__name__}: {exc}"
        ) from None
