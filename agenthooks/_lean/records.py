"""`NamedTuple` records without importing `typing` at run time.

`agenthooks run` starts once per tool call, and `typing` alone is a tenth of its imports.
Modules on that path write

    from agenthooks._lean.records import NamedTuple

and the type checker sees `typing.NamedTuple` (re-exported here under TYPE_CHECKING) while the
program gets this: the same class
statement (annotated fields, defaults, methods, properties, docstring) made into the tuple
class `collections.namedtuple` makes, as `typing.NamedTuple` itself does, only without its
`eval` (see `_record`).

What it saves: importing `typing` (with `collections` and `functools`) costs about 41 million
instructions, more than the interpreter's own start (`python3 -c pass`, 39 million); this
module costs about 4. How it is proven: tests/shipped/test_lean_differential.py makes generated
class statements with both, in a fresh interpreter of every supported Python, and compares
what a program sees: fields, defaults (and the error for one out of order), the names a body
may not set, construction and its errors, `_make`, `_replace`, `_asdict`, repr and docstrings.
Not the same: `__annotations__` (typing wraps each in a `ForwardRef`; nothing reads them at
run time) and `__orig_bases__`.
"""

from __future__ import annotations

__all__ = ["NamedTuple"]  # typing's, to the type checker

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import FunctionType
    from typing import Any
else:  # `types` itself is a module of a million instructions, for this one name
    FunctionType = type(lambda: None)

try:
    from _collections import _tuplegetter  # type: ignore[import-not-found]
except ImportError:  # a Python without it: the same accessor, a little slower
    from operator import itemgetter

    def _tuplegetter(index: int, doc: str) -> property:
        return property(itemgetter(index), doc=doc)

_tuple_new: Any = tuple.__new__

# Class-body names that namedtuple sets itself, or that must not become attributes.
_SKIP = frozenset(("__annotations__", "__module__", "__qualname__", "__orig_bases__",
                   "__classcell__"))
# What a class body may not set: typing.NamedTuple refuses the same names, with this error.
_PROHIBITED = frozenset(("__new__", "__init__", "__slots__", "__getnewargs__", "_fields",
                         "_field_defaults", "_make", "_replace", "_asdict", "_source"))


class _RecordMeta(type):
    def __new__(cls, typename: str, bases: tuple[type, ...], ns: dict[str, object]) -> type:
        if not bases:  # NamedTuple itself
            return super().__new__(cls, typename, bases, ns)
        annotations = ns.get("__annotations__", {})
        assert isinstance(annotations, dict)
        fields = tuple(annotations)
        module = str(ns.get("__module__"))
        record: type = _record(typename, fields, _defaults(fields, ns), module)
        record.__qualname__ = str(ns.get("__qualname__", typename))
        for name, value in ns.items():
            if name in _PROHIBITED:
                raise AttributeError("Cannot overwrite NamedTuple attribute " + name)
            if name not in _SKIP and name not in fields:
                setattr(record, name, value)
        return record


def _defaults(fields: tuple[str, ...], ns: dict[str, object]) -> list[object]:
    """The values of the fields that have one, which must be the last: typing's error else."""
    named: list[str] = []
    for name in fields:
        if name in ns:
            named.append(name)
        elif named:
            raise TypeError(f"Non-default namedtuple field {name} cannot follow default "
                            f"field{'s' if len(named) > 1 else ''} {', '.join(named)}")
    return [ns[name] for name in named]


if TYPE_CHECKING:
    from typing import NamedTuple
else:
    class NamedTuple(metaclass=_RecordMeta):
        """Subclass it like `typing.NamedTuple`; the subclass is a `collections.namedtuple`."""


# --- records without eval ---------------------------------------------------------------------
# `collections.namedtuple` compiles each class's `__new__` from a string with eval(): a tenth of
# a millisecond per class, for the twenty-odd records `agenthooks run` defines on every start.
# The same `__new__` bodies are written out below, one per field count, so they come compiled
# from the .pyc; each class gets one with its field names (`CodeType.replace`) and defaults.
# Instances are built exactly as fast as namedtuple's, and the class is the same: a tuple
# subclass with `_fields`, `_field_defaults`, `_make`, `_replace`, `_asdict`, field accessors.
# Those for 29 fields and more are in `wide_records`, loaded when a record that wide is made.
_NARROWEST_WIDE = 29


