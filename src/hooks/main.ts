/**
 * The entry of `narrowing-guard hook <agent>`, kept apart from the rest of the command line so a
 * hook process loads only what it needs: it runs on every tool call the agent makes.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { HOST_AGENTS, isHostAgent } from '../adapters/tool-call/host-tools.js';
import type { PresetName } from '../core/policy.js';
import { parseStoreChoice } from '../guard/store-choice.js';
import { DAEMON_STORE_VARIABLE } from './daemon-client.js';
import { runHook } from './run.js';

export const HOOK_USAGE = `Usage: narrowing-guard hook <agent> [--policy FILE] [--preset NAME] [--state-dir DIR] [--store STORE] [--fail-closed] [--deadline-ms N] [--no-daemon] [--idle-ms N]
Agents: ${HOST_AGENTS.join(', ')}. Run by the agent on each hook event, with the event as JSON on stdin.`;

/** Runs a hook from its command-line words (after `hook`); returns the exit code. */
export async function hookMain(argv: readonly string[]): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    process.stderr.write(`narrowing-guard: ${(error as Error).message}\n${HOOK_USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${HOOK_USAGE}\n`);
    return 0;
  }
  const agent = positionals[0] ?? '';
  if (agent === 'serve') return serve(values);
  if (!isHostAgent(agent)) {
    process.stderr.write(`narrowing-guard: unknown agent "${agent}"\n${HOOK_USAGE}\n`);
    return 2;
  }
  const deadlineMs = positiveNumber(values['deadline-ms']);
  const daemonIdleMs = positiveNumber(values['idle-ms']);
  let store: ReturnType<typeof parseStoreChoice> | undefined;
  try {
    store = values.store === undefined ? undefined : parseStoreChoice(values.store);
  } catch (error) {
    process.stderr.write(`narrowing-guard: ${(error as Error).message}\n${HOOK_USAGE}\n`);
    return 2;
  }
  return runHook(agent, process, {
    ...(store !== undefined && { store }),
    ...(values.policy !== undefined && { policy: resolve(values.policy) }),
    ...(values.preset !== undefined && { preset: values.preset as PresetName }),
    ...(values['state-dir'] !== undefined && { stateDir: resolve(values['state-dir']) }),
    ...(values['fail-closed'] && { failClosed: true }),
    ...(values['no-daemon'] && { daemon: false }),
    ...(deadlineMs !== undefined && { deadlineMs }),
    ...(daemonIdleMs !== undefined && { daemonIdleMs }),
  });
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
      'idle-ms': { type: 'string' },
      socket: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
