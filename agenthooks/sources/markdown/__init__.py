"""Markdown hook files: `.harness/hooks/*.md`, YAML frontmatter and a sandboxed Starlark script.

    ---
    event: tool.pre
    priority: 10
    when: payload["name"] == "run_command"
    script: |
      def handle(event, payload):
          ...
          return allow()
    ---

A Markdown hook is one more in-process transform hook of the engine (`agenthooks.api.Hooks`),
registered with `hooks.on`, so the engine's one fold decides: priority order (ties by file
name), the first block terminal, modify chaining into the command handlers. See `files` for
loading and registering, `frontmatter` for the format and its checks, `script` for the
sandbox, `hook` for a call.

Nothing here is imported by a run that has no Markdown hook.
"""
