"""Deep read-only views of payloads and arguments, for hooks that may look but not touch."""

from __future__ import annotations

from _collections_abc import Iterator, Mapping, Sequence  # collections.abc's, unimported

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any
else:
    Any = object  # only subscripted at run time (Mapping[str, Any]): no `typing` import


def freeze(value: Any) -> Any:
    """A read-only view of dicts and lists, nested ones too; other values as they are."""
    if isinstance(value, dict):
        return FrozenDict(value)
    if isinstance(value, list):
        return FrozenList(value)
    return value


def raw(value: Any) -> Any:
    """The dict or list behind a view (to serialise it, never to change it), else the value."""
    if isinstance(value, (FrozenDict, FrozenList)):
        return value._data
    return value


def thaw(value: Any) -> Any:
    """A deep, mutable copy of a value (views included), e.g. to build `Decision.modify`."""
    if isinstance(value, (dict, FrozenDict)):
        return {key: thaw(item) for key, item in value.items()}
    if isinstance(value, (list, FrozenList)):
        return [thaw(item) for item in value]
    return value


class FrozenDict(Mapping[str, Any]):
    """A dict that cannot be changed through this view; nested values are views too."""

    __slots__ = ("_data",)

    def __init__(self, data: dict[str, Any]) -> None:
        self._data = data

    def __getitem__(self, key: str) -> Any:
        return freeze(self._data[key])

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return f"FrozenDict({self._data!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrozenDict):
            return self._data == other._data
        return isinstance(other, Mapping) and self._data == dict(other)

    __hash__ = None  # type: ignore[assignment]


class FrozenList(Sequence[Any]):
    """A list that cannot be changed through this view."""

    __slots__ = ("_data",)

    def __init__(self, data: list[Any]) -> None:
        self._data = data

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return FrozenList(self._data[index])
        return freeze(self._data[index])

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return f"FrozenList({self._data!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrozenList):
            return self._data == other._data
        return isinstance(other, (list, tuple)) and self._data == list(other)

    __hash__ = None  # type: ignore[assignment]
