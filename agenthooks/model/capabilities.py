"""What each host can really enforce, as data: per host and event, whether a hook's answer can
block, rewrite what the event is about, or add context for the model, and what the host does
when a hook times out or exits with a code that is not a block.

Keyed by the host's id (`model.hosts`) and the canonical event ids of `model.events`
(`EventRow.id`: `tool.pre`, `agent.stop`, `claude.PermissionRequest`...). Every fact names
its source: a vendor documentation page and section, or a source file at a commit. A value
of None is a fact no source states: the table says "unknown" rather than guess.

A host derived from another (a row of `model.hosts` with `derived_from`) states only its
differences: every lookup walks `model.hosts.lineage(host)`, the host then its parents, and
takes the first host that has the fact. `agenthooks hosts`, `explain` and `validate` (rule
`gate-cannot-block`) read the table; docs/hosts.md's capability table is `markdown_table()`.
"""

from __future__ import annotations

from agenthooks._lean.records import NamedTuple
from agenthooks.model.events import EVENT_TABLE, filled
from agenthooks.model.hosts import host_ids, host_name, host_row, lineage

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

# What a host does with a hook that times out, or that exits non-zero without blocking.
OPEN = "open"  # the action goes on as if the hook had not answered
CLOSED = "closed"  # the action is denied
VARIES = "varies"  # depends on the exit code or the handler type: the note says how
FAILURE_WORDS: dict[str, str] = {OPEN: "fails open", CLOSED: "fails closed",
                                 VARIES: "depends (see note)"}


class HostFacts(NamedTuple):
    """What holds on every event of a host: its failure handling, each fact with a source."""

    fail_switch: str | None  # the per-hook setting that makes a failure block; None: none
    fail_switch_cite: str
    on_timeout: str | None  # OPEN, CLOSED, VARIES; None: no source says
    on_timeout_cite: str
    on_error: str | None  # a non-zero exit that is not the host's block
    on_error_cite: str
    note: str = ""
    # The exit codes on which a handler blocks (where the event can block), as the host's code
    # reads them: a key of EXIT_RULES; None: no source says.
    blocking_exits: str | None = None
    # What it makes of another exit, for people ("a non-blocking error: the call goes through").
    other_exit: str = ""
    # Where its docs say otherwise than its code (Gemini CLI's say 2 alone): the exits
    # agenthooks' run reads as a block for its handlers, which follows the docs. None: as
    # `blocking_exits`.
    documented_exits: str | None = None


# The exit codes a host blocks on, by the words `HostFacts.blocking_exits` says them in.
EXIT_RULES: dict[str, Callable[[int], bool]] = {
    "2": lambda code: code == 2,
    "2 or 49": lambda code: code in (2, 49),
    "2 and up": lambda code: code >= 2,
    "any but 0": lambda code: code != 0,
    "none": lambda code: False,  # it reads no exit code (Cline)
}


class EventFacts(NamedTuple):
    """What a hook's answer can do on one event of one host (None: no source says)."""

    block: bool | None  # stop the action (a tool call, a prompt, the agent stopping...)
    # change what the event is about: a tool's arguments before it runs, its result after,
    # the prompt, the model request
    rewrite: bool | None
    context: bool | None  # add text the model reads
    cite: str
    note: str = ""
    on_error: str | None = None  # where this event differs from the host's `on_error`


class Capability(NamedTuple):
    """One host and event, its facts resolved along the host's lineage."""

    host: str
    event: str  # the canonical event id
    word: str | None  # the host's word for the event, when the events table has one
    block: bool | None
    rewrite: bool | None
    context: bool | None
    fail_switch: str | None
    on_timeout: str | None
    on_error: str | None
    cites: tuple[str, ...]
    note: str


# --- sources ------------------------------------------------------------------------------

CC = "code.claude.com/docs/en/hooks (mirror ericbuess/claude-code-docs docs/hooks.md@ec68a5b)"
GM = "google-gemini/gemini-cli docs/hooks/reference.md@06c0d81"
GM_CODE = "google-gemini/gemini-cli packages/core/src/hooks/hookRunner.ts@0c04bc4"
CU = ("cursor.com/docs/hooks (mirror mehmetbaykar/cursor-docs-skill "
      "skills/cursor-docs/references/hooks.md@1cc1c99)")
CX = "developers.openai.com/codex/hooks"
CX_SRC = "openai/codex codex-rs/hooks/src/events"
CP = "github/docs content/copilot/reference/hooks-reference.md@05da5bc"
AG = "antigravity.google/docs/hooks"
WS = "docs.windsurf.com/windsurf/cascade/hooks"
QW = ("@qwen-code/qwen-code 0.24.4, bundled docs/features/hooks.md and "
      "packages/core/src/hooks/hookRunner.ts")
FD = "Factory-AI/factory docs/reference/hooks-reference.mdx@2a4debc"
AU = "@augmentcode/auggie 0.36.0, augment.mjs"
KM = "@moonshot-ai/kimi-code 2.1.0, dist/main.mjs, externalHooks"
DA = "PyPI deepagents-code 0.2.2, deepagents_code/hooks"
VB = "PyPI mistral-vibe 3.0.3, mistralai_vibe_local_harness/vibe/_foreign_hooks.py"
GK = "xai-org/grok-build@19d42e3 crates/codegen/xai-grok-hooks/src"
JN = "junie.jetbrains.com/docs/junie-cli-hooks.html (10 July 2026)"
KR = "kiro.dev/docs/cli/v3/hooks"
KR_2 = "kiro.dev/docs/cli/hooks (aws/amazon-q-developer-cli@35b5266 docs/hooks.md)"
CR = "charmbracelet/crush internal/hooks/runner.go@37f36e9"
OC = "measured with opencode 1.18.33, agenthooks' plugin (agenthooks/hosts/opencode/plugin.js)"
OC_SRC = "anomalyco/opencode@03eeb9f packages/opencode/src/session/tools.ts"
GS = "block/goose@0825b57 crates/goose/src/hooks/mod.rs"
DV = "docs.devin.ai/cli/extensibility/hooks"
CL = "cline@3.0.65, @cline/core 0.0.86 dist/index.js"
CL_RUN = f"{CL} `createHookConfigFileHooks`; measured with cline 3.0.65"

