/**
 * What the MCP proxy costs: the latency of a cheap tools/call (server-everything's `echo`) made
 * directly and through `narrowing mcp`, interleaved in one run so that both see the same machine,
 * and the throughput of 8 concurrent callers each way. The proxy runs as its own process, with
 * the real guard and a fresh state directory, exactly as a client would start it.
 *
 * A third path goes through a process that only copies bytes (`byte-relay.mjs`): the cost of one
 * more process between client and server, which no stdio proxy can go below. Where client, proxy
 * and server share few cores, that floor is far from free, and it is the yardstick for the rest.
 * A fourth goes through a process that reads every message as JSON and writes it back
 * (`json-relay.mjs`: the floor of any proxy that reads messages). Between rounds, the guard's own
 * work for the same calls (the proposal, the check, the learning, the journal: `proxy-guard.ts`)
 * runs in this process: a JSON relay plus that work is what any proxy running this guard spends.
 *
 * With `breakdown`, two more paths say where the proxy's CPU goes beyond that floor: the proxy with
 * its state in memory (no journal, no state file), learning or not. Each is measured from `/proc`
 * in the same run, interleaved with the others.
 *
 * With `compare`, the proxy of another build (the `dist/` folder of another checkout, or a copy of
 * this one's kept from before a change) is one more path, timed in the same rounds: an A/B of two
 * builds on the same machine at the same moments, which two separate runs on a busy machine are not.
 */
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type CallToolResult, Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { chooseEngine, type EngineKind } from './engine.js';
import { type GuardWork, guardWork } from './proxy-guard.js';

export interface ProxyBenchOptions {
  /** Sequential calls per side for the latency figures. */
  readonly calls?: number;
  /** Calls per side for the throughput figures, spread over `concurrency` callers. */
  readonly concurrentCalls?: number;
  readonly concurrency?: number;
  /** Calls per side before measuring (JIT, caches, the proxy's tool list). */
  readonly warmup?: number;
  /** How to start the proxy: the command and its leading arguments, before `mcp`. */
  readonly proxyCommand?: readonly string[];
  /** Run the proxy from the build (the default, when it is current) or from the sources. */
  readonly engine?: EngineKind;
  /** Also measure the proxy without a journal, learning or not, to say where the CPU goes. */
  readonly breakdown?: boolean;
  /**
   * Another build's `dist/` folder, in its checkout (it reads the package.json beside it and its
   * dependencies from there): its proxy is timed in the same rounds as this build's, as `base`.
   */
  readonly compare?: string;
  /**
   * Pads each echoed message to about this many bytes, so that each call carries a large argument to
   * the server and a large result back: what the proxy's reading and writing of messages cost by size.
   */
  readonly messageBytes?: number;
}

export interface LatencyStats {
  readonly count: number;
  readonly medianMs: number;
  readonly p99Ms: number;
  readonly meanMs: number;
}

