"""The rules of Cline's hook files (`sources.dialects.cline`): each entry of a hooks folder is
one handler, named by its file, run as Cline runs it (cline 3.0.65, @cline/core 0.0.86).

    the handler     the file's event (its name), and the command Cline starts it with: the
                    `#!` line's program, else its extension's, the file's path after it; a
                    shell script whose one command is `agenthooks run ...` is that command
                    (agenthooks' own wiring, which `agenthooks init --host cline` writes: a
                    run never starts itself from it)
    never runs      a hooks folder of a project below its git root, whose hooks Cline never
                    reads (`cline-folder-unread`);
                    a name that is no event with one of Cline's extensions (`pre-tool-use.sh`,
                    `PreToolUse.rb`: `cline-hook-never-runs`, the name Cline reads as the fix);
                    another file of the folder (a README, a helper script) is a note
                    (`cline-not-a-hook`); a symbolic link, which Cline skips
                    (`cline-link-skipped`); PreCompact, which the CLI never fires
                    (`cline-event-never-fires`)
    unread answers  a hook of an event Cline starts detached (TaskStart, TaskComplete,
                    UserPromptSubmit...): it runs, its answer unread (`cline-answer-unread`);
                    agenthooks runs it in the background too
"""

from __future__ import annotations

import os
import re

