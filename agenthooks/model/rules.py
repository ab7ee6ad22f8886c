"""The rule table: every diagnostic agenthooks can report, as data.

Rule ids are stable: CI configurations and the docs' rule tables (docs/validate.md,
docs/dialects.md) refer to them.
"""

from __future__ import annotations

from agenthooks._lean.records import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from agenthooks.model.handlers import Severity


class Rule(NamedTuple):
    id: str
    severity: Severity
    summary: str


RULES: dict[str, Rule] = {
    rule.id: rule
    for rule in (
        Rule("unreadable", "error", "the file cannot be read"),
        Rule("not-a-file", "error", "a directory, FIFO, device or socket named as a hooks file"),
        Rule("too-large", "error", "the file is over the size limit (16 MiB by default)"),
        Rule("encoding", "error", "the file is not UTF-8"),
        Rule("bom", "error", "the file starts with a UTF-8 byte-order mark"),
        Rule("json-syntax", "error", "the file is not valid JSON"),
        Rule("json-constant", "error", "NaN or Infinity, which JSON does not allow"),
        Rule("nesting-too-deep", "error", "lists and objects nested more than 200 levels deep"),
        Rule("format-ambiguous", "error", "a file named by path whose content reads as "
             "another host's settings too (`{\"hooks\": {\"PreToolUse\": [...]}}`): which, "
             "--dialect says"),
        Rule("top-level-type", "error", "the top level is not an object of hook names"),
        Rule("definition-type", "error", "a hook definition is not an object"),
        Rule("enabled-type", "error", "`enabled` is not true or false"),
        Rule("unknown-event", "error", "an event name the host does not know (hooks.json: a key "
             "that is neither `enabled` nor an event)"),
        Rule("event-type", "error", "an event's value is not a list"),
        Rule("handler-needs-group", "error", "a handler directly under an event that takes "
             "matcher groups"),
        Rule("group-in-flat-event", "error", "a matcher group under a flat event"),
        Rule("group-type", "error", "an item of a tool event is not an object"),
        Rule("group-hooks", "error", "a matcher group without a `hooks` list"),
        Rule("matcher-type", "error", "a matcher that is not a string"),
        Rule("matcher-regex", "error", "a matcher that is not a valid regex"),
        Rule("matcher-misspelt", "error", "a tool matcher's name that misspells a tool's name "
             "(case, a letter or two): it never selects that tool"),
        Rule("handler-type", "error", "a handler that is not an object"),
        Rule("handler-kind", "error", "a handler `type` the host does not know (hooks.json: "
             "command, prompt)"),
        Rule("command-missing", "error", "a command handler without a non-empty `command` string"),
        Rule("prompt-missing", "error", "a prompt (or agent) handler without a non-empty `prompt`"),
        Rule("timeout-invalid", "error", "a `timeout` that is not a positive number (whole "
             "seconds in hooks.json)"),
        Rule("command-unrunnable", "error", "a command with a NUL or a lone surrogate"),
        Rule("handler-dialect", "error", "a hooks.json handler's `dialect` that names no host"),
        Rule("schema", "error", "any other shape the JSON Schema forbids"),
        Rule("unknown-key", "warning", "an unknown key in a group or handler (ignored)"),
        Rule("duplicate-key", "warning", "a key given twice (JSON keeps the last one)"),
        Rule("flat-matcher", "warning", "a matcher on an event that ignores matchers"),
        Rule("script-missing", "warning", "a relative (or project-dir) script path that is "
             "missing or not executable"),
        Rule("prompt-handler", "warning", "a prompt handler, which agenthooks cannot run"),
        Rule("no-events", "warning", "a hook definition with no event"),
        Rule("matcher-other-host", "note", "a hooks.json matcher naming a tool in another "
             "host's words (`Bash`): it selects that tool under every host"),
        Rule("matcher-unknown-tool", "warning", "a hooks.json matcher naming a tool no host has: "
             "it selects only a custom or MCP tool of that very name"),
        Rule("matcher-backtracking", "warning", "a matcher with a repetition inside a repetition"),
        Rule("timeout-seconds", "warning", "a timeout of 1000 or more where the host counts "
             "seconds (hooks.json, Claude Code, Codex, Cursor, Copilot): likely milliseconds"),
        Rule("control-character", "warning", "control characters in a hook name or command"),
        Rule("duplicate-handler", "warning", "the same handler under two hook names runs once"),
        Rule("unsafe-workspace", "error", "a discovered hook file (or its folder) others could "
             "have written: that file alone is skipped, a deny under --fail-closed"),
        Rule("near-miss", "warning", "a hook file where agenthooks never looks (`hooks.json` at "
             "the root, `.agents/hook.json`, `agents/hooks.json`...): it never runs"),
        Rule("config-missing", "error", "an agenthooks entry whose --config names no file: "
             "none of its gates runs"),
        Rule("user-config", "error", "the user config file (`~/.config/agenthooks/config.toml`) "
             "is not valid TOML or has a bad key or value: every run stops with an error"),
        Rule("wiring-runs-nothing", "error", "an `agenthooks run` entry on an event no file "
             "agenthooks reads under that host has: it gates nothing"),
        Rule("run-refused", "error", "an `agenthooks run` entry whose event or --host word the "
             "run refuses: it exits 1 on every call, which most hosts let through"),
        Rule("gate-cannot-block", "error", "an `agenthooks run --fail-closed` entry on an "
             "event where its host documents it cannot block (`agenthooks hosts`): it gates "
             "nothing"),
        Rule("runs-itself", "error", "a handler that runs `agenthooks run` on the file it is "
             "in: the host runs it, and it runs the file's other hooks a second time"),
    )
}