export interface ProxyBenchResult {
  readonly tool: string;
  /** With `messageBytes`: the padding of each echoed message. */
  readonly messageBytes?: number;
  readonly latency: {
    readonly direct: LatencyStats;
    readonly proxied: LatencyStats;
    /** With `compare`: through the other build's proxy. */
    readonly base?: LatencyStats;
    /** Through the process that only copies bytes. */
    readonly relay: LatencyStats;
    /** Through the process that reads and rewrites every message as JSON. */
    readonly jsonRelay: LatencyStats;
    /**
     * With `breakdown`: through the proxy with its state in memory (no journal, no state file),
     * learning (`inMemory`) or under the `off` preset, which checks every call and learns nothing.
     */
    readonly inMemory?: LatencyStats;
    readonly off?: LatencyStats;
    /** Proxied minus direct. */
    readonly addedMedianMs: number;
    readonly addedP99Ms: number;
  };
  readonly throughput: {
    readonly concurrency: number;
    readonly calls: number;
    /** Calls per second. */
    readonly direct: number;
    readonly proxied: number;
    readonly relay: number;
    readonly jsonRelay: number;
    readonly base?: number;
  };
  /**
   * CPU time per call of the process in the middle (user and system, from `/proc/<pid>/stat`), over
   * every call after the warm-up: narrowing's proxy and the byte relay. Absent where `/proc` is not.
   */
  readonly cpu?: {
    readonly calls: number;
    readonly proxyUs: number;
    readonly relayUs: number;
    /** The process that reads and rewrites every message as JSON. */
    readonly jsonRelayUs: number;
    /**
     * The guard's own work for as many calls (proposal, check, learning, journal and state file), run
     * in the benchmark's process between rounds: see `proxy-guard.ts`. Absent if it could not run.
     */
    readonly guardUs?: number;
    /** With `breakdown`: the proxy with its state in memory, so without a journal or a state file. */
    readonly proxyInMemoryUs?: number;
    /**
     * With `breakdown`: the proxy with its state in memory under the `off` preset, which checks every
     * call and learns nothing: beside `proxyInMemoryUs`, what learning from each result costs.
     */
    readonly proxyOffUs?: number;
    /** With `compare`: the other build's proxy. */
    readonly baseUs?: number;
    /**
     * The proxy's CPU per call over the last fifth of the sequential warm-up (`warmupTailCalls`
     * calls), and over the sequential calls measured: the first well above the second when the
     * warm-up was too short and the proxy was still being compiled.
     */
    readonly warmupTailUs?: number;
    readonly warmupTailCalls?: number;
    readonly sequentialUs?: number;
  };
  /** With `compare`: the other build's folder. */
  readonly base?: string;
  readonly totalCalls: number;
  readonly durationMs: number;
  readonly node: string;
  readonly platform: string;
  /** What ran the proxy: the built command, the sources through tsx (with the reason), or the caller's. */
  readonly engine: EngineKind | 'custom';
  readonly engineNote?: string;
}

/** Calls on each path before anything is measured. */
export const DEFAULT_PROXY_WARMUP = 2_500;

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const EVERYTHING = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const BYTE_RELAY = fileURLToPath(new URL('./byte-relay.mjs', import.meta.url));
const JSON_RELAY = fileURLToPath(new URL('./json-relay.mjs', import.meta.url));
/** The guard's own work writes its journal and state after this many sequential calls. */
const GUARD_FLUSH_EVERY = 50;

