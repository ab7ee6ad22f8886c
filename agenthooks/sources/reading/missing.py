"""What a hook whose script is missing does, under its own host and under agenthooks' run
(`validate`'s `script-missing`).

A missing script is not one failure: the shell ends a program it cannot find with 127, but an
interpreter given a missing file exits with its own code, and exit 2 is the code most hosts
read as a block. So `python3 missing.py` blocks every call it gates under Claude Code, while
`./missing.sh` lets every call through: the message says which, host by host.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

# The exit code of an interpreter given a file that does not exist (measured: python3 2, perl 2,
# dash 2, node 1, bash 127); `sh` is dash on Debian and Ubuntu (bash elsewhere: 127). A program
# the shell cannot find at all exits 127.
INTERPRETER_EXITS = {"python": 2, "pypy": 2, "perl": 2, "sh": 2, "dash": 2, "bash": 127,
                     "zsh": 127, "node": 1, "nodejs": 1, "ruby": 1, "php": 1, "deno": 1,
                     "bun": 1, "tsx": 1}
NOT_FOUND = 127


def missing_exit(interpreter: str | None) -> int:
    """The exit code of a handler whose script is missing: `interpreter`'s (`python3.12`), or
    the shell's 127 for a script run by its path."""
    if interpreter is None:
        return NOT_FOUND
    return INTERPRETER_EXITS.get(interpreter.rstrip("0123456789."), 1)


def _two(code: int) -> bool:
    return code == 2


# Per host: whether it blocks a call (on an event that can block) when a handler exits with
# `code` and an error on stderr, and what it does otherwise. From each host's code and docs
# (docs/hosts.md): Gemini CLI's code denies on text with any exit but 0 and 1 (its docs say 2
# alone); Copilot CLI denies on any non-zero exit on preToolUse.
NATIVE: dict[str, tuple[Callable[[int], bool], str]] = {
    "claude": (_two, "a non-blocking error: the call goes through"),
    "gemini": (lambda code: code >= 2, "a warning: the call goes through"),
    "cursor": (_two, "a failure that lets the call through (unless the handler says "
                     "failClosed: true)"),
    "codex": (_two, "a failure that lets the call through"),
    "copilot": (lambda code: code != 0, "on preToolUse a deny (hook errored), elsewhere a "
                                        "failure that lets the call through"),
    # charmbracelet/crush internal/hooks/runner.go@37f36e9: 2 denies, 49 denies and halts
    "crush": (lambda code: code in (2, 49), "a logged failure: the call goes through"),
    # measured with goose 1.52.0: 2 denies; another exit a failure, which lets the call
    # through unless the action says `on_failure: "block"`
    "goose": (_two, "a failure that lets the call through (a deny under on_failure: "
                    "\"block\")"),
}
# agenthooks' run reads every handler with its own host's documented protocol: exit 2 blocks,
# and so does any failure on Copilot's preToolUse; any other failure is a warning, and a deny
# under --fail-closed.
AGENTHOOKS: dict[str, Callable[[int], bool]] = {"copilot": lambda code: code != 0,
                                                 "crush": lambda code: code in (2, 49)}


def consequence(host: str, host_name: str, code: int) -> str:
    """What a handler of `host` that exits `code` does, natively and under agenthooks' run."""
    blocks, otherwise = NATIVE.get(host, (None, ""))
    if blocks is None:
        native = f"what {host_name} does then is not documented"
    elif blocks(code):
        native = (f"{host_name} reads exit {code} as a block, so this hook blocks every call it "
                  "gates")
    else:
        native = f"{host_name} reads exit {code} as {otherwise}, so this gate is off"
    ours = AGENTHOOKS.get(host, _two)(code)
    run = "blocks every call it gates" if ours else "is a warning (a deny under --fail-closed)"
    return f"{native}; under agenthooks run it {run}"