# Markdown hook files (.harness/hooks/*.md), tested with Markdown files (tests/sources/markdown).
MARKDOWN_RULES: dict[str, Rule] = {
    rule.id: rule
    for rule in (
        Rule("frontmatter-missing", "error", "a Markdown hook without `---` frontmatter"),
        Rule("frontmatter-unterminated", "error", "frontmatter without its closing `---`"),
        Rule("yaml-syntax", "error", "frontmatter that is not valid YAML"),
        Rule("frontmatter-type", "error", "frontmatter that is not a mapping of keys"),
        Rule("event-missing", "error", "a Markdown hook without `event`"),
        Rule("event-invalid", "error", "an `event` that is not a Markdown hook event"),
        Rule("priority-invalid", "error", "a `priority` that is not a whole number"),
        Rule("timeout-ms-invalid", "error", "a `timeout_ms` that is not a positive whole number"),
        Rule("on-error-invalid", "error", "an `on_error` other than block or allow"),
        Rule("starlark-script-missing", "error", "no `script`, or one that is not text"),
        Rule("starlark-syntax", "error", "a `script` that does not parse as Starlark"),
        Rule("starlark-name", "error", "a name Starlark does not know, in `script` or `when`"),
        Rule("starlark-load", "error", "top-level code of a `script` that fails or runs too long"),
        Rule("starlark-handle-missing", "error", "a `script` that does not define `handle`"),
        Rule("starlark-handle-params", "error", "a `handle` that cannot take (event, payload)"),
        Rule("starlark-when", "error", "a `when` that is not a Starlark expression"),
        Rule("frontmatter-unknown-key", "warning", "an unknown frontmatter key (ignored)"),
        Rule("frontmatter-duplicate-key", "warning", "a frontmatter key given twice"),
    )
}
RULES.update(MARKDOWN_RULES)

