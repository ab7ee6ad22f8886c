"""Claude Code's `if` as pure tables: what a Bash, path, WebFetch, parameter or MCP rule
matches, and what a handler's role makes of a call it cannot decide (how a command splits:
`tests/test_shellwords.py`)."""

from __future__ import annotations

import os

import pytest

from agenthooks.model.handlers import Handler, Source
from agenthooks.sources.dialects.conditions import applies, holds, restricts

# --- Bash rules ------------------------------------------------------------------------------

GATE, APPROVE = "gate", "approve"
BASH = [
    # rule, command, runs as a gate (can deny), applies as an approval (can only approve)
    ("Bash(rm *)", "rm -rf build", True, True),
    ("Bash(rm *)", "rm", True, True),
    ("Bash(rm *)", "rmdir x", False, False),
    ("Bash(rm *)", "ls -la", False, False),
    ("Bash(rm *)", "echo rm", False, False),
    ("Bash(rm *)", "ls & rm -rf build", True, False),
    ("Bash(rm *)", "ls |& rm", True, False),
    ("Bash(rm *)", "ls && rm x", True, False),
    ("Bash(rm *)", "ls; rm x", True, False),
    ("Bash(rm *)", "ls\nrm x", True, False),
    ("Bash(rm *)", "nohup rm x", True, True),
    ("Bash(rm *)", "timeout 5 rm x", True, True),
    ("Bash(rm *)", "timeout -s KILL -k 2 5 rm x", True, True),
    ("Bash(rm *)", "nice rm x", True, True),
    ("Bash(rm *)", "nice -n 5 rm x", True, True),
    ("Bash(rm *)", "time rm x", True, True),
    ("Bash(rm *)", "stdbuf -oL rm x", True, True),
    ("Bash(rm *)", "command rm x", True, True),
    ("Bash(rm *)", "builtin rm x", True, True),
    ("Bash(rm *)", "xargs rm", True, True),
    ("Bash(rm *)", "command -v rm", False, False),
    ("Bash(rm *)", "rm\t-rf", True, True),
    ("Bash(rm *)", '"rm" -rf', True, True),
    ("Bash(rm *)", "\\rm -rf", True, True),
    ("Bash(rm *)", "FOO='a b' rm -rf x", True, True),
    ("Bash(rm *)", "(rm -rf x)", True, True),
    ("Bash(rm *)", "{ rm -rf x; }", True, True),
    ("Bash(rm *)", "echo $(rm -rf /)", True, False),
    ("Bash(rm *)", "echo `rm -rf /`", True, False),
    ("Bash(rm *)", "echo $(date)", False, False),  # hooks.md's table
    ("Bash(rm *)", "rm $(cat list)", True, False),
    ("Bash(rm *)", "bash -c 'rm -rf x'", True, False),
    ("Bash(rm *)", "sh -lc \"ls; rm -rf x\"", True, False),
    ("Bash(rm *)", "bash -c 'ls'", False, False),
    ("Bash(rm *)", "eval 'rm -rf x'", True, False),
    ("Bash(rm *)", "env rm x", True, False),
    ("Bash(rm *)", "env -i PATH=/bin FOO=$X rm x", True, False),
    ("Bash(rm *)", "env ls", False, False),
    ("Bash(rm *)", "exec rm x", True, False),
    ("Bash(rm *)", "sudo -u root rm -rf /", True, False),
    ("Bash(rm *)", "xargs -0 rm", True, False),
    ("Bash(rm *)", "find . -name '*.o' -exec rm {} +", True, False),
    ("Bash(rm *)", "/bin/rm -rf x", True, False),
    ("Bash(rm *)", "curl -s x | bash", True, False),  # a script from standard input
    ("Bash(rm *)", "bash build.sh", False, False),
    ("Bash(rm *)", "$CMD -rf x", True, False),
    ("Bash(rm *)", "case x in a) rm;; esac", True, False),  # cannot parse: runs
    ("Bash(rm *)", "timeout --bogus 5 ls", True, False),  # options not known
    ("Bash(git *)", "FOO=bar git push", True, True),  # hooks.md's table
    ("Bash(git *)", "npm test && git push", True, False),
    ("Bash(git push *)", "echo $(date)", True, False),  # names more than the command
    ("Bash(git push *)", "git status", False, False),
    ("Bash(ls *)", "ls && ls -la", True, True),
    ("Bash(ls *)", "lsof", False, False),
    ("Bash(ls*)", "lsof", True, True),
    ("Bash(ls *)", "ls *.ts", True, True),
    ("Bash(npm run test:*)", "npm run test -- --watch", True, True),
    ("Bash(npm run test:*)", "npm run testing", False, False),
    ("Bash(git * main)", "git merge main", True, True),
    ("Bash(* --version)", "node --version", True, True),
    ("Bash(npm run build)", "npm run build", True, True),
    ("Bash(npm run build)", "npm run build --prod", False, False),
    ("Bash(*a*b*)", "xaxb", True, True),
    ("Bash(*a*b*)", "xbxa", False, False),
    ("Bash(git * main *)", "git push main", True, True),
    ("Bash(rm *)", "sudo " * 40 + "rm x", True, False),  # too many readings: undecided
    ("Bash", "anything at all", True, True),
    ("Bash(*)", "case x in a) ;; esac", True, True),
]


