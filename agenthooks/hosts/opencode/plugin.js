// agenthooks for OpenCode, written by `agenthooks init --host opencode` (docs/hosts.md#opencode).
// Every tool call is put to `agenthooks run PreToolUse` before it runs and `PostToolUse` after,
// as Claude Code's hook payload on stdin; the gates are in .agents/hooks.json. The answer is
// one JSON object: {"decision": "deny", "reason"} blocks the call (the reason is what the
// model reads), {"args"} replaces its arguments, {"context"} is added to its result.
// Before a call, anything else (agenthooks not found, a crash, not that object) blocks it;
// after a call, it is ignored. Only functions are exported: OpenCode loads nothing else.
import { spawnSync } from "node:child_process";

function agenthooks(command, payload, cwd) {
  const [program, ...args] = command.split(" ");
  const run = spawnSync(program, args, {
    cwd, input: JSON.stringify(payload), encoding: "utf8", maxBuffer: 64 * 1024 * 1024,
  });
  if (run.error) throw new Error(`${command} could not run: ${run.error.message}`);
  const answer = run.status === 0 ? parsed(run.stdout) : null;
  if (answer === null || typeof answer !== "object" || Array.isArray(answer)) {
    const said = (run.stderr || run.stdout || "").trim().split("\n").pop();
    throw new Error(`${command} failed (exit ${run.status ?? run.signal}): ${said}`);
  }
  return answer;
}

function parsed(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function payload(event, input, cwd) {
  return {
    hook_event_name: event, session_id: input.sessionID, cwd,
    tool_name: input.tool, tool_use_id: input.callID,
  };
}

export async function AgentHooks({ directory }) {
  const cwd = directory || process.cwd();
  return {
    "tool.execute.before": async (input, output) => {
      let answer;
      try {
        answer = agenthooks("agenthooks run PreToolUse --host opencode --fail-closed",
          { ...payload("PreToolUse", input, cwd), tool_input: output.args }, cwd);
      } catch (error) {
        throw new Error(`agenthooks blocked this call: ${error.message}`);
      }
      if (answer.decision === "deny") throw new Error(String(answer.reason));
      if (answer.args && typeof answer.args === "object" && !Array.isArray(answer.args)) {
        for (const key of Object.keys(output.args)) delete output.args[key];
        Object.assign(output.args, answer.args);
      }
    },
    "tool.execute.after": async (input, output) => {
      let answer;
      try {
        const response = typeof output.output === "string" ? output.output : output;
        answer = agenthooks("agenthooks run PostToolUse --host opencode",
          { ...payload("PostToolUse", input, cwd), tool_input: input.args,
            tool_response: response }, cwd);
      } catch {
        return;
      }
      if (typeof answer.context !== "string" || !answer.context) return;
      if (typeof output.output === "string") output.output += `\n\n${answer.context}`;
      else if (Array.isArray(output.content)) output.content.push({ type: "text", text: answer.context });
    },
  };
}
