"""Whether a command is `agenthooks run` itself, not a handler that mentions it.

A command is agenthooks' own entry (the hook a host runs, never one of its handlers) only when
what the shell runs is one `agenthooks run`: its first word, past what a shell or a launcher
strips, is agenthooks, and nothing runs after it. Stripped in front of it:

- `cd DIR &&` (or `;`): a wiring that moves to the project first (Copilot's `cwd`, written as
  `cd -- DIR && ...`);
- `NAME=value` assignments, and the wrappers of `WRAPPERS` that run the rest of their words
  (`env`, `exec`, `command`, `nohup`, `timeout 5`...);
- a Python running `-m agenthooks`, and `uvx agenthooks`, `pipx run agenthooks`,
  `uv run agenthooks`.

Redirections (`2>>log`) change nothing. Anything else (`echo no >&2; exit 2; agenthooks run`,
`agenthooks run X || true`, a subshell, a pipe) is a handler: it runs, and an `agenthooks run`
inside it is bounded by the run's depth marker (`plan.recursion`). Taking a gate for agenthooks
would drop it without a word; taking agenthooks for a handler costs one nested run.

A run loads this module only for a command that names agenthooks (`plan.select.fans_out`).
"""

from __future__ import annotations

from agenthooks.shellwords import WRAPPERS, Operator, Unparsable, Word, simple_commands, split

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from agenthooks.model.handlers import Handler

NAMES = frozenset(("agenthooks", "agenthooks.exe"))
# The wrappers a shell or coreutils strip before the command they run; `xargs` reads its
# command's arguments from stdin, the payload, so it is not one of them.
STRIPPED = frozenset(WRAPPERS) - {"xargs", "builtin", "noglob"}
_QUERIES = {"command": frozenset(("-v", "-V"))}  # `command -v agenthooks` runs nothing
_SEPARATORS = frozenset((";", "&&"))  # what may follow `cd DIR`
_PYTHON_VALUED = frozenset(("-X", "-W", "--check-hash-based-pycs"))
# Launchers that install and run a package's script: (their words, options taking a value).
_LAUNCHERS: dict[tuple[str, ...], frozenset[str]] = {
    ("uvx",): frozenset(("--from", "--with", "--with-editable", "--with-requirements",
                         "--python", "-p", "--index", "--index-url", "--default-index",
                         "--extra-index-url", "--find-links", "-f", "--directory",
                         "--project", "--cache-dir", "--config-file")),
    ("uv", "tool", "run"): frozenset(("--from", "--with", "--with-editable", "--python", "-p",
                                      "--index", "--index-url", "--directory", "--project")),
    ("uv", "run"): frozenset(("--with", "--with-editable", "--with-requirements", "--python",
                              "-p", "--project", "--directory", "--package", "--extra",
                              "--group", "--env-file", "--index", "--index-url")),
    ("pipx", "run"): frozenset(("--spec", "--python", "--pip-args", "--index-url", "-i")),
}


def fans_out(handler: Handler) -> bool:
    """Whether a handler is `agenthooks run` itself: agenthooks registered as the one hook of
    Claude Code or Gemini CLI in the settings file it also reads. Run, it would start itself
    again on every event, without end; it is the entry point, not a handler. Only a command
    that is one `agenthooks run` is: a gate that merely mentions it runs."""
    return handler.kind == "command" and is_agenthooks_run(handler.command, handler.args)


def run_arguments(command: str, args: Sequence[str] | None = None) -> tuple[str, ...] | None:
    """The words after `run` when the command is `agenthooks run` itself; None when it is
    anything else. `args`: the handler's exec form (no shell: the command is the program)."""
    found = entry(command, args)
    return None if found is None else found[1]


def entry(command: str, args: Sequence[str] | None = None
          ) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """(the folders a leading `cd` moves to, the words after `run`) when the command is
    `agenthooks run` itself; None when it is anything else."""
    if args is not None:
        after = _after_program([command, *args])
        return None if after is None else ((), after)
    commands = _only_command(split(command, {}))
    if commands is None:
        return None
    after = _after_program(commands[-1])
    return None if after is None else (tuple(c[-1] for c in commands[:-1]), after)


def is_agenthooks_run(command: str, args: Sequence[str] | None = None) -> bool:
    """Whether the command is `agenthooks run` itself (see the module's docstring)."""
    return run_arguments(command, args) is not None


def nested_runs(command: str, args: Sequence[str] | None = None) -> list[tuple[str, ...]]:
    """The words after `run` of each `agenthooks run` that a handler which is not agenthooks
    itself starts among its other commands (`./check.sh && agenthooks run X`), for
    `validate`: such a run reads the files again, as a handler of the run that started it."""
    if args is not None or is_agenthooks_run(command):
        return []
    try:
        commands = simple_commands(command).commands
    except Unparsable:
        return []
    found = []
    for words in commands:
        start = 0
        while start < len(words) and words[start].assignment:
            start += 1
        after = _after_program([word.text for word in words[start:]])
        if after is not None:
            found.append(after)
    return found


