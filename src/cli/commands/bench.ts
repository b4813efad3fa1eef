import type { Command } from 'commander';
import { type CommandIO, processIO } from './io.js';

export interface LongHorizonCommandOptions {
  readonly seeds?: readonly number[];
  readonly windows?: readonly number[];
  readonly calls?: number;
  readonly json?: boolean;
  readonly plot?: string;
}

export interface SessionsCommandOptions {
  readonly json?: boolean;
  /** Which build of the engine the child process runs: the sources, or `dist` when built. */
  readonly engine?: 'source' | 'dist';
}

export interface MlSearchCommandOptions {
  readonly seeds?: readonly number[];
  readonly trials?: number;
  readonly window?: number;
  readonly batchSize?: number;
  readonly json?: boolean;
}

export interface PerfCommandOptions {
  /** Time the build (when it is current) or the TypeScript sources. */
  readonly engine?: 'source' | 'dist';
  readonly constraints?: readonly number[];
  readonly ops?: number;
  readonly runs?: number;
  readonly calls?: number;
  readonly journalEntries?: number;
  readonly replayCalls?: number;
  readonly processes?: number;
  readonly json?: boolean;
}

export interface FleetCommandOptions {
  readonly agents?: number;
  readonly rounds?: number;
  readonly calls?: number;
  readonly redis?: string;
  readonly json?: boolean;
}

export interface ProxyCommandOptions {
  readonly calls?: number;
  readonly concurrentCalls?: number;
  readonly concurrency?: number;
  readonly warmup?: number;
  /** Also measure the proxy without a journal, learning or not, to say where its CPU goes. */
  readonly breakdown?: boolean;
  /** Another build's `dist/` folder: its proxy is timed in the same rounds (an A/B). */
  readonly compare?: string;
  /** Padding of each echoed message, so that each call carries that many bytes each way. */
  readonly messageBytes?: number;
  readonly json?: boolean;
}

/**
 * What the benchmark sources (`bench/`, outside the published package) implement. Each returns the
 * exit code: 0, or 1 when a result contradicts what the benchmark expects.
 */
export interface BenchCommands {
  longHorizon(options: LongHorizonCommandOptions, io: CommandIO): Promise<number>;
  sessions(options: SessionsCommandOptions, io: CommandIO): Promise<number>;
  mlSearch(options: MlSearchCommandOptions, io: CommandIO): Promise<number>;
  perf(options: PerfCommandOptions, io: CommandIO): Promise<number>;
  proxy(options: ProxyCommandOptions, io: CommandIO): Promise<number>;
  fleet(options: FleetCommandOptions, io: CommandIO): Promise<number>;
}

/** A bad option value; the message says what the option takes. */
export class BenchOptionError extends Error {}

export function parseIntegerList(option: string, text: string): number[] {
  const parts = text.split(',').map((part) => part.trim());
  if (parts.some((part) => !/^-?\d+$/.test(part))) {
    throw new BenchOptionError(`${option} takes comma-separated integers (got "${text}")`);
  }
  return parts.map(Number);
}

export function parsePositiveIntegerList(option: string, text: string): number[] {
  const values = parseIntegerList(option, text);
  if (values.some((value) => value < 1)) {
    throw new BenchOptionError(`${option} takes comma-separated positive integers (got "${text}")`);
  }
  return values;
}

export function parsePositiveInteger(option: string, text: string): number {
  const value = /^\d+$/.test(text.trim()) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new BenchOptionError(`${option} takes a positive integer (got "${text}")`);
  }
  return value;
}

type Raw = Readonly<Record<string, string | boolean | undefined>>;

function optional<T>(raw: Raw, key: string, parse: (text: string) => T): T | undefined {
  const value = raw[key];
  return typeof value === 'string' ? parse(value) : undefined;
}

const integers = (option: string) => (text: string) => parseIntegerList(option, text);
const positives = (option: string) => (text: string) => parsePositiveIntegerList(option, text);
const positive = (option: string) => (text: string) => parsePositiveInteger(option, text);

export function parseLongHorizonOptions(raw: Raw): LongHorizonCommandOptions {
  return {
    seeds: optional(raw, 'seeds', integers('--seeds')),
    windows: optional(raw, 'windows', positives('--windows')),
    calls: optional(raw, 'calls', positive('--calls')),
    plot: typeof raw.plot === 'string' ? raw.plot : undefined,
    json: raw.json === true,
  };
}

/** A built command tests the built engine in its child process; run from the sources, the sources. */
export function parseSessionsOptions(raw: Raw): SessionsCommandOptions {
  return { json: raw.json === true, engine: import.meta.url.endsWith('.ts') ? 'source' : 'dist' };
}

