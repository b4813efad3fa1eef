/**
 * The entry of `narrowing-guard hook <agent>`, kept apart from the rest of the command line so a
 * hook process loads only what it needs: it runs on every tool call the agent makes.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { HOST_AGENTS, type HostAgent, isHostAgent } from '../adapters/tool-call/host-tools.js';
import type { PresetName } from '../core/policy.js';
import { parseStoreChoice } from '../guard/store-choice.js';
import { DAEMON_STORE_VARIABLE } from './daemon-client.js';
import { runHook } from './run.js';

export const HOOK_USAGE = `Usage: narrowing-guard hook <agent> [options]   (agents: ${HOST_AGENTS.join(', ')})`;

export const HOOK_HELP = `${HOOK_USAGE}

Run by a coding agent before and after each of its tool calls, with the event as JSON on stdin.
Answers on stdout in that agent's own protocol: a call that would fail again, or repeat again, is
denied with the reason the model reads. Install it with \`narrowing-guard install <agent>\`.

Options:
  --policy FILE      policy file (JSON or YAML)
  --preset NAME      precise (default), strict or advisory
  --state-dir DIR    state directory (default: .narrowing at the root of the payload's project)
  --store STORE      file (default), sqlite, or a redis:// URL
  --fail-closed      refuse a call the guard could not check (default: let it run)
  --deadline-ms N    a check before a call is answered, and its process ends, within N ms (default
                     5000); an outcome after a call is saved before the process ends (up to 50 s)
  --no-daemon        handle the event in this process instead of asking the helper
  --otel             emit OpenTelemetry spans for each verdict from this process (implies --no-daemon;
                     needs @opentelemetry/api and an SDK registered, see docs/visibility.md)
  --idle-ms N        how long the helper waits for events before it exits (default 600000)
  -h, --help         this text

The helper: the first event of a project starts a helper process (\`hook serve\`) that keeps the
guard open; each later hook process only relays its event to it over a local socket and prints the
answer. It exits after --idle-ms without events. Without it (--no-daemon, Windows) each hook
process opens the state itself, which is slower on a large state.

Exit codes:
  0  the answer is on stdout (a denial too, in the agent's JSON fields), or the guard could not
     check the call and lets it run (the reason is on stderr)
  1  the hook's command line is wrong (an unknown agent or option): the call runs, the reason is
     on stderr
  2  the call is refused without a JSON answer: only with --fail-closed, when the guard could not
     check it (a bad command line, an unreadable payload, no session id)

Examples:
  $ echo '{"session_id":"s1","cwd":".","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"a.ts"}}' \\
      | narrowing-guard hook claude-code
  $ narrowing-guard hook codex --store sqlite --deadline-ms 2000
  $ narrowing-guard hook cursor --no-daemon --fail-closed`;

/** Exit code of a hook whose own command line is wrong: the agent runs the call and shows stderr. */
const USAGE_FAULT = 1;
/** The code every agent reads as "refuse this call" (with the reason on stderr). */
const DENY = 2;

