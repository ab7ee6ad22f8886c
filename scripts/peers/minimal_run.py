"""The floor of a cold `agenthooks run`: the least a Python program can do for the same job.

    minimal_run.py EVENT HOOKS_JSON < payload

It reads the payload and one hooks.json with `json`, starts each handler of EVENT whose
matcher is empty or the payload's tool name (compared as text) with `os.posix_spawn`, feeds
it the payload, reads its output in one poll loop, waits for it, and prints the last JSON
object a handler answered (`{}` when none did). No process groups, timeouts, output caps,
trust, dialects or reports: what agenthooks does beyond this is what its ratio to this
program measures. `scripts/bench` runs it with the interpreter it runs agenthooks with.
"""

import json
import os
import select
import sys


def handlers(config: str, event: str, tool: str) -> list[str]:
    with open(config, "rb") as file:
        hooks = json.loads(file.read())
    found = []
    for definition in hooks.values():
        for group in definition.get(event, ()):
            if group.get("matcher") in (None, "", tool):
                found.extend(handler["command"] for handler in group.get("hooks", ()))
    return found


def spawn(command: str, payload: bytes) -> tuple[int, int]:
    """Start one handler (its words exec'd directly, found on PATH); its pid and stdout."""
    stdin_read, stdin_write = os.pipe()
    stdout_read, stdout_write = os.pipe()
    # Written before the start, so that no EPIPE comes from a handler that never reads it:
    # a payload smaller than a pipe's buffer.
    os.write(stdin_write, payload)
    os.close(stdin_write)
    words = command.split()
    pid = os.posix_spawnp(words[0], words, os.environ, file_actions=[
        (os.POSIX_SPAWN_DUP2, stdin_read, 0), (os.POSIX_SPAWN_DUP2, stdout_write, 1)])
    os.close(stdin_read)
    os.close(stdout_write)
    return pid, stdout_read


def main() -> int:
    event, config = sys.argv[1], sys.argv[2]
    payload = sys.stdin.buffer.read()
    tool = json.loads(payload).get("toolCall", {}).get("name", "")
    pids = {fd: pid for pid, fd in (spawn(c, payload) for c in handlers(config, event, tool))}
    output = dict.fromkeys(pids, b"")
    poll = select.poll()
    for fd in pids:
        poll.register(fd, select.POLLIN)
    while pids:
        for fd, _events in poll.poll():
            data = os.read(fd, 65536)
            if data:
                output[fd] += data
            else:  # the handler closed its stdout: reap it
                poll.unregister(fd)
                os.close(fd)
                os.waitpid(pids.pop(fd), 0)
    answer = {}
    for text in output.values():
        if text.strip():
            answer = json.loads(text)
    sys.stdout.write(json.dumps(answer) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