export function parseFleetOptions(raw: Raw): FleetCommandOptions {
  return {
    agents: optional(raw, 'agents', positive('--agents')),
    rounds: optional(raw, 'rounds', positive('--rounds')),
    calls: optional(raw, 'calls', positive('--calls')),
    redis: typeof raw.redis === 'string' ? raw.redis : undefined,
    json: raw.json === true,
  };
}

export function parseMlSearchOptions(raw: Raw): MlSearchCommandOptions {
  return {
    seeds: optional(raw, 'seeds', integers('--seeds')),
    trials: optional(raw, 'trials', positive('--trials')),
    window: optional(raw, 'window', positive('--window')),
    batchSize: optional(raw, 'batchSize', positive('--batch-size')),
    json: raw.json === true,
  };
}

export function parsePerfOptions(raw: Raw): PerfCommandOptions {
  const engine = raw.engine;
  if (engine !== undefined && engine !== 'source' && engine !== 'dist') {
    throw new BenchOptionError(`--engine takes source or dist (got "${String(engine)}")`);
  }
  return {
    ...(engine !== undefined && { engine }),
    constraints: optional(raw, 'constraints', positives('--constraints')),
    ops: optional(raw, 'ops', positive('--ops')),
    runs: optional(raw, 'runs', positive('--runs')),
    calls: optional(raw, 'calls', positive('--calls')),
    journalEntries: optional(raw, 'journalEntries', positive('--journal-entries')),
    replayCalls: optional(raw, 'replayCalls', positive('--replay-calls')),
    processes: optional(raw, 'processes', positive('--processes')),
    json: raw.json === true,
  };
}

export function parseProxyOptions(raw: Raw): ProxyCommandOptions {
  return {
    calls: optional(raw, 'calls', positive('--calls')),
    concurrentCalls: optional(raw, 'concurrentCalls', positive('--concurrent-calls')),
    concurrency: optional(raw, 'concurrency', positive('--concurrency')),
    warmup: optional(raw, 'warmup', positive('--warmup')),
    breakdown: raw.breakdown === true,
    ...(typeof raw.compare === 'string' && { compare: raw.compare }),
    messageBytes: optional(raw, 'messageBytes', positive('--message-bytes')),
    json: raw.json === true,
  };
}

const BENCH_HELP = `
long-horizon, ml-search and hooks run wherever narrowing is installed; sessions, perf,
proxy and fleet run from a source checkout of narrowing (they time the sources, start
child scripts or need development dependencies), and say how to get one. Every
subcommand prints a table, or JSON alone with --json; progress goes to standard error.

Examples:
  $ narrowing-guard bench long-horizon --plot long-horizon.svg
  $ narrowing-guard bench ml-search --seeds 1,2,3 --json | jq '.rows[] | {proposer, mode, ooms}'
  $ narrowing-guard bench perf --calls 100000

Exit status: 0 when every expectation holds, 1 when a result contradicts one
(a published figure not reproduced, a session that rediscovers a failure), 2 for a
bad option or when the benchmarks cannot be found.`;

type Subcommand = keyof BenchCommands;
type OptionsOf<K extends Subcommand> = Parameters<BenchCommands[K]>[0];

