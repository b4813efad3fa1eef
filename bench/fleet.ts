/**
 * The fleet benchmark: eight agents on one shared store. How long a constraint one agent learns
 * takes to block the same call in the seven others (p50, p99), and what a call costs the agent
 * with each store (check + record, the store writing behind).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Outcome, Proposal } from '../src/core/types.js';
import { type GuardSession, openGuard, type StoreOption } from '../src/guard/index.js';
import { redactRedisUrl } from '../src/stores/redis-url.js';

export interface FleetOptions {
  readonly agents?: number;
  readonly rounds?: number;
  readonly calls?: number;
  /** A Redis server to use; without one, a local redis-server is started when installed. */
  readonly redis?: string;
  readonly onProgress?: (message: string) => void;
}

export interface StoreFigures {
  readonly store: string;
  /** Milliseconds from learning in one agent to blocking in another; absent for unshared stores. */
  readonly propagationP50Ms?: number;
  readonly propagationP99Ms?: number;
  readonly samples: number;
  /** Microseconds per check + record. */
  readonly perCallUs: number;
}

export interface FleetReport {
  readonly agents: number;
  readonly stores: readonly StoreFigures[];
  /** Why a store was left out (no redis-server). */
  readonly skipped: readonly string[];
  readonly ok: boolean;
}

const read = (path: string): Proposal => ({ tool: 'read_file', args: { path } });
const missing = (path: string): Outcome => ({
  proposal: read(path),
  success: false,
  content: `ENOENT: no such file or directory, open '${path}'`,
});
const found = (path: string): Outcome => ({ proposal: read(path), success: true, content: 'export {};' });

export async function runFleetBench(options: FleetOptions = {}): Promise<FleetReport> {
  const agents = options.agents ?? 8;
  const rounds = options.rounds ?? 25;
  const calls = options.calls ?? 5_000;
  const progress = options.onProgress ?? (() => undefined);
  const dir = mkdtempSync(join(tmpdir(), 'narrowing-fleet-'));
  const stores: StoreFigures[] = [];
  const skipped: string[] = [];
  const redis = options.redis ? { url: options.redis, stop: async () => undefined } : await startLocalRedis();
  try {
    const choices: [string, StoreOption, boolean][] = [
      ['memory', 'memory', false],
      ['file', 'file', true],
      ['sqlite', 'sqlite', true],
    ];
    if (redis) choices.push([redactRedisUrl(redis.url), `${redis.url}` as `redis://${string}`, true]);
    else skipped.push('redis: redis-server is not installed and no --redis URL was given');
    for (const [label, store, shared] of choices) {
      progress(`${label}: ${agents} agents`);
      const stateDir = join(dir, label.replace(/\W+/g, '-'));
      const fleet: GuardSession[] = [];
      for (let index = 0; index < (shared ? agents : 1); index += 1) {
        fleet.push(
          await openGuard({
            store,
            stateDir,
            context: { repository: 'github.com/acme/fleet-bench' },
            probe: false,
            journal: false,
            onProblem: () => undefined,
          }),
        );
      }
      const latencies = shared ? await propagation(fleet, rounds, label) : [];
      perCall(fleet[0] as GuardSession, Math.ceil(calls / 5), `${label}-warmup`);
      const perCallUs = perCall(fleet[0] as GuardSession, calls, label);
      for (const session of fleet) await session.close();
      stores.push({
        store: label,
        ...(latencies.length > 0 && {
          propagationP50Ms: percentile(latencies, 0.5),
          propagationP99Ms: percentile(latencies, 0.99),
        }),
        samples: latencies.length,
        perCallUs,
      });
    }
  } finally {
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const redisFigures = stores.find((figures) => figures.store.startsWith('redis'));
  const ok =
    redisFigures === undefined || (redisFigures.propagationP99Ms ?? Number.POSITIVE_INFINITY) < 1_000;
  return { agents, stores, skipped, ok };
}

/** Each round one agent learns a new fact; the time until every other agent blocks on it. */
async function propagation(fleet: GuardSession[], rounds: number, label: string): Promise<number[]> {
  const latencies: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const path = `src/${label.replace(/\W+/g, '-')}-${round}.ts`;
    const learner = fleet[round % fleet.length] as GuardSession;
    const others = fleet.filter((session) => session !== learner);
    const start = performance.now();
    learner.record(missing(path));
    const waiting = new Set(others);
    const deadline = start + 5_000;
    while (waiting.size > 0 && performance.now() < deadline) {
      for (const session of [...waiting]) {
        if (session.check(read(path)).verdict === 'block') {
          latencies.push(performance.now() - start);
          waiting.delete(session);
        }
      }
      // The file store has no subscription: an agent sees others' changes when it flushes.
      if (label === 'file') await Promise.all([...waiting].map((session) => session.flush()));
      else await new Promise((resolve) => setTimeout(resolve, 1));
    }
    for (const _ of waiting) latencies.push(Number.POSITIVE_INFINITY);
  }
  return latencies;
}

/** Check + record on one agent: nine reads that succeed, then one that fails and is learned. */
function perCall(session: GuardSession, calls: number, label: string): number {
  const start = performance.now();
  for (let index = 0; index < calls; index += 1) {
    const path = `lib/${label.replace(/\W+/g, '-')}/${index}.ts`;
    session.check(read(path));
    session.record(index % 10 === 9 ? missing(path) : found(path));
  }
  return ((performance.now() - start) * 1_000) / calls;
}

function percentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

async function startLocalRedis(): Promise<{ url: string; stop: () => Promise<void> } | undefined> {
  if (spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status !== 0) return undefined;
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise((resolve) => probe.close(resolve));
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes('Ready to accept connections')) resolve();
    });
    child.on('exit', () => reject(new Error(`redis-server exited: ${output}`)));
  });
  child.stdout.resume();
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