export async function runProxyBench(options: ProxyBenchOptions = {}): Promise<ProxyBenchResult> {
  const calls = options.calls ?? 1_000;
  const concurrency = options.concurrency ?? 8;
  const concurrentCalls = options.concurrentCalls ?? 2_000;
  // Long enough that the proxy's hot path is compiled and optimised before anything is timed: its
  // figure is then the proxy's own cost, not V8 compiling it. The proxy's CPU per call falls for its
  // first 2,000 calls or so (code still interpreted, then compiled) and is flat after: 400, the
  // former default, measured mostly that fall.
  const warmup = options.warmup ?? DEFAULT_PROXY_WARMUP;
  const baseDist = options.compare === undefined ? undefined : buildFolder(options.compare);
  const stateDir = mkdtempSync(join(tmpdir(), 'narrowing-bench-proxy-'));
  const started = performance.now();
  const direct = await connect(process.execPath, [EVERYTHING]).then(({ client }) => client);
  const engine = chooseEngine(options.engine ?? 'dist');
  const [command, ...prefix] = options.proxyCommand ?? defaultProxyCommand(engine.kind);
  /** This build's proxy in front of the server, with these options of `mcp`. */
  const proxy = (...mcpOptions: string[]) =>
    connect(command!, [
      ...prefix,
      'mcp',
      '--state-dir',
      stateDir,
      ...mcpOptions,
      '--',
      process.execPath,
      EVERYTHING,
    ]);
  const { client: proxied, pid: proxyPid } = await proxy();
  const { client: relayed, pid: relayPid } = await connect(process.execPath, [
    BYTE_RELAY,
    process.execPath,
    EVERYTHING,
  ]);
  const { client: jsonRelayed, pid: jsonRelayPid } = await connect(process.execPath, [
    JSON_RELAY,
    process.execPath,
    EVERYTHING,
  ]);
  const base =
    baseDist === undefined
      ? undefined
      : await connect(process.execPath, [
          ...buildProxyCommand(baseDist),
          'mcp',
          '--state-dir',
          join(stateDir, 'base'),
          '--',
          process.execPath,
          EVERYTHING,
        ]).catch(async (error: unknown) => {
          await Promise.all([direct.close(), proxied.close(), relayed.close(), jsonRelayed.close()]);
          rmSync(stateDir, { recursive: true, force: true });
          throw new Error(`the proxy of ${baseDist} did not start: ${(error as Error).message}`);
        });
  const extra = options.breakdown
    ? {
        inMemory: await proxy('--store', 'memory'),
        off: await proxy('--store', 'memory', '--preset', 'off'),
      }
    : undefined;
  let guard: GuardWork | undefined;
  try {
    let sequence = 0;
    const padding = options.messageBytes === undefined ? '' : ` ${'x'.repeat(options.messageBytes)}`;
    // A different message each time: identical calls with identical results are what the guard
    // exists to stop, and this measures the cost of the calls it lets through.
    const message = (number: number) => `bench ${number}${padding}`;
    const echo = async (client: Client) => {
      sequence += 1;
      const result = await client.callTool({ name: 'echo', arguments: { message: message(sequence) } });
      if (result.isError) throw new Error(`echo failed: ${JSON.stringify(result.content)}`);
    };
    guard = await guardOfEcho(direct, stateDir, message);
    const paths = {
      direct: timedPath(direct),
      proxied: timedPath(proxied),
      relay: timedPath(relayed),
      jsonRelay: timedPath(jsonRelayed),
    };
    const basePath = base && timedPath(base.client);
    const extraPaths = extra && {
      inMemory: timedPath(extra.inMemory.client),
      off: timedPath(extra.off.client),
    };
    const all = [
      ...Object.values(paths),
      ...(basePath ? [basePath] : []),
      ...(extraPaths ? [extraPaths.inMemory, extraPaths.off] : []),
    ];
    // Each pass lets another path go first, so that none always runs on a warmer loop.
    const inTurn = (lead: number) => all.map((_, turn) => all[(lead + turn) % all.length]!);
    const middle = {
      proxy: proxyPid,
      relay: relayPid,
      jsonRelay: jsonRelayPid,
      inMemory: extra?.inMemory.pid ?? null,
      off: extra?.off.pid ?? null,
      base: base?.pid ?? null,
    };
    // The proxy's CPU over the warm-up's last fifth, beside its CPU over the sequential calls
    // measured, says whether it was still compiling when measuring began.
    const tailFrom = warmup - Math.floor(warmup / 5);
    let warmupTail: number | undefined;
    for (let index = 0; index < warmup; index += 1) {
      if (index === tailFrom) warmupTail = cpuTicks(proxyPid);
      for (const path of all) await echo(path.client);
    }
    const warmupEnd = cpuTicks(proxyPid);
    // The guard's own work warms up on as many calls, outside the proxy's figures above.
    await guard?.run(warmup + Math.ceil(warmup / 2));
    await guard?.flush();
    guard?.measure();
    // Concurrent calls run code that sequential ones do not (identical calls in flight, batched
    // writes): it is compiled before measuring too.
    const concurrentWarmup = Math.ceil(warmup / 2);
    for (const path of all) await burst(() => echo(path.client), concurrentWarmup, concurrency);
    const cpuBefore = ticksOf(middle);

    for (let index = 0; index < calls; index += 1) {
      for (const path of inTurn(index)) {
        const begin = performance.now();
        await echo(path.client);
        path.times.push(performance.now() - begin);
      }
      // One call of the guard's own work a round, as the proxy's guard gets one between its messages.
      await guard?.run(1);
      if ((index + 1) % GUARD_FLUSH_EVERY === 0) await guard?.flush();
    }
    const sequentialEnd = cpuTicks(proxyPid);

    // Each path gets one untimed burst first: concurrency runs code that sequential calls did not,
    // and whoever went first would pay for compiling it.
    const rounds = all.length;
    // The timed calls split as evenly as they go, adding up to exactly `concurrentCalls` per path.
    const shares = Array.from({ length: rounds }, (_, round) =>
      Math.floor((concurrentCalls + round) / rounds),
    );
    const untimed = shares.at(-1)!;
    for (const path of all) await burst(() => echo(path.client), untimed, concurrency);
    await guard?.run(untimed);
    await guard?.flush();
    for (let round = 0; round < rounds; round += 1) {
      for (const path of inTurn(round)) {
        path.elapsed += await burst(() => echo(path.client), shares[round]!, concurrency);
      }
      await guard?.run(shares[round]!);
      await guard?.flush();
    }

    const cpuAfter = ticksOf(middle);
    const measuredCalls = calls + untimed + concurrentCalls;
    const perCallUs = (before: number | undefined, after: number | undefined) =>
      before === undefined || after === undefined ? undefined : ((after - before) * TICK_US) / measuredCalls;
    const proxyUs = perCallUs(cpuBefore.proxy, cpuAfter.proxy);
    const relayUs = perCallUs(cpuBefore.relay, cpuAfter.relay);
    const jsonRelayUs = perCallUs(cpuBefore.jsonRelay, cpuAfter.jsonRelay);
    const guardUs = guard?.perCallUs;
    const proxyInMemoryUs = perCallUs(cpuBefore.inMemory, cpuAfter.inMemory);
    const proxyOffUs = perCallUs(cpuBefore.off, cpuAfter.off);
    const baseUs = perCallUs(cpuBefore.base, cpuAfter.base);
    const tailCalls = warmup - tailFrom;
    const warmupTailUs =
      warmupTail === undefined || warmupEnd === undefined || tailCalls === 0
        ? undefined
        : ((warmupEnd - warmupTail) * TICK_US) / tailCalls;
    const sequentialUs =
      cpuBefore.proxy === undefined || sequentialEnd === undefined
        ? undefined
        : ((sequentialEnd - cpuBefore.proxy) * TICK_US) / calls;
    const directStats = stats(paths.direct.times);
    const proxiedStats = stats(paths.proxied.times);
    const perSecond = (path: TimedPath) => concurrentCalls / (path.elapsed / 1000);
    return {
      tool: 'echo',
      ...(options.messageBytes !== undefined && { messageBytes: options.messageBytes }),
      latency: {
        direct: directStats,
        proxied: proxiedStats,
        relay: stats(paths.relay.times),
        jsonRelay: stats(paths.jsonRelay.times),
        ...(basePath && { base: stats(basePath.times) }),
        ...(extraPaths && { inMemory: stats(extraPaths.inMemory.times), off: stats(extraPaths.off.times) }),
        addedMedianMs: proxiedStats.medianMs - directStats.medianMs,
        addedP99Ms: proxiedStats.p99Ms - directStats.p99Ms,
      },
      throughput: {
        concurrency,
        calls: concurrentCalls,
        direct: perSecond(paths.direct),
        proxied: perSecond(paths.proxied),
        relay: perSecond(paths.relay),
        jsonRelay: perSecond(paths.jsonRelay),
        ...(basePath && { base: perSecond(basePath) }),
      },
      ...(proxyUs !== undefined &&
        relayUs !== undefined &&
        jsonRelayUs !== undefined && {
          cpu: {
            calls: measuredCalls,
            proxyUs,
            relayUs,
            jsonRelayUs,
            ...(guardUs !== undefined && { guardUs }),
            ...(proxyInMemoryUs !== undefined && { proxyInMemoryUs }),
            ...(proxyOffUs !== undefined && { proxyOffUs }),
            ...(baseUs !== undefined && { baseUs }),
            ...(warmupTailUs !== undefined &&
              sequentialUs !== undefined && { warmupTailUs, warmupTailCalls: tailCalls, sequentialUs }),
          },
        }),
      ...(baseDist !== undefined && { base: baseDist }),
      totalCalls: all.length * (warmup + concurrentWarmup + calls + untimed + concurrentCalls),
      durationMs: performance.now() - started,
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      engine: options.proxyCommand ? 'custom' : engine.kind,
      ...(engine.note !== undefined && !options.proxyCommand && { engineNote: engine.note }),
    };
  } finally {
    await Promise.all([
      direct.close(),
      proxied.close(),
      relayed.close(),
      jsonRelayed.close(),
      guard?.close(),
      extra?.inMemory.client.close(),
      extra?.off.client.close(),
      base?.client.close(),
    ]);
    rmSync(stateDir, { recursive: true, force: true });
  }
}

