"""What a hook's command reaches: the files it runs or reads by name, and what cannot be followed.

Trust hashes what `reach` finds and runs verified copies in place of the scripts (`pin`):

- the command word when it is a path (`./gate.sh`, `"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh`),
  after leading assignments and wrappers (`env`, `exec`, `nohup`, `timeout 5`, `nice -n 5`...);
- a shell's script (`bash x.sh`) or its `-c` string, read as a command of its own;
- an interpreter's script (`python3 x.py`, `node x.js`, `ruby`, `perl`, `php`, `deno run`,
  `bun`, `tsx`, `uv run`...), `node -r FILE`, and `python -m pkg` (every `.py` file of the
  package, found from the working directory as Python finds it);
- a file sourced with `.` or `source`, and a file read on stdin (`< file`);
- after `cd DIR` (as far as the shell would go), paths relative to DIR; a subshell's `cd` ends
  with it;
- every other word that names an existing file (role "file": hashed, read from its place).

Not followed, each named in `unfollowed`: words built at run time (variables other than
`variables`, `$(...)`), inline code (`python -c`, `node -e`, `eval`), here-documents, and
assignments to PATH and the import paths (what is found through them). Programs found on
PATH, and what a script imports, sources or runs by itself, are never followed: the reader
of `trust --show` is told so.
"""

from __future__ import annotations

import os

from agenthooks._lean.records import NamedTuple
from agenthooks.shellwords import SHELL_VALUED, SHELLS, WRAPPERS, Operator, Word, split

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

# What trust follows as a shell (its script or its `-c` string); busybox too, whose sh and ash
# applets are shells: its words are read as a shell's.
_SHELLS = SHELLS | {"busybox"}
# Variables that change where programs, modules or start-up files are found.
SEARCH_PATHS = frozenset({"PATH", "PYTHONPATH", "PYTHONSTARTUP", "NODE_PATH", "NODE_OPTIONS",
                          "RUBYLIB", "RUBYOPT", "PERL5LIB", "PERL5OPT", "LD_PRELOAD",
                          "LD_LIBRARY_PATH", "BASH_ENV", "ENV"})
_DECLARE = frozenset({"export", "declare", "typeset", "readonly", "local"})
_OUTPUT = frozenset({">", ">>", "&>", "&>>", ">|", "<>", ">&", "<&"})
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_"  # ASCII, as a name starts
_NAME = frozenset(_LETTERS + "0123456789")
# What `shlex.quote` leaves unquoted (its `[\w@%+=:,./-]`, ASCII), as bytes to delete.
_UNQUOTED = (_LETTERS + "0123456789@%+=:,./-").encode()


# The wrappers trust reads through to the command they run; xargs (whose command gets words
# read from its input) and zsh's noglob are not among them: what follows them is read as
# their arguments, each file hashed where it is.
_FOLLOWED = frozenset(WRAPPERS) - {"xargs", "noglob"}


class Interpreter(NamedTuple):
    """How an interpreter's words name what it runs."""

    valued: frozenset[str] = frozenset()  # options followed by a value
    code: frozenset[str] = frozenset()  # options whose value is code
    runs: frozenset[str] = frozenset()  # options whose value is a file it runs first
    module: frozenset[str] = frozenset()  # python's -m
    subcommands: frozenset[str] = frozenset()  # a word before the script (`deno run`)


_NODE = Interpreter(
    valued=frozenset({"--input-type", "--loader", "--experimental-loader", "-C",
                      "--conditions", "--title", "--env-file", "--inspect-port"}),
    code=frozenset({"-e", "--eval", "-p", "--print"}),
    runs=frozenset({"-r", "--require", "--import"}))