def _only_command(tokens: list[Word | Operator]) -> list[list[str]] | None:
    """The words of each `cd DIR` and then of the one simple command the text runs, its
    redirections dropped; None when it runs more than that or in a way not read here."""
    commands: list[list[str]] = [[]]
    index = 0
    while index < len(tokens):
        token = tokens[index]
        index += 1
        if isinstance(token, Word):
            if token.assignment and not commands[-1]:
                continue  # `NAME=value cmd`: the command is what follows
            commands[-1].append(token.text)
        elif token.text in ("\n", ";") and index == len(tokens):
            break  # a last separator ends the text, nothing follows it
        elif token.text in _SEPARATORS and _is_cd(commands[-1]):
            commands.append([])
        elif token.text in (">", ">>", "<", ">|", "&>", "&>>", ">&", "<&", "<>"):
            if commands[-1] and commands[-1][-1].isdigit() and _adjacent(tokens, index - 1):
                commands[-1].pop()  # `2>`: the descriptor is no word of the command
            index += 1  # the target
        else:
            return None
    return commands if commands[-1] else None


def _adjacent(tokens: list[Word | Operator], at: int) -> bool:
    before = tokens[at - 1]
    return isinstance(before, Word) and before.end == tokens[at].start


def _is_cd(words: list[str]) -> bool:
    """`cd DIR` (or `cd -- DIR`), which moves a wiring into its project before the run."""
    if words[:1] != ["cd"]:
        return False
    rest = words[2:] if words[1:2] == ["--"] else words[1:]
    return len(rest) == 1


def _after_program(words: Sequence[str]) -> tuple[str, ...] | None:
    """The words after `run` when the program of `words`, past wrappers, is agenthooks."""
    rest = _program_rest(list(words))
    if rest is None:
        return None
    for index, word in enumerate(rest):
        if not word.startswith("-"):
            return tuple(rest[index + 1:]) if word == "run" else None
    return None


def _program_rest(words: list[str]) -> list[str] | None:
    """The words after agenthooks' own name (past wrappers, Python and launchers)."""
    for _ in range(16):  # wrappers inside wrappers, each one step
        if not words:
            return None
        name = _base(words[0])
        if name in NAMES:
            return words[1:]
        if name in STRIPPED:
            start = _wrapped(name, words)
            if start is None:
                return None
            words = words[start:]
            continue
        if _is_python(name):
            return _after_module(words[1:])
        return _launched(words)
    return None


def _base(word: str) -> str:
    """A program's name without its folder, `/` or `\\`."""
    return word.replace("\\", "/").rsplit("/", 1)[-1]


def _wrapped(name: str, words: list[str]) -> int | None:
    """Where the command a wrapper runs starts; None when it runs none that can be told."""
    wrapper = WRAPPERS[name]
    index = 1
    while index < len(words):
        word = words[index]
        if word == "--":
            index += 1
            break
        if word in _QUERIES.get(name, ()) or word.startswith(("-S", "--split-string")):
            return None  # a query runs nothing; env's -S splits a string this does not read
        if wrapper.assignments and "=" in word and not word.startswith("-"):
            index += 1
            continue
        if not word.startswith("-") or (word == "-" and name != "env"):
            break
        if word in wrapper.valued:
            index += 2
        elif word in wrapper.flags or (word.startswith("--") and "=" in word):
            index += 1
        else:
            return None  # an option not known: what follows cannot be told
    return index + wrapper.operands


def _is_python(name: str) -> bool:
    """`python`, `python3`, `python3.12`, `pythonw`, `py` (with `.exe` or not)."""
    name = name.removesuffix(".exe")
    if name in ("py", "pythonw"):
        return True
    version = name.removeprefix("python")
    return version != name and all(part.isdigit() for part in version.split(".") if part) \
        and not version.startswith(".")


def _after_module(words: list[str]) -> list[str] | None:
    """What follows `-m agenthooks` in a Python's arguments; None for another module, a
    script or `-c`."""
    index = 0
    while index < len(words):
        word = words[index]
        if word == "-m":
            module = words[index + 1:index + 2]
            return words[index + 2:] if module == ["agenthooks"] else None
        if word == "-magenthooks":
            return words[index + 1:]
        if not word.startswith("-") or word.startswith("-c") or word == "-":
            return None
        index += 2 if word in _PYTHON_VALUED else 1
    return None


def _launched(words: list[str]) -> list[str] | None:
    """What follows agenthooks run by a launcher (`uvx agenthooks`, `pipx run agenthooks`)."""
    for launcher, valued in _LAUNCHERS.items():
        if [_base(words[0]), *words[1:len(launcher)]] != list(launcher):
            continue
        index = len(launcher)
        while index < len(words) and words[index].startswith("-"):
            index += 2 if words[index] in valued else 1
        if index < len(words) and _package(words[index]) in NAMES:
            return words[index + 1:]
        return None
    return None


def _package(word: str) -> str:
    """A launcher's package argument without its version (`agenthooks==1.2`, `agenthooks@1`)."""
    for mark in ("==", "@", ">=", "<=", "~=", "[", "<", ">"):
        word = word.partition(mark)[0]
    return _base(word)
