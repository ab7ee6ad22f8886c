"""The executor runs a command line exactly as the handler's shell does (`/bin/sh -c`, dash
here, or `bash -c` for the hosts that run bash): a differential test over a table of traps
and generated command lines. Each runs once through `run_processes` (the run path) and once
as `SHELL -c COMMAND` by `subprocess`; stdout, stderr and the exit status must be the same,
and so must what the program sees: a tiny C program prints its argv, environment, working
directory, whether it leads its process group and session, its descriptors and its ignored
and blocked signals.

It was written against the direct exec (commands without shell syntax exec'd without their
shell), which differed: `true --help` ran coreutils' `true` (its help became the hook's
message) where the shell runs its builtin; `setsid ./check` returned 0 at once where dash
waits for the check's deny (the program led its group, so `setsid` forked); dash's and
bash's own variables (IFS, PPID, OPTIND, BASH_VERSION...) reached the program as given.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agenthooks.executor import ProcessSpec, run_processes

BASH = shutil.which("bash")
SHELLS = ["/bin/sh", *([BASH] if BASH else [])]
CC = shutil.which("cc") or shutil.which("gcc")

pytestmark = pytest.mark.skipif(CC is None, reason="no C compiler for the helper program")

# Prints what the program sees, as NUL-ended fields; its exit code is its word count mod 5.
HELPER_C = r"""
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
extern char **environ;
static void field(const char *s) { fputs(s, stdout); putchar(0); }
int main(int argc, char **argv) {
    char buf[8192];
    printf("argv %d", argc); putchar(0);
    for (int i = 0; i < argc; i++) field(argv[i]);
    int n = 0;
    for (char **e = environ; *e; e++) n++;
    printf("env %d", n); putchar(0);
    for (char **e = environ; *e; e++) field(*e);
    field(getcwd(buf, sizeof buf) ? buf : "(no cwd)");
    printf("leads group %d session %d", getpgrp() == getpid(), getsid(0) == getpid());
    putchar(0);
    DIR *d = opendir("/proc/self/fd");
    struct dirent *de;
    while (d && (de = readdir(d)))
        if (de->d_name[0] != '.' && atoi(de->d_name) != dirfd(d)) field(de->d_name);
    if (d) closedir(d);
    FILE *f = fopen("/proc/self/status", "r");
    while (f && fgets(buf, sizeof buf, f))
        if (!strncmp(buf, "SigIgn", 6) || !strncmp(buf, "SigBlk", 6)) field(buf);
    if (f) fclose(f);
    fprintf(stderr, "%s: %d words\n", argv[0], argc);
    return argc % 5;
}
"""

# Builtins and reserved words of dash and bash (`compgen -b -k`; dash's `type`), and one
# dash builds without (`fc`). `time`, `coproc` and `suspend` are left out of the runs: the
# first prints timings, the second runs in the background, the third may stop the shell.
BUILTINS = [
    ".", ":", "[", "alias", "bg", "bind", "break", "builtin", "caller", "cd", "chdir", "command",
    "compgen", "complete", "compopt", "continue", "declare", "dirs", "disown", "echo", "enable",
    "eval", "exec", "exit", "export", "false", "fc", "fg", "getopts", "hash", "help", "history",
    "jobs", "kill", "let", "local", "logout", "mapfile", "popd", "printf", "pushd", "pwd", "read",
    "readarray", "readonly", "return", "set", "shift", "shopt", "source", "test", "times", "trap",
    "true", "type", "typeset", "ulimit", "umask", "unalias", "unset", "wait",
]
KEYWORDS = [
    "if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until", "do",
    "done", "in", "function", "{", "}", "!", "[[", "]]",
]
NAMES = [*BUILTINS, *KEYWORDS]
# Programs on the test PATH that a builtin of the same name hides from the shell.
SHADOWED = ["true", "false", "echo", "printf", "test", "pwd", "kill", "type", "command", "cd",
            "exec", "export", "["]

# Variables the shells set, reset or read themselves, and ones they pass on as given.
SPECIAL_VARIABLES = [
    "IFS", "PPID", "OPTIND", "OPTERR", "PS1", "PS2", "PS4", "LINENO", "RANDOM", "SRANDOM",
    "SECONDS", "BASH", "BASHPID", "BASH_VERSION", "BASH_VERSINFO", "BASH_ARGV0", "BASH_SUBSHELL",
    "BASH_COMMAND", "EPOCHSECONDS", "HISTCMD", "COMP_WORDBREAKS", "UID", "EUID", "HOSTNAME",
    "SHELL", "HOME", "TERM", "CDPATH", "ENV", "MAIL", "SHLVL", "PWD", "OLDPWD", "_",
    "POSIXLY_CORRECT", "SHELLOPTS", "A-B", "1A",
]


class World(NamedTuple):
    bin: Path  # on PATH: the helper under several names, and the odd files
    real: Path  # a working directory
    link: Path  # a symbolic link to it
    path: str  # the PATH the commands run with


class Outcome(NamedTuple):
    status: str
    exit_code: int | None
    signal: int | None
    stdout: tuple[object, ...]
    stderr: bytes


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    root = tmp_path_factory.mktemp("direct")
    bin_dir, real = root / "bin", root / "real"
    bin_dir.mkdir()
    real.mkdir()
    (real / "a-file").write_text("")
    (real / "b-file").write_text("")
    link = root / "link"
    link.symlink_to(real)
    source = root / "helper.c"
    source.write_text(HELPER_C)
    helper = bin_dir / "helper"
    assert CC is not None
    subprocess.run([CC, "-O0", "-o", str(helper), str(source)], check=True)
    for name in [*SHADOWED, "setsid-helper", "%job", "-dash", "+plus", "x:y", "a,b", "@at"]:
        os.link(helper, bin_dir / name)
    (bin_dir / "not-executable").write_text("#!/bin/sh\necho ran\n")
    (bin_dir / "a-directory").mkdir()
    _script(bin_dir / "no-shebang", 'echo "no shebang: $*"\n')
    _script(bin_dir / "bad-shebang", "#!/nonexistent/interpreter\n")
    _script(real / "check", "#!/bin/sh\nsleep 0.2\necho deny\nexit 2\n")
    _script(real / "ends", "#!/bin/sh\nkill -TERM $$\n")
    os.link(helper, real / "local-helper")
    return World(bin_dir, real, link, f"{bin_dir}:/usr/bin:/bin")


def _script(path: Path, text: str) -> None:
    path.write_text(text)
    path.chmod(0o755)


def _parse(stdout: bytes) -> tuple[object, ...]:
    """The helper's report with its environment sorted (a shell may reorder it); other
    output as it is."""
    before, found, report = stdout.partition(b"argv ")
    if not found:
        return (stdout,)
    fields = (found + report).split(b"\0")
    argc = int(fields[0].split()[1])
    argv, rest = fields[1:1 + argc], fields[1 + argc:]
    count = int(rest[0].split()[1])
    env, rest = sorted(rest[1:1 + count]), rest[1 + count:]
    return (before, argv, env, [_glibc_signals_cleared(field) for field in rest])


# glibc's posix_spawn sets its two internal signals (32 and 33) to SIG_IGN in the child it
# starts, and the disposition outlives the exec: every handler, shell or not, starts with
# them ignored, where `subprocess` (fork and exec) leaves them at their defaults. Not the
# shell's business, so left out of the comparison.
_GLIBC_INTERNAL = (1 << 31) | (1 << 32)


def _glibc_signals_cleared(field: bytes) -> bytes:
    if not field.startswith(b"SigIgn:"):
        return field
    mask = int(field.split()[1], 16) & ~_GLIBC_INTERNAL
    return b"SigIgn:\t%016x\n" % mask


def _through_executor(command: str, cwd: str, env: Mapping[str, str], shell: str,
                      *, thread: bool = False) -> Outcome:
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    if thread:  # with another thread the executor cannot chdir around the spawn
        other.start()
    try:
        [result] = run_processes([ProcessSpec(command, cwd, 30, dict(env), shell)], b"")
    finally:
        stop.set()
        if other.is_alive():
            other.join()
    assert result.error is None, result.error
    return Outcome(result.status, result.exit_code, result.signal, _parse(result.stdout),
                   result.stderr)


def _through_shell(command: str, cwd: str, env: Mapping[str, str], shell: str) -> Outcome:
    done = subprocess.run([shell, "-c", command], cwd=cwd, env={**os.environ, **env},
                          input=b"", capture_output=True, start_new_session=True, check=False)
    code = done.returncode
    return Outcome("exited" if code >= 0 else "signaled", code if code >= 0 else None,
                   -code if code < 0 else None, _parse(done.stdout), done.stderr)


def _same(world: World, command: str, shell: str, *, env: Mapping[str, str] | None = None,
          where: str = "real", thread: bool = False) -> None:
    cwd = str(world.real if where == "real" else world.link)
    given = {"PATH": world.path, **(env or {})}
    ours = _through_executor(command, cwd, given, shell, thread=thread)
    theirs = _through_shell(command, cwd, given, shell)
    assert ours == theirs, _difference(command, shell, given, ours, theirs)


def _difference(command: str, shell: str, env: Mapping[str, str], ours: Outcome,
                theirs: Outcome) -> str:
    """What differs, readably: the fields of the outcome and the helper's report."""
    lines = [f"{command!r} under {shell} with {dict(env)!r}:"]
    for field, a, b in zip(Outcome._fields, ours, theirs, strict=True):
        if field == "stdout" and len(a) == len(b) == 4:
            parts = ("output before", "argv", "environment", "the rest")
            for part, x, y in zip(parts, a, b, strict=True):
                if x != y:
                    lines.append(f"  {part}: executor {sorted(set(x) - set(y))!r}, "
                                 f"shell {sorted(set(y) - set(x))!r}")
        elif a != b:
            lines.append(f"  {field}: executor {a!r}, shell {b!r}")
    return "\n".join(lines)