INTERPRETERS: dict[str, Interpreter] = {
    "python": Interpreter(valued=frozenset({"-W", "-X", "--check-hash-based-pycs"}),
                          code=frozenset({"-c"}), module=frozenset({"-m"})),
    "node": _NODE,
    "tsx": _NODE,
    "ts-node": _NODE,
    "bun": _NODE._replace(subcommands=frozenset({"run"})),
    "deno": Interpreter(valued=frozenset({"--config", "-c", "--import-map", "--env-file"}),
                        code=frozenset({"eval"}), subcommands=frozenset({"run"})),
    "ruby": Interpreter(valued=frozenset({"-I", "-r", "-C", "-E", "-F"}),
                        code=frozenset({"-e"})),
    "perl": Interpreter(valued=frozenset({"-I", "-M", "-m"}), code=frozenset({"-e", "-E"})),
    "php": Interpreter(valued=frozenset({"-c", "-d", "-z"}), code=frozenset({"-r"}),
                       runs=frozenset({"-f"})),
    "uv": Interpreter(valued=frozenset({"--with", "--python", "-p", "--project"}),
                      module=frozenset({"-m"}), subcommands=frozenset({"run"})),
    "Rscript": Interpreter(code=frozenset({"-e"})),
    "lua": Interpreter(valued=frozenset({"-l"}), code=frozenset({"-e"})),
}
_ALIASES = {"nodejs": "node"}
_VERSIONED = {"python": "python", "pypy": "python"}  # python3, python3.12, pypy3...
MAX_MODULE_FILES = 1000  # a package's .py files hashed for `python -m`; the rest are named
MAX_NOTE = 160  # characters of a note: a long command is named by its start
MAX_DEPTH = 16  # commands inside commands (`sh -c`, `$(...)`) followed; deeper ones are named


class Hit(NamedTuple):
    """A file a command names: `script` (it runs: a command, a script, a sourced file),
    `module` (a file of a `python -m` package) or `file` (named as an argument)."""

    path: str  # absolute, normalised
    role: str


class Rewrite(NamedTuple):
    """A word a verified copy can take the place of: a script's (`path`), or a `-c` string's
    (`value`), rewritten whole from the rewrites inside it (`inner`)."""

    start: int  # where the word stands in its text (the exec form: its index)
    end: int
    path: str = ""  # a script: its word becomes its copy's path
    value: str = ""  # a `-c` string: what the shell reads
    inner: tuple[Rewrite, ...] = ()


class Reached(NamedTuple):
    hits: tuple[Hit, ...]
    unfollowed: tuple[str, ...]  # one phrase per thing not followed, for `trust --show`
    command: str  # the command with each copied script's word replaced by its copy
    args: tuple[str, ...] | None = None  # the exec form's arguments, likewise
    # Where copies can go, found by the walk: `pin` applies any copies without walking again.
    rewrites: tuple[Rewrite, ...] = ()


def interpreter_of(program: str) -> Interpreter | None:
    name = os.path.basename(program)
    name = _ALIASES.get(name, name)
    for prefix, alias in _VERSIONED.items():
        if name.startswith(prefix) and not name[len(prefix):].strip("0123456789."):
            name = alias
    return INTERPRETERS.get(name)


def reach(command: str, cwd: str, variables: Mapping[str, str],
          copies: Mapping[str, str] | None = None) -> Reached:
    """What a shell command reaches from `cwd`; with `copies` (path -> copy), the command with
    each script it runs replaced by its copy wherever the word can be rewritten exactly."""
    walk = _Walk(variables)
    rewrites = tuple(walk.text(command, cwd))
    found = Reached(tuple(walk.hits), tuple(walk.notes), command, None, rewrites)
    return pin(found, copies) if copies else found


def reach_exec(program: str, args: Sequence[str], cwd: str, variables: Mapping[str, str],
               copies: Mapping[str, str] | None = None) -> Reached:
    """The same for an exec form: `program` run with `args`, no shell; each word's `$NAME` and
    `${NAME}` filled from `variables` as the run fills them."""
    import re  # only then: the shell form, every other handler's, does without

    def fill(word: str) -> str:
        return re.sub(r"\$\{(\w+)\}|\$(\w+)",
                      lambda m: variables.get(m.group(1) or m.group(2), m.group(0)), word)

    words = [Word(fill(w), True, start=i, end=i) for i, w in enumerate([program, *args])]
    walk = _Walk(variables)
    rewrites: list[Rewrite] = []
    walk.simple(words, cwd, rewrites)
    found = Reached(tuple(walk.hits), tuple(walk.notes), words[0].text,
                    tuple(w.text for w in words[1:]), tuple(rewrites))
    return pin(found, copies) if copies else found