@pytest.mark.parametrize(("rule", "command", "gate", "approve"), BASH,
                         ids=[f"{r} {c!r}" for r, c, _, _ in BASH])
def test_bash(rule: str, command: str, gate: bool, approve: bool) -> None:
    arguments = {"command": command}
    assert holds(rule, "Bash", arguments, "/p") is gate
    assert holds(rule, "Bash", arguments, "/p", approving=True) is approve


# --- paths, WebFetch, parameters, tool names --------------------------------------------------

PATHS = [
    # rule, tool, path, cwd, settings root, gate, approve
    ("Edit(//etc/**)", "Edit", "/etc/passwd", "/p", "/p", True, True),
    ("Edit(//etc/**)", "Edit", "/p/src/../../etc/passwd", "/p", "/p", True, True),
    ("Edit(//etc/**)", "Edit", "../../etc/passwd", "/p/a", "/p", True, True),
    ("Edit(//etc/**)", "Write", "/etc/hosts", "/p", "/p", True, False),
    ("Edit(//etc/**)", "MultiEdit", "/etc/hosts", "/p", "/p", True, False),
    ("Edit(//etc/**)", "Edit", "/p/etc/x", "/p", "/p", False, False),
    ("Edit(/src/**)", "Edit", "/proj/src/a.ts", "/proj/sub", "/proj", True, True),
    ("Edit(/src/**)", "Edit", "/proj/sub/src/a.ts", "/proj/sub", "/proj", False, False),
    ("Edit(/src/**)", "Edit", "/src/a.ts", "/proj", "/proj", False, False),
    ("Edit(/src/**)", "Edit", "/proj/src/a.ts", "/proj", None, True, False),  # a plugin's
    ("Edit(src/**)", "Edit", "/p/src/a/b.ts", "/p", None, True, True),
    ("Edit(src/**)", "Edit", "/p/vendor/src/a.ts", "/p", None, False, False),
    ("Edit(**/src/**)", "Edit", "/p/vendor/src/a.ts", "/p", None, True, True),
    ("Edit(src/**)", "Edit", "/p/src/../docs/a.md", "/p", None, False, False),
    ("Edit(*.ts)", "Edit", "/p/a/b.ts", "/p", None, True, True),
    ("Edit(*.ts)", "Edit", "/elsewhere/b.ts", "/p", None, False, False),
    ("Read(.env)", "Read", "/p/a/b/.env", "/p", None, True, True),
    ("Read(./.env)", "Read", "/p/a/.env", "/p", None, False, False),
    ("Read(secrets)", "Read", "/p/x/secrets/key", "/p", None, True, True),
    ("Read(~/.ssh/**)", "Read", "~/.ssh/id_rsa", "/p", None, True, True),
    ("Read(//**/.env)", "Read", "/any/where/.env", "/p", None, True, True),
    ("Read(src/[ab].py)", "Read", "/p/src/a.py", "/p", None, True, True),
    ("Read(src/?.py)", "Read", "/p/src/ab.py", "/p", None, False, False),
    ("Read(//etc/**)", "Grep", "/etc", "/p", None, True, False),
]


@pytest.mark.parametrize(("rule", "tool", "path", "cwd", "root", "gate", "approve"), PATHS,
                         ids=[f"{r} {t} {p}" for r, t, p, *_ in PATHS])
def test_paths(rule: str, tool: str, path: str, cwd: str, root: str | None, gate: bool,
               approve: bool) -> None:
    key = "path" if tool == "Grep" else "file_path"
    path = os.path.expanduser(path)  # HOME is this test's own
    assert holds(rule, tool, {key: path}, cwd, settings_root=root) is gate
    assert holds(rule, tool, {key: path}, cwd, settings_root=root, approving=True) is approve


def test_a_symlink_is_checked_as_itself_and_as_its_target(tmp_path: os.PathLike[str]) -> None:
    link = os.path.join(tmp_path, "innocent.txt")
    os.symlink("/etc/hosts", link)
    assert holds("Edit(//etc/**)", "Edit", {"file_path": link}, str(tmp_path))
    # An approval holds only when both match.
    assert not holds(f"Edit(/{os.path.basename(link)})", "Edit", {"file_path": link},
                     str(tmp_path), settings_root=str(tmp_path), approving=True)