/**
 * The guard's own work for the bench's echo calls: the tool as the server lists it, the arguments
 * the calls carry and the result the server gives (its answer to one call, with each call's text).
 */
async function guardOfEcho(
  direct: Client,
  stateDir: string,
  message: (sequence: number) => string,
): Promise<GuardWork | undefined> {
  const { tools } = await direct.listTools();
  const tool = tools.find((listed) => listed.name === 'echo');
  if (!tool) return undefined;
  const sample = (await direct.callTool({
    name: 'echo',
    arguments: { message: 'bench 0' },
  })) as CallToolResult;
  const shown = JSON.stringify(sample.content);
  if (!shown.includes('bench 0')) return undefined;
  return guardWork({
    stateDir: join(stateDir, 'guard-only'),
    workspaceRoot: ROOT,
    tool,
    args: (sequence) => ({ message: message(sequence) }),
    result: (sequence) => ({
      ...sample,
      content: JSON.parse(shown.replace('bench 0', JSON.stringify(message(sequence)).slice(1, -1))),
    }),
  });
}

/** The built command when the build is current, as users run it; otherwise the sources. */
function defaultProxyCommand(engine: EngineKind): string[] {
  if (engine === 'dist') return [process.execPath, join(ROOT, 'bin/narrowing.js')];
  const main = new URL('../src/cli/main.ts', import.meta.url).href;
  const script = `const { main } = await import(${JSON.stringify(main)}); await main(process.argv.slice(1));`;
  return [process.execPath, '--import', 'tsx', '--input-type=module', '--eval', script];
}