# --- the table of traps ---------------------------------------------------------------------

TRAPS = [
    "true --help", "false --help", "true", "false", "echo hi", "printf x", "test -n x",
    "[ x ]", "pwd", "kill -l 9", "type helper", "command -v helper", "cd /", "exec helper x",
    "export A=1", "helper", "helper a b", "helper  a   b  ", "helper\ta", "A=1 helper",
    "A=1", "helper > /dev/null", "helper 2>&1", "helper 2>/dev/null", "helper < /dev/null",
    "helper *", "helper '*'", "helper *-file", "helper [ab]-file", "helper ?-file",
    "helper {a,b}", 'helper "$HOME"', "helper $HOME", "helper ~", "helper ~/x", "helper \\a",
    "helper a\\ b", "helper ''", 'helper ""', "helper caf\u00e9", "helper \udcff\udcfe",
    "helper -- -x", "helper a=b x:y 1,2 +3 u@h 50%", "helper #comment", "helper x#y",
    "./local-helper x", "local-helper x", "{bin}/helper x", "missing-command-4815162342",
    "./missing", "/nonexistent/x", "not-executable", "./not-executable", "a-directory",
    "no-shebang a b", "bad-shebang", "setsid ./check", "setsid-helper", "./check",
    "./ends", "%job", "-dash", "+plus", "x:y", "a,b", "@at", "helper;", "helper &",
    "(helper)", "helper | helper", "$(echo helper)", "`echo helper`", "helper $(echo a b)",
]


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("command", TRAPS)
def test_a_trap_runs_as_its_shell_runs_it(world: World, shell: str, command: str) -> None:
    if command == "setsid ./check" and shell != "/bin/sh":
        # bash execs `setsid`, which leads the group, forks and exits: what its detached
        # child prints is read by `subprocess` to the end, by the executor for EXIT_GRACE.
        pytest.skip("a race of a detached child under bash, whichever runs it")
    _same(world, command.replace("{bin}", str(world.bin)), shell)


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("name", NAMES)
def test_every_builtin_and_reserved_word_is_the_shells(world: World, shell: str,
                                                       name: str) -> None:
    _same(world, f"{name} --help", shell)


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("name", SPECIAL_VARIABLES)
@pytest.mark.parametrize("value", ["x", "3", ""])
def test_the_shells_own_variables_reach_the_program_as_the_shell_leaves_them(
    world: World, shell: str, name: str, value: str
) -> None:
    _same(world, "helper", shell, env={name: value})


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("where", ["real", "link"])
@pytest.mark.parametrize("thread", [False, True])
@pytest.mark.parametrize(
    "variables",
    [
        {},
        {"PWD": "{link}", "OLDPWD": "/"},
        {"PWD": "{real}/", "OLDPWD": "relative"},
        {"PWD": "{real}/../real", "OLDPWD": "/nonexistent"},
        {"PWD": "relative", "SHLVL": "999"},
        {"SHLVL": "03", "BASH_FUNC_helper%%": "() { echo function; }"},
    ],
)
def test_the_directory_the_program_sees(
    world: World, shell: str, where: str, thread: bool, variables: dict[str, str]
) -> None:
    env = {name: value.replace("{link}", str(world.link)).replace("{real}", str(world.real))
           for name, value in variables.items()}
    cwd = str(world.real if where == "real" else world.link)
    given = {"PATH": world.path, **env}
    ours = _through_executor("helper x", cwd, given, shell, thread=thread)
    assert ours == _through_shell("helper x", cwd, given, shell)


