"""The command step of an event whose handlers need more per call than a process each on
the payload (`engine.runner._commands` hands over to `run`); what each needs is data their
sources put on them at load time (`model.handlers.Handler`), never a question of format:

    - a per-call condition (Claude Code's `if`) leaves out the handlers it rules out, read
      on the tool and argument names of the handler's own dialect
    - each process's environment takes what this call says (`kinds.process.call_env`)
    - http handlers run in threads, started before the processes and joined after them
      (`kinds.http`)
    - `env_file` handlers get an env file to write to (CLAUDE_ENV_FILE): the caller's when
      it has one (agenthooks runs under Claude Code), else a temporary file, whose content
      the answers carry
    - `background` handlers start and are never waited for, with no answer
    - `sequential`: the handlers of the same `chain` run one after the other, after the
      rest, each on the payload the previous one rewrote (Gemini CLI)
"""

from __future__ import annotations

import os

from agenthooks.engine.call import call_needs, in_own_words, run_jobs
from agenthooks.executor import ProcessResult, ProcessSpec
from agenthooks.kinds.process import answers_of, call_env, own_words, runs_as_process
from agenthooks.model.handlers import Answer, Handler

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from agenthooks.engine.call import Call, EventPlan, Processes
    from agenthooks.kinds import Started
    from agenthooks.sources.payloads import Translation

Job = ProcessSpec | ProcessResult


def narrow(
    plan: EventPlan, call: Call, handlers: list[Handler], jobs: list[Job],
    words: Translation,
) -> tuple[EventPlan, list[Handler], list[Job]]:
    """Leave out the handlers whose condition does not hold for this call (see
    `sources.dialects.conditions`); the plan's needs are worked out again for what is left."""
    needs = plan.needs
    assert needs is not None
    if not needs.conditions:
        return plan, handlers, jobs
    cwd = call.doc.get("cwd")
    kept: list[Handler] = []
    kept_jobs: list[Job] = []
    pending = iter(jobs)
    for handler in handlers:
        job = next(pending) if runs_as_process(handler) else None
        if holds_for(handler, words, cwd):
            kept.append(handler)
            if job is not None:
                kept_jobs.append(job)
    background = [h for h, _ in needs.background if holds_for(h, words, cwd)]
    return (plan._replace(needs=call_needs(kept, background, call.event, call.tool)),
            kept, kept_jobs)


def holds_for(handler: Handler, words: Translation, cwd: object) -> bool:
    if handler.condition is None:
        return True
    tool, tool_input = words.tool_in(handler.dialect), words.args_in(handler.dialect)
    from agenthooks.sources.dialects.conditions import applies

    return applies(handler, tool, tool_input, cwd)


async def run(plan: EventPlan, call: Call, handlers: list[Handler], jobs: list[Job],
              words: Translation, processes: Processes) -> list[Answer]:
    needs = plan.needs
    assert needs is not None
    data = words.data
    env_file, made = _env_file(needs.env_file)
    if needs.background:
        from agenthooks.kinds.process import start_background

        # Started before the others and never waited for, as Claude Code runs `async`
        # handlers; a temporary CLAUDE_ENV_FILE is not theirs to use.
        given = None if made else env_file
        started = in_own_words([h for h, _ in needs.background],
                               [_with_env(h, spec, words, given)
                                for h, spec in needs.background], words)
        start_background([job for job in started if isinstance(job, ProcessSpec)], data)
    try:
        processed = [h for h in handlers if runs_as_process(h)]
        jobs = [_with_env(h, job, words, env_file)
                for h, job in zip(processed, jobs, strict=True)]
        running = start_beside(needs.beside, handlers, words, call.event)
        # Interrupted or cancelled, what runs beside is left to its daemon threads: waiting
        # for it could take its whole timeout.
        if needs.sequential:
            results = await _in_order(processed, jobs, words, call.event, processes)
        else:
            results = await run_jobs(jobs, data, processes)
        beside: dict[int, Answer] = {}
        for kind in running:
            beside.update(kind.answers())
        answers = answers_of(handlers, results, call.event, beside)
        if made and env_file is not None:
            answers = _with_env_file(answers, env_file)
        return answers
    finally:
        if made and env_file is not None:
            _remove(env_file)


def start_beside(beside: Sequence[tuple[str, Sequence[int]]], handlers: Sequence[Handler],
                 words: Translation, event: str) -> list[Started]:
    """Start the handlers of each kind that runs beside the processes (`kinds.KINDS`), each
    on the payload of its own host."""
    from agenthooks.kinds import starter

    return [starter(kind)([(i, handlers[i], words.payload(handlers[i].dialect,
                                                          handlers[i].event))
                           for i in positions], event)
            for kind, positions in beside]


def _env_file(needed: bool) -> tuple[str | None, bool]:
    """CLAUDE_ENV_FILE: the caller's, else a new empty temporary file; and whether made."""
    if not needed:
        return None, False
    given = os.environ.get("CLAUDE_ENV_FILE")
    if given:
        return given, False
    import tempfile

    handle, path = tempfile.mkstemp(prefix="agenthooks-claude-env-", suffix=".sh")
    os.close(handle)
    return path, True


def _with_env(handler: Handler, job: Job, words: Translation, env_file: str | None) -> Job:
    if not isinstance(job, ProcessSpec):
        return job
    # The caller's fields, and the payload the handler's own host sends (Crush's `event`,
    # `tool_name`, `tool_input`), which its variables are read from.
    doc = {**words.fields(), **words.built(handler.dialect, handler.event)} \
        if handler.call_vars else words.fields()
    extra = call_env(handler, doc, env_file)
    return job._replace(env={**(job.env or {}), **extra}) if extra else job


async def _in_order(processed: Sequence[Handler], jobs: Sequence[Job], words: Translation,
                    event: str, processes: Processes) -> list[ProcessResult]:
    """Everything but the Gemini CLI handlers together, then those one by one, each seeing
    the previous one's `hookSpecificOutput.tool_input` (BeforeTool) or `llm_request`."""
    from agenthooks.kinds.protocols.gemini import answer, rewritten_input

    groups = {h.chain for h in processed if h.sequential and h.chain is not None}
    chained = [k for k, h in enumerate(processed) if h.chain in groups]
    rest = [k for k in range(len(jobs)) if k not in chained]
    results: dict[int, ProcessResult] = dict(
        zip(rest, await run_jobs([jobs[k] for k in rest], words.data, processes),
            strict=True))
    for k in chained:
        handler, job = processed[k], jobs[k]
        if isinstance(job, ProcessSpec):
            job = job._replace(stdin=words.payload(*own_words(handler)))
        [done] = await run_jobs([job], words.data, processes)
        results[k] = done
        change = rewritten_input(handler.event, answer(handler, done, event))
        if change is None:
            continue
        key, value = change
        words = (words.with_args(words.args_back(handler.dialect, value))
                 if key == "tool_input" else words.with_field(key, value))
    return [results[k] for k in range(len(jobs))]


def _with_env_file(answers: list[Answer], path: str) -> list[Answer]:
    try:
        with open(path, encoding="utf-8", errors="replace") as stream:
            content = stream.read(1024 * 1024)
    except OSError:
        content = ""
    return [a._replace(env_file=(path, content)) if a.handler.env_file else a
            for a in answers]


def _remove(path: str) -> None:
    import contextlib

    with contextlib.suppress(OSError):
        os.unlink(path)