def _record(typename: str, fields: tuple[str, ...], defaults: list[object],
            module: str) -> type:
    template = _NEW.get(len(fields))
    if template is None and len(fields) >= _NARROWEST_WIDE:
        from agenthooks._lean.wide_records import WIDE

        _NEW.update(WIDE)
        template = _NEW.get(len(fields))
    if template is None or any(not name.isidentifier() or name.startswith("_")
                               for name in fields):
        from collections import namedtuple

        record: type = namedtuple(typename, fields, defaults=defaults,  # type: ignore[misc]
                                  module=module)
        return record
    code = template.__code__.replace(co_varnames=("_cls", *fields), co_name="__new__")
    if sys.version_info >= (3, 11):  # the name tracebacks show
        code = code.replace(co_qualname=f"{typename}.__new__")
    new = FunctionType(code, _NEW_GLOBALS, "__new__", tuple(defaults) or None)
    new.__qualname__ = f"{typename}.__new__"  # the name 3.10's argument errors show
    arguments = ", ".join(fields) + ("," if len(fields) == 1 else "")  # namedtuple's text
    new.__doc__ = f"Create new instance of {typename}({arguments})"
    namespace: dict[str, object] = {
        "__doc__": f"{typename}({arguments})",
        "__slots__": (),
        "_fields": fields,
        "_field_defaults": dict(zip(fields[len(fields) - len(defaults):], defaults,
                                    strict=True)),
        "__new__": new,
        "_make": classmethod(_make),
        "_replace": _replace,
        "__repr__": _repr,
        "_asdict": _asdict,
        "__getnewargs__": _getnewargs,
        "__match_args__": fields,
    }
    for index, name in enumerate(fields):
        namespace[name] = _tuplegetter(index, sys.intern(f"Alias for field number {index}"))
    made = type(typename, (tuple,), namespace)
    made.__module__ = module
    return made


def _make(cls: type, iterable: object) -> tuple[object, ...]:
    """Make a new record from a sequence or iterable."""
    result: tuple[object, ...] = _tuple_new(cls, iterable)
    expected = len(cls._fields)  # type: ignore[attr-defined]
    if len(result) != expected:
        raise TypeError(f"Expected {expected} arguments, got {len(result)}")
    return result


# What `_replace` raises for a name that is no field: namedtuple's ValueError became a
# TypeError in 3.13.
_REPLACE_ERROR = TypeError if sys.version_info >= (3, 13) else ValueError


def _replace(self: tuple[object, ...], /, **changes: object) -> tuple[object, ...]:
    """Return a new record replacing the given fields with new values."""
    result: tuple[object, ...] = self._make(  # type: ignore[attr-defined]
        map(changes.pop, self._fields, self))  # type: ignore[attr-defined]
    if changes:
        raise _REPLACE_ERROR(f"Got unexpected field names: {list(changes)!r}")
    return result


def _repr(self: tuple[object, ...]) -> str:
    fields = ", ".join(f"{name}={value!r}"
                       for name, value in zip(self._fields, self, strict=True))  # type: ignore[attr-defined]
    return f"{self.__class__.__name__}({fields})"


def _asdict(self: tuple[object, ...]) -> dict[str, object]:
    """Return a new dict mapping field names to their values."""
    return dict(zip(self._fields, self, strict=True))  # type: ignore[attr-defined]


def _getnewargs(self: tuple[object, ...]) -> tuple[object, ...]:
    """Return self as a plain tuple: used by copy and pickle."""
    return tuple(self)


_NEW_GLOBALS: dict[str, object] = {"_tuple_new": _tuple_new, "__name__": "agenthooks._lean.records"}


def _new1(_cls: Any, a0: Any) -> Any:
    return _tuple_new(_cls, (a0,))


def _new2(_cls: Any, a0: Any, a1: Any) -> Any:
    return _tuple_new(_cls, (a0, a1))


def _new3(_cls: Any, a0: Any, a1: Any, a2: Any) -> Any:
    return _tuple_new(_cls, (a0, a1, a2))


def _new4(_cls: Any, a0: Any, a1: Any, a2: Any, a3: Any) -> Any:
    return _tuple_new(_cls, (a0, a1, a2, a3))


def _new5(_cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any) -> Any:
    return _tuple_new(_cls, (a0, a1, a2, a3, a4))


def _new6(_cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any) -> Any:
    return _tuple_new(_cls, (a0, a1, a2, a3, a4, a5))


def _new7(_cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any) -> Any:
    return _tuple_new(_cls, (a0, a1, a2, a3, a4, a5, a6))


def _new8(_cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any) -> Any:
    return _tuple_new(_cls, (a0, a1, a2, a3, a4, a5, a6, a7))