HOST_FACTS: dict[str, HostFacts] = {
    "claude": HostFacts(
        'onFailure: "block"', 'code.claude.com/docs/en/hooks, "Block the action when a hook '
                              'fails" (v2.1.295, later than the mirror)',
        OPEN, f'{CC}, "Timeouts": a timed-out command, http or mcp_tool hook does not block '
              "the tool call",
        OPEN, f'{CC}, "Other exit codes": a non-blocking error for most events',
        note='onFailure: "block" turns a failure that cannot start, times out or exits '
             "with another code into a block; Claude Code before 2.1.295 ignores it",
        blocking_exits="2", other_exit="a non-blocking error: the call goes through"),
    "gemini": HostFacts(
        None, f'{GM}, "Hook configuration": type, command, name, timeout, description',
        OPEN, f"{GM_CODE}: a timed-out hook resolves as a failure with no output",
        VARIES, f'{GM}, "Global hook mechanics": other codes are a warning; {GM_CODE}: '
                "convertPlainTextToHookOutput",
        note="the docs and hookRunner.ts@0c04bc4 read any exit but 0 and 2 as a warning (the "
             "call goes on); agenthooks' end-to-end runs of Gemini CLI 0.61.0 saw an exit 127 "
             "with text on stderr deny",
        blocking_exits="2 and up", documented_exits="2",
        other_exit="a warning: the call goes through"),
    "cursor": HostFacts(
        "failClosed: true", f'{CU}, "Per-Script Configuration Options": failClosed',
        OPEN, f'{CU}, "Per-Script Configuration Options": crash, timeout and invalid JSON let '
              "the action through unless failClosed",
        OPEN, f'{CU}, "Command-Based Hooks": other exit codes, the action proceeds (fail-open '
              "by default)",
        note="failClosed acts only where the event can block",
        blocking_exits="2", other_exit="a failure that lets the call through (unless the "
                                       "handler says failClosed: true)"),
    "codex": HostFacts(
        None, "openai/codex codex-rs/hooks/src/engine/command_runner.rs@0174665: a handler "
              "is command, timeout, status message, env (no failure setting)",
        OPEN, "openai/codex codex-rs/hooks/src/engine/command_runner.rs@0174665 (a timeout is "
              f"a run error) and {CX_SRC}/pre_tool_use.rs@0082977 (a run error blocks nothing)",
        OPEN, f"{CX_SRC}/pre_tool_use.rs@0082977: an exit other than 0 and 2 is a failed hook, "
              "which blocks nothing",
        blocking_exits="2", other_exit="a failure that lets the call through"),
    "copilot": HostFacts(
        None, f'{CP}, "Command hooks": the fields of a command hook',
        OPEN, f'{CP}, "Exit codes for command hooks": timeouts are fail-open for every event',
        OPEN, f'{CP}, "Exit codes for command hooks": other non-zero is logged, the run '
              "continues",
        note="preToolUse command hooks are fail-closed on a crash or a non-zero exit; "
             "http preToolUse hooks fail open",
        blocking_exits="any but 0", other_exit="on preToolUse a deny (hook errored), elsewhere "
                                               "a failure that lets the call through"),
    "antigravity": HostFacts(
        None, f'{AG}, "Hook handler configuration": type, command, timeout',
        None, f"{AG}: the timeout (default 30 s) is documented, not what follows it",
        None, f"{AG}: the exit codes are not documented",
        note="third parties report a missing or malformed PreToolUse decision as a deny"),
    "factory": HostFacts(
        None, f'{FD}, "Structure": a hook is type ("command" only), command, timeout',
        None, f'{FD}, "Hook Execution Details": a 60-second limit by default, not what '
              "follows it",
        OPEN, f'{FD}, "Simple: Exit Code": other exit codes are a non-blocking error, '
              "execution continues"),
    "windsurf": HostFacts(
        None, f'{WS}, "Configuration": a hook is command, powershell, show_output, '
              "working_directory (no failure setting)",
        None, f"{WS}: no timeout is documented",
        OPEN, f'{WS}, "How Hooks Work": only exit code 2 blocks a pre-hook',
        note="Windsurf reads the exit code alone: no answer on stdout is read"),
    "augment": HostFacts(
        None, f"{AU} `Hnt`: a hook is type, command, args, timeout (no failure setting)",
        OPEN, f"{AU} `xao`, `Bao`: SIGTERM, SIGKILL 5 s later, and the call goes on",
        OPEN, f"{AU} `wao`: another exit code is a non-blocking error, its JSON unread"),
    "kimi": HostFacts(
        None, f"{KM} `configSection.ts`: an entry is event, matcher, command, timeout (no "
              "failure setting)",
        OPEN, f"{KM} `runHook.ts`: SIGTERM, SIGKILL 100 ms later, and an allow",
        OPEN, f"{KM} `resultFromExitCode`: another exit code is an allow, its output unread"),
    "deepagents": HostFacts(
        None, f"{DA}/models/config.py: a handler is type, command, timeout, statusMessage "
              "(no failure setting)",
        OPEN, f"{DA}/runner.py: the group killed, a `timeout` diagnostic, no decision",
        OPEN, f"{DA}/runner.py: another exit code is a `nonzero_exit` diagnostic, no decision"),
    "junie": HostFacts(
        "blockOnError: true", f'{JN}, "Stop": a failed Stop hook with blockOnError keeps the '
                              "agent going (Stop alone)",
        OPEN, f'{JN}, "Limitations": a timed-out hook is killed, a warning, and Junie goes on',
        OPEN, f'{JN}, "Exit codes": another non-zero exit logs a warning, the tool proceeds',
        note="exit 0 on PermissionRequest without a deny approves the dialog; agenthooks "
             "answers it with exit 1 when no hook decided, which leaves it to the user"),
    # Devin CLI's other facts are Claude Code's, whose hooks it runs unchanged ("If you already
    # have hooks configured for Claude Code, they will work with Devin CLI automatically").
    "devin": HostFacts(
        None, f'{DV}/overview, "Hook Format": a hook is type, matcher, command or prompt, '
              "timeout (no failure setting)",
        None, f'{DV}/overview, "Hook Format": a timeout in seconds, not what follows it',
        OPEN, f'{DV}/overview, "Exit Codes": another code is an error, logged; {DV}: "any '
              'other non-zero exit code is logged as an error and does not block"',
        blocking_exits="2", other_exit="an error, logged: the call goes through"),
    "grok": HostFacts(
        None, f"{GK}/config.rs `RawHandler`: type, command, url, timeout, env (no failure "
              "setting)",
        OPEN, f"{GK}/runner/command.rs: a timed-out hook is a failure, and the action goes on",
        OPEN, f"{GK}/runner/command.rs `parse_blocking_result`: another exit code is a failure",
        note="the one failure that blocks: a rewrite (`updatedInput`) that does not fit the "
             "tool's schema (measured with Grok 1.0.41)"),
    "vibe": HostFacts(
        "strict = true", f"{VB} `_fail`, `_post_tool_fail`: a strict pre_tool hook's failure "
                         "is a deny, a strict post_tool hook's blanks the result",
        VARIES, f"{VB} `_run_command`: the group killed; allowed, denied under `strict`",
        VARIES, f"{VB} `_run_command`: any exit but 0 (2 included) is a failure: allowed, "
                "denied under `strict`",
        note="only exit 0 is read; a failure lets the call through unless the hook says "
             "`strict = true` (not on post_agent)"),
    "goose": HostFacts(
        'on_failure: "block"', f"{GS} `RawCommandAction`, `apply_verdict`: read on PreToolUse "
                               "alone, a failure there then denies (measured with goose "
                               "1.52.0)",
        VARIES, f"{GS}: a timeout is a failure: allowed, denied under on_failure block "
                "(measured with goose 1.52.0; only the `sh` child is killed)",
        VARIES, f"{GS} `classify_output`: another exit, or stdout neither empty nor a "
                "decision, is a failure: allowed, denied under on_failure block",
        note="only PreToolUse and Stop read an answer; a failure lets the call through "
             "unless the PreToolUse action says `on_failure: \"block\"`",
        blocking_exits="2",
        other_exit='a failure that lets the call through (a deny under on_failure: "block")'),
    "crush": HostFacts(
        None, "charmbracelet/crush internal/config/config.go@37f36e9 `HookConfig`: a hook is "
              "name, matcher, command, timeout (no failure setting)",
        OPEN, f"{CR}: the group interrupted, then killed; no decision, the call goes on",
        OPEN, f"{CR}: an exit other than 0, 2 and 49 is logged, no decision",
        note="exit 2 denies, exit 49 denies and ends the turn; a timeout, a crash or "
             "another exit lets the call through",
        blocking_exits="2 or 49", other_exit="a logged failure: the call goes through"),
    "kiro": HostFacts(
        None, f'{KR}, "The new format": a hook is name, trigger, matcher, action, timeout, '
              "enabled (no failure setting)",
        None, f"{KR}: what a timeout does is not said",
        OPEN, f'{KR_2}, "Hook output": another exit is a failed hook, its stderr a warning; '
              "the action goes on",
        note="exit 2 blocks PreToolUse, UserPromptSubmit and PreTaskExec, stderr the reason; "
             "any other exit lets the action through",
        blocking_exits="2", other_exit="a warning: the call goes through"),
    # OpenCode runs no hook command: agenthooks' plugin runs agenthooks, and its failures
    # are the plugin's to handle (a thrown Error blocks the call; there is no timeout).
    "opencode": HostFacts(
        None, f"{OC}: no hook settings at all, the plugin is the wiring (no failure setting)",
        VARIES, f"{OC}: OpenCode awaits a plugin's hook with no timeout (Plugin.trigger), and "
                "the plugin waits for agenthooks, whose handlers have their own timeouts",
        VARIES, f"{OC}: agenthooks not found, a crash, an exit other than 0 or an answer that "
                "is not its JSON object: the plugin throws before a call (a deny) and "
                "ignores it after",
        note="before a call, any failure of agenthooks blocks it; after, it is ignored; "
             "--fail-closed also denies what agenthooks sees fail (a broken hooks.json)"),
    "cline": HostFacts(
        None, f"{CL} `listHookConfigFiles`: a hook is a file named after its event (no "
              "settings, no failure setting)",
        OPEN, f"{CL_RUN}: a hook still running after 120 s is killed, logged and passed over",
        OPEN, f"{CL_RUN}: the exit code is never read; stdout that is not JSON is logged and "
              "passed over",
        note="Cline reads stdout alone (JSON, or the last `HOOK_CONTROL<tab>` line) of its "
             "PreToolUse and PostToolUse hooks; a refusal is `cancel: true`, which ends the "
             "whole task",
        blocking_exits="none",
        other_exit="nothing (it reads no exit code): the call goes through"),
    # Qwen Code copies Claude Code's hooks but not `onFailure`; tests/e2e/test_qwen.py
    # shows both failures letting a shell call through.
    "qwen": HostFacts(
        None, f'{QW}, "Command Hooks": type, command, name, description, timeout, async, env, '
              "shell, statusMessage (no failure setting)",
        OPEN, f"{QW}: a timed-out hook is a failure with no output",
        OPEN, f'{QW}, "Exit Code Behavior": other codes are a non-blocking error, execution '
              "continues",
        note="measured with Qwen Code 0.24.4: a hook that times out or exits 1 lets the call "
             'through, `onFailure: "block"` or not'),
}


