// Drives Gemini CLI's own hook runner (@google/gemini-cli-core) for scripts/bench.
//
// The package is installed by scripts/bench into a cache directory outside the repository and
// found through $GEMINI_PEER_DIR, so none of its code lives here.
//
//   node gemini_driver.mjs oneshot COMMAND   cold process: import the runner, run one hook, print
//   node gemini_driver.mjs serve             long-lived: one JSON request per stdin line, e.g.
//        {"commands": ["true"], "n": 20, "timeoutMs": 30000}  ->  {"ms": [per-call times]}
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

console.debug = () => {}; // HookRunner logs every command expansion through console.debug

// Node hands a child its stdio as socketpairs, and `bash -c` (Gemini's shell) whose stdin is a
// socket takes itself to be started by sshd or rshd: unless SHLVL says it is nested, it reads
// /etc/bash.bashrc and ~/.bashrc first. Started from something other than a shell (a harness,
// CI, `env -i`), this process had no SHLVL, so every hook paid for the user's bashrc (with
// `pyenv init` there, 100-180 ms for a `true` that takes 2 ms). Gemini CLI is started from a
// shell, which exports SHLVL; its hooks get the same here.
if (!(Number(process.env.SHLVL) >= 1)) process.env.SHLVL = '1';

const root = path.join(process.env.GEMINI_PEER_DIR ?? '.', 'node_modules/@google/gemini-cli-core/dist/src/hooks');
const load = (name) => import(pathToFileURL(path.join(root, name)).href);
const { HookRunner } = await load('hookRunner.js');
const { HookAggregator } = await load('hookAggregator.js');
const { HookEventName, HookType, ConfigSource } = await load('types.js');

const runner = new HookRunner({
  isTrustedFolder: () => true,
  sanitizationConfig: {
    allowedEnvironmentVariables: [],
    blockedEnvironmentVariables: [],
    enableEnvironmentVariableRedaction: false,
  },
  storage: { getPlansDir: () => os.tmpdir() },
});
const aggregator = new HookAggregator();

function input() {
  return {
    session_id: 'bench',
    transcript_path: '',
    cwd: process.cwd(),
    hook_event_name: HookEventName.BeforeTool,
    timestamp: new Date().toISOString(),
    tool_name: 'run_command',
    tool_input: { CommandLine: 'npm test' },
  };
}

async function runOnce(commands, timeoutMs) {
  const configs = commands.map((command) => ({
    type: HookType.Command, command, timeout: timeoutMs, source: ConfigSource.User,
  }));
  const results = await runner.executeHooksParallel(configs, HookEventName.BeforeTool, input());
  return aggregator.aggregateResults(results, HookEventName.BeforeTool);
}

const [mode, command] = process.argv.slice(2);
if (mode === 'oneshot') {
  const agg = await runOnce([command ?? 'true'], 30000);
  process.stdout.write(JSON.stringify({ decision: agg.finalOutput?.decision ?? null }) + '\n');
} else if (mode === 'serve') {
  const lines = readline.createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (!line.trim()) continue;
    const { commands, n = 1, timeoutMs = 30000 } = JSON.parse(line);
    const ms = [];
    for (let i = 0; i < n; i++) {
      const start = performance.now();
      await runOnce(commands, timeoutMs);
      ms.push(performance.now() - start);
    }
    process.stdout.write(JSON.stringify({ ms }) + '\n');
  }
} else {
  process.stderr.write('usage: gemini_driver.mjs oneshot COMMAND | serve\n');
  process.exit(1);
}