/** The folder of another build, checked: the one its proxy is started from. */
function buildFolder(folder: string): string {
  const dist = existsSync(folder) ? realpathSync(folder) : resolve(folder);
  // The build reads its version from the package.json beside it, and its dependencies from there.
  if (!existsSync(join(dist, 'cli', 'start.js')) || !existsSync(join(dist, '..', 'package.json'))) {
    throw new Error(
      `${folder} is not the build of a narrowing checkout (cli/start.js in it, package.json beside it): give another checkout's dist/ folder`,
    );
  }
  return dist;
}

/** Node's arguments that run the command line of the build in `dist`, before `mcp`. */
function buildProxyCommand(dist: string): string[] {
  const start = pathToFileURL(join(dist, 'cli', 'start.js')).href;
  const script = `const { startCli } = await import(${JSON.stringify(start)}); await startCli(process.argv.slice(1));`;
  return ['--input-type=module', '--eval', script];
}

/** One way to the server, with what was measured on it. */
interface TimedPath {
  readonly client: Client;
  /** Latency of each sequential call, ms. */
  readonly times: number[];
  /** Time the concurrent bursts took, ms. */
  elapsed: number;
}

function timedPath(client: Client): TimedPath {
  return { client, times: [], elapsed: 0 };
}

async function connect(command: string, args: string[]): Promise<{ client: Client; pid: number | null }> {
  const client = new Client({ name: 'narrowing-bench', version: '1.0.0' });
  const transport = new StdioClientTransport({ command, args, cwd: ROOT, stderr: 'ignore' });
  await client.connect(transport);
  return { client, pid: transport.pid };
}

/** Linux counts CPU time in clock ticks of 10 ms (USER_HZ is 100 on every architecture Node runs on). */
const TICK_US = 10_000;

/**
 * `numerator / denominator` as a ratio with `digits` decimals; a CPU figure read from /proc is counted
 * in clock ticks, so a path that used less than one tick over a short run shows 0, and no ratio over it
 * says anything.
 */
export function timesText(numerator: number, denominator: number, digits: number): string {
  return denominator > 0
    ? `${(numerator / denominator).toFixed(digits)}×`
    : 'not measurable: under one clock tick';
}

function ticksOf<K extends string>(pids: Record<K, number | null>): Record<K, number | undefined> {
  const ticks = {} as Record<K, number | undefined>;
  for (const name in pids) ticks[name] = cpuTicks(pids[name]);
  return ticks;
}

