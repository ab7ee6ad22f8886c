"""The final answer in Antigravity's words (`agenthooks run EVENT --host antigravity`).

Antigravity's answer is documented two ways, and a version of agy reads one of them:

    antigravity.google/docs/hooks          {"decision": "deny", "reason": "..."}
    google-gemini/gemini-cli@a69d422       {"allowTool": false, "denyReason": "..."}
      docs/resources/migrating-to-antigravity-cli.md, "Hooks"

The answer is the engine's own (`combine.verdict.engine_answer`, which is the hooks page's
vocabulary, as a run without `--host` prints it), and on a PreToolUse deny the guide's
`allowTool: false` with `denyReason` too: both say the same thing there, so whichever one a
version reads, the tool does not run (a version that rejects the other vocabulary's keys
fails closed, third parties report, which still blocks). An allow or an ask is said in the
hooks page's words only: `allowTool: true` beside `ask` would contradict it, and beside
`allow` a version that rejects unknown keys would block a call the hooks allowed. (agy's own
message descriptor, as read from the 1.0.15 binary by a third party, rohitg00/agentmemory
PR #1146, has `decision`, `reason`, `overwrite`, `permission_overrides` and deprecated
`allow_tool`/`deny_reason`: both vocabularies, the guide's being the older.)

agy treats a PreToolUse answer without a decision as a deny (the same report: `{}` denied the
tool on 1.0.5 and 1.0.15; also thedotmack/claude-mem#3864). So where no handler decided, the
answer says `ask`, which the hooks page documents as agy's usual permission flow (its
always-allow list still applies); `--default-decision` says otherwise.
"""

from __future__ import annotations

from agenthooks.hosts.writers import HostAnswer, decision_reason

TYPE_CHECKING = False
if TYPE_CHECKING:
    from agenthooks.combine.verdict import Verdict


def write(verdict: Verdict, event: str) -> HostAnswer:
    """The engine's answer, with the migration guide's words added to a PreToolUse deny."""
    from agenthooks.combine.verdict import engine_answer

    output = engine_answer(verdict)
    if event == "PreToolUse" and "decision" not in output:
        output = {"decision": "ask", **output}
    if event == "PreToolUse" and output.get("decision") == "deny":
        output["allowTool"] = False
        output["denyReason"] = output.get("reason") or decision_reason(verdict)
    return HostAnswer(output, 2 if verdict.blocked else 0)
