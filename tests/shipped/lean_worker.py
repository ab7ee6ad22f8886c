"""One side of a differential test of agenthooks' stand-ins: run as a script, never collected.

    python -I -S lean_worker.py   < marshal.dumps((suite, side, inputs))

`side` is "standin" (the agenthooks module that stands for a standard-library one, imported
first into an interpreter that has imported nothing else, as `agenthooks run` has it) or
"reference" (the real module). The answer on stdout is marshal.dumps((leaked, results)):
`leaked` the standard-library modules the stand-in was meant to avoid but found in
`sys.modules` right after its import, `results` one marshal-able result per input, each with
whether `json` was loaded by then (the JSON suite unloads it before each input, so that every
text meets `jsontext` as the first one of a run does). This file itself imports only `sys`
and `marshal`, both built in, so the stand-in's interpreter holds what the run path's holds.
"""

import marshal
import sys

REPO = __file__.rsplit("/tests/", 1)[0]
sys.path.insert(0, REPO)

# What the run path never imports (tests/test_imports.py checks the program; these checks the
# stand-ins alone, in the interpreter where they differ from what they stand for).
AVOIDED = ("json", "re", "collections", "enum", "functools", "contextlib", "typing",
           "dataclasses", "fnmatch")


def caught(fn, *args, **kwargs):
    """`fn`'s value as ("ok", value), or what it raised as ("raise", type name, message)."""
    try:
        return ("ok", fn(*args, **kwargs))
    except BaseException as exc:  # every outcome is a result to compare
        return ("raise", type(exc).__name__, str(exc))


# --- JSON ------------------------------------------------------------------------------------


def _unique(pairs):
    """An object_pairs_hook that rejects a key given twice (as agenthooks' readers do)."""
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise ValueError(f"duplicate key {key!r}")
        seen[key] = value
    return seen


def _no_constant(name):
    raise ValueError(f"not JSON: {name}")


LOAD_HOOKS = {"": {}, "pairs": {"object_pairs_hook": _unique},
              "list": {"object_pairs_hook": list}, "constant": {"parse_constant": _no_constant}}


def json_loads(side):
    if side == "standin":
        from agenthooks._lean import jsontext as module
    else:
        import json as module

    def run(item):
        text, hooks = item
        if side == "standin":  # each text meets an interpreter that never imported json
            for name in [name for name in sys.modules if name.partition(".")[0] == "json"]:
                del sys.modules[name]
        return caught(module.loads, text, **LOAD_HOOKS[hooks])

    return run


def long_strings(value, min_length, levels):
    """The strings of at least `min_length` characters in the first `levels` levels of
    objects, in the order they are written."""
    if not isinstance(value, dict) or not levels:
        return []
    found = []
    for item in value.values():
        if isinstance(item, str):
            found += [item] if len(item) >= min_length else []
        else:
            found += long_strings(item, min_length, levels - 1)
    return found


def json_long(side):
    """`jsontext.loads_with_strings`: `json.loads`'s value, and each long string's literal
    where it lies in the text (it reads as that very string)."""
    if side == "reference":
        import json

        def reference(item):
            text, min_length = item
            value = caught(json.loads, text)
            kept = long_strings(value[1], min_length, 3) if value[0] == "ok" else []
            return value, kept, True

        return reference
    from agenthooks._lean import jsontext

    def run(item):
        text, min_length = item
        value = caught(jsontext.loads_with_strings, text, min_length)
        if value[0] != "ok":
            return value, [], True
        doc, found = value[1]
        held = {id(s) for s in long_strings(doc, min_length, 3)}
        literals = all(jsontext.loads(text[start:end]) == string and text[start] == '"'
                       for string, start, end in found)
        return ("ok", doc), [s for s, _, _ in found if id(s) in held], literals

    return run


def json_dumps(side):
    if side == "standin":
        from agenthooks._lean import jsontext as module
    else:
        import json as module

    def run(item):
        value, ensure_ascii, allow_nan, sort_keys, separators, default = item
        return caught(module.dumps, value, ensure_ascii=ensure_ascii, allow_nan=allow_nan,
                      sort_keys=sort_keys, separators=separators,
                      default=str if default else None)

    return run