def pin(found: Reached, copies: Mapping[str, str]) -> Reached:
    """What `reach` found, each script it runs replaced by its copy (path -> copy) wherever
    the word can be rewritten exactly: a copy's path as a word of its own, quoted in a text."""
    if found.args is None:
        return found._replace(command=_rewritten(found.command, found.rewrites, copies))
    words = [found.command, *found.args]
    for rewrite in found.rewrites:
        value = _value(rewrite, copies)
        if value is not None:
            words[rewrite.start] = value
    return found._replace(command=words[0], args=tuple(words[1:]))


def _value(rewrite: Rewrite, copies: Mapping[str, str]) -> str | None:
    """What a word becomes with the copies; None when it stays as it is."""
    if rewrite.path:
        return copies.get(rewrite.path)
    rewritten = _rewritten(rewrite.value, rewrite.inner, copies)
    return rewritten if rewritten != rewrite.value else None


def _rewritten(text: str, rewrites: Sequence[Rewrite], copies: Mapping[str, str]) -> str:
    for rewrite in sorted(rewrites, reverse=True):
        value = _value(rewrite, copies)
        if value is not None:
            text = text[:rewrite.start] + quote(value) + text[rewrite.end:]
    return text


def quote(text: str) -> str:
    """`shlex.quote`: the text as one shell word, quoted only when it must be."""
    if not text:
        return "''"
    if not text.encode("latin-1", "replace").translate(None, _UNQUOTED):  # `?` for the rest
        return text
    return "'" + text.replace("'", "'\"'\"'") + "'"


def assigned(text: str) -> str | None:
    """The name a `NAME=value` or `NAME+=value` word assigns; None for any other word."""
    head, equals, _ = text.partition("=")
    name = head[:-1] if head.endswith("+") else head
    if equals and name and name[0] in _LETTERS and all(char in _NAME for char in name):
        return name
    return None


def module_files(name: str, cwd: str) -> list[str]:
    """The files `python -m name` runs from `cwd` (the first entry of its path): the module, or
    every `.py` file of its top-level package."""
    parts = name.split(".")
    top = os.path.join(cwd, parts[0])
    if os.path.isdir(top):
        found: list[str] = []
        for folder, dirs, files in os.walk(top):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            found.extend(os.path.join(folder, f) for f in sorted(files) if f.endswith(".py"))
            if len(found) >= MAX_MODULE_FILES:
                break
        return found[:MAX_MODULE_FILES]
    single = top + ".py"
    return [single] if len(parts) == 1 and os.path.isfile(single) else []


