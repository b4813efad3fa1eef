/**
 * The entry of `narrowing-guard hook <agent>`, kept apart from the rest of the command line so a
 * hook process loads only what it needs: it runs on every tool call the agent makes.
 */
import { resolve } from 'node:path';
import { HOST_AGENTS, type HostAgent, isHostAgent } from '../adapters/tool-call/host-tools.js';
import type { PresetName } from '../core/policy.js';
import { parseStoreChoice } from '../guard/store-choice.js';
import { DAEMON_STORE_VARIABLE } from './daemon-client.js';
import { HOOK_HELP, HOOK_USAGE } from './help.js';
import { type HookStreams, runHook } from './run.js';

export { HOOK_HELP, HOOK_USAGE } from './help.js';

/** Exit code of a hook whose own command line is wrong: the agent runs the call and shows stderr. */
const USAGE_FAULT = 1;
/** The code every agent reads as "refuse this call" (with the reason on stderr). */
const DENY = 2;

/** Runs a hook from its command-line words (after `hook`); returns the exit code. */
export async function hookMain(argv: readonly string[], streams: HookStreams = process): Promise<number> {
  const failClosed = argv.includes('--fail-closed');
  const usageFault = (message: string): number => {
    if (failClosed) {
      streams.stderr.write(
        `narrowing-guard: ${message}; the call is refused (--fail-closed). Fix the hook command in the agent's settings.\n`,
      );
      return DENY;
    }
    streams.stderr.write(
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
    streams.stdout.write(`${HOOK_HELP}\n`);
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
  return runHook(agent, streams, {
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
  // Run from its code cache, as the event handled without the helper is (see launch.ts).
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

/** The hook's options: the ones that take a value, and the flags. */
const VALUE_OPTIONS = ['policy', 'preset', 'state-dir', 'store', 'deadline-ms', 'idle-ms', 'socket'] as const;
const FLAG_OPTIONS = ['fail-closed', 'no-daemon', 'otel', 'help'] as const;
type ValueOption = (typeof VALUE_OPTIONS)[number];
type FlagOption = (typeof FLAG_OPTIONS)[number];

/**
 * The hook's words, read as `util.parseArgs` reads them with these options (`--name value`,
 * `--name=value`, flags, `-h`, `--` before positionals), with its error texts. Written out because
 * loading `parseArgs` costs a hook process about 2 ms of CPU on every event.
 */
export function parse(argv: readonly string[]): {
  values: Partial<Record<ValueOption, string> & Record<FlagOption, boolean>>;
  positionals: string[];
} {
  const values: Partial<Record<ValueOption, string> & Record<FlagOption, boolean>> = {};
  const positionals: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const word = argv[index] ?? '';
    if (word === '--') {
      positionals.push(...argv.slice(index + 1));
      break;
    }
    // `-h`, `-hh`…, or `-h` and more short options (which the hook has none of).
    const hs = helpFlags(word);
    if (hs > 0 && hs === word.length - 1) {
      values.help = true;
      continue;
    }
    if (hs > 0 && word[hs + 1] !== '-') throw unknownOption(`-${word[hs + 1]}`);
    if (!word.startsWith('--') || word.length === 2) {
      if (word.startsWith('-') && word.length > 1) throw unknownOption(word);
      positionals.push(word);
      continue;
    }
    const equals = word.indexOf('=');
    const name = word.slice(2, equals === -1 ? undefined : equals);
    if ((FLAG_OPTIONS as readonly string[]).includes(name)) {
      if (equals !== -1) throw new Error(`Option '--${name}' does not take an argument`);
      values[name as FlagOption] = true;
    } else if ((VALUE_OPTIONS as readonly string[]).includes(name)) {
      let value: string | undefined;
      if (equals !== -1) value = word.slice(equals + 1);
      else {
        value = argv[index + 1];
        if (value === undefined) throw new Error(`Option '--${name} <value>' argument missing`);
        if (value.length > 1 && value.startsWith('-'))
          throw new Error(
            `Option '--${name}' argument is ambiguous.\nDid you forget to specify the option argument for '--${name}'?\nTo specify an option argument starting with a dash use '--${name}=-XYZ'.`,
          );
        index += 1;
      }
      values[name as ValueOption] = value;
    } else throw unknownOption(word.slice(0, equals === -1 ? undefined : equals));
  }
  return { values, positionals };
}

/**
 * How many `h` follow the dash the word starts with (0 when it does not start so). Read by hand: a
 * process's first pattern costs it its compilation, on every event.
 */
function helpFlags(word: string): number {
  if (word[0] !== '-') return 0;
  let count = 0;
  while (word[count + 1] === 'h') count += 1;
  return count;
}

function unknownOption(option: string): Error {
  return new Error(
    `Unknown option '${option}'. To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- "${option}"`,
  );
}