/** User plus system time of a process so far, in clock ticks; undefined without `/proc`. */
function cpuTicks(pid: number | null): number | undefined {
  if (pid === null) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name, in parentheses, may hold spaces: fields are counted after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

/** `total` calls spread over `workers` callers that each wait for their previous answer; elapsed ms. */
async function burst(call: () => Promise<void>, total: number, workers: number): Promise<number> {
  let remaining = total;
  const begin = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (remaining > 0) {
        remaining -= 1;
        await call();
      }
    }),
  );
  return performance.now() - begin;
}

function stats(samples: readonly number[]): LatencyStats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (fraction: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? 0;
  const mean = sorted.reduce((sum, value) => sum + value, 0) / Math.max(1, sorted.length);
  return { count: sorted.length, medianMs: at(0.5), p99Ms: at(0.99), meanMs: mean };
}

const ms = (value: number) => `${value.toFixed(3)} ms`;

/** The proxy's CPU time per call at most this many times the byte relay's: the issue's wording. */
export const PROXY_CPU_LIMIT = 2;
/**
 * The proxy's CPU time per call at most this many times a JSON relay's plus the guard's own work for
 * the call: the measure that holds the proxy to its own code, since the guard's check and learning
 * are work a byte relay never does.
 */
export const PROXY_WORK_LIMIT = 2;

export interface ProxyTarget {
  readonly id: string;
  readonly description: string;
  readonly pass: boolean;
  readonly value: string;
  /**
   * Shown beside the others but not judged: the CPU against a JSON relay plus the guard's own work,
   * the measure proposed for the target, kept in view with its own verdict beside the target's wording.
   */
  readonly shownOnly?: true;
}

/** Added latency at the median at most this, in milliseconds. */
export const PROXY_ADDED_MEDIAN_MS = 0.25;
/** The proxied p99 at most this many times the direct p99 of the same run. */
export const PROXY_P99_LIMIT = 2;

export function proxyTargets(result: ProxyBenchResult): ProxyTarget[] {
  const cpu = result.cpu;
  const ratio = cpu ? cpu.proxyUs / cpu.relayUs : Number.NaN;
  const floorUs = cpu?.guardUs === undefined ? undefined : cpu.jsonRelayUs + cpu.guardUs;
  const { latency } = result;
  const p99Ratio = latency.proxied.p99Ms / latency.direct.p99Ms;
  return [
    {
      id: 'proxy-median',
      description: `MCP proxy: added latency at the median at most ${PROXY_ADDED_MEDIAN_MS} ms (echo server, stdio)`,
      pass: latency.addedMedianMs <= PROXY_ADDED_MEDIAN_MS,
      value: `${latency.addedMedianMs.toFixed(3)} ms (${latency.proxied.medianMs.toFixed(3)} vs ${latency.direct.medianMs.toFixed(3)} ms)`,
    },
    {
      id: 'proxy-p99',
      description: `MCP proxy: p99 at most ${PROXY_P99_LIMIT}× the direct p99 of the same run`,
      pass: p99Ratio <= PROXY_P99_LIMIT,
      value: `${p99Ratio.toFixed(2)}× (${latency.proxied.p99Ms.toFixed(3)} vs ${latency.direct.p99Ms.toFixed(3)} ms)`,
    },
    {
      id: 'proxy-cpu-work',
      description: `MCP proxy: CPU per call at most ${PROXY_WORK_LIMIT}× a JSON relay's plus the guard's own work for the call (proposal, check, learning, journal), in the same run (the measure proposed; shown, not judged)`,
      pass: cpu !== undefined && floorUs !== undefined && cpu.proxyUs <= PROXY_WORK_LIMIT * floorUs,
      value:
        cpu && floorUs !== undefined
          ? `${(cpu.proxyUs / floorUs).toFixed(2)}× (${cpu.proxyUs.toFixed(0)} µs vs ${cpu.jsonRelayUs.toFixed(0)} + ${cpu.guardUs!.toFixed(0)} µs)`
          : `not measured (${cpu ? 'the guard alone did not run' : 'no /proc'})`,
      shownOnly: true,
    },
    {
      id: 'proxy-cpu',
      description: `MCP proxy: CPU per call at most ${PROXY_CPU_LIMIT}× a byte relay's, from /proc in the same run`,
      pass: cpu !== undefined && ratio <= PROXY_CPU_LIMIT,
      value: cpu
        ? `${timesText(cpu.proxyUs, cpu.relayUs, 2)} (${cpu.proxyUs.toFixed(0)} µs vs ${cpu.relayUs.toFixed(0)} µs)`
        : 'not measured (no /proc)',
    },
  ];
}

