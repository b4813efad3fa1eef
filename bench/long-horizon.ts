/**
 * The long-horizon tool-call benchmark, implemented to the letter of its specification so that
 * the vanilla rows reproduce the published figures call for call. Guarded modes put a real
 * NarrowingEngine between the simulated agent and the mock codebase.
 */
import {
  createToolCallAdapter,
  toolCallToOutcome,
  toolCallToProposal,
} from '../src/adapters/tool-call/index.js';
import { NarrowingEngine } from '../src/core/loop.js';
import type { PresetName } from '../src/core/policy.js';
import type { Clock } from '../src/core/types.js';

export type Mode = 'vanilla' | 'precise' | 'strict';

export interface LongHorizonRow {
  readonly seed: number;
  readonly window: number;
  readonly calls: number;
  readonly mode: Mode;
  readonly repeatedFailures: number;
  readonly blocked: number;
  readonly falseBlocks: number;
  readonly successfulCalls: number;
  readonly failedCalls: number;
  readonly wastedCostUsd: number;
  readonly constraintsSeeded: number;
  /**
   * The call (counted from 1) at which the guard halted the run: the halted call counts as a block,
   * and the agent, told to answer, makes no more calls.
   */
  readonly haltedAt?: number;
}

export interface LongHorizonConfig {
  readonly seeds: readonly number[];
  readonly windows: readonly number[];
  readonly calls: number;
  /** Horizons for the degradation curve, run at `curveWindow` with the first seed. */
  readonly curve: readonly number[];
  readonly curveWindow: number;
  readonly modes: readonly Mode[];
  /** Simulated seconds per agent step (a model turn); drives time-based rules. */
  readonly secondsPerCall: number;
}

export const DEFAULT_CONFIG: LongHorizonConfig = {
  seeds: [42, 1, 2, 3, 4, 5],
  windows: [10, 20, 50],
  calls: 200,
  curve: [50, 100, 150, 200],
  curveWindow: 20,
  modes: ['vanilla', 'precise', 'strict'],
  secondsPerCall: 10,
};

/** The published vanilla figures: the check that this simulation is the paper's. */
export const PUBLISHED_VANILLA: readonly {
  seed: number;
  window: number;
  calls: number;
  repeatedFailures: number;
}[] = [
  { seed: 42, window: 10, calls: 200, repeatedFailures: 90 },
  { seed: 42, window: 20, calls: 200, repeatedFailures: 82 },
  { seed: 42, window: 50, calls: 200, repeatedFailures: 71 },
  { seed: 1, window: 20, calls: 200, repeatedFailures: 97 },
  { seed: 2, window: 20, calls: 200, repeatedFailures: 94 },
  { seed: 3, window: 20, calls: 200, repeatedFailures: 84 },
  { seed: 4, window: 20, calls: 200, repeatedFailures: 95 },
  { seed: 5, window: 20, calls: 200, repeatedFailures: 92 },
  { seed: 42, window: 20, calls: 50, repeatedFailures: 10 },
  { seed: 42, window: 20, calls: 100, repeatedFailures: 34 },
  { seed: 42, window: 20, calls: 150, repeatedFailures: 58 },
];

/** What the paper reports for its own guard (seed 42, 200 calls), with what replaying it shows. */
export const PUBLISHED_GUARD: readonly {
  window: number;
  repeatedFailures: number;
  blocked: number;
  falseBlocks: number;
  successfulCalls: number;
}[] = [
  { window: 10, repeatedFailures: 3, blocked: 143, falseBlocks: 43, successfulCalls: 49 },
  { window: 20, repeatedFailures: 2, blocked: 135, falseBlocks: 40, successfulCalls: 55 },
  { window: 50, repeatedFailures: 2, blocked: 115, falseBlocks: 36, successfulCalls: 75 },
];