def _facts(cite: str, block: bool | None, rewrite: bool | None, context: bool | None,
           note: str = "", on_error: str | None = None) -> EventFacts:
    return EventFacts(block, rewrite, context, cite, note, on_error)


_CC_EXIT2 = f'{CC}, "Exit code 2 behavior per event"'
_CC_DECIDE = f'{CC}, "Decision control"'

EVENT_FACTS: dict[str, dict[str, EventFacts]] = {
    "cline": {
        "tool.pre": _facts(f"{CL_RUN}; @cline/agents 0.0.86 `prepareToolExecution`", True, True,
                           True, "`cancel: true` refuses the call by ending the whole task "
                           "(the reason in Cline's log alone); `overrideInput` replaces the "
                           "input; context is a user message after the tool's result"),
        "tool.post": _facts(CL_RUN, False, False, True,
                            "the call ran already; `cancel: true` ends the task; context is a "
                            "user message after the result"),
        **{event: _facts(f"{CL_RUN}: started detached, its answer never read", False, False,
                         False)
           for event in ("turn.start", "agent.stop", "session.start", "session.end",
                         "claude.StopFailure", "codex.Interrupt", "cline.TaskResume")},
        "compact.pre": _facts(f"{CL} `HOOK_CONFIG_FILE_EVENT_MAP`: PreCompact maps to no event "
                              "of the CLI, which never runs it", False, False, False),
    },
    "claude": {
        "tool.pre": _facts(f"{_CC_EXIT2}; {CC}, \"PreToolUse decision control\"", True, True,
                           True, "permissionDecision deny|ask|defer; updatedInput"),
        "tool.post": _facts(f"{_CC_EXIT2}; {_CC_DECIDE}", False, True, True,
                            "the tool already ran: a block only tells the model; "
                            "updatedToolOutput replaces its result"),
        "error": _facts(_CC_EXIT2, False, False, True),
        "turn.start": _facts(_CC_EXIT2, True, False, True, "a block erases the prompt"),
        "agent.stop": _facts(f"{_CC_EXIT2}; {_CC_DECIDE}", True, False, True,
                             "a block keeps Claude working"),
        "session.start": _facts(_CC_DECIDE, False, False, True),
        "session.end": _facts(_CC_EXIT2, False, False, False),
        "compact.pre": _facts(_CC_EXIT2, True, False, False),
        "notification": _facts(_CC_EXIT2, False, False, False),
        "claude.PermissionRequest": _facts(
            f"{_CC_EXIT2}; {CC}, \"PermissionRequest decision control\"", True, True, False,
            "decision.behavior deny; allow may carry updatedInput"),
        "claude.PermissionDenied": _facts(_CC_EXIT2, False, False, False, "retry only"),
        "claude.PostToolBatch": _facts(f"{_CC_EXIT2}; {CC}, \"Add context for Claude\"", True,
                                       False, True, "a block stops the loop before the next "
                                       "model call"),
        "claude.UserPromptExpansion": _facts(_CC_EXIT2, True, False, True),
        "claude.SubagentStart": _facts(_CC_DECIDE, False, False, True),
        "claude.SubagentStop": _facts(f"{_CC_EXIT2}; {_CC_DECIDE}", True, False, True),
        "claude.StopFailure": _facts(_CC_EXIT2, False, False, False, "output ignored"),
        "claude.TaskCreated": _facts(_CC_EXIT2, True, False, False),
        "claude.TaskCompleted": _facts(_CC_EXIT2, True, False, False),
        "claude.TeammateIdle": _facts(_CC_EXIT2, True, False, False),
        "claude.PostCompact": _facts(_CC_EXIT2, False, False, False),
        "claude.InstructionsLoaded": _facts(_CC_EXIT2, False, False, False),
        "claude.ConfigChange": _facts(_CC_EXIT2, True, False, False),
        "claude.CwdChanged": _facts(_CC_EXIT2, False, False, False),
        "claude.FileChanged": _facts(_CC_EXIT2, False, False, False),
        "claude.WorktreeCreate": _facts(_CC_EXIT2, True, False, False,
                                        "any non-zero exit fails the creation",
                                        on_error=CLOSED),
        "claude.WorktreeRemove": _facts(_CC_EXIT2, False, False, False),
        "claude.Elicitation": _facts(_CC_EXIT2, True, False, False),
        "claude.ElicitationResult": _facts(f"{_CC_EXIT2}; {_CC_DECIDE}", True, True, False,
                                           "content overrides the user's answer"),
        "claude.Setup": _facts(f"{_CC_EXIT2}; {_CC_DECIDE}", False, False, True),
    },
    "gemini": {
        "tool.pre": _facts(f'{GM}, "BeforeTool"', True, True, False,
                           "hookSpecificOutput.tool_input merges over the arguments"),
        "tool.post": _facts(f'{GM}, "AfterTool"', False, True, True,
                            "the tool already ran: a deny or tool_output replaces its result"),
        "turn.start": _facts(f'{GM}, "BeforeAgent"', True, False, True),
        "agent.stop": _facts(f'{GM}, "AfterAgent"', True, False, False,
                             "a deny sends the reason as a new prompt (a retry)"),
        "session.start": _facts(f'{GM}, "SessionStart"', False, False, True),
        "session.end": _facts(f'{GM}, "SessionEnd"', False, False, False),
        "compact.pre": _facts(f'{GM}, "PreCompress"', False, False, False),
        "notification": _facts(f'{GM}, "Notification"', False, False, False),
        "model.pre": _facts(f'{GM}, "BeforeModel"', True, True, False,
                            "llm_request overrides the request"),
        "model.post": _facts(f'{GM}, "AfterModel"', True, True, False,
                             "llm_response replaces the chunk"),
        "tool.select": _facts(f'{GM}, "BeforeToolSelection"', False, True, False,
                              "toolConfig narrows the tools offered"),
    },
    "cursor": {
        "tool.pre": _facts(f'{CU}, "preToolUse"', True, True, False, "updated_input"),
        "tool.post": _facts(f'{CU}, "postToolUse"', False, True, True,
                            "updated_mcp_tool_output: MCP tools only"),
        "error": _facts(f'{CU}, "postToolUseFailure"', False, False, False,
                        "no output fields"),
        "turn.start": _facts(f'{CU}, "beforeSubmitPrompt"', True, False, False),
        "agent.stop": _facts(f'{CU}, "stop"', False, False, False,
                             "cannot block: followup_message continues (loop_limit)"),
        "session.start": _facts(f'{CU}, "sessionStart"', False, False, True),
        "session.end": _facts(f'{CU}, "sessionEnd"', False, False, False),
        "compact.pre": _facts(f'{CU}, "preCompact"', False, False, False),
        "claude.SubagentStart": _facts(f'{CU}, "subagentStart"', True, False, False),
        "claude.SubagentStop": _facts(f'{CU}, "subagentStop"', False, False, False,
                                      "cannot block: followup_message continues"),
        "cursor.beforeShellExecution": _facts(f'{CU}, "beforeShellExecution"', True, False,
                                              False),
        "cursor.afterShellExecution": _facts(f'{CU}, "afterShellExecution"', False, False,
                                             False),
        "cursor.beforeMCPExecution": _facts(f'{CU}, "beforeMCPExecution"', True, False, False),
        "cursor.afterMCPExecution": _facts(f'{CU}, "afterMCPExecution"', False, False, False),
        "cursor.beforeReadFile": _facts(f'{CU}, "beforeReadFile"', True, False, False),
        "cursor.afterFileEdit": _facts(f'{CU}, "afterFileEdit"', False, False, False),
        "cursor.afterAgentResponse": _facts(f'{CU}, "afterAgentResponse"', False, False, False),
        "cursor.afterAgentThought": _facts(f'{CU}, "afterAgentThought"', False, False, False),
        "cursor.beforeTabFileRead": _facts(f'{CU}, "beforeTabFileRead"', True, False, False),
        "cursor.afterTabFileEdit": _facts(f'{CU}, "afterTabFileEdit"', False, False, False),
        "cursor.workspaceOpen": _facts(f'{CU}, "workspaceOpen"', False, False, False),
    },
    "factory": {
        "tool.pre": _facts(f'{FD}, "Exit Code 2 Behavior", "PreToolUse Decision Control"',
                           True, True, None, "permissionDecision deny|ask; updatedInput"),
        "tool.post": _facts(f'{FD}, "PostToolUse Decision Control"', False, None, True,
                            'the tool already ran: "block" only prompts Droid'),
        "turn.start": _facts(f'{FD}, "UserPromptSubmit Decision Control"', True, None, True,
                             "a block erases the prompt"),
        "agent.stop": _facts(f'{FD}, "Stop/SubagentStop Decision Control"', True, None, None,
                             "a block keeps Droid working"),
        "claude.SubagentStop": _facts(f'{FD}, "Stop/SubagentStop Decision Control"', True,
                                      None, None),
        "session.start": _facts(f'{FD}, "SessionStart Decision Control"', False, None, True),
        "session.end": _facts(f'{FD}, "SessionEnd Decision Control"', False, None, None),
        "compact.pre": _facts(f'{FD}, "Exit Code 2 Behavior": N/A', False, None, None),
        "notification": _facts(f'{FD}, "Exit Code 2 Behavior": N/A', False, None, None),
    },
    "augment": {
        "tool.pre": _facts(f"{AU} `wao`, `zIt`", True, True, None,
                           "exit 2 or permissionDecision deny|ask; updatedInput"),
        "tool.post": _facts(f"{AU} `zIt`; docs.augmentcode.com/cli/hooks", False, False, True,
                            "the tool already ran: a block is read, never acted on"),
        "turn.start": _facts(f"{AU} `firePromptSubmitHook`", False, False, False,
                             "fired without waiting: its answer is never read"),
        "agent.stop": _facts(f"{AU} `zIt`", True, False, False,
                             "hookSpecificOutput.decision block keeps it working"),
        "session.start": _facts(f"{AU} `zIt`", False, False, True),
        "session.end": _facts(f"{AU} `zIt`", False, False, False),
        "notification": _facts(f"{AU} `zIt`", False, False, False),
    },
    # Kimi Code waits on PreToolUse, Stop and UserPromptSubmit (`triggerBlock`, `trigger`);
    # PreCompact and SessionStart it waits on without reading a block; the others it fires
    # and forgets (`fireAndForget`).
    "kimi": {
        "tool.pre": _facts(f"{KM} `runPreToolUse`", True, False, False,
                           "exit 2 or permissionDecision deny; no ask, no rewritten input"),
        "turn.start": _facts(f"{KM} `runPromptSubmitHook`, `userPrompt.ts`", True, False, True,
                             "the message, else stdout, is added for the model"),
        "agent.stop": _facts(f"{KM} `runStop`", True, False, False,
                             "a block's reason is a new user message, once per turn"),
        **{event: _facts(f"{KM} `fireAndForget`", False, False, False) for event in (
            "tool.post", "error", "claude.PermissionRequest", "claude.StopFailure",
            "claude.SubagentStop", "claude.PostCompact", "notification", "kimi.PermissionResult",
            "kimi.UserPromptQueued", "kimi.TurnStarted", "codex.Interrupt",
            "kimi.SessionHeartbeat", "kimi.TaskStarted")},
        **{event: _facts(f"{KM} `trigger`: waited on, its block unread", False, False, False)
           for event in ("session.start", "session.end", "claude.SubagentStart",
                         "compact.pre")},
    },
    "deepagents": {
        "tool.pre": _facts(f"{DA}/reducer.py, server_middleware.py", True, False, True,
                           "exit 2, permissionDecision deny or continue false; updatedInput "
                           "is not applied and drops the allow beside it"),
        "claude.PermissionRequest": _facts(f"{DA}/reducer.py", True, False, False,
                                           "decision.behavior deny"),
        "tool.post": _facts(f"{DA}/reducer.py", False, False, True,
                            "the tool already ran: a block's reason is added to its result"),
        "error": _facts(f"{DA}/reducer.py", False, False, True,
                        "a block's reason is added to the result"),
        "turn.start": _facts(f"{DA}/reducer.py", True, False, True,
                             "a block stops the prompt (headless: the run ends)"),
        "compact.pre": _facts(f"{DA}/reducer.py", True, False, False),
        "agent.stop": _facts(f"{DA}/reducer.py", True, False, True,
                             "a block or additionalContext keeps the agent going, 8 times at "
                             "most"),
        "claude.SubagentStop": _facts(f"{DA}/reducer.py", False, False, True,
                                      "a block's reason is added to the task's result"),
        "claude.SubagentStart": _facts(f"{DA}/reducer.py", False, False, True),
        "session.start": _facts(f"{DA}/reducer.py", False, False, True),
        **{event: _facts(f"{DA}/reducer.py: `unsupported_block`", False, False, False)
           for event in ("session.end", "notification")},
    },
    "junie": {
        "tool.pre": _facts(f'{JN}, "PreToolUse"', True, True, True,
                           '`decision` "deny", "block" or "ask", or exit 2; `updatedInput` '
                           "replaces the arguments; `additionalContext`, and any stdout that "
                           "is not JSON, reaches the model"),
        "claude.PermissionRequest": _facts(f'{JN}, "PermissionRequest"', True, False, False,
                                           "exit 0 without a deny approves the dialog"),
        "turn.start": _facts(f'{JN}, "UserPromptSubmit"', True, False, True),
        "agent.stop": _facts(f'{JN}, "Stop"', True, False, True,
                             '`decision: "block"` or exit 2 keeps the agent going (8 times at '
                             "most); `continue: false` ends the task"),
        "claude.StopFailure": _facts(f'{JN}, "StopFailure": its output is ignored', False,
                                     False, False),
        **{event: _facts(f"{JN}: its answer is ignored", False, False, False)
           for event in ("session.start", "session.end")},
    },
    "grok": {
        "tool.pre": _facts(f"{GK}/runner/command.rs `parse_blocking_result`", True, True, False,
                           '`decision: "deny"` or exit 2; hookSpecificOutput.updatedInput '
                           "replaces the arguments"),
        "agent.stop": _facts(f"{GK}/runner/command.rs `parse_stop_result`", True, False, True,
                             '`decision: "block"` keeps the agent going (8 times a turn at '
                             "most); hookSpecificOutput.additionalContext is fed back"),
        "claude.SubagentStop": _facts(f"{GK}/event.rs: a stop gate", True, False, True),
        **{event: _facts(f"{GK}/event.rs: `Observe`, its answer ignored", False, False, False)
           for event in ("tool.post", "error", "turn.start", "session.start", "session.end",
                         "compact.pre", "notification", "claude.PermissionDenied",
                         "claude.SubagentStart", "claude.StopFailure", "claude.PostCompact",
                         "rulesync.stopCancelled")},
    },
    "vibe": {
        "tool.pre": _facts(f"{VB} `_interpret_stdout`", True, True, False,
                           '`decision: "deny"`, the reason as the tool\'s result; '
                           "hook_specific_output.tool_input replaces the arguments"),
        "tool.post": _facts(f"{VB} `_interpret_post_tool_stdout`", True, True, True,
                            "a deny replaces the result with the reason; "
                            "hook_specific_output.additional_context adds to it"),
        "agent.stop": _facts(f"{VB} `_interpret_post_agent_stdout`", True, False, False,
                             "a deny is a retry, its reason the user's next message, 3 a "
                             "turn at most"),
    },
    "opencode": {
        "tool.pre": _facts(f"{OC_SRC}; {OC}", True, True, False,
                           "the plugin throws the reason (the model reads it as the tool's "
                           "result); a rewrite replaces `output.args`; no ask from a plugin",
                           on_error=CLOSED),
        "tool.post": _facts(f"{OC_SRC}; {OC}", False, False, True,
                            "the context is appended to the tool's result (`output.output`, "
                            "an MCP tool's `output.content`)", on_error=OPEN),
    },
    "devin": {
        "tool.pre": _facts(f'{DV}/lifecycle-hooks, "PreToolUse": "block, modify, or add '
                           'context to tool calls"; overview, "Exit Codes"', True, True, True,
                           'exit 2, or `decision` "block" or "deny"'),
        "tool.post": _facts(f'{DV}/lifecycle-hooks, "PostToolUse": "logging, validation, or '
                            'triggering follow-up actions"', None, None, None,
                            "the tool already ran"),
        "claude.PermissionRequest": _facts(f'{DV}/lifecycle-hooks, "PermissionRequest": '
                                           '"custom approval logic"', True, None, None),
        # The overview names when they fire, not what an answer does there.
        **{event: _facts(f'{DV}/overview, "Hook Events": when it fires alone', None, None,
                         None)
           for event in ("turn.start", "agent.stop", "session.start", "session.end")},
    },
    "goose": {
        "tool.pre": _facts(f"{GS} `classify_output`; measured with goose 1.52.0", True, False,
                           False, 'exit 2 or `"decision": "block"` (on any exit) denies, the '
                           "model told not to retry; no rewrite, no context, no ask"),
        "agent.stop": _facts(f"{GS} `classify_output`; measured with goose 1.52.0", True, False,
                             True, 'exit 2 or `"decision": "block"` keeps it going, the reason '
                             "a hidden user message (GOOSE_STOP_HOOK_BLOCK_CAP, 8 in a row at "
                             "most)"),
        **{event: _facts(f"{GS}: not a blocking event, its answer logged alone (measured with "
                         "goose 1.52.0)", False, False, False)
           for event in ("tool.post", "error", "turn.start", "session.start", "session.end",
                         "cursor.beforeShellExecution", "cursor.afterShellExecution",
                         "cursor.beforeReadFile", "cursor.afterFileEdit",
                         "goose.PreToolUseResult")},
    },
    "crush": {
        "tool.pre": _facts("charmbracelet/crush internal/hooks/input.go@37f36e9 `parseStdout`, "
                           "internal/agent/hooked_tool.go@37f36e9", True, True, True,
                           'exit 2, exit 49 (and the turn ends) or `"decision": "deny"`; '
                           "`updated_input` patches the arguments; `context` is appended to "
                           "the tool's result; no ask"),
    },
    "kiro": {
        "tool.pre": _facts(f'{KR}, "Two action types", "Trigger reference"', True, False,
                           False, "exit 2 blocks, stderr is the reason for the model; no JSON "
                                  "answer, no ask, no new arguments"),
        "tool.post": _facts(f'{KR}, "Trigger reference"', False, False, False),
        "turn.start": _facts(f'{KR}, "Trigger reference"; {KR_2}, "UserPromptSubmit"', True,
                             False, True, "exit 2 blocks the prompt; stdout of an exit 0 is "
                                          "added to the context"),
        "session.start": _facts(f'{KR}, "Trigger reference"; {KR_2}, "AgentSpawn"', False,
                                False, True, "stdout of an exit 0 is added to the context"),
        "agent.stop": _facts(f'{KR}, "Trigger reference"', False, False, False),
        "kiro.PreTaskExec": _facts(f'{KR}, "Trigger reference"', True, False, False,
                                   "before a spec task starts"),
        "kiro.PostTaskExec": _facts(f'{KR}, "Trigger reference"', False, False, False),
        "kiro.PostFileCreate": _facts(f'{KR}, "Trigger reference"', False, False, False),
        "kiro.PostFileSave": _facts(f'{KR}, "Trigger reference"', False, False, False),
        "kiro.PostFileDelete": _facts(f'{KR}, "Trigger reference"', False, False, False),
        "kiro.Manual": _facts(f'{KR}, "Trigger reference"', False, False, False),
    },
    "windsurf": {
        "tool.pre": _facts(f'{WS}, "pre_run_command", "pre_read_code", "pre_write_code"', True,
                           False, False, "exit 2 blocks, stderr is the reason"),
        "tool.post": _facts(f'{WS}, "post_run_command", "post_read_code", "post_write_code"',
                            False, False, False),
        "turn.start": _facts(f'{WS}, "pre_user_prompt"', True, False, False),
        "agent.stop": _facts(f'{WS}, "post_cascade_response"', False, False, False),
        "windsurf.pre_mcp_tool_use": _facts(f'{WS}, "pre_mcp_tool_use"', True, False, False),
        "windsurf.post_mcp_tool_use": _facts(f'{WS}, "post_mcp_tool_use"', False, False, False),
        "windsurf.post_cascade_response_with_transcript": _facts(
            f'{WS}, "post_cascade_response_with_transcript"', False, False, False),
        "windsurf.post_setup_worktree": _facts(f'{WS}, "post_setup_worktree"', False, False,
                                               False),
    },
    "codex": {
        "tool.pre": _facts(f"{CX_SRC}/pre_tool_use.rs@0082977", True, True, True,
                           "updatedInput only with allow; ask is a failure"),
        "tool.post": _facts(f"{CX_SRC}/post_tool_use.rs@0082977", False, False, True,
                            "the tool already ran: a block's reason reaches the model; "
                            "updatedMCPToolOutput is refused"),
        "turn.start": _facts(f'{CX}, "UserPromptSubmit"', True, False, True),
        "agent.stop": _facts(f'{CX}, "Stop"', True, False, False,
                             "a block is a continuation prompt; Stop hooks must print JSON"),
        "session.start": _facts(f'{CX}, "SessionStart"', False, False, True),
        "session.end": _facts(f'{CX}, "SessionEnd"', False, False, False),
        "compact.pre": _facts(f"{CX_SRC}/compact.rs@0082977", False, False, False,
                              "continue: false stops the run, not the compaction alone"),
        "claude.PermissionRequest": _facts(f'{CX}, "PermissionRequest"', True, False, False),
        "claude.SubagentStart": _facts(f'{CX}, "SubagentStart"', False, False, True),
        "claude.SubagentStop": _facts(f'{CX}, "SubagentStop"', True, False, False),
        "claude.PostCompact": _facts(f"{CX_SRC}/compact.rs@0082977", False, False, False),
        "codex.Interrupt": _facts(f'{CX}, "Interrupt"', False, False, False),
    },
    "copilot": {
        "tool.pre": _facts(f'{CP}, "preToolUse decision control"', True, True, False,
                           "modifiedArgs; a command hook's crash or non-zero exit denies",
                           on_error=CLOSED),
        "tool.post": _facts(f'{CP}, "postToolUse output"', False, True, True,
                            "modifiedResult replaces the result"),
        "error": _facts(f'{CP}, "Hook events": postToolUseFailure', False, False, True),
        "turn.start": _facts(f'{CP}, "userPromptSubmitted"', False, False, False,
                             "modifiedPrompt is honoured only by SDK hooks"),
        "agent.stop": _facts(f'{CP}, "agentStop / subagentStop decision control"', True, False,
                             False, "a block forces another turn (8 at most)"),
        "session.start": _facts(f'{CP}, "Hook events": sessionStart', False, False, True),
        "session.end": _facts(f'{CP}, "Hook events": sessionEnd', False, False, False),
        "compact.pre": _facts(f'{CP}, "Hook events": preCompact', False, False, False),
        "notification": _facts(f'{CP}, "notification hook"', False, False, True),
        "claude.PermissionRequest": _facts(f'{CP}, "permissionRequest decision control"', True,
                                           False, False),
        "claude.SubagentStart": _facts(f'{CP}, "Hook events": subagentStart', False, False,
                                       True),
        "claude.SubagentStop": _facts(f'{CP}, "agentStop / subagentStop decision control"',
                                      True, False, False),
        "copilot.errorOccurred": _facts(f'{CP}, "Hook events": errorOccurred', False, False,
                                        False),
        "copilot.userPromptTransformed": _facts(f'{CP}, "userPromptTransformed"', False, True,
                                                False, "modifiedTransformedPrompt"),
    },
    "antigravity": {
        "tool.pre": _facts(f'{AG}, "PreToolUse"', True, False, False,
                           "decision allow|deny|ask|force_ask; no argument rewrite"),
        "tool.post": _facts(f'{AG}, "PostToolUse"', False, False, False, "output is {}"),
        "turn.start": _facts(f'{AG}, "PreInvocation"', False, False, True, "injectSteps"),
        "turn.end": _facts(f'{AG}, "PostInvocation"', False, False, True,
                           "injectSteps, terminationBehavior"),
        "agent.stop": _facts(f'{AG}, "Stop"', True, False, True,
                             'decision "continue" keeps the agent going'),
        "session.start": _facts(f"{AG}: not among its documented events", None, None, None),
    },
}


