"""`agenthooks._lean.records.NamedTuple` builds the class `typing.NamedTuple` builds, without its
eval: the same behaviour, checked side by side."""

from __future__ import annotations

import copy
import pickle
import subprocess
import sys
import typing

import pytest

from agenthooks._lean import records as _records


class Ours(_records.NamedTuple):
    name: str
    count: int = 1
    tags: tuple[str, ...] = ()

    @property
    def shout(self) -> str:
        return self.name.upper()


class Theirs(typing.NamedTuple):
    name: str
    count: int = 1
    tags: tuple[str, ...] = ()

    @property
    def shout(self) -> str:
        return self.name.upper()


def same(make: typing.Callable[[type], object]) -> None:
    """Both classes answer alike (values, or the type and text of the error)."""
    def outcome(cls: type) -> object:
        try:
            return make(cls)
        except Exception as exc:
            return type(exc), str(exc).replace(cls.__name__, "X")
    ours, theirs = outcome(Ours), outcome(Theirs)
    if isinstance(ours, str):
        ours = ours.replace("Ours", "X")
        theirs = str(theirs).replace("Theirs", "X")
    assert ours == theirs


@pytest.mark.parametrize("make", [
    lambda c: tuple(c("a")),
    lambda c: tuple(c("a", 2, ("x",))),
    lambda c: tuple(c(name="a", tags=("t",))),
    lambda c: c("a").shout,
    lambda c: c._fields,
    lambda c: c._field_defaults,
    lambda c: c.__match_args__,
    lambda c: repr(c("a", 2)),
    lambda c: tuple(c("a")._replace(count=5)),
    lambda c: c("a")._replace(nope=1),
    lambda c: tuple(c._make(["a", 2, ()])),
    lambda c: c._make(["a"]),
    lambda c: c("a")._asdict(),
    lambda c: c(),
    lambda c: c("a", 1, (), 4),
    lambda c: c("a", name="b"),
    lambda c: c("a", nope=1),
    lambda c: c("a").count,
    lambda c: c("a") == ("a", 1, ()),
    lambda c: hash(c("a")) == hash(("a", 1, ())),
])
def test_the_same_class_as_typing_makes(make: typing.Callable[[type], object]) -> None:
    same(make)


def test_copy_and_pickle_keep_the_record() -> None:
    record = Ours("a", 2, ("x",))
    assert copy.copy(record) == copy.deepcopy(record) == record
    again = pickle.loads(pickle.dumps(record))
    assert again == record and type(again) is Ours


def test_a_record_has_no_instance_dict() -> None:
    with pytest.raises(AttributeError):
        Ours("a").extra = 1  # type: ignore[attr-defined]


def test_every_record_of_the_package_comes_from_a_template() -> None:
    # A record with more fields than the templates cover falls back to namedtuple's eval,
    # and imports `collections` on the run path: each of the package's modules is imported
    # with the fallback counted.
    code = (
        "import pkgutil, importlib, agenthooks, agenthooks._lean.records as r\n"
        "from agenthooks._lean.wide_records import WIDE\n"
        "fallbacks = []\n"
        "made = r._record\n"
        "def spy(name, fields, defaults, module):\n"
        "    if len(fields) not in r._NEW and len(fields) not in WIDE:\n"
        "        fallbacks.append(f'{module}.{name}: {len(fields)} fields')\n"
        "    return made(name, fields, defaults, module)\n"
        "r._record = spy\n"
        "for info in pkgutil.walk_packages(agenthooks.__path__, 'agenthooks.'):\n"
        "    if not info.name.endswith('__main__'):\n"
        "        importlib.import_module(info.name)\n"
        "print(fallbacks)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
