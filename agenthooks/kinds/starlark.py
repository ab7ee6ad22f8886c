"""The Starlark kind: a Markdown hook's script compiled once, called per event, sandboxed.

starlark-rust (through starlark-pyo3) evaluates the script: a language with no I/O, and a
dialect here with no `load()`. The globals are Starlark's own built-ins plus `json` and what
`PRELUDE` defines (`allow`, `block`, `modify`, `log`, `metrics`, `re`): nothing that reaches
the file system, processes, the network or the environment, because policy code that can
shell out is policy an attacker can pivot through.

Each call (`when`, then `handle`) runs with a deadline that starlark-rust checks while it
evaluates (`EvalOptions.check_cancelled`), so a runaway loop is cancelled mid-way and reported
as a timeout. The payload crosses into Starlark as a copy, so a script that mutates it changes
nothing unless it returns `modify(...)`.
"""

from __future__ import annotations

import _thread  # `threading`'s own lock and thread-local types, without importing it
import sys
import time

from agenthooks._lean import jsontext
from agenthooks._lean.records import NamedTuple
from agenthooks.errors import HookFailure
from agenthooks.jsonlimits import MAX_DEPTH

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from typing import Any

    import starlark

    from agenthooks.sources.markdown.frontmatter import Frontmatter, Place

# The entry points, called with the payload as JSON text: decoding it in Starlark costs a
# third of converting a dict across, and the text is made once for `when` and `handle`.
# Exported names: private (`_`) ones cannot be called from outside the module.
WHEN_FUNCTION = "agenthooks_when"
HANDLE_FUNCTION = "agenthooks_handle"
# The `when` expression is compiled as the body of a function over event and payload, in the
# script's module (so it may call the script's functions); its text starts on line 4.
_WHEN_HEAD = (f"def {WHEN_FUNCTION}(event, agenthooks_payload_json):\n"
              "    payload = _agenthooks_decode(agenthooks_payload_json)\n"
              "    return (\n")
_WHEN_LINES = 3
_HANDLE_ENTRY = (f"def {HANDLE_FUNCTION}(event, agenthooks_payload_json):\n"
                 "    return _agenthooks_returned(\n"
                 "        handle(event, _agenthooks_decode(agenthooks_payload_json)))\n")

PRELUDE = '''\
_agenthooks_decode = json.decode

def allow():
    return {"action": "allow"}

def block(reason):
    return {"action": "block", "reason": reason}

def modify(payload):
    return {"action": "modify", "payload": payload}

def log(message):
    _agenthooks_log(message)

# What modify() passes on is checked before it leaves Starlark: NaN and infinity would arrive
# as None (starlark-pyo3 converts them so), and nesting beyond agenthooks' JSON limit would
# reach the handlers. Starlark has no recursion and no while: a bounded loop over a stack.
def _agenthooks_plain(value, what):
    stack = [(value, 1)]
    for _ in range(2147483647):
        if not stack:
            return value
        item, depth = stack.pop()
        kind = type(item)
        if kind == "float" and str(item) in ("nan", "+inf", "-inf"):  # NaN == NaN here
            fail("%s holds %s, which JSON cannot carry" % (what, item))
        if kind in ("dict", "list", "tuple"):
            if depth > _AGENTHOOKS_DEPTH:
                fail("%s is nested deeper than %d levels" % (what, _AGENTHOOKS_DEPTH))
            items = item.values() if kind == "dict" else item
            stack.extend([(child, depth + 1) for child in items])
    return value

def _agenthooks_returned(value):
    if type(value) == "dict" and value.get("action") == "modify":
        given = value.get("payload")
        if type(given) == "dict":
            _agenthooks_plain(given.get("args"), "the arguments modify() returned")
    return value

metrics = struct(incr = _agenthooks_incr, set = _agenthooks_set)
re = struct(
    match = _agenthooks_re_match,
    search = _agenthooks_re_search,
    findall = _agenthooks_re_findall,
    sub = _agenthooks_re_sub,
)
'''

# `--> script:3:5`: where starlark-rust says an error is, in the part it names (compiled
# when an error needs it: a pattern costs a run more than a script's compile).
_WHERE = r"-->\s*(script|when):(\d+):(\d+)"
_CANCELLED = "Evaluation cancelled"


class Problem(NamedTuple):
    """A compile-time finding: a rule id, Starlark's message, and its place in the file."""

    rule: str
    message: str
    line: int
    column: int