/** Runs a hook from its command-line words (after `hook`); returns the exit code. */
export async function hookMain(argv: readonly string[]): Promise<number> {
  const failClosed = argv.includes('--fail-closed');
  const usageFault = (message: string): number => {
    if (failClosed) {
      process.stderr.write(
        `narrowing-guard: ${message}; the call is refused (--fail-closed). Fix the hook command in the agent's settings.\n`,
      );
      return DENY;
    }
    process.stderr.write(
      `narrowing-guard: ${message}; the call proceeds unchecked. Fix the hook command in the agent's settings.\n${HOOK_USAGE}\n`,
    );
    return USAGE_FAULT;
  };
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    return usageFault((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${HOOK_HELP}\n`);
    return 0;
  }
  const agent = positionals[0] ?? '';
  if (agent === 'serve') return serve(values);
  if (!isHostAgent(agent)) {
    if (agent === '') return usageFault('no agent named (narrowing-guard hook <agent>)');
    const near = nearestAgent(agent);
    return usageFault(`unknown agent "${agent}"${near ? ` (did you mean ${near}?)` : ''}`);
  }
  if (positionals.length > 1) return usageFault(`unexpected argument "${positionals[1]}"`);
  const deadlineMs = positiveNumber(values['deadline-ms']);
  if (values['deadline-ms'] !== undefined && deadlineMs === undefined)
    return usageFault(
      `--deadline-ms must be a positive number of milliseconds (got "${values['deadline-ms']}")`,
    );
  const daemonIdleMs = positiveNumber(values['idle-ms']);
  let store: ReturnType<typeof parseStoreChoice> | undefined;
  try {
    store = values.store === undefined ? undefined : parseStoreChoice(values.store);
  } catch (error) {
    return usageFault((error as Error).message);
  }
  return runHook(agent, process, {
    ...(store !== undefined && { store }),
    ...(values.policy !== undefined && { policy: resolve(values.policy) }),
    ...(values.preset !== undefined && { preset: values.preset as PresetName }),
    ...(values['state-dir'] !== undefined && { stateDir: resolve(values['state-dir']) }),
    ...(values['fail-closed'] && { failClosed: true }),
    ...((values['no-daemon'] || values.otel) && { daemon: false }),
    ...(values.otel && { otel: true }),
    ...(deadlineMs !== undefined && { deadlineMs }),
    ...(daemonIdleMs !== undefined && { daemonIdleMs }),
  });
}

/** The agent a mistyped name most likely meant (`claude` → `claude-code`, `gemini` → `gemini-cli`). */
export function nearestAgent(word: string): HostAgent | undefined {
  const typed = word.toLowerCase();
  const byPrefix = HOST_AGENTS.find((agent) => agent.startsWith(typed) || typed.startsWith(agent));
  if (byPrefix && typed.length >= 3) return byPrefix;
  let best: { agent: HostAgent; distance: number } | undefined;
  for (const agent of HOST_AGENTS) {
    const distance = editDistance(typed, agent);
    if (best === undefined || distance < best.distance) best = { agent, distance };
  }
  return best !== undefined && best.distance <= Math.max(2, Math.floor(best.agent.length / 3))
    ? best.agent
    : undefined;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** `hook serve`: the helper that hook processes start and ask (see daemon-client.ts). */
async function serve(values: ReturnType<typeof parse>['values']): Promise<number> {
  const socketPath = values.socket;
  const stateDir = values['state-dir'];
  if (socketPath === undefined || stateDir === undefined) {
    process.stderr.write('narrowing-guard: hook serve needs --socket and --state-dir\n');
    return 2;
  }
  const { serveHooks } = await import('./daemon.js');
  const idleMs = positiveNumber(values['idle-ms']);
  const storeText = process.env[DAEMON_STORE_VARIABLE];
  const store = storeText === undefined || storeText === '' ? undefined : parseStoreChoice(storeText);
  await serveHooks({
    ...(store !== undefined && { store }),
    socketPath,
    stateDir,
    ...(values.policy !== undefined && { policy: values.policy }),
    ...(values.preset !== undefined && { preset: values.preset as PresetName }),
    ...(idleMs !== undefined && { idleMs }),
  });
  return 0;
}

function positiveNumber(value: string | undefined): number | undefined {
  const number = value === undefined ? Number.NaN : Number(value);
  return Number.isFinite(number) && number > 0 ? number : undefined;
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      policy: { type: 'string' },
      preset: { type: 'string' },
      'state-dir': { type: 'string' },
      store: { type: 'string' },
      'fail-closed': { type: 'boolean' },
      'deadline-ms': { type: 'string' },
      'no-daemon': { type: 'boolean' },
      otel: { type: 'boolean' },
      'idle-ms': { type: 'string' },
      socket: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