export function mulberry32(seed: number): () => number {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CODEBASE: Readonly<Record<string, readonly string[]>> = {
  'server.js': ['express', 'require'],
  'routes/api.js': ['router.get', 'handler'],
  'routes/auth.js': ['app.post', 'authenticate'],
  'config.json': ['3000', 'localhost'],
  'package.json': ['test-app', '1.0.0'],
  'styles.css': ['black', 'body'],
};
const TOOLS = ['read_file', 'edit_file', 'bash', 'search_files', 'create_file'] as const;
const FILES = [...Object.keys(CODEBASE), 'nonexistent.js', 'missing.ts', 'ghost.py'];
const SEARCHES = ['express', 'handler', 'NONEXISTENT_PATTERN', 'bogus_search', 'app.post', '3000', 'black'];
const COMMANDS = [
  'npm test',
  'npm run build',
  'bad_command --flag',
  'node syntax_error.js',
  'ls -la',
  'cat server.js',
];

type Tool = (typeof TOOLS)[number];
type Args = Record<string, string>;

interface Execution {
  readonly ok: boolean;
  /** What the tool printed: an error message, or a plausible success text. */
  readonly text: string;
  readonly signature?: string;
}

/** The mock codebase. It never changes: a successful create_file adds no file. */
export function execute(tool: Tool, args: Args): Execution {
  const fail = (text: string, signature: string): Execution => ({ ok: false, text, signature });
  const patterns = args.file === undefined ? undefined : CODEBASE[args.file];
  switch (tool) {
    case 'read_file':
      return patterns
        ? { ok: true, text: `// ${args.file}\n${patterns.join('\n')}` }
        : fail(`ENOENT: no such file or directory '${args.file}'`, 'file_not_found');
    case 'edit_file': {
      if (!patterns) return fail(`ENOENT: no such file or directory '${args.file}'`, 'file_not_found');
      const needle = args.old_string ?? '';
      const found =
        needle !== '' && patterns.some((pattern) => pattern.includes(needle) || needle.includes(pattern));
      return found
        ? { ok: true, text: `Edited ${args.file}` }
        : fail(`search string not found in file: "${needle}"`, 'edit_failed');
    }
    case 'bash': {
      const command = args.command ?? '';
      if (command.includes('nonexistent') || command.includes('bad_command')) {
        return fail('command failed: exit code 1', 'command_failed');
      }
      if (command.includes('syntax_error')) return fail('SyntaxError: Unexpected token', 'syntax_error');
      return { ok: true, text: `$ ${command}\ndone` };
    }
    case 'search_files':
      return { ok: true, text: 'server.js:12: // TODO: handle errors' };
    case 'create_file':
      return patterns
        ? fail('409 conflict: file already exists', 'conflict')
        : { ok: true, text: `Created ${args.file}` };
  }
}

interface Memory {
  readonly tool: Tool;
  readonly args: Args;
  readonly ok: boolean;
}

function callKey(tool: string, args: Args): string {
  return `${tool}:${JSON.stringify(args)}`;
}

/** The simulated agent's next proposal, drawing from `rng` exactly as the specification orders. */
function propose(rng: () => number, memory: readonly Memory[], window: number): { tool: Tool; args: Args } {
  const recent = memory.slice(Math.max(0, memory.length - window));
  const visibleFailures = new Set(
    recent.filter((entry) => !entry.ok).map((entry) => callKey(entry.tool, entry.args)),
  );
  const forgotten = memory.slice(0, Math.max(0, memory.length - window)).filter((entry) => !entry.ok);
  if (forgotten.length > 0 && rng() < 0.3) {
    const replay = forgotten[Math.floor(rng() * forgotten.length)] as Memory;
    return { tool: replay.tool, args: replay.args };
  }
  let tool: Tool = 'read_file';
  let args: Args = {};
  for (let attempt = 0; attempt < 5; attempt++) {
    tool = TOOLS[Math.floor(rng() * 5)] as Tool;
    const file = FILES[Math.floor(rng() * 9)] as string;
    if (tool === 'read_file') args = { file };
    else if (tool === 'edit_file') {
      args = { file, old_string: SEARCHES[Math.floor(rng() * 7)] as string, new_string: 'replacement' };
    } else if (tool === 'bash') args = { command: COMMANDS[Math.floor(rng() * 6)] as string };
    else if (tool === 'search_files') args = { pattern: 'TODO', path: '.' };
    else args = { file, content: 'new file content' };
    if (!visibleFailures.has(callKey(tool, args))) break;
  }
  return { tool, args };
}

const COST_PER_CALL = 0.003;

export function runLongHorizon(
  seed: number,
  window: number,
  calls: number,
  mode: Mode,
  secondsPerCall = DEFAULT_CONFIG.secondsPerCall,
): LongHorizonRow {
  const rng = mulberry32(seed);
  let now = Date.UTC(2026, 0, 1);
  const clock: Clock = { now: () => now };
  const guard =
    mode === 'vanilla'
      ? undefined
      : new NarrowingEngine({
          adapter: createToolCallAdapter(),
          policy: { preset: mode as PresetName },
          clock,
        });
  const memory: Memory[] = [];
  const failureKeys = new Set<string>();
  let repeatedFailures = 0;
  let blocked = 0;
  let falseBlocks = 0;
  let successfulCalls = 0;
  let failedCalls = 0;
  let wastedCost = 0;
  let constraintsSeeded = 0;
  let haltedAt: number | undefined;

  for (let step = 0; step < calls; step++) {
    now += secondsPerCall * 1000;
    const { tool, args } = propose(rng, memory, window);
    const proposal = toolCallToProposal(tool, args);
    const check = guard?.checkProposal(proposal);
    if (check && !check.allowed) {
      blocked++;
      if (execute(tool, args).ok) falseBlocks++;
      wastedCost += 0.1 * COST_PER_CALL;
      // A halt ends the run with an answer: the calls the simulation would still draw never happen.
      if (check.verdict === 'halt') {
        haltedAt = step + 1;
        break;
      }
      continue;
    }
    const result = execute(tool, args);
    memory.push({ tool, args, ok: result.ok });
    if (result.ok) successfulCalls++;
    else {
      failedCalls++;
      wastedCost += COST_PER_CALL;
      const key = `${result.signature}:${args.file ?? args.command ?? 'none'}`;
      if (failureKeys.has(key)) repeatedFailures++;
      failureKeys.add(key);
    }
    if (guard) {
      const outcome = toolCallToOutcome(
        tool,
        args,
        result.ok
          ? { content: [{ type: 'text', text: result.text }] }
          : { content: [{ type: 'text', text: result.text }], isError: true },
      );
      constraintsSeeded += guard.recordOutcome({ ...outcome, proposal }).newConstraints.length;
    }
  }
  return {
    seed,
    window,
    calls,
    mode,
    repeatedFailures,
    blocked,
    falseBlocks,
    successfulCalls,
    failedCalls,
    wastedCostUsd: Math.round(wastedCost * 1e6) / 1e6,
    constraintsSeeded,
    ...(haltedAt !== undefined && { haltedAt }),
  };
}

export interface LongHorizonReport {
  readonly config: LongHorizonConfig;
  readonly rows: LongHorizonRow[];
}

export function runLongHorizonSuite(config: LongHorizonConfig = DEFAULT_CONFIG): LongHorizonReport {
  const rows: LongHorizonRow[] = [];
  const seen = new Set<string>();
  const add = (seed: number, window: number, calls: number) => {
    for (const mode of config.modes) {
      const key = `${seed}/${window}/${calls}/${mode}`;
      if (seen.has(key)) continue;
      seen.add(key);
      rows.push(runLongHorizon(seed, window, calls, mode, config.secondsPerCall));
    }
  };
  for (const seed of config.seeds) for (const window of config.windows) add(seed, window, config.calls);
  const curveSeed = config.seeds[0];
  if (curveSeed !== undefined) for (const calls of config.curve) add(curveSeed, config.curveWindow, calls);
  return { config, rows };
}
