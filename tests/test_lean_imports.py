"""`agenthooks._lean.imports`: the program's finder for its own modules, against the standard one.

Every module of the tree is imported in a fresh interpreter by each finder, and what the
import leaves behind (each agenthooks module's spec, loader, attributes and names) must be
the same, with the finder shown to have loaded all but the modules imported before it is
installed. The fall-backs (no bytecode, a changed source, hash-based or foreign bytecode, a
namespace folder, another package's module) are tables over real files in a temporary tree.
"""

from __future__ import annotations

import importlib.util
import json
import marshal
import os
import py_compile
import subprocess
import sys
from pathlib import Path

import pytest

import agenthooks
from agenthooks._lean.imports import CachedBytecode, install

pytestmark = pytest.mark.program

TREE = Path(agenthooks.__file__).resolve().parent
# Imported by the standard finders before `install` runs (bin/agenthooks, agenthooks.cli).
BEFORE = {"agenthooks", "agenthooks._lean", "agenthooks._lean.imports"}


def every_module() -> list[str]:
    """Every module of the tree but `__main__`, which runs the program when imported."""
    names = []
    for path in sorted(TREE.rglob("*.py")):
        if path.name == "__main__.py":
            continue
        parts = path.relative_to(TREE.parent).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


# What one interpreter's imports left: each agenthooks module as a spec and a module would
# tell any reader of them (resources, tracebacks, inspect, pickle).
REPORT = """
import json, sys
sys.path.insert(0, sys.argv[1])
import agenthooks._lean.imports as lean
if sys.argv[2] == "fast":
    lean.install()
else:  # agenthooks.cli installs it: not on this side
    lean.install = lambda: None
for name in json.loads(sys.argv[3]):
    __import__(name)
from importlib.machinery import SourceFileLoader
found = {}
for name, module in sorted(sys.modules.items()):
    if name != "agenthooks" and not name.startswith("agenthooks."):
        continue
    spec = module.__spec__
    found[name] = {
        "spec": [spec.name, spec.origin, spec.cached, spec.has_location, spec.parent,
                 spec.submodule_search_locations and list(spec.submodule_search_locations)],
        "module": [module.__name__, module.__file__, module.__cached__, module.__package__,
                   getattr(module, "__path__", None) and list(module.__path__)],
        "loader": [isinstance(module.__loader__, SourceFileLoader), module.__loader__.name,
                   module.__loader__.path, module.__loader__ is spec.loader,
                   module.__loader__.get_filename(name)],
        "names": sorted(set(vars(module)) - {"__loader__", "__spec__", "__builtins__"}),
        "by_finder": type(module.__loader__).__module__ == "agenthooks._lean.imports",
    }
print(json.dumps(found))
"""


def imported(which: str, names: list[str]) -> dict[str, dict[str, object]]:
    done = subprocess.run(
        [sys.executable, "-I", "-c", REPORT, str(TREE.parent), which, json.dumps(names)],
        capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    found: dict[str, dict[str, object]] = json.loads(done.stdout)
    return found


def test_every_module_is_imported_as_the_standard_finder_imports_it() -> None:
    names = every_module()
    standard = imported("standard", names)  # and the bytecode is written, where it was not
    fast = imported("fast", names)
    assert set(standard) >= set(names)
    assert not any(entry["by_finder"] for entry in standard.values())
    by_finder = {name for name, entry in fast.items() if entry.pop("by_finder")}
    for entry in standard.values():
        entry.pop("by_finder")
    assert fast == standard
    assert by_finder == set(fast) - BEFORE


def test_the_tree_holds_only_what_the_finder_ranks_as_the_standard_one_does() -> None:
    """The standard finder prefers an extension module to a source file and accepts bytecode
    with no source beside it; the finder does neither, so the tree must hold none."""
    stray = [str(path.relative_to(TREE)) for path in TREE.rglob("*")
             if path.is_file() and "__pycache__" not in path.parts
             and (path.suffix in (".so", ".pyd", ".pyc"))]
    assert stray == []


def test_the_program_installs_it_and_the_api_does_not() -> None:
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import agenthooks.{}; "
            "print(sum(type(f).__name__ == 'CachedBytecode' for f in sys.meta_path))")
    counts = [subprocess.run([sys.executable, "-I", "-c", code.format(module), str(TREE.parent)],
                             capture_output=True, text=True, check=True, timeout=60).stdout
              for module in ("cli", "api")]
    assert counts == ["1\n", "0\n"]


# --- the fall-backs, over a package of a temporary tree --------------------------------------


def write(root: Path, relative: str, text: str, compile_it: bool = True) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    if compile_it:
        py_compile.compile(str(path), doraise=True,
                           invalidation_mode=py_compile.PycInvalidationMode.TIMESTAMP)
    return path