from agenthooks.model.handlers import Handler, Source
from agenthooks.sources.dialects.check import DialectChecker
from agenthooks.sources.dialects.cline import (
    AWAITED,
    CLINE,
    EVENTS,
    EXTENSIONS,
    NEVER_FIRES,
    event_of,
    program_of,
    split_name,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.model.handlers import Diagnostic

# The programs whose script agenthooks reads for its own wiring: a shell's.
SHELLS = frozenset(("bash", "sh", "zsh", "dash"))


def parse(source: Source, data: bytes | None) -> tuple[Any, Any, list[Diagnostic], str]:
    """(document, positions, findings, text) of one entry of a Cline hooks folder: its name,
    the event Cline reads in it, what it is when it is no file (a link, a folder), and its
    first line and text. `data`: its content, when it is not the file's on disk."""
    from agenthooks.sources.reading.jsonpos import PositionMap

    file = source.file
    name = os.path.basename(file)
    doc: dict[str, Any] = {"name": name, "event": event_of(name)}
    if os.path.islink(file):
        doc["link"] = os.readlink(file)
        return doc, PositionMap(""), [], ""
    if data is None:
        if os.path.isdir(file):
            doc["folder"] = True
            return doc, PositionMap(""), [], ""
        from agenthooks.sources.dialects.load import _diagnostic
        from agenthooks.sources.reading.text import Unusable, read_bytes

        try:
            data, _ = read_bytes(file, source.path, "hook file")
        except Unusable as exc:
            return None, None, [_diagnostic(source, exc.rule, exc.message)], ""
    text = data.decode("utf-8", "replace")
    doc["first_line"] = re.split(r"\r?\n", text, maxsplit=1)[0]
    doc["text"] = text
    return doc, PositionMap(text), [], text


def command_of(file: str, first_line: str | None, text: str) -> str:
    """The command a Cline hook file runs as: `agenthooks run ...` itself for a shell script
    whose one command it is, else the program Cline starts it with and its path."""
    import shlex

    program = program_of(os.path.basename(file), first_line)
    if os.path.basename(program[0]) in SHELLS:
        wiring = own_wiring(text)
        if wiring is not None:
            return wiring
    return shlex.join([*program, file])


def own_wiring(text: str) -> str | None:
    """The one command of a shell script when it is `agenthooks run ...` (after `exec`),
    None otherwise: comments and blank lines aside, one line."""
    lines = [line.strip() for line in text.splitlines()
             if line.strip() and not line.strip().startswith("#")]
    if len(lines) != 1 or "agenthooks" not in lines[0]:
        return None
    from agenthooks.model.itself import is_agenthooks_run

    return lines[0] if is_agenthooks_run(lines[0]) else None


def meant(name: str) -> str | None:
    """The name Cline would read for a file whose name is an event spelt otherwise
    (`pre-tool-use.sh`: `PreToolUse.sh`, `PreToolUse.rb`: `PreToolUse`), None for none."""
    stem, extension = split_name(name)
    wanted = re.sub(r"[\W_]", "", stem).lower()
    event = next((each for each in EVENTS if each.lower() == wanted), None)
    if event is None:
        wanted = re.sub(r"[\W_]", "", name).lower()
        return next((each for each in EVENTS if each.lower() == wanted), None)
    return event + (extension if extension.lower() in EXTENSIONS else "")


class ClineChecker(DialectChecker):
    """Reads one entry of a Cline hooks folder into its one handler, or says why Cline never
    runs it."""

    def document(self, doc: Any) -> None:
        if not isinstance(doc, dict) or doc.get("folder"):
            return  # a folder of the hooks folder: Cline lists it and passes over it
        name, event = doc["name"], doc["event"]
        if "link" in doc:
            what = f"the event {event}" if event else "no event"
            self.add("cline-link-skipped", f"{name} is a symbolic link (to {doc['link']}), "
                                           f"which Cline skips: its hooks folders run files "
                                           f"alone ({name} names {what}); put the file itself "
                                           "here", "")
            return
        if event is None:
            self.never_runs(name)
            return
        if self.thorough and self.source.level == "workspace":
            self.below_git_root()
        if event in NEVER_FIRES:
            self.add("cline-event-never-fires", f"Cline 3.0.65's CLI lists {event} but maps it "
                                                "to no event of its agent: this hook never "
                                                "runs", "")
            return
        if event not in AWAITED and self.thorough:
            self.add("cline-answer-unread", f"Cline starts {event} hooks detached and never "
                                            "reads their answer (it reads PreToolUse's and "
                                            "PostToolUse's alone): this one cannot block, "
                                            "rewrite or add context", "")
        self.handlers.append(self.record(event, doc))

    def below_git_root(self) -> None:
        """A project's hooks folder in a folder below its git root: Cline reads the hooks of
        the git root alone (its workspace), whatever folder it starts in (measured with cline
        3.0.65 from a subfolder)."""
        from agenthooks.sources.reading.places import git_root

        root = git_root(os.path.realpath(self.source.workspace))
        if root is None or os.path.samefile(root, self.source.workspace):
            return
        self.add("cline-folder-unread", f"Cline reads the hooks folders of the git root alone "
                                        f"({root}), not those of {self.source.workspace}: "
                                        "this hook never runs; move it to the root's "
                                        "`.clinerules/hooks/`", "")

    def never_runs(self, name: str) -> None:
        fix = meant(name)
        if fix is None:
            self.add("cline-not-a-hook", f"{name} names no event: Cline passes over it without a "
                                         f"word (a hook "
                                         f"file is named after its event, one of "
                                         f"{', '.join(EVENTS)}, in any case, with no extension "
                                         f"or one of {' '.join(EXTENSIONS[1:])})", "")
            return
        stem, extension = split_name(name)
        why = (f"its extension {extension} is not one Cline runs" if
               event_of(split_name(fix)[0]) is not None and extension
               and extension.lower() not in EXTENSIONS
               else f"Cline reads the event's name alone, in any case, not {stem!r}")
        self.add("cline-hook-never-runs", f"{name} never runs (Cline passes over it without a "
                                          f"word): {why}; name it {fix}", "",
                 "value", fix)

    def record(self, event: str, doc: dict[str, Any]) -> Handler:
        command = command_of(self.source.file, doc.get("first_line"), doc.get("text", ""))
        return Handler(
            source=self.source, hook="", event=event, matcher=None, command=command,
            timeout=CLINE.default_timeout_for(event), kind="command", enabled=True, pointer="",
            dialect=CLINE.name, name=self.source.path, shell=CLINE.shell,
            background=event not in AWAITED)


def read(doc: Any, source: Source, *, thorough: bool) -> DialectChecker:
    """The one handler of a Cline hook file, and every finding about it."""
    checker = ClineChecker(source, CLINE, thorough=thorough)
    checker.document(doc)
    return checker