def test_the_table_ran_the_helper(world: World) -> None:
    """The comparisons above are not vacuous: the helper runs and reports."""
    ours = _through_executor("helper a", str(world.real), {"PATH": world.path}, "/bin/sh")
    _before, argv, _env, rest = ours.stdout
    assert argv == [b"helper", b"a"]
    assert rest[0] == str(world.real).encode()
    assert ours.exit_code == 2


# --- generated command lines -----------------------------------------------------------------

# Characters with and without meaning to the shell; `$` only in the expansions below (`$$`,
# `$RANDOM` and the like differ from run to run), no operator that writes or runs in the
# background.
_CHARS = st.sampled_from([*"abcxyz019 _./-=:,+@%'\"\\~*?[]{}#!\t", "\u00e9", "\udcff"])
_EXPANSIONS = st.sampled_from(["$HOME", "${HOME}", "$1", "$#", "$?", "$-", "$0", "$A", "$IFS",
                               "$PWD", '"$@"'])
_WORD = st.one_of(st.text(_CHARS, max_size=6), _EXPANSIONS)
# `times` prints the CPU time used so far, which no two runs share.
_FIRST = st.one_of(st.sampled_from(["helper", *SHADOWED, "local-helper", "./local-helper",
                                    "missing-4815162342", "no-shebang", "%job", "-dash",
                                    "not-executable", "a-directory",
                                    *(name for name in BUILTINS if name != "times")]),
                   st.text(_CHARS, min_size=1, max_size=5))