class CompileError(HookFailure):
    """The script or `when` does not compile; `problems` say where."""

    def __init__(self, problems: list[Problem], path: str) -> None:
        first = problems[0]
        super().__init__(
            f"does not compile: {first.message} at {path}:{first.line}:{first.column}"
        )
        self.problems = problems


class StarlarkError(HookFailure):
    """A `when` or `handle` call that failed: an error, a timeout, a bad return value."""


# --- records: what log() and metrics say during one call --------------------------------

_calls = _thread._local()


def _records() -> list[dict[str, Any]]:
    found: list[dict[str, Any]] | None = getattr(_calls, "records", None)
    if found is None:  # a call at load time (top-level code): nothing to report it in
        found = []
    return found


def _log(message: Any) -> None:
    _records().append({"log": message if isinstance(message, str) else repr(message)})


def _number(value: Any, what: str) -> float | int:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{what} takes a number, not {type(value).__name__}")
    return value


def _name(name: Any, what: str) -> str:
    if not isinstance(name, str) or not name:
        raise ValueError(f"{what} takes a metric name (a non-empty string)")
    return name


def _incr(name: Any, n: Any = 1) -> None:
    _records().append({"metric": _name(name, "metrics.incr"), "op": "incr",
                       "value": _number(n, "metrics.incr")})


def _set(name: Any, value: Any) -> None:
    _records().append({"metric": _name(name, "metrics.set"), "op": "set",
                       "value": _number(value, "metrics.set")})


# --- re: Python's syntax and argument order, plain values back ---------------------------
# `re` (with `enum` behind it) is imported by the first call that needs it: a run whose
# scripts never call re.* pays nothing for it.


def _texts(what: str, *values: Any) -> None:
    for value in values:
        if not isinstance(value, str):
            raise ValueError(f"re.{what} takes strings, not {type(value).__name__}")


def _groups(found: re.Match[str] | None) -> list[str | None] | None:
    return None if found is None else [found.group(0), *found.groups()]


def _re_match(pattern: Any, text: Any) -> list[str | None] | None:
    _texts("match", pattern, text)
    import re

    return _groups(re.match(pattern, text))


def _re_search(pattern: Any, text: Any) -> list[str | None] | None:
    _texts("search", pattern, text)
    import re

    return _groups(re.search(pattern, text))


def _re_findall(pattern: Any, text: Any) -> list[str]:
    """Every match: the whole match, or its one group when the pattern has exactly one."""
    _texts("findall", pattern, text)
    import re

    compiled = re.compile(pattern)
    group = 1 if compiled.groups == 1 else 0
    return [found.group(group) or "" for found in compiled.finditer(text)]


def _re_sub(pattern: Any, replacement: Any, text: Any, count: Any = 0) -> str:
    _texts("sub", pattern, replacement, text)
    import re

    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise ValueError("re.sub's count must be a whole number, 0 for all")
    return str(re.sub(pattern, replacement, text, count=count))


_CALLABLES = {
    "_agenthooks_log": _log,
    "_agenthooks_incr": _incr,
    "_agenthooks_set": _set,
    "_agenthooks_re_match": _re_match,
    "_agenthooks_re_search": _re_search,
    "_agenthooks_re_findall": _re_findall,
    "_agenthooks_re_sub": _re_sub,
}

# --- compiling -----------------------------------------------------------------------------

_setup: tuple[Any, Any, Any] | None = None
_setup_lock = _thread.allocate_lock()
# The prelude, evaluated and frozen once per process, and the `load` of it that starts every
# hook's module: a hook's compile then costs its own script alone (the prelude's parse and
# evaluation were two thirds of it). Private names cannot be loaded, so the two entry points'
# helpers are exported under public names and loaded back under their private ones.
_PRELUDE_MODULE = "agenthooks_prelude"
_PRELUDE_EXPORTS = ("allow", "block", "modify", "log", "metrics", "re")
_PRELUDE_HELPERS = ("_agenthooks_decode", "_agenthooks_returned")
_prelude: tuple[Any, Any, Any] | None = None