# --- records ---------------------------------------------------------------------------------


def records(side):
    if side == "standin":
        from agenthooks._lean.records import NamedTuple
    else:
        from typing import NamedTuple

    return lambda spec: caught(probe_record, spec, NamedTuple)


def record_source(spec):
    """A class statement: fields (name, annotation, default text or None), a docstring, extra
    class attributes and a method."""
    name, fields, doc, extras = spec
    lines = [f"class {name}(NamedTuple):"]
    if doc is not None:
        lines.append(f"    {doc!r}")
    for field, annotation, default in fields:
        lines.append(f"    {field}: {annotation}" + ("" if default is None else f" = {default}"))
    for extra in extras:
        lines.append(f"    {extra} = 'extra'")
    lines.append("    def doubled(self):\n        return self + self")
    lines.append("    @property\n    def size(self):\n        return len(self)")
    return "\n".join(lines) + "\n"


def probe_record(spec, named_tuple):
    """What a program can see of the class a record statement makes, as text."""
    scope = {"NamedTuple": named_tuple, "__name__": "generated"}
    exec(record_source(spec), scope)  # the generated class statement under test
    cls = scope[spec[0]]
    seen = [cls.__name__, cls.__qualname__, cls.__module__, cls.__doc__, cls._fields,
            sorted(cls._field_defaults.items()), cls.__match_args__, cls.__slots__,
            [base.__name__ for base in cls.__mro__], cls.__new__.__doc__,
            sorted(name for name in vars(cls) if not name.startswith("__")),
            [getattr(cls, name).__doc__ for name in cls._fields]]
    count = len(cls._fields)
    required = count - len(cls._field_defaults)
    for args in (tuple(range(count)), tuple(range(required)), tuple(range(count + 1)),
                 tuple(range(max(required - 1, 0)))):
        seen.append(caught(lambda a=args: instance_view(cls(*a))))
    keywords = {name: index for index, name in enumerate(cls._fields)}
    seen.append(caught(lambda: instance_view(cls(**keywords))))
    seen.append(caught(lambda: cls(**keywords, bogus=1)))
    seen.append(caught(lambda: instance_view(cls._make(range(count)))))
    seen.append(caught(lambda: cls._make(range(count + 1))))
    return repr(seen)


def instance_view(record):
    fields = type(record)._fields
    seen = [repr(record), tuple(record), sorted(record._asdict().items()),
            record.__getnewargs__(), record.doubled(), record.size,
            hash(record) == hash(tuple(record))]
    seen += [getattr(record, name) for name in fields]
    if fields:
        seen.append(repr(record._replace(**{fields[0]: "new"})))
    seen.append(caught(lambda: record._replace(bogus=1)))
    return repr(seen)


# --- memo, suppress --------------------------------------------------------------------------


def memo(side):
    if side == "standin":
        from agenthooks._lean.memo import memo as remember
    else:
        from functools import lru_cache

        def remember(size):
            return lru_cache(maxsize=size)

    def run(item):
        size, keys, failing = item
        calls = []

        def compute(key):
            """Computes."""
            calls.append(key)
            if key in failing:
                raise ValueError(f"no {key!r}")
            return (key, len(calls))

        remembered = remember(size)(compute)
        answers = [caught(remembered, key) for key in keys]
        # A remembered answer is an earlier answer for an equal key, or a fresh one: compare
        # what does not depend on the eviction order (LRU against emptying when full).
        return ([a if a[0] == "raise" else ("ok", a[1][0]) for a in answers],
                remembered.__name__, remembered.__doc__, len(set(calls)))

    return run


def suppress(side):
    if side == "standin":
        from agenthooks._lean.suppress import suppress as suppressing
    else:
        from contextlib import suppress as suppressing

    def run(item):
        names, raised, grouped = item
        kinds = tuple(getattr(__builtins__, name) for name in names)

        def body():
            with suppressing(*kinds):
                if raised is None:
                    return "finished"
                error = getattr(__builtins__, raised)("raised")
                if grouped and sys.version_info >= (3, 11):
                    group = BaseExceptionGroup  # noqa: F821 - a builtin from 3.11 on
                    raise group("group", [error, *(getattr(__builtins__, g)("in group")
                                                   for g in grouped)])
                raise error
            return "suppressed"

        return caught(body)

    return run