/** Below this share of the warm-up's last fifth, the calls measured were still getting cheaper: V8 was compiling. */
const STILL_WARMING_SHARE = 0.85;

/**
 * Whether the proxy's CPU per sequential call measured fell well below its CPU over the warm-up's
 * last fifth: the warm-up ended before its code was compiled, and a longer one is needed.
 */
export function stillWarming(warmupTailUs: number, sequentialUs: number): boolean {
  return sequentialUs < warmupTailUs * STILL_WARMING_SHARE;
}

export function formatProxyBench(result: ProxyBenchResult): string {
  const { latency, throughput } = result;
  const row = (label: string, stats: LatencyStats) =>
    `  ${label.padEnd(9)} median ${ms(stats.medianMs).padStart(10)}   p99 ${ms(stats.p99Ms).padStart(10)}`;
  return [
    `MCP proxy overhead: tools/call ${result.tool}${result.messageBytes === undefined ? '' : ` of ${result.messageBytes}-byte messages`} on server-everything, ${latency.direct.count} calls each way, interleaved`,
    row('direct', latency.direct),
    row('proxied', latency.proxied),
    `  added     median ${ms(latency.addedMedianMs).padStart(10)}   p99 ${ms(latency.addedP99Ms).padStart(10)}`,
    row('relay', latency.relay),
    row('JSON', latency.jsonRelay),
    ...(latency.base ? baseLatencyLines(latency.base, latency) : []),
    ...breakdownLatencyLines(latency),
    `Throughput with ${throughput.concurrency} concurrent callers, ${throughput.calls} calls each way:`,
    `  direct  ${Math.round(throughput.direct)} calls/s`,
    `  proxied ${Math.round(throughput.proxied)} calls/s (${percentOfDirect(throughput.proxied, throughput)})`,
    `  relay   ${Math.round(throughput.relay)} calls/s (${percentOfDirect(throughput.relay, throughput)})`,
    `  JSON    ${Math.round(throughput.jsonRelay)} calls/s (${percentOfDirect(throughput.jsonRelay, throughput)})`,
    ...(throughput.base !== undefined
      ? [`  base    ${Math.round(throughput.base)} calls/s (${percentOfDirect(throughput.base, throughput)})`]
      : []),
    '(relay: a process that only copies bytes between client and server, the floor of any stdio proxy; JSON: one that reads and rewrites every message, the floor of any proxy that reads them)',
    ...(result.cpu
      ? [
          `CPU per call of the process in the middle, from /proc over ${result.cpu.calls} calls each: proxy ${result.cpu.proxyUs.toFixed(0)} µs, relay ${result.cpu.relayUs.toFixed(0)} µs (${timesText(result.cpu.proxyUs, result.cpu.relayUs, 2)}), JSON relay ${result.cpu.jsonRelayUs.toFixed(0)} µs`,
          ...(result.cpu.guardUs !== undefined
            ? [
                `  the guard's own work for as many calls, alone in this process: ${result.cpu.guardUs.toFixed(0)} µs per call; the proxy is ${(result.cpu.proxyUs / (result.cpu.jsonRelayUs + result.cpu.guardUs)).toFixed(2)}× a JSON relay plus that work`,
              ]
            : []),
          ...(result.cpu.warmupTailUs !== undefined && result.cpu.sequentialUs !== undefined
            ? [
                `  the proxy over the last ${result.cpu.warmupTailCalls} sequential warm-up calls: ${result.cpu.warmupTailUs.toFixed(0)} µs per call; over the ${latency.direct.count} measured: ${result.cpu.sequentialUs.toFixed(0)} µs${stillWarming(result.cpu.warmupTailUs, result.cpu.sequentialUs) ? ' (well below the first: warm up longer)' : ''}`,
              ]
            : []),
          ...(result.cpu.baseUs !== undefined
            ? [
                `  the other build's proxy ${result.cpu.baseUs.toFixed(0)} µs, to the relay ${timesText(result.cpu.baseUs, result.cpu.relayUs, 2)}; this build's to the other's ${timesText(result.cpu.proxyUs, result.cpu.baseUs, 3)}`,
              ]
            : []),
          ...breakdownLines(result.cpu),
        ]
      : []),
    ...(result.base !== undefined
      ? [`(base: the proxy of the build in ${result.base}, in the same rounds)`]
      : []),
    `${result.totalCalls} calls in ${(result.durationMs / 1000).toFixed(1)} s (node ${result.node}, ${result.platform}; proxy ${proxyOrigin(result)})`,
  ].join('\n');
}