# Claude Code and Gemini CLI settings files (agenthooks.sources.dialects), tested in
# tests/sources/dialects and listed in docs/dialects.md's own table for them. They share the rules
# above where the meaning is the same (unknown-event, timeout-invalid...); `RULES` itself stays the
# table of hooks.json and Markdown hooks, each rule with a bad file in tests/sources/hooksjson/bad.
DIALECT_RULES: dict[str, Rule] = {
    rule.id: rule
    for rule in (
        Rule("settings-type", "error", "a settings file, or its `hooks`, that is not an object"),
        Rule("codex-root-key", "error",
             "a top-level key other than `hooks` in a Codex hooks.json: Codex rejects the file"),
        Rule("codex-unknown-event", "warning",
             "an event name Codex does not know: it skips those hooks without a word"),
        Rule("codex-untrusted-hook", "warning",
             "a Codex hook whose hash config.toml does not record as trusted: Codex skips it"),
        Rule("codex-project-untrusted", "warning",
             "a project `.codex/` folder in a project Codex does not trust: none of it loads"),
        Rule("codex-shutdown-timeout", "warning",
             "a SessionEnd or Interrupt timeout over 3 s, which Codex cuts short"),
        Rule("toml-syntax", "error",
             "a Codex config.toml that is not valid TOML: Codex does not start"),
        Rule("codex-matcher-skipped", "warning",
             "a Codex matcher that is not a valid regex: Codex skips that group only"),
        Rule("hooks-config-invalid", "error",
             "Gemini's `hooksConfig` or Claude's `disableAllHooks` of the wrong type"),
        Rule("field-missing", "error",
             "an http handler without `url`, an mcp_tool one without `server` and `tool`"),
        Rule("url-scheme", "error",
             "an http handler `url` that is not http or https (`file:`, `data:`...)"),
        Rule("option-type", "error",
             "a handler or group setting of the wrong type (`args`, `async`, `sequential`...)"),
        Rule("timeout-milliseconds", "warning",
             "a Gemini `timeout` under 1000, which looks like seconds but counts milliseconds"),
        Rule("matcher-wrong-host", "error",
             "a host's tool matcher naming a tool in another host's words: it never matches"),
        Rule("matcher-unanchored", "warning",
             "a tool regex that also matches longer names (`Edit.*` matches NotebookEdit)"),
        Rule("matcher-mcp-server", "warning",
             "a Claude Code or Codex matcher `mcp__server` alone, which matches no tool"),
        Rule("matcher-exact-text", "warning",
             "a Gemini lifecycle matcher with `|`, compared as exact text: never matches"),
        Rule("matcher-regex-fallback", "warning",
             "a Gemini tool matcher that is not a regex, so it is compared as exact text"),
        Rule("handler-host-only", "warning",
             "a handler only the host can run (mcp_tool, prompt, agent, plugin, runtime)"),
        Rule("beside-agenthooks", "warning",
             "a hook beside the `agenthooks run` entry: its host runs it under its own rules"),
        Rule("hooks-disabled", "warning",
             "`disableAllHooks: true` or `hooksConfig.enabled: false` turns every hook off"),
        Rule("version-invalid", "error", "a Cursor hooks.json whose `version` is not 1"),
        Rule("version-missing", "warning",
             "a Cursor hooks.json without `version`: it runs, but Cursor's UI does not list it"),
        Rule("option-ignored", "warning",
             "a handler option its host ignores on this event (Cursor's `loop_limit` off "
             "stop/subagentStop, `failClosed` where nothing can be blocked)"),
        Rule("cursor-reads-claude", "warning",
             "a project with Cursor hooks and Claude Code hooks: Cursor runs both"),
        Rule("copilot-reads-claude", "warning",
             "a repository with Copilot hooks and Claude Code hooks: Copilot CLI runs both"),
        Rule("copilot-untrusted-folder", "warning",
             "repository hooks of a folder Copilot CLI does not trust: `copilot -p` skips them"),
        Rule("copilot-item-dropped", "warning",
             "a malformed item of a Copilot hooks file: Copilot drops it and loads the rest"),
        Rule("copilot-fails-open", "warning",
             "a Copilot gate that fails open: an http preToolUse hook, or agenthooks without "
             "--fail-closed"),
        Rule("copilot-unknown-event", "warning",
             "an event name Copilot CLI does not know (`pretooluse`): it drops those hooks "
             "without a word"),
        Rule("copilot-matcher-skipped", "warning",
             "a Copilot matcher that is not a valid regex: Copilot skips that entry only"),
        Rule("copilot-claude-answer", "warning",
             "a camelCase Copilot hook answering in Claude Code's fields, which Copilot ignores"),
        Rule("vscode-ignores-matcher", "warning",
             "a Claude Code tool matcher in a project VS Code opens: its agent ignores it"),
        Rule("factory-hooks-wrapper", "warning",
             "a `hooks` wrapper in a Factory Droid hooks.json, which is keyed by event name: "
             "Droid finds no event under it and runs none of its hooks"),
        Rule("devin-hooks-wrapper", "warning",
             "a `hooks` wrapper in a Devin CLI hooks.v1.json, which is keyed by event name: "
             "Devin finds no event under it and runs none of its hooks"),
        Rule("devin-reads-claude", "warning",
             "a project with Devin CLI hooks and Claude Code hooks: Devin runs both"),
        Rule("factory-command-regex-invalid", "warning",
             "a Factory Droid `commandRegex` that is not a valid regex: Droid skips the filter"),
        Rule("factory-settings-ignored", "warning",
             "hooks in a Factory Droid settings file beside a hooks.json: Droid reads only "
             "the hooks.json"),
        Rule("augment-mcp-matcher", "error",
             "an Augment tool matcher naming MCP tools without the `mcp:` prefix: Augment "
             "never matches an MCP tool with it, so the gate never runs for one"),
        Rule("augment-cursor-event", "error",
             "a Cursor tool event word in an Augment settings file: Augment reads it with a "
             "matcher none of its tools has, or not at all beside its own events"),
        Rule("augment-cursor-stop", "warning",
             "Cursor's `stop` in an Augment settings file of no other event: Augment runs it as "
             "Stop, agenthooks does not read it"),
        Rule("kimi-hooks-ignored", "error",
             "a Kimi Code [[hooks]] entry its strict schema refuses (another key, an unknown "
             "event, a timeout out of 1-600 seconds, an empty command): Kimi Code drops the "
             "whole `hooks` section, so no hook of the file runs"),
        Rule("vibe-hooks-ignored", "error",
             "a Mistral Vibe hooks.toml whose `hooks` is not a list of [[hooks]] tables: Vibe "
             "drops the whole file, so none of its hooks runs"),
        Rule("vibe-hook-skipped", "error",
             "a Mistral Vibe [[hooks]] entry its model refuses (no `name`, an unknown `type`, "
             "a blank `command` or `match`, `strict` on post_agent, a name already taken): "
             "Vibe skips that hook"),
        Rule("vibe-untrusted-folder", "warning",
             "a project's Mistral Vibe hooks.toml in a folder Vibe does not trust: it skips "
             "those hooks without a word"),
        Rule("crush-will-not-start", "error",
             "a Charm Crush crush.json its loader refuses (a hook without `command`, a Claude "
             "Code matcher group among them; a matcher RE2 does not compile, `*` too; a "
             "timeout that is not whole seconds; a value of the wrong type): Crush does not "
             "start, so no hook runs"),
        Rule("crush-event-never-fires", "warning",
             "an event key of a Charm Crush crush.json other than PreToolUse (any case, `_` "
             "ignored): Crush keeps it and never runs its hooks"),
        Rule("grok-hook-disabled", "warning",
             "a Grok Build hook named in $GROK_HOME/disabled-hooks: Grok never runs it"),
        Rule("grok-untrusted-folder", "warning",
             "a project's Grok Build hook files in a folder Grok does not trust: headless, it "
             "skips them without a word"),
        Rule("junie-project-hooks-ignored", "warning",
             "hooks in a project's .junie/config.json: JetBrains Junie runs none of them unless "
             "the file is passed with --config-location"),
        Rule("junie-permission-approves", "warning",
             "a JetBrains Junie PermissionRequest hook that is not `async`: at exit 0 without a "
             "deny it approves the permission dialog"),
        Rule("crush-rc-unread", "warning",
             "a Charm Crush `crushrc` with `hook` lines beside a crush.json: Crush runs those "
             "hooks, agenthooks does not read them"),
        Rule("goose-file-skipped", "error",
             "a value of a Goose plugin's hooks/hooks.json that its loader refuses (an "
             "`on_failure` on PreToolUse other than \"allow\" or \"block\", a `timeout` that "
             "is not whole seconds, a `type`, `command` or `matcher` that is not a string, an "
             "action that is not an object): Goose skips the whole file, every hook of the "
             "plugin"),
        Rule("kiro-version", "error",
             'a Kiro hooks file without `"version": "v1"`, the schema Kiro reads'),
        Rule("kiro-file-unread", "warning",
             "a Kiro hooks file in a folder below .kiro/hooks/: Kiro reads only the *.json "
             "files directly in it, so none of its hooks runs"),
        Rule("kiro-hook-disabled", "note",
             "a Kiro hook with `enabled: false`: listed as disabled, never run"),
        Rule("deepagents-async", "error",
             "a deepagents-code handler with `async: true`, which it refuses and skips: the "
             "hook never runs"),
        Rule("matcher-never-runs", "error",
             "a matcher on an event whose host tests it against an empty value (Kimi Code's "
             "Stop, Interrupt, SessionHeartbeat) that does not match it, or drops its group "
             "(deepagents-code's UserPromptSubmit, Stop), or a Mistral Vibe `re:` regex that "
             "does not compile, or a Goose matcher that does not compile (`*`) or is tested "
             "against an empty value (SessionStart, SessionEnd, Stop): the hook never runs"),
        Rule("event-outside-hooks", "error",
             "an event at the top level of a file whose host reads events only under `hooks` "
             "(Windsurf): its handlers never run"),
        Rule("rulesync-shadowed", "warning",
             "a legacy .rulesync/hooks.json beside .rulesync/hooks.jsonc: rulesync reads the "
             "JSONC file alone"),
        Rule("rulesync-tool-unknown", "note",
             "a rulesync block for a tool agenthooks does not answer for: listed, never run"),
        Rule("cline-hook-never-runs", "warning",
             "a file of a Cline hooks folder named after an event otherwise than Cline reads "
             "it (`pre-tool-use.sh`, `PreToolUse.rb`): Cline never runs it"),
        Rule("cline-not-a-hook", "note",
             "a file of a Cline hooks folder whose name is no event (a README, a helper "
             "script): Cline never runs it"),
        Rule("cline-folder-unread", "warning",
             "a Cline hooks folder of a project below its git root: Cline reads those of the "
             "git root (its workspace) alone, so the hook never runs"),
        Rule("cline-link-skipped", "warning",
             "a symbolic link in a Cline hooks folder, which Cline skips: the hook never runs"),
        Rule("cline-event-never-fires", "warning",
             "a Cline PreCompact hook: the CLI maps the name to no event and never runs it"),
        Rule("cline-answer-unread", "note",
             "a Cline hook of an event it starts detached (TaskStart, TaskComplete, "
             "UserPromptSubmit...): its answer is never read, so it cannot block, rewrite or "
             "add context"),
    )
}
# Every rule of every format: what a diagnostic's rule id is looked up in.
ALL_RULES: dict[str, Rule] = {**RULES, **DIALECT_RULES}