class _Walk:
    """One command's walk: what it reaches, what it does not follow, and its rewrites."""

    def __init__(self, variables: Mapping[str, str]) -> None:
        self.variables = variables
        self.hits: list[Hit] = []
        self.notes: list[str] = []
        self.depth = 0

    def note(self, what: str) -> None:
        if len(what) > MAX_NOTE:
            what = what[:MAX_NOTE - 1] + "…"
        if what not in self.notes:
            self.notes.append(what)

    # --- a command text: simple commands between operators --------------------------------

    def text(self, command: str, cwd: str | None) -> list[Rewrite]:
        """Walk a command; where in it copies can go."""
        if self.depth >= MAX_DEPTH:
            self.note(f"commands nested more than {MAX_DEPTH} deep")
            return []
        self.depth += 1
        try:
            return self._text(command, cwd)
        finally:
            self.depth -= 1

    def _text(self, command: str, cwd: str | None) -> list[Rewrite]:
        edits: list[Rewrite] = []
        segment: list[Word] = []
        scopes: list[str | None] = []
        redirect: str | None = None
        frozen = False  # past a here-document: its body is text, never rewritten
        for token in split(command, self.variables):
            if isinstance(token, Word):
                for inner in token.inner:  # followed for what it names; never rewritten
                    self.text(inner, cwd)
                if redirect is not None:
                    self.redirected(token, redirect, cwd, [] if frozen else edits)
                    redirect = None
                else:
                    segment.append(token)
                continue
            if token.text in ("<<", "<<-"):
                self.note("a here-document's commands")
                frozen = True
            if token.text in ("<", "<<<", "<<", "<<-") or token.text in _OUTPUT:
                redirect = token.text
                continue
            cwd = self.simple(segment, cwd, [] if frozen else edits)
            segment = []
            cwd = self.scope(token, cwd, scopes)
        self.simple(segment, cwd, [] if frozen else edits)
        return edits

    @staticmethod
    def scope(token: Operator, cwd: str | None, scopes: list[str | None]) -> str | None:
        """A subshell's `cd` ends with it."""
        if token.text == "(":
            scopes.append(cwd)
        elif token.text == ")" and scopes:
            return scopes.pop()
        return cwd

    def redirected(self, word: Word, redirect: str, cwd: str | None,
                   edits: list[Rewrite]) -> None:
        if redirect == "<":  # a file read on stdin: `python3 < gate.py`
            self.named(word, cwd, "script", edits)

    # --- one simple command -------------------------------------------------------------------

    def simple(self, words: list[Word], cwd: str | None,
               edits: list[Rewrite]) -> str | None:
        """Follow one simple command; the working directory after it."""
        i = self.assignments(words, 0)
        i, cwd = self.wrappers(words, i, cwd)
        if i >= len(words):
            return cwd
        first, rest = words[i], words[i + 1:]
        program = first.value
        if program is None:
            self.note(f"`{first.text}`, a command known only at run time")
            self.files(rest, cwd)
            return cwd
        if program == "cd":
            return self.cd(rest, cwd)
        if "/" in program:
            self.named(first, cwd, "script", edits)
        self.arguments(os.path.basename(program), rest, cwd, edits)
        return cwd

    def arguments(self, program: str, rest: list[Word], cwd: str | None,
                  edits: list[Rewrite]) -> None:
        interpreter = interpreter_of(program)
        if program in (".", "source") and rest:
            self.named(rest[0], cwd, "script", edits)
            self.files(rest[1:], cwd)
        elif program in _SHELLS:
            self.shell(rest, cwd, edits)
        elif interpreter is not None:
            self.interpreter(program, interpreter, rest, cwd, edits)
        elif program == "eval":
            self.note("`eval`'s command")
            self.files(rest, cwd)
        else:
            if program in _DECLARE:
                self.assignments(rest, 0)
            self.files(rest, cwd)

    def assignments(self, words: list[Word], i: int) -> int:
        """Past the `NAME=value` words from `i`; one that sets a search path is noted."""
        while i < len(words):
            name = assigned(words[i].text)
            if name is None:
                return i
            if name in SEARCH_PATHS:
                self.note(f"what is found through {name}, set in the command")
            i += 1
        return i

    def wrappers(self, words: list[Word], i: int, cwd: str | None) -> tuple[int, str | None]:
        """Past `env`, `exec`, `nohup`, `timeout 5`... to the command they run."""
        while i < len(words) and words[i].value in _FOLLOWED:
            wrapper = WRAPPERS[words[i].value or ""]
            i += 1
            while i < len(words) and (words[i].text.startswith("-") and words[i].text != "-"):
                option = words[i].text
                if option in ("-C", "--chdir") and i + 1 < len(words):  # env -C DIR
                    cwd = self.directory(words[i + 1], cwd)
                if option in ("-S", "--split-string"):
                    self.note("`env -S`'s command")
                i += 2 if option in wrapper.valued else 1
            i += wrapper.operands
            if wrapper.assignments:
                i = self.assignments(words, i)
        return i, cwd

    def cd(self, rest: list[Word], cwd: str | None) -> str | None:
        targets = [w for w in rest if not w.text.startswith("-")]
        if not targets:
            return self.variables.get("HOME") or os.path.expanduser("~")
        return self.directory(targets[0], cwd)

    def directory(self, word: Word, cwd: str | None) -> str | None:
        if word.value is None or (cwd is None and not os.path.isabs(word.value)):
            self.note(f"what is named after `cd {word.text}`, a folder known only at run time")
            return None
        return os.path.normpath(os.path.join(cwd or "/", word.value))

    # --- shells and interpreters ----------------------------------------------------------

    def shell(self, args: list[Word], cwd: str | None,
              edits: list[Rewrite]) -> None:
        """`sh [options] script args` or `sh [options] -c command [name args]`."""
        i, command_mode = 0, False
        while i < len(args):
            option = args[i].text
            if option == "--":
                i += 1
                break
            if len(option) < 2 or option[0] not in "-+" or option in ("-s", "-"):
                break
            command_mode = command_mode or (option[0] == "-" and option[1] != "-"
                                            and "c" in option[1:])
            i += 2 if option in SHELL_VALUED else 1
        if i >= len(args):
            return
        if command_mode:
            self.nested(args[i], cwd, edits)
        else:
            self.named(args[i], cwd, "script", edits)
        self.files(args[i + 1:], cwd)

    def nested(self, word: Word, cwd: str | None, edits: list[Rewrite]) -> None:
        """A `-c` string: a command of its own, rewritten whole when its value is known."""
        if word.value is None:
            self.text(word.text, cwd)  # followed for what it names; never rewritten
            return
        inner = self.text(word.value, cwd)
        if inner:
            edits.append(Rewrite(word.start, word.end, value=word.value, inner=tuple(inner)))

    def interpreter(self, program: str, spec: Interpreter, args: list[Word], cwd: str | None,
                    edits: list[Rewrite]) -> None:
        i = 1 if args and args[0].value in spec.subcommands else 0
        while i < len(args):
            option, equals, _ = args[i].text.partition("=")
            if option == "--":
                i += 1
                break
            if not option.startswith("-") or option == "-":
                break
            if option in spec.code:
                self.note(f"what `{program} {option}` code imports or runs")
                self.files(args[i + 1:], cwd)
                return
            if option in spec.module and i + 1 < len(args):
                self.module(args[i + 1], cwd)
                self.files(args[i + 2:], cwd)
                return
            if option in spec.runs and not equals and i + 1 < len(args):
                self.named(args[i + 1], cwd, "script", edits)
            i += 2 if (option in spec.valued or option in spec.runs) and not equals else 1
        if i < len(args) and args[i].text in spec.code:  # `deno eval CODE`
            self.note(f"what `{program} {args[i].text}` code imports or runs")
        elif i < len(args):
            self.named(args[i], cwd, "script", edits)
        self.files(args[i + 1:], cwd)

    def module(self, word: Word, cwd: str | None) -> None:
        if word.value is None or cwd is None:
            self.note(f"the module `{word.text}`, known only at run time")
            return
        self.hits.extend(Hit(os.path.normpath(p), "module")
                         for p in module_files(word.value, cwd))

    # --- words that name files ----------------------------------------------------------------

    def files(self, words: Sequence[Word], cwd: str | None) -> None:
        """Every word that names an existing file: read (or run) from its place."""
        for word in words:
            value = word.value
            if value is not None and value.startswith("-") and "=" in value:  # --config=FILE
                self.named(word._replace(text=value.partition("=")[2]), cwd, "file", [])
            else:
                self.named(word, cwd, "file", [])

    def named(self, word: Word, cwd: str | None, role: str,
              edits: list[Rewrite]) -> None:
        """The file a word names, if it exists; a script's word is where its copy can go."""
        value = word.value
        if value is None:
            if role == "script":
                self.note(f"`{word.text}`, a path known only at run time")
            return
        if not value or (cwd is None and not os.path.isabs(value)):
            if value and role == "script":
                self.note(f"`{value}`, after `cd` to a folder known only at run time")
            return
        path = os.path.normpath(os.path.join(cwd or "/", value))
        if not os.path.isfile(path):
            return
        self.hits.append(Hit(path, role))
        if role == "script":
            edits.append(Rewrite(word.start, word.end, path))