# --- lookups ------------------------------------------------------------------------------


def host_facts(host: str) -> HostFacts | None:
    """A host's failure handling, from the nearest host of its lineage that states it."""
    return next((HOST_FACTS[h] for h in lineage(host) if h in HOST_FACTS), None)


def event_facts(host: str, event: str) -> EventFacts | None:
    """One event's facts for a host, from the nearest host of its lineage that states them."""
    return next((EVENT_FACTS[h][event] for h in lineage(host)
                 if event in EVENT_FACTS.get(h, {})), None)


def inherited_note(host: str, event: str | None = None) -> str:
    """For a derived host without facts of its own (on `event`, else on failures), whose
    facts it shows: they hold for the host it is derived from and may not for it."""
    by = next((h for h in lineage(host)
               if (event in EVENT_FACTS.get(h, {}) if event else h in HOST_FACTS)), host)
    return "" if by == host else (f"{host_name(by)}'s facts (derived from it), not checked "
                                  f"against {host_name(host)}")


def capability(host: str, event: str) -> Capability | None:
    """What `host` can enforce on the canonical `event`; None when the table knows neither."""
    facts, general = event_facts(host, event), host_facts(host)
    if facts is None or general is None:
        return None
    return Capability(
        host, event, _word(host, event), facts.block, facts.rewrite, facts.context,
        general.fail_switch, general.on_timeout, facts.on_error or general.on_error,
        tuple(dict.fromkeys((facts.cite, general.fail_switch_cite, general.on_timeout_cite,
                             general.on_error_cite))),
        "; ".join(n for n in (facts.note, general.note, inherited_note(host, event)) if n))