/** The other build's proxy beside this one's: the A/B of `compare`. */
function baseLatencyLines(base: LatencyStats, latency: ProxyBenchResult['latency']): string[] {
  const row = `  ${'base'.padEnd(9)} median ${ms(base.medianMs).padStart(10)}   p99 ${ms(base.p99Ms).padStart(10)}`;
  const added = base.medianMs - latency.direct.medianMs;
  return [
    row,
    `  added     median ${ms(added).padStart(10)} through the other build (this build: ${ms(latency.addedMedianMs)})`,
  ];
}

/**
 * Where the added latency goes, from the extra paths of `breakdown`: the proxy checking each call
 * and learning nothing, then learning too, both without a journal or a state file, beside the full
 * proxy. Medians of the same rounds, so a difference between two rows is what that step adds.
 */
function breakdownLatencyLines(latency: ProxyBenchResult['latency']): string[] {
  const { inMemory, off } = latency;
  if (inMemory === undefined || off === undefined) return [];
  const added = (stats: LatencyStats) => ms(stats.medianMs - latency.direct.medianMs).padStart(10);
  return [
    'Where the added latency goes (median over direct, each path in the same rounds):',
    `  ${added(latency.jsonRelay)}  a JSON relay: one more process that reads and writes each message`,
    `  ${added(off)}  the proxy checking each call, learning nothing, state in memory (preset off)`,
    `  ${added(inMemory)}  the same, learning from each result (preset precise)`,
    `  ${added(latency.proxied)}  the same, with its journal and state file (the proxy as it runs)`,
  ];
}

/** Where the proxy's CPU goes beyond the byte relay's, from the extra paths of `breakdown`. */
function breakdownLines(cpu: NonNullable<ProxyBenchResult['cpu']>): string[] {
  const { jsonRelayUs, proxyInMemoryUs, proxyOffUs } = cpu;
  if (proxyInMemoryUs === undefined || proxyOffUs === undefined) return [];
  const us = (value: number) => `${value.toFixed(0).padStart(5)} µs`;
  return [
    'Where it goes (CPU per call, each path measured in the same run):',
    `  ${us(cpu.relayUs)}  byte relay: one more process in the path`,
    `  ${us(jsonRelayUs - cpu.relayUs)}  reading and writing each message as JSON (JSON relay ${us(jsonRelayUs).trim()})`,
    `  ${us(proxyOffUs - jsonRelayUs)}  the proxy's own work and the guard's check (proxy, state in memory, preset off: ${us(proxyOffUs).trim()})`,
    `  ${us(proxyInMemoryUs - proxyOffUs)}  learning from each result (the same, preset precise: ${us(proxyInMemoryUs).trim()})`,
    `  ${us(cpu.proxyUs - proxyInMemoryUs)}  the journal and the state file`,
  ];
}

function percentOfDirect(callsPerSecond: number, throughput: ProxyBenchResult['throughput']): string {
  return `${Math.round((100 * callsPerSecond) / throughput.direct)}% of direct`;
}

function proxyOrigin(result: ProxyBenchResult): string {
  if (result.engine === 'dist') return 'built';
  if (result.engine === 'custom') return 'started by the given command';
  return `from the sources${result.engineNote ? ` (${result.engineNote})` : ''}`;
}