def _new9(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any
) -> Any:
    return _tuple_new(_cls, (a0, a1, a2, a3, a4, a5, a6, a7, a8))


def _new10(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any,
    a9: Any
) -> Any:
    return _tuple_new(_cls, (a0, a1, a2, a3, a4, a5, a6, a7, a8, a9))


def _new11(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any,
    a9: Any, a10: Any
) -> Any:
    return _tuple_new(_cls, (a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10))


def _new12(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any,
    a9: Any, a10: Any, a11: Any
) -> Any:
    return _tuple_new(_cls, (a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11))


def _new13(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any,
    a9: Any, a10: Any, a11: Any, a12: Any
) -> Any:
    return _tuple_new(_cls, (a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12))


def _new14(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any,
    a9: Any, a10: Any, a11: Any, a12: Any, a13: Any
) -> Any:
    return _tuple_new(_cls, (a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13))


def _new15(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any,
    a9: Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any
) -> Any:
    return _tuple_new(_cls, (a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14))


def _new16(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any,
    a9: Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any
) -> Any:
    return _tuple_new(_cls, (a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15))


def _new17(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any,
    a9: Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any, a16: Any
) -> Any:
    return _tuple_new(_cls, (
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16,
    ))


def _new18(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any,
    a9: Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any, a16: Any, a17: Any
) -> Any:
    return _tuple_new(_cls, (
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17,
    ))


def _new19(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any,
    a9: Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any, a16: Any, a17: Any,
    a18: Any
) -> Any:
    return _tuple_new(_cls, (
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18,
    ))


def _new20(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any,
    a9: Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any, a16: Any, a17: Any,
    a18: Any, a19: Any
) -> Any:
    return _tuple_new(_cls, (
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19,
    ))


def _new21(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any,
    a9: Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any, a16: Any, a17: Any,
    a18: Any, a19: Any, a20: Any
) -> Any:
    return _tuple_new(_cls, (
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19,
        a20,
    ))


def _new22(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any,
    a9: Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any, a16: Any, a17: Any,
    a18: Any, a19: Any, a20: Any, a21: Any
) -> Any:
    return _tuple_new(_cls, (
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19,
        a20, a21,
    ))


def _new23(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any,
    a9: Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any, a16: Any, a17: Any,
    a18: Any, a19: Any, a20: Any, a21: Any, a22: Any
) -> Any:
    return _tuple_new(_cls, (
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19,
        a20, a21, a22,
    ))


def _new24(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any,
    a9: Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any, a16: Any, a17: Any,
    a18: Any, a19: Any, a20: Any, a21: Any, a22: Any, a23: Any
) -> Any:
    return _tuple_new(_cls, (
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19,
        a20, a21, a22, a23,
    ))


def _new25(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any,
    a9: Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any, a16: Any, a17: Any,
    a18: Any, a19: Any, a20: Any, a21: Any, a22: Any, a23: Any, a24: Any
) -> Any:
    return _tuple_new(_cls, (
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19,
        a20, a21, a22, a23, a24,
    ))


def _new26(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any,
    a9: Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any, a16: Any, a17: Any,
    a18: Any, a19: Any, a20: Any, a21: Any, a22: Any, a23: Any, a24: Any, a25: Any
) -> Any:
    return _tuple_new(_cls, (
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19,
        a20, a21, a22, a23, a24, a25,
    ))


def _new27(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any,
    a9: Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any, a16: Any, a17: Any,
    a18: Any, a19: Any, a20: Any, a21: Any, a22: Any, a23: Any, a24: Any, a25: Any, a26: Any
) -> Any:
    return _tuple_new(_cls, (
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19,
        a20, a21, a22, a23, a24, a25, a26,
    ))


def _new28(
    _cls: Any, a0: Any, a1: Any, a2: Any, a3: Any, a4: Any, a5: Any, a6: Any, a7: Any, a8: Any,
    a9: Any, a10: Any, a11: Any, a12: Any, a13: Any, a14: Any, a15: Any, a16: Any, a17: Any,
    a18: Any, a19: Any, a20: Any, a21: Any, a22: Any, a23: Any, a24: Any, a25: Any, a26: Any,
    a27: Any
) -> Any:
    return _tuple_new(_cls, (
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19,
        a20, a21, a22, a23, a24, a25, a26, a27,
    ))


_NEW: dict[int, FunctionType] = {
    len(function.__code__.co_varnames) - 1: function
    for name, function in list(globals().items()) if name.startswith("_new") and name[4:].isdigit()
}