_VALUES = st.sampled_from(["x", "3", "", "/", "/nonexistent", "relative", "\udcff", "a b"])
_ENV = st.dictionaries(st.sampled_from(SPECIAL_VARIABLES), _VALUES, max_size=3)


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(shell=st.sampled_from(SHELLS), first=_FIRST, words=st.lists(_WORD, max_size=4),
       separator=st.sampled_from([" ", "  ", "\t"]), prefix=st.sampled_from(["", "A=1 "]),
       env=_ENV, where=st.sampled_from(["real", "link"]), thread=st.booleans())
def test_generated_command_lines_run_as_their_shell_runs_them(
    world: World, shell: str, first: str, words: list[str], separator: str, prefix: str,
    env: dict[str, str], where: str, thread: bool,
) -> None:
    command = prefix + separator.join([first, *words])
    if "\0" in command:
        return
    thread = thread and shell == "/bin/sh"  # bash with threads: see the test below
    _same(world, command, shell, env=env, where=where, thread=thread)


@pytest.mark.skipif(BASH is None, reason="no bash")
@pytest.mark.xfail(strict=True, reason="known: bash runs the cd script with threads")
@pytest.mark.parametrize("env", [{}, {"RANDOM": "x"}, {"PS1": "x"}])
def test_with_threads_bash_itself_sees_its_environment_as_given(
    world: World, env: dict[str, str]
) -> None:
    """With another thread running the executor cannot chdir around the spawn: the
    handler's shell runs a `cd` script that execs the handler's shell in the directory.
    Under bash that first bash sets `_` to what it execs and drops the variables it keeps
    for itself (RANDOM, PS1, BASH_*...): the handler's bash lists them otherwise
    (`export -p`, `$_`), though the programs it runs get the same environment (the
    directory test above). Left as it is here: closing it needs a way to start a process in
    a directory from a threaded process without a shell (`env -C`, or fork and exec)."""
    _same(world, "export -p", str(BASH), env=env, thread=True)