def finder() -> CachedBytecode:
    tag = sys.implementation.cache_tag
    assert tag is not None
    return CachedBytecode(tag)


def loaded(folder: Path, name: str) -> dict[str, object] | None:
    """The module `agenthooks.<name>` in `folder`, as the finder's spec executes it."""
    spec = finder().find_spec(f"agenthooks.{name}", [str(folder)])
    if spec is None:
        return None
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return {"value": module.VALUE, "file": module.__file__}


def test_current_bytecode_is_loaded_with_the_source_s_path(tmp_path: Path) -> None:
    source = write(tmp_path, "one.py", "VALUE = 1\n")
    assert loaded(tmp_path, "one") == {"value": 1, "file": str(source)}
    package = write(tmp_path, "pkg/__init__.py", "VALUE = 'package'\n")
    spec = finder().find_spec("agenthooks.pkg", [str(tmp_path)])
    assert spec is not None and spec.submodule_search_locations == [str(package.parent)]
    assert loaded(tmp_path, "pkg") == {"value": "package", "file": str(package)}


def _edited(source: Path) -> None:
    source.write_text("VALUE = 22\n")
    os.utime(source, (1, 1))


def _hash_based(source: Path) -> None:
    py_compile.compile(str(source), doraise=True,
                       invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)


def _foreign(source: Path) -> None:
    cached = Path(importlib.util.cache_from_source(str(source)))
    data = bytearray(cached.read_bytes())
    data[0] ^= 0xFF
    cached.write_bytes(bytes(data))


def _truncated(source: Path) -> None:
    cached = Path(importlib.util.cache_from_source(str(source)))
    cached.write_bytes(cached.read_bytes()[:20])


def _not_code(source: Path) -> None:
    cached = Path(importlib.util.cache_from_source(str(source)))
    cached.write_bytes(cached.read_bytes()[:16] + marshal.dumps(("VALUE", 1)))


def _no_bytecode(source: Path) -> None:
    Path(importlib.util.cache_from_source(str(source))).unlink()


@pytest.mark.parametrize("spoil", [_edited, _hash_based, _foreign, _truncated, _not_code,
                                   _no_bytecode])
def test_bytecode_the_standard_loader_would_not_use_is_left_to_it(tmp_path: Path,
                                                                  spoil: object) -> None:
    source = write(tmp_path, "one.py", "VALUE = 1\n")
    assert callable(spoil)
    spoil(source)
    assert loaded(tmp_path, "one") is None


@pytest.mark.parametrize(("name", "path"), [
    ("other.one", "tree"),          # another package's module
    ("agenthooks.one", None),       # a top-level name: the finder has no folder
    ("agenthooks.one", "two"),      # a package spread over two folders
    ("agenthooks.space", "tree"),   # a namespace folder, no __init__.py
    ("agenthooks.absent", "tree"),  # no such module
    ("agenthooks.one", "null"),     # a folder no system call takes (ValueError, not OSError)
])
def test_what_is_not_a_cached_agenthooks_module_is_left_to_the_standard_finder(
        tmp_path: Path, name: str, path: str | None) -> None:
    write(tmp_path, "one.py", "VALUE = 1\n")
    write(tmp_path, "space/inner.py", "VALUE = 2\n")
    folders = {"tree": [str(tmp_path)], "two": [str(tmp_path), str(tmp_path)], None: None,
               "null": [f"{tmp_path}/\0"]}
    assert finder().find_spec(name, folders[path]) is None


@pytest.mark.parametrize(("flags", "installed"), [
    ((), ["1", "True"]),
    (("-O",), ["0", "False"]),  # the bytecode is `.opt-1.pyc`
    (("-X", "pycache_prefix=/nonexistent"), ["0", "False"]),  # the bytecode is elsewhere
])
def test_install_puts_it_first_once_where_bytecode_is_in_pycache(
        flags: tuple[str, ...], installed: list[str]) -> None:
    code = ("import sys; sys.path.insert(0, sys.argv[1])\n"
            "from agenthooks._lean.imports import CachedBytecode, install\n"
            "install(); install()\n"
            "print(sum(isinstance(f, CachedBytecode) for f in sys.meta_path),"
            " isinstance(sys.meta_path[0], CachedBytecode))")
    done = subprocess.run([sys.executable, "-I", *flags, "-c", code, str(TREE.parent)],
                          capture_output=True, text=True, check=True, timeout=60)
    assert done.stdout.split() == installed


def test_install_in_this_process_is_idempotent() -> None:
    before = list(sys.meta_path)
    try:
        install()
        install()
        assert sum(isinstance(f, CachedBytecode) for f in sys.meta_path) == 1
    finally:
        sys.meta_path[:] = before