export function register(program: Command): void {
  const bench = program
    .command('bench')
    .description(
      'reproduce the paper and measure narrowing: long-horizon, sessions, ml-search, perf, proxy, fleet, hooks',
    )
    .addHelpText('after', BENCH_HELP);
  const action =
    <K extends Subcommand>(name: K, parse: (raw: Raw) => OptionsOf<K>) =>
    async (raw: Raw) => {
      process.exitCode = await runBenchCommand(name, () => parse(raw), processIO());
    };

  bench
    .command('long-horizon')
    .description("the paper's long-horizon tool-call simulation, with false blocks and useful work")
    .option('--seeds <list>', 'comma-separated seeds (default 42,1,2,3,4,5)')
    .option('--windows <list>', 'memory windows of the simulated agent (default 10,20,50)')
    .option('--calls <n>', 'tool calls per run (default 200)')
    .option('--plot <file>', 'also write an SVG chart to this file')
    .option('--json', 'machine-readable output only')
    .action(action('longHorizon', parseLongHorizonOptions));

  bench
    .command('sessions')
    .description('learned failures across sessions and processes, and blame (harness faults never narrow)')
    .option('--json', 'machine-readable output only')
    .action(action('sessions', parseSessionsOptions));

  bench
    .command('ml-search')
    .description("the paper's GPU hyperparameter search (v6 protocol) as a deterministic simulation")
    .option('--seeds <list>', 'comma-separated seeds, one agent session each (default 1,2,3,4,5)')
    .option('--trials <n>', 'trials per seed (default 25)')
    .option('--window <n>', 'trials the forgetful proposer can see (default 3)')
    .option('--batch-size <n>', 'batch size of every trial; the paper used 16 in v5, 32 in v6 (default 32)')
    .option('--json', 'machine-readable output only')
    .action(action('mlSearch', parseMlSearchOptions));

  bench
    .command('perf')
    .description(
      "what the guard costs beside a recursion sentinel and the paper's guard: per call, cold start, memory, journal, replay",
    )
    .option('--constraints <list>', 'active learned constraints to measure with (default 10,1000,100000)')
    .option('--ops <n>', 'calls in each interleaved block (default 500)')
    .option('--runs <n>', 'blocks timed per guard and row (default 20)')
    .option('--calls <n>', 'calls in the memory run (default 1000000)')
    .option('--journal-entries <n>', 'calls per run of the journal CPU figure (default 5000)')
    .option('--replay-calls <n>', 'calls in the replayed trace (default 10000)')
    .option('--processes <n>', 'fresh processes for the cold-start figures (default 5)')
    .option(
      '--engine <kind>',
      'dist: the build users install, when it is newer than the sources; source: the TypeScript sources (default dist)',
    )
    .option('--json', 'machine-readable output only')
    .action(action('perf', parsePerfOptions));

  bench
    .command('proxy')
    .description('what the MCP proxy adds per call, measured against server-everything')
    .option('--calls <n>', 'sequential calls each way (default 1000)')
    .option('--concurrent-calls <n>', 'calls on each path for the throughput figures (default 2000)')
    .option('--concurrency <n>', 'concurrent callers for the throughput figures (default 8)')
    .option('--warmup <n>', 'calls each way before measuring (default 2500)')
    .option('--breakdown', 'also measure the proxy without a journal, learning or not: where the CPU goes')
    .option('--compare <dist>', "another build's dist/ folder, its proxy timed in the same rounds (an A/B)")
    .option(
      '--message-bytes <n>',
      'pad each echoed message to about n bytes: a large argument and result each way',
    )
    .option('--json', 'machine-readable output only')
    .action(action('proxy', parseProxyOptions));

  bench
    .command('fleet')
    .description('agents sharing one store: propagation latency (p50, p99) and per-call cost, per store')
    .option('--agents <n>', 'agents on each shared store (default 8)')
    .option('--rounds <n>', 'constraints learned, one agent after another (default 25)')
    .option('--calls <n>', 'calls timed for the per-call cost (default 5000)')
    .option('--redis <url>', 'a Redis server (default: a local redis-server on a free port, when installed)')
    .option('--json', 'machine-readable output only')
    .action(action('fleet', parseFleetOptions));

  bench
    .command('hooks')
    .description(
      'what a hook process costs at start-up, against bare `node -e 0` starts (runs from the package)',
    )
    .option('--runs <n>', 'timed hook calls per scenario (default 21)')
    .option('--constraints <n>', 'learned constraints in the large scenario (default 40000)')
    .option('--hook <file>', 'the bundled hook to time (default: the one in this build)')
    .option('--compare <file>', "another build's bundled hook, timed in the same rounds (an A/B)")
    .option('--json', 'machine-readable output only')
    .action(async (raw: HooksBenchFlags) => {
      const { benchHooks } = await import('../../hooks/bench.js');
      process.exitCode = await benchHooks(
        {
          ...(raw.runs !== undefined && { runs: Math.max(1, Number.parseInt(raw.runs, 10) || 21) }),
          ...(raw.constraints !== undefined && {
            constraints: Math.max(0, Number.parseInt(raw.constraints, 10) || 0),
          }),
          ...(raw.hook !== undefined && { hook: raw.hook }),
          ...(raw.compare !== undefined && { compare: raw.compare }),
          ...(raw.json && { json: true }),
        },
        processIO(),
      );
    });
}

/** The options of `bench hooks`, as given. */
interface HooksBenchFlags {
  runs?: string;
  constraints?: string;
  hook?: string;
  compare?: string;
  json?: boolean;
}

/** Where the benchmarks are looked for; tests point it at an installed package's layout. */
export interface BenchLocation {
  /** The checkout's `bench/commands.ts`. */
  readonly checkout: URL;
  /** The benchmarks bundled into the package, `dist/bench/packaged.js`. */
  readonly packaged: URL;
  /** The package's `package.json`, for the repository to clone. */
  readonly packageJson: URL;
}