def _engine() -> tuple[Any, Any, Any]:
    """(the starlark module, its dialect, its globals), made once per process."""
    global _setup
    if _setup is not None:
        return _setup
    with _setup_lock:
        if _setup is None:
            import starlark

            dialect = starlark.Dialect.standard()
            dialect.enable_load = False  # no modules from anywhere: `load` is a syntax error
            extensions = [starlark.LibraryExtension.Json, starlark.LibraryExtension.StructType]
            _setup = (starlark, dialect, starlark.Globals.extended_by(extensions))
        return _setup


def _shared_prelude() -> tuple[Any, Any, Any]:
    """(the parsed `load` of the frozen prelude, the loader that gives it, the parsed `handle`
    entry point), made once per process: the names a script sees are the prelude's, exactly as
    if evaluated in its module. A parsed module can be evaluated into any number of modules."""
    global _prelude
    if _prelude is not None:
        return _prelude
    sl, dialect, globals_ = _engine()
    with _setup_lock, LentJson():
        if _prelude is None:
            module = sl.Module()
            for name, function in _CALLABLES.items():
                module.add_callable(name, function)
            module["_AGENTHOOKS_DEPTH"] = MAX_DEPTH
            exports = "".join(f"{name[1:]} = {name}\n" for name in _PRELUDE_HELPERS)
            sl.eval(module, sl.parse("prelude", PRELUDE + exports, dialect), globals_)
            frozen = module.freeze()
            # Only this statement is parsed with `load` on; a script's own dialect keeps it off.
            loading = sl.Dialect.standard()
            loading.enable_load = True
            names = [f'"{name}"' for name in _PRELUDE_EXPORTS]
            names += [f'{name} = "{name[1:]}"' for name in _PRELUDE_HELPERS]
            statement = f'load("{_PRELUDE_MODULE}", {", ".join(names)})\n'
            _prelude = (sl.parse("prelude", statement, loading),
                        sl.FileLoader(lambda _name: frozen),
                        sl.parse("entry", _HANDLE_ENTRY, dialect))
        return _prelude


# starlark-pyo3 converts every number, text, bool and None that crosses between Python and
# Starlark with the `json` module's loads and dumps (`import json` at each crossing: its
# src/lib.rs, `value_to_pyobject` and `pyobject_to_value`, inducer/starlark-pyo3). Importing
# `json` costs more than all the hooks of a run (its decoder imports `re`, and `re` `enum`), so
# while agenthooks calls Starlark in a hook's own process (`kinds.inprocess.supervise`: agenthooks
# owns it whole) that has not imported `json` and runs no other thread, that import finds this
# module instead: `jsontext`'s loads and dumps, the C codec `json` itself calls, with the same
# values, output and errors. It is there only for the call, never seen by other code (no other
# thread runs), and the process's own `import json` later gets the real one. A caller's process
# (the Python API) is never lent it: its threads are not all agenthooks' to count.
_JSON = type(sys)("json", "json's loads and dumps for starlark-pyo3 (agenthooks._lean.jsontext)")
_JSON.__dict__.update(loads=jsontext.loads, dumps=jsontext.dumps)


class LentJson:
    """`with LentJson():` lends `_JSON` as `json` to the Starlark calls inside, in a hook's
    own process where no `json` is imported and no other thread runs; nesting is fine."""

    __slots__ = ("lent",)

    def __enter__(self) -> None:
        modules = sys.modules
        self.lent = "json" not in modules and _hook_process() and _thread._count() == 0
        if self.lent:
            modules["json"] = _JSON

    def __exit__(self, *exc_info: object) -> None:
        if self.lent and sys.modules.get("json") is _JSON:
            del sys.modules["json"]


def _hook_process() -> bool:
    """Whether this process is a hook's own (`kinds.inprocess.supervise.in_hook_process`); asked
    without importing supervise, which only `agenthooks run` loads."""
    supervise = sys.modules.get("agenthooks.kinds.inprocess.supervise")
    return supervise is not None and bool(supervise.in_hook_process())


def deadline_check(timeout_ms: int) -> Any:
    """`EvalOptions` that cancel an evaluation once it has computed for `timeout_ms`.

    The limit counts the CPU time of the calling thread, not the wall time: a script's work is
    computing, and on a busy machine (an agent's parallel tool calls, a shared CI runner) a
    process also waits for a CPU, which made a trivial script time out, and its gate deny or
    be skipped, for the load alone. A script cannot wait on anything else: it has no I/O.
    """
    sl, _, _ = _engine()
    clock = time.thread_time
    deadline = clock() + timeout_ms / 1000.0

    def cancelled() -> bool:
        return clock() > deadline

    return sl.EvalOptions(check_cancelled=cancelled)