def _word(host: str, event: str) -> str | None:
    return host_words(host).get(event)


def host_words(host: str) -> dict[str, str]:
    """A host's words by canonical event: its words in the events table, and the words of a
    host with one tool event per kind of tool (`HostRow.tool_events`), joined."""
    filled(host)
    words = {row.id: row.words[host] for row in EVENT_TABLE if host in row.words}
    row = host_row(host)
    for word, (event, _tools) in (row.tool_events if row is not None else {}).items():
        words[event] = f"{words[event]}, {word}" if event in words else word
    return words


def events_of_host(host: str) -> tuple[str, ...]:
    """The canonical events of a host that the table states facts for (its own, or its
    parents'), in the order of the events table. A derived host's events are its words in
    the events table (`model.hosts.Derived.cells`): one it does not have is left out."""
    words = host_words(host)
    return tuple(row.id for row in EVENT_TABLE
                 if row.id in words and event_facts(host, row.id) is not None)


def capabilities(hosts: tuple[str, ...] | None = None) -> tuple[Capability, ...]:
    """Every host's capabilities (or those of `hosts`), host by host in table order."""
    chosen = host_ids() if hosts is None else hosts
    found = (capability(host, event) for host in chosen for event in events_of_host(host))
    return tuple(c for c in found if c is not None)