const HERE: BenchLocation = {
  checkout: new URL('../../../bench/commands.ts', import.meta.url),
  packaged: new URL('../../bench/packaged.js', import.meta.url),
  packageJson: new URL('../../../package.json', import.meta.url),
};

/**
 * Parses the options, loads the benchmark and runs it. A bad option or a benchmark that needs a
 * checkout is reported in one line with exit status 2, before anything runs.
 */
export async function runBenchCommand<K extends Subcommand>(
  name: K,
  parse: () => OptionsOf<K>,
  io: CommandIO,
  location: BenchLocation = HERE,
): Promise<number> {
  try {
    const options = parse();
    const bench = await loadBenchmarks(name, location);
    // TypeScript cannot correlate `bench[name]` with `OptionsOf<K>`; the signature above does.
    const command = bench[name] as (options: OptionsOf<K>, io: CommandIO) => Promise<number>;
    return await command.call(bench, options, io);
  } catch (error) {
    if (error instanceof BenchOptionError || error instanceof BenchUnavailableError) {
      io.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

class BenchUnavailableError extends Error {}

/** Why a benchmark cannot run from the published package. */
const NEEDS_CHECKOUT: Readonly<Record<Subcommand, string>> = {
  longHorizon: 'its bundle is missing from this build',
  mlSearch: 'its bundle is missing from this build',
  sessions: 'it starts the engine in child processes from the sources',
  perf: 'it times the sources and the build against yardsticks kept in the repository',
  proxy: 'it measures the proxy against server-everything, a development dependency',
  fleet: 'it shares stores through the SQLite and Redis drivers, development dependencies',
};

const COMMAND_NAMES: Readonly<Record<Subcommand, string>> = {
  longHorizon: 'long-horizon',
  mlSearch: 'ml-search',
  sessions: 'sessions',
  perf: 'perf',
  proxy: 'proxy',
  fleet: 'fleet',
};

/** The repository to clone, from the package's own `repository` field. */
async function repositoryUrl(packageJson: URL): Promise<string> {
  const fallback = 'https://github.com/narrowing-guard/narrowing-guard.git';
  try {
    const { readFileSync } = await import('node:fs');
    const { repository } = JSON.parse(readFileSync(packageJson, 'utf8')) as {
      repository?: string | { url?: string };
    };
    const url = typeof repository === 'string' ? repository : repository?.url;
    return url ? url.replace(/^git\+/, '') : fallback;
  } catch {
    return fallback;
  }
}

/**
 * From a checkout, every benchmark loads from its TypeScript sources: directly when the command
 * runs from the sources, through tsx (a development dependency) from a build. From the published
 * package, the bundled ones load from the build; the others say how to run them from a checkout.
 */
async function loadBenchmarks(name: Subcommand, location: BenchLocation): Promise<Partial<BenchCommands>> {
  const { existsSync } = await import('node:fs');
  if (!existsSync(location.checkout)) {
    if (existsSync(location.packaged)) {
      const module = (await import(/* @vite-ignore */ location.packaged.href)) as {
        commands: Partial<BenchCommands>;
      };
      if (module.commands[name]) return module.commands;
    }
    const url = await repositoryUrl(location.packageJson);
    const command = COMMAND_NAMES[name];
    throw new BenchUnavailableError(
      `narrowing-guard bench ${command} runs from a source checkout (${NEEDS_CHECKOUT[name]}): ` +
        `git clone ${url} && cd ${basenameOf(url)} && npm ci && npx tsx src/cli/main.ts bench ${command}`,
    );
  }
  const entry = location.checkout;
  if (import.meta.url.endsWith('.ts')) {
    const module = (await import(/* @vite-ignore */ entry.href)) as { commands: BenchCommands };
    return module.commands;
  }
  try {
    const { tsImport } = await import('tsx/esm/api');
    const module = (await tsImport(entry.href, import.meta.url)) as { commands: BenchCommands };
    return module.commands;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND') {
      throw new BenchUnavailableError(
        'narrowing-guard bench needs the development dependencies (tsx) to load the benchmark sources: run `npm ci`.',
      );
    }
    throw error;
  }
}

/** `narrowing-guard` for `https://github.com/narrowing-guard/narrowing-guard.git`. */
function basenameOf(url: string): string {
  return (url.split('/').pop() ?? 'narrowing-guard').replace(/\.git$/, '') || 'narrowing-guard';
}