def where(text: str) -> tuple[str, int, int] | None:
    """The part (`script` or `when`) and position starlark-rust names in an error."""
    import re

    found = re.search(_WHERE, text)
    return None if found is None else (found.group(1), int(found.group(2)), int(found.group(3)))


def message_of(text: str) -> str:
    """starlark-rust's one-line message (`error: ...`), without the snippet it draws."""
    for line in text.splitlines():
        if line.startswith("error: "):
            return line[len("error: "):].strip()
    return text.strip().splitlines()[0] if text.strip() else "error"


def _unknown_name(text: str) -> bool:
    """Whether starlark-rust reports a name it does not know (found before anything runs)."""
    message = message_of(text)
    return message.startswith("Variable `") and " not found" in message


class Compiled(NamedTuple):
    module: starlark.FrozenModule
    has_when: bool  # whether `module` holds the `when` entry point (see `Compiler.when_only`)


class Compiler:
    """Compiles one file's script and `when` into a frozen module, or lists its problems."""

    def __init__(self, front: Frontmatter, path: str) -> None:
        self.front = front
        self.path = path

    def place(self, part: str, line: int, column: int) -> tuple[int, int]:
        if part == "when" and self.front.when_place is not None:
            return _when_position(self.front.when_place, line, column)
        return self.front.script_place.map(line, column)

    def problem(self, rule: str, text: str, part: str) -> Problem:
        found = where(text)
        line, column = self.place(*found) if found else self.place(part, 1, 1)
        message = message_of(text)
        if message == _CANCELLED:
            message = f"top-level code ran past timeout_ms ({self.front.timeout_ms} ms)"
        elif message.startswith("`load` is not allowed"):
            message = "`load` is not allowed: a Markdown hook's script cannot load other files"
        return Problem(rule, message, line, column)

    def compile(self) -> Compiled:
        with LentJson():
            return self._compile()

    def _compile(self) -> Compiled:
        module = self._module()
        problems = self._script(module)
        if problems:
            # The module is not whole: check what can be checked without it, then stop.
            problems.extend(self._signature())
            problems.extend(self._when(None))
            raise CompileError(problems, self.path)
        problems.extend(self._handle(module))
        # A `when` that `sources.markdown.when` analysed is valid Starlark of its own, answered
        # without it; in the rare call its test leaves to Starlark, `when_only` compiles it.
        analysed = self.front.when_test is not None
        if not analysed:
            problems.extend(self._when(module))
        if problems:
            raise CompileError(problems, self.path)
        return Compiled(module.freeze(), self.front.when is not None and not analysed)

    def when_only(self) -> Any:
        """A frozen module with the `when` entry point alone: enough for an analysed `when`,
        which refers to `event`, `payload` and texts only."""
        with LentJson():
            module = self._module()
            problems = self._when(module)
            if problems:
                raise CompileError(problems, self.path)
            return module.freeze()

    def _module(self) -> Any:
        """A new module with the prelude's names loaded."""
        sl, _, globals_ = _engine()
        load, loader, _ = _shared_prelude()
        module = sl.Module()
        sl.eval(module, load, globals_, loader)
        return module

    def _script(self, module: Any) -> list[Problem]:
        """The script parsed and its top level run (defining its functions), within
        timeout_ms; names it uses that do not exist are found here."""
        sl, dialect, globals_ = _engine()
        try:
            script = sl.parse("script", self.front.script, dialect)
        except sl.StarlarkError as exc:
            return [self.problem("starlark-syntax", str(exc), "script")]
        try:
            sl.eval_with(deadline_check(self.front.timeout_ms), module, script, globals_)
        except sl.StarlarkError as exc:
            text = str(exc)
            rule = "starlark-name" if _unknown_name(text) else "starlark-load"
            return [self.problem(rule, text, "script")]
        return []

    def _signature(self) -> list[Problem]:
        found = handle_signature(self.front.script)
        if found is None:
            return []
        line, column, message = found
        if message is None:
            return []
        return [Problem("starlark-handle-params", message,
                        *self.front.script_place.map(line, column))]

    def _handle(self, module: Any) -> list[Problem]:
        """`handle` must be a function that takes (event, payload)."""
        sl, _, globals_ = _engine()
        _, _, entry = _shared_prelude()
        try:  # the entry point fails to compile when `handle` is not defined at all
            sl.eval(module, entry, globals_)
        except sl.StarlarkError:
            line, column = self.front.script_place.map(1, 1)
            return [Problem("starlark-handle-missing",
                            "the script does not define handle(event, payload)", line, column)]
        return self._signature()

    def _when(self, module: Any) -> list[Problem]:
        """The `when` entry point compiled into the module (or only parsed, without one)."""
        if self.front.when is None:
            return []
        sl, dialect, globals_ = _engine()
        source = f"{_WHEN_HEAD}{self.front.when}\n    )\n"
        try:
            ast = sl.parse("when", source, dialect)
            if module is not None:
                sl.eval(module, ast, globals_)
        except sl.StarlarkError as exc:
            text = str(exc)
            rule = "starlark-name" if _unknown_name(text) else "starlark-when"
            return [self.problem(rule, text, "when")]
        return []