def can_block(host: str, event: str) -> bool | None:
    """Whether a hook's answer can stop the action on `event` under `host` (None: unknown)."""
    facts = event_facts(host, event)
    return None if facts is None else facts.block


def can_rewrite(host: str, event: str) -> bool | None:
    """Whether a hook's answer can change what `event` is about under `host` (the tool's
    arguments before it runs...; None: unknown)."""
    facts = event_facts(host, event)
    return None if facts is None else facts.rewrite


# --- words --------------------------------------------------------------------------------


def yes_no(value: bool | None) -> str:
    return "unknown" if value is None else ("yes" if value else "no")


def failure_word(value: str | None) -> str:
    return "unknown" if value is None else FAILURE_WORDS[value]


def as_dict(cap: Capability) -> Mapping[str, object]:
    """One capability as the JSON of `agenthooks hosts --format json`."""
    return {"host": cap.host, "event": cap.event, "word": cap.word, "block": cap.block,
            "rewrite": cap.rewrite, "context": cap.context, "failSwitch": cap.fail_switch,
            "onTimeout": cap.on_timeout, "onError": cap.on_error, "note": cap.note or None,
            "sources": list(cap.cites)}


def summary(cap: Capability, name: str) -> str:
    """One line: "Claude Code can block here: yes; rewrite: yes; context: yes; ..."."""
    switch = f"`{cap.fail_switch}`" if cap.fail_switch else "none"
    return (f"{name} can block here: {yes_no(cap.block)}; rewrite: {yes_no(cap.rewrite)}; "
            f"context: {yes_no(cap.context)}; on timeout: {failure_word(cap.on_timeout)}; "
            f"on another exit code: {failure_word(cap.on_error)}; fail-closed switch: {switch}")


