/**
 * The guard's own work for a proxied call, without the proxy: the proposal built as the proxy builds
 * it (the tool's annotations from its listing), the check, and the learning from the server's result
 * with its conversion, on a guard opened as `narrowing mcp` opens one (file store, journal with
 * receipts, in a state directory of its own). `bench proxy` runs it in its own process between its
 * rounds, so that a proxy's CPU can be set against what any proxy running this guard must spend: a
 * JSON relay's reading and writing of messages plus this.
 *
 * The benchmark runs one call at a time between its sequential calls of every path, as the guard
 * runs in a proxy, its caches cooled by the other processes in between; and as many calls back to
 * back as each concurrent burst. Now and then it writes the guard's journal and state (`flush`): the
 * journal writes nothing on its own in between, so that the CPU counted holds all of its hashing and
 * writing. Its sync to disk is left to its durability window, at most once a second as in a proxy,
 * and is not counted: the figure is if anything below what the same work costs a proxy.
 */
import { join } from 'node:path';
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import { createJournal } from '../src/audit/index.js';
import { openGuard } from '../src/guard/index.js';
import { ToolCallSteps } from '../src/mcp/tool-call-steps.js';
import { ToolCatalog } from '../src/mcp/tool-catalog.js';

export interface GuardWork {
  /** Runs `count` calls of the tool; each gets the arguments and the result of its `sequence`. */
  run(count: number): Promise<void>;
  /** Writes what the calls left pending: the journal's lines and the state. */
  flush(): Promise<void>;
  /** CPU per call (user and system of this process) over every call run since `measure()`, µs. */
  readonly perCallUs: number | undefined;
  /** From now on the calls run are measured: those before were warm-up. */
  measure(): void;
  close(): Promise<void>;
}

export interface GuardWorkOptions {
  readonly stateDir: string;
  readonly workspaceRoot: string;
  /** The tool as the server lists it: its annotations reach the proposal, as in the proxy. */
  readonly tool: Tool;
  /** The arguments of the call numbered `sequence`. */
  readonly args: (sequence: number) => Record<string, unknown>;
  /** What the server answers to the call numbered `sequence`. */
  readonly result: (sequence: number) => CallToolResult;
}

/** A server's answer as it takes, for the outcome's duration: what the proxy measures is a round trip. */
const DURATION_MS = 0.5;

/** Longer than any run: the journal writes only when the benchmark flushes it, where it is counted. */
const UNCOUNTED_WRITES_NEVER_MS = 24 * 60 * 60_000;

export async function guardWork(options: GuardWorkOptions): Promise<GuardWork> {
  const onProblem = (message: string) =>
    process.stderr.write(`narrowing (the guard's own work): ${message}\n`);
  const journal = createJournal({
    path: join(options.stateDir, 'journal.jsonl'),
    flushIntervalMs: UNCOUNTED_WRITES_NEVER_MS,
    maxBatch: Number.MAX_SAFE_INTEGER,
    syncOnFlush: false,
    onProblem: (problem) => onProblem(problem.kind),
  });
  const guard = await openGuard({
    stateDir: options.stateDir,
    workspaceRoot: options.workspaceRoot,
    journal,
    receipts: true,
    syncJournalOnFlush: false,
    onProblem,
  });
  const catalog = new ToolCatalog();
  catalog.remember([options.tool], { lastPage: true });
  const steps = new ToolCallSteps({
    guard,
    catalog,
    upstream: {
      client: () => Promise.reject(new Error('the guard runs alone here: no server to call')),
    },
    callTimeoutMs: 600_000,
    log: (message) => process.stderr.write(`narrowing (the guard's own work): ${message}\n`),
  });
  const name = options.tool.name;
  let sequence = 0;
  let measuring = false;
  let calls = 0;
  let cpuUs = 0;
  const counted = (before: NodeJS.CpuUsage) => {
    const spent = process.cpuUsage(before);
    if (measuring) cpuUs += spent.user + spent.system;
  };
  return {
    async run(count) {
      const before = process.cpuUsage();
      for (let index = 0; index < count; index += 1) {
        sequence += 1;
        const proposed = steps.propose(name, options.args(sequence), `guard-${sequence}`);
        const proposal = proposed instanceof Promise ? await proposed : proposed;
        steps.check(proposal);
        steps.learn(proposal, options.result(sequence), DURATION_MS);
      }
      counted(before);
      if (measuring) calls += count;
    },
    async flush() {
      const before = process.cpuUsage();
      await guard.flush();
      counted(before);
    },
    get perCallUs() {
      return calls === 0 ? undefined : cpuUs / calls;
    },
    measure() {
      measuring = true;
    },
    async close() {
      await guard.close();
      await journal.close();
    },
  };
}
