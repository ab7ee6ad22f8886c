"""`install`: the path finder's import of agenthooks' own modules, for the program.

The program imports some sixty of its own modules on every `agenthooks run`, and the standard
path finder spends about 240,000 instructions on each before its code runs (listing and
caching its folder, joining candidate paths for five suffixes, validating the cached
bytecode in Python): some 14 million of a cold run's 87, where the interpreter's own start
is 38. `CachedBytecode`, first on `sys.meta_path`, finds a submodule of agenthooks from its
parent's `__path__` with two `stat` calls and loads its `__pycache__` bytecode after the
same checks the standard loader makes; anything else it leaves to the standard finders, so
a module is imported exactly as it would be, only sooner:

- the same spec: a `SourceFileLoader` for the same source file, with the same `origin`,
  `cached`, `__path__` for a package, so resources, tracebacks and `inspect` see what they
  always do;
- the same code: bytecode is used only when its header is a timestamp header of this
  interpreter's magic number and records the source's mtime and size, as the standard
  loader's check has it; otherwise (no bytecode yet, a changed source, hash-based bytecode,
  `-O`, a `PYTHONPYCACHEPREFIX`) the standard finder imports the module, and writes the
  bytecode for the next run;
- the same precedence: a package folder with an `__init__.py` before a module file. The
  tree holds no extension modules and no bytecode-only modules, which the standard finder
  would prefer or accept (tests/test_lean_imports.py checks the tree).

Installed by the command line only (`agenthooks.cli`): a harness that imports agenthooks
keeps its own `sys.meta_path`. Proven the same by tests/test_lean_imports.py: every module of
the tree, imported by both finders in fresh interpreters, has the same spec, attributes and
names.
"""

from __future__ import annotations

import io
import marshal
import os
import sys

_imp = sys.modules["_imp"]
_bootstrap = sys.modules["_frozen_importlib"]
_external = sys.modules["_frozen_importlib_external"]

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from importlib.machinery import ModuleSpec
    from types import CodeType

__all__ = ["CachedBytecode", "install"]

_PREFIX = "agenthooks."
_HEADER = 16  # magic number, flags, source mtime, source size: 4 bytes each


class _Loaded(_external.SourceFileLoader):  # type: ignore[misc, name-defined]
    """The standard loader of the module's source, handed the bytecode already read: the
    first `get_code` returns it, any later one (a reload, `runpy`) reads as usual."""

    def __init__(self, fullname: str, path: str, code: CodeType) -> None:
        super().__init__(fullname, path)
        self._code: CodeType | None = code

    def get_code(self, fullname: str) -> CodeType:
        code, self._code = self._code, None
        return code if code is not None else super().get_code(fullname)


def _bytecode(source: str, cached: str) -> CodeType | None:
    """The code in `cached` when it is valid for `source` as the standard loader checks a
    timestamp header; None for anything else (missing, stale, hash-based, unreadable)."""
    try:
        stat = os.stat(source)
        with io.open_code(cached) as file:
            data = file.read()
    except OSError:
        return None
    if (len(data) < _HEADER or data[:4] != _external.MAGIC_NUMBER
            or data[4:8] != b"\0\0\0\0"
            or int.from_bytes(data[8:12], "little") != int(stat.st_mtime) & 0xFFFFFFFF
            or int.from_bytes(data[12:16], "little") != stat.st_size & 0xFFFFFFFF):
        return None
    try:
        code = marshal.loads(memoryview(data)[_HEADER:])
    except (EOFError, ValueError, TypeError):
        return None
    if type(code) is not type(_bytecode.__code__):
        return None
    _imp._fix_co_filename(code, source)  # the source's path now, should the tree have moved
    return code


class CachedBytecode:
    """A meta-path finder for agenthooks' submodules whose bytecode is cached and current."""

    def __init__(self, cache_tag: str) -> None:
        self._suffix = f".{cache_tag}.pyc"

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: object = None) -> ModuleSpec | None:
        if not fullname.startswith(_PREFIX) or not path or len(path) != 1:
            return None
        try:
            return self._spec(fullname, path[0])
        except Exception:  # a surprise here leaves the import to the standard finder
            return None

    def _spec(self, fullname: str, folder: str) -> ModuleSpec | None:
        tail = fullname.rpartition(".")[2]
        package = f"{folder}/{tail}"
        source = f"{package}/__init__.py"
        if os.path.isfile(source):
            cached = f"{package}/__pycache__/__init__{self._suffix}"
        elif os.path.isdir(package):
            return None  # a namespace package, or a folder the standard finder rules on
        else:
            source = f"{folder}/{tail}.py"
            cached = f"{folder}/__pycache__/{tail}{self._suffix}"
        code = _bytecode(source, cached)
        if code is None:
            return None
        is_package = cached.startswith(package + "/")
        spec: ModuleSpec = _bootstrap.ModuleSpec(
            fullname, _Loaded(fullname, source, code), origin=source, is_package=is_package)
        spec.has_location = True
        spec.cached = cached
        if is_package:
            spec.submodule_search_locations = [package]
        return spec


def install() -> None:
    """Put `CachedBytecode` first on `sys.meta_path`, where this interpreter reads the
    standard bytecode cache (no `-O`, no `PYTHONPYCACHEPREFIX`); once."""
    tag = sys.implementation.cache_tag
    if (tag is None or sys.flags.optimize or sys.pycache_prefix is not None
            or any(type(finder) is CachedBytecode for finder in sys.meta_path)):
        return
    sys.meta_path.insert(0, CachedBytecode(tag))