# --- matchers without `re` -------------------------------------------------------------------


def fullmatch(side):
    """hooks.json's matchers (`matcher.compile_matcher`, `plan.select.selects`) against
    `re.fullmatch`."""
    if side == "standin":
        from agenthooks.model.matcher import compile_matcher
        from agenthooks.plan.select import selects

        def run(item):
            pattern, names = item
            matched = caught(compile_matcher, pattern)
            if matched[0] == "raise":
                return matched
            predicate = compile_matcher(pattern)
            return ("ok", [predicate(n) for n in names],
                    [caught(selects, pattern, True, n) for n in names])

        return run
    import re

    def reference(item):
        pattern, names = item
        if pattern in ("", "*"):  # hooks.json's documented match-all, not a regex
            return ("ok", [True] * len(names), [("ok", True)] * len(names))
        compiled = caught(re.compile, pattern)
        if compiled[0] == "raise":
            return compiled
        found = [compiled[1].fullmatch(n) is not None for n in names]
        return ("ok", found, [("ok", f) for f in found])

    return reference


def glob(side):
    """`sources.discovery.glob_match` against `fnmatch.fnmatchcase`."""
    if side == "standin":
        from agenthooks.sources.discovery import glob_match as match
    else:
        from fnmatch import fnmatchcase

        def match(name, pattern):
            return fnmatchcase(name, pattern)

    return lambda item: [caught(match, name, item[0]) for name in item[1]]


def search(side):
    """The hosts' matchers, `sources.dialects.matching.selects` on lists of names, against `re`."""
    if side == "standin":
        from agenthooks.sources.dialects.matching import CLAUDE_EXACT, Selection, selects

        def run(item):
            pattern, names = item
            return (CLAUDE_EXACT.issuperset(pattern),
                    [caught(selects, Selection("search", pattern=pattern, python=True), n)
                     for n in names],
                    [caught(selects, Selection("full", pattern=pattern, python=True), n)
                     for n in names])

        return run
    import re

    def reference(item):
        pattern, names = item
        return (re.fullmatch(r"[A-Za-z0-9_\-, |]*", pattern) is not None,
                [caught(lambda n=n: re.search(pattern, n) is not None) for n in names],
                [caught(lambda n=n: re.fullmatch(pattern, n) is not None) for n in names])

    return reference


def bash(side):
    """Claude Code's Bash rules (`sources.dialects.conditions.BashPattern.matches`: `*` any text, a
    trailing ` *` optional) against the regex they mean."""
    if side == "standin":
        from agenthooks.sources.dialects.conditions import BashPattern

        return lambda item: [BashPattern(item[0]).matches(t) for t in item[1]]
    import re

    def reference(item):
        pattern, texts = item
        if pattern.endswith(":*"):
            pattern = pattern[:-2] + " *"
        body, tail = (pattern[:-2], "(?: .*)?") if pattern.endswith(" *") else (pattern, "")
        regex = ".*".join(map(re.escape, body.split("*"))) + tail
        return [re.fullmatch(regex, t, re.DOTALL) is not None for t in texts]

    return reference


SUITES = {"json_loads": json_loads, "json_long": json_long, "json_dumps": json_dumps,
          "records": records,
          "memo": memo, "suppress": suppress, "fullmatch": fullmatch, "glob": glob,
          "search": search, "bash": bash}


def main():
    suite, side, inputs = marshal.loads(sys.stdin.buffer.read())
    run = SUITES[suite](side)
    leaked = [name for name in AVOIDED if name in sys.modules]
    results = [(run(item), "json" in sys.modules) for item in inputs]
    sys.stdout.buffer.write(marshal.dumps((leaked, results)))


if __name__ == "__main__":
    main()