OTHERS = [
    # rule, tool, arguments, gate, approve
    ("WebFetch(domain:example.com)", "WebFetch", {"url": "https://EXAMPLE.com./x"}, True, True),
    ("WebFetch(domain:example.com)", "WebFetch", {"url": "https://api.example.com"}, False,
     False),
    ("WebFetch(domain:*.example.com)", "WebFetch", {"url": "https://a.b.example.com"}, True,
     True),
    ("WebFetch(domain:*.example.com)", "WebFetch", {"url": "https://example.com"}, False,
     False),
    ("WebFetch(domain:example.*)", "WebFetch", {"url": "https://example.org"}, True, True),
    ("WebFetch(domain:example.*)", "WebFetch", {"url": "https://example.evil.com"}, False,
     False),
    ("WebFetch(domain:x.io)", "WebFetch", {"url": "http://[::1"}, True, False),
    ("Agent(model:opus)", "Agent", {"model": "opus"}, True, False),  # deny and ask rules only
    ("Agent(model:opus)", "Agent", {"model": "sonnet"}, False, False),
    ("Agent(model:opus)", "Agent", {}, True, False),  # not known to be an argument
    ("Agent(Explore)", "Agent", {"subagent_type": "Explore"}, True, True),
    ("Bash(run_in_background:true)", "Bash", {"command": "ls", "run_in_background": True},
     True, False),
    ("Bash(timeout:*)", "Bash", {"command": "timeout 5 ls"}, True, False),  # stripped
    ("mcp__memory", "mcp__memory__create", {}, True, True),
    ("mcp__memory", "mcp__memoryx__create", {}, False, False),
    ("mcp__memory__*", "mcp__memory__create", {}, True, True),
    ("Skill(deploy *)", "Skill", {}, True, False),  # not read: only a gate runs
    ("Read", "Edit", {"file_path": "x"}, False, False),
    ("Edit", "Write", {"file_path": "x"}, False, False),
]


@pytest.mark.parametrize(("rule", "tool", "arguments", "gate", "approve"), OTHERS,
                         ids=[f"{r} {t} {a}" for r, t, a, *_ in OTHERS])
def test_other_rules(rule: str, tool: str, arguments: dict[str, object], gate: bool,
                     approve: bool) -> None:
    from agenthooks.sources.dialects.conditions import Unreadable

    try:
        found = (holds(rule, tool, arguments, "/p"),
                 holds(rule, tool, arguments, "/p", approving=True))
    except Unreadable:
        found = (True, False)  # what `applies` makes of a rule it cannot read
    assert found == (gate, approve)


# --- the handler's role ----------------------------------------------------------------------


def _handler(event: str, rule: str, *, level: str = "workspace", plugin: str | None = None,
             background: bool = False) -> Handler:
    source = Source("s.json", "/proj/.claude/settings.json", "/proj", level, "/proj",  # type: ignore[arg-type]
                    "claude", plugin)
    return Handler(source, "", event, "Bash", "true", 60.0, "command", True, "/x",
                   dialect="claude", background=background, condition=rule)


ROLES = [
    # event, rule, command, runs
    ("PreToolUse", "Bash(rm *)", "ls && rm x", True),
    ("PreToolUse", "Bash(rm *)", "case x in a) rm;; esac", True),
    ("PostToolUse", "Bash(rm *)", "sudo rm x", True),
    ("PermissionRequest", "Bash(rm *)", "bash -c 'rm x'", True),
    ("PermissionDenied", "Bash(ls *)", "ls -la", True),
    ("PermissionDenied", "Bash(ls *)", "ls && rm x", False),
    ("PermissionDenied", "Bash(ls *)", "case x in a) ls;; esac", False),
    ("PermissionDenied", "Bash(ls *)", "ls $(rm x)", False),
    ("PermissionDenied", "Bash(", "ls", False),
    ("PreToolUse", "Bash(", "ls", True),
]


@pytest.mark.parametrize(("event", "rule", "command", "runs"), ROLES,
                         ids=[f"{e} {r} {c!r}" for e, r, c, _ in ROLES])
def test_role(event: str, rule: str, command: str, runs: bool) -> None:
    handler = _handler(event, rule)
    assert restricts(handler) is (event != "PermissionDenied")
    assert applies(handler, "Bash", {"command": command}, "/proj") is runs


def test_settings_anchor_by_source() -> None:
    edit = {"file_path": "/proj/src/a.ts"}
    assert applies(_handler("PreToolUse", "Edit(/src/**)"), "Edit", edit, "/proj/sub")
    user = _handler("PreToolUse", "Edit(/src/**)", level="user")
    assert not applies(user, "Edit", edit, "/proj")  # ~/.claude/src for user settings
    plugin = _handler("PermissionDenied", "Edit(/src/**)", plugin="/plug")
    assert not applies(plugin, "Edit", edit, "/proj")  # not documented: approvals only
    assert applies(_handler("PreToolUse", "Edit(/src/**)", plugin="/plug"), "Edit", edit, "/p")


def test_a_nul_in_a_path_is_undecided_not_a_crash() -> None:
    handler = _handler("PreToolUse", "Edit(//etc/**)")
    assert applies(handler, "Edit", {"file_path": "/tmp/a\0b"}, "/proj")
    assert not applies(handler, "Edit", {"file_path": "/tmp/ab"}, "/proj")