HOST_HEADERS = ("Host", "Fail-closed switch", "On timeout", "On another exit code", "Note")
EVENT_HEADERS = ("Host", "Event", "Block", "Rewrite", "Context", "On another exit code", "Note")


def _row(cells: tuple[str, ...]) -> str:
    return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"


def _table(headers: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> list[str]:
    return [_row(headers), "| --- " * len(headers) + "|", *(_row(row) for row in rows)]


def _event_note(cap: Capability) -> str:
    facts = event_facts(cap.host, cap.event)
    note = facts.note if facts is not None else ""
    return "; ".join(n for n in (note, inherited_note(cap.host, cap.event)) if n)


def markdown_table(hosts: tuple[str, ...] | None = None) -> str:
    """The tables as docs/hosts.md prints them (`agenthooks hosts --format markdown`): each
    host's failure handling, then each host and event."""
    chosen = host_ids() if hosts is None else hosts
    general = [(host_name(host), f"`{facts.fail_switch}`" if facts.fail_switch else "none",
                failure_word(facts.on_timeout), failure_word(facts.on_error),
                "; ".join(n for n in (facts.note, inherited_note(host)) if n))
               for host in chosen if (facts := host_facts(host)) is not None]
    events = [(host_name(cap.host), f"`{cap.word or cap.event}`", yes_no(cap.block),
               yes_no(cap.rewrite), yes_no(cap.context), failure_word(cap.on_error),
               _event_note(cap))
              for cap in capabilities(chosen)]
    return "\n".join([*_table(HOST_HEADERS, general), "", *_table(EVENT_HEADERS, events)]) + "\n"
