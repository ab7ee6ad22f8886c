"""`NamedTuple` records without importing `typing` at run time.

`agenthooks run` starts once per tool call, and `typing` alone is a tenth of its imports.
Modules on that path write

    TYPE_CHECKING = False
    if TYPE_CHECKING:
        from typing import NamedTuple
    else:
        from agenthooks._records import NamedTuple

so the type checker sees `typing.NamedTuple` and the program gets this: the same class
statement (annotated fields, defaults, methods, properties, docstring) made into a
`collections.namedtuple`, as `typing.NamedTuple` itself does.
"""

from __future__ import annotations

from collections import namedtuple

# Class-body names that namedtuple sets itself, or that must not become attributes.
_SKIP = frozenset(("__annotations__", "__module__", "__qualname__", "__orig_bases__",
                   "__classcell__", "__slots__"))


class _RecordMeta(type):
    def __new__(cls, typename: str, bases: tuple[type, ...], ns: dict[str, object]) -> type:
        if not bases:  # NamedTuple itself
            return super().__new__(cls, typename, bases, ns)
        annotations = ns.get("__annotations__", {})
        assert isinstance(annotations, dict)
        fields = tuple(annotations)
        defaults = [ns[name] for name in fields if name in ns]
        module = str(ns.get("__module__"))
        record: type = namedtuple(typename, fields, defaults=defaults,  # type: ignore[misc]
                                  module=module)
        record.__qualname__ = str(ns.get("__qualname__", typename))
        for name, value in ns.items():
            if name not in _SKIP and name not in fields:
                setattr(record, name, value)
        return record


class NamedTuple(metaclass=_RecordMeta):
    """Subclass it like `typing.NamedTuple`; the subclass is a `collections.namedtuple`."""