def _when_position(place: Place, line: int, column: int) -> tuple[int, int]:
    if line <= _WHEN_LINES:  # the wrapper's own lines: point at the expression's start
        return place.map(1, 1)
    return place.map(line - _WHEN_LINES, column)


def handle_signature(script: str) -> tuple[int, int, str | None] | None:
    """(line, column, what is wrong or None) of a top-level `def handle(...)`; None if the
    script has none. Starlark's parameter syntax is Python's, so Python's parser reads it."""
    found = _def_handle(script)
    if found is None:
        return None
    start, end = found
    line = script.count("\n", 0, start) + 1
    header = _header(script, end)
    if header is None:
        return line, 1, None  # a syntax error, which the parser has reported
    if _two_names(header):  # `event, payload`: right without `ast` (3 ms to import)
        return line, 1, None
    import ast

    try:
        tree = ast.parse(f"def handle({header}): pass")
    except SyntaxError:
        return line, 1, None
    fn = tree.body[0]
    assert isinstance(fn, ast.FunctionDef)
    arguments = fn.args
    positional = len(arguments.posonlyargs) + len(arguments.args)
    required = positional - len(arguments.defaults)
    required_kw = sum(1 for d in arguments.kw_defaults if d is None)
    if required <= 2 and (positional >= 2 or arguments.vararg) and not required_kw:
        return line, 1, None
    return line, 1, (f"handle takes {_count(required, positional, arguments.vararg)}; "
                     "the hook calls it as handle(event, payload)")


def _def_handle(script: str) -> tuple[int, int] | None:
    """(start, end) of the first `def handle(` that starts a line, as the pattern
    `^def[ \\t]+handle[ \\t]*\\(` (multiline) finds it, with string methods: compiling the
    pattern would cost a run more than the search."""
    at = script.find("def")
    while at >= 0:
        if at == 0 or script[at - 1] == "\n":
            name = _blanks_end(script, at + 3)
            if name > at + 3 and script.startswith("handle", name):
                paren = _blanks_end(script, name + len("handle"))
                if script.startswith("(", paren):
                    return at, paren + 1
        at = script.find("def", at + 3)
    return None


def _blanks_end(text: str, index: int) -> int:
    """The index of the first character at or after `index` that is not a space or tab."""
    while index < len(text) and text[index] in " \t":
        index += 1
    return index


def _two_names(header: str) -> bool:
    """Whether the parameters are two plain names (`event, payload`, a trailing comma
    allowed): `\\s*[A-Za-z_]\\w*\\s*,\\s*[A-Za-z_]\\w*\\s*,?\\s*` with string methods."""
    names = header.split(",")
    if len(names) == 3 and not names[2].strip():
        names.pop()
    return len(names) == 2 and all(_ascii_name(name.strip()) for name in names)


def _ascii_name(text: str) -> bool:
    return text.isascii() and text.isidentifier()


def _count(required: int, positional: int, vararg: Any) -> str:
    if vararg is not None:
        return f"at least {required} parameters"
    if required == positional:
        return f"{required} parameter" + ("" if required == 1 else "s")
    return f"{required} to {positional} parameters"


def _header(script: str, start: int) -> str | None:
    """The text between `def handle(` and its closing parenthesis."""
    depth = 1
    for index in range(start, len(script)):
        char = script[index]
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth == 0:
                return script[start:index]
    return None
