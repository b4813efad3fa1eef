/**
 * `narrowing-guard bench hooks`: what a hook costs, the price the agent pays on every tool call.
 * Spawns the hook as an agent does, each call right after a bare `node -e 0` start timed in the same
 * run (the machine's load weighs on both), and prints one row per target with its verdict: with the
 * helper (an empty state and a large one) the wall time's p50 and p90 against the bare start's, the
 * CPU a hook process spends beyond a bare start, and the first event of a session; without the
 * helper (`--no-daemon`) the p50 and p95 on the large state. A call that answers "proceeds
 * unchecked" (the guard missed its deadline) is a failure of its own row.
 *
 * With `compare`, a second build's hook takes its turn beside the first in the same rounds (each in
 * a project of its own, with a helper of its own), so that a change is measured as an interleaved
 * A/B under the same load: its rows are named `(compared)`.
 */
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Constraint, PersistedState } from '../core/types.js';
import { createFileStore } from '../stores/file-store.js';
import { stopDaemons } from './daemon-client.js';

export interface HookBenchOptions {
  /** Timed hook calls per scenario (default 21). */
  readonly runs?: number;
  /** Learned constraints in the large scenarios (default 40000). */
  readonly constraints?: number;
  /** The bundled hook; default the one beside this module in the build. */
  readonly hook?: string;
  /** Another build's bundled hook, timed in the same rounds as `hook` (rows named `(compared)`). */
  readonly compare?: string;
  readonly json?: boolean;
  /** Given what was measured, before it is printed. */
  readonly onReport?: (report: HookBenchReport) => void;
}

export interface HookBenchIO {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
}

/** One measured figure against its target. */
export interface HookBenchRow {
  readonly name: string;
  /** What was measured, as printed (`1.18×`, `640 ms`, `+9 ms`, `0`). */
  readonly measured: string;
  readonly target: string;
  readonly met: boolean;
  /** The figures behind it, in milliseconds where they are times. */
  readonly figures: Readonly<Record<string, number>>;
}

/** One timed process: its wall time, the CPU it used, and whether the hook let the call go unchecked. */
interface Timing {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly unchecked: boolean;
}

/** CPU target with the helper: a hook process spends at most this much beyond a bare start. */
const CPU_SLACK_MS = 15;
const FIRST_EVENT_MS = 1_000;
const NO_HELPER_P95_MS = 1_000;

/** What one run of the benchmark measured. */
export interface HookBenchReport {
  readonly runs: number;
  readonly constraints: number;
  readonly rows: readonly HookBenchRow[];
}

/** Prints the benchmark's rows (a table, or JSON); exit code 0 when every target is met. */
export async function benchHooks(options: HookBenchOptions, io: HookBenchIO): Promise<number> {
  const report = await measureHooks(options, io);
  if (report === undefined) return 2;
  options.onReport?.(report);
  if (options.json) io.stdout.write(`${JSON.stringify(report)}\n`);
  else io.stdout.write(table(report.rows, report.runs));
  return report.rows.every((row) => row.met) ? 0 : 1;
}

/** Runs the benchmark; undefined (said on stderr) when there is no bundled hook to time. */
export async function measureHooks(
  options: HookBenchOptions,
  io: Pick<HookBenchIO, 'stderr'>,
): Promise<HookBenchReport | undefined> {
  const hook = options.hook ?? fileURLToPath(new URL(`./${HOOK_ENTRY}`, import.meta.url));
  const hooks = [hook, ...(options.compare !== undefined ? [options.compare] : [])];
  for (const file of hooks) {
    if (!existsSync(file)) {
      io.stderr.write(
        `narrowing-guard: ${file} does not exist: run \`npm run build\` first, or pass --hook <file>\n`,
      );
      return undefined;
    }
  }
  const runs = options.runs ?? 21;
  const constraints = options.constraints ?? 40_000;
  const size = constraints.toLocaleString('en-US');
  const rows: HookBenchRow[] = [];
  const reporter = cpuReporter();
  try {
    const timing = { runs, reporter: reporter.path };
    rows.push(...(await withHelper(hooks, 'empty state', timing, 0)));
    rows.push(...(await withHelper(hooks, `${size} constraints`, timing, constraints)));
    rows.push(...(await withoutHelper(hooks, `${size} constraints`, timing, constraints)));
  } finally {
    reporter.remove();
  }
  return { runs, constraints, rows };
}

/** The bundled hook's entry beside this module: what the package's bin runs for `hook`. */
export const HOOK_ENTRY = 'hook.cjs';

/** How many calls per scenario, and the CPU reporter every timed process loads. */
interface TimingSetup {
  readonly runs: number;
  readonly reporter: string;
}

/** A row's name for the hook at `index` of the timed ones: the compared build's say so. */
function named(name: string, index: number): string {
  return index === 0 ? name : `${name} (compared)`;
}

/** The rows of the CPU a hook process spends with the helper, beside a bare start (issue #29's row). */
export function helperCpuRows(rows: readonly HookBenchRow[]): HookBenchRow[] {
  return rows.filter((row) => row.name.startsWith('helper, ') && row.name.endsWith(': CPU per event'));
}

/** The helper's scenario: the first events (which start it), then calls interleaved with bare starts. */
async function withHelper(
  hooks: readonly string[],
  label: string,
  setup: TimingSetup,
  constraints: number,
): Promise<HookBenchRow[]> {
  return inProjects(hooks.length, constraints, async (projects) => {
    const calls = hooks.map((hook, index) => {
      const { project } = projects[index] as BenchProject;
      const events = sessionEvents(project, 'bench-session');
      const call = (payload: string) =>
        timed(process.execPath, [hook, 'claude-code', '--idle-ms', '60000'], setup.reporter, payload);
      return { hook, project, events, call };
    });
    const rows: HookBenchRow[][] = calls.map(() => []);
    const firsts: Timing[] = [];
    for (const [index, { events, call }] of calls.entries()) {
      // The session's first event finds no helper: it starts one and is answered all the same.
      const first = await call(events(0));
      firsts.push(first);
      if (constraints > 0)
        rows[index]?.push(
          firstEventRow(named(`helper, ${label}: first event, helper starting`, index), first),
        );
    }
    for (const [index, { events, call }] of calls.entries()) {
      await waitForHelper((projects[index] as BenchProject).stateDir);
      for (let i = 1; i < 4; i += 1) await call(events(i));
    }
    if (constraints > 0) {
      for (const [index, { project, call }] of calls.entries()) {
        const other = await call(sessionEvents(project, 'bench-session-2')(0));
        rows[index]?.push(
          firstEventRow(named(`helper, ${label}: first event of a new session`, index), other),
        );
      }
    }
    const { bare, hooked } = await interleaved(
      setup,
      calls.map(
        ({ events, call }) =>
          (i: number) =>
            call(events(4 + i)),
      ),
    );
    for (const [index, timings] of hooked.entries()) {
      rows[index]?.push(
        ratioRow(named(`helper, ${label}: p50`, index), bare, timings, 50, 1.25),
        ratioRow(named(`helper, ${label}: p90`, index), bare, timings, 90, 1.5),
        cpuRow(named(`helper, ${label}: CPU per event`, index), bare, timings),
        uncheckedRow(named(`helper, ${label}: calls unchecked`, index), [
          firsts[index] as Timing,
          ...timings,
        ]),
      );
    }
    return rows.flat();
  });
}

/** Every hook process handles its event itself (`--no-daemon`). */
async function withoutHelper(
  hooks: readonly string[],
  label: string,
  setup: TimingSetup,
  constraints: number,
): Promise<HookBenchRow[]> {
  return inProjects(hooks.length, constraints, async (projects) => {
    const calls = hooks.map((hook, index) => {
      const events = sessionEvents((projects[index] as BenchProject).project, 'bench-session');
      return (i: number) =>
        timed(process.execPath, [hook, 'claude-code', '--no-daemon'], setup.reporter, events(i));
    });
    const { bare, hooked } = await interleaved(setup, calls);
    return hooked.flatMap((timings, index) => {
      const p95 = percentile(walls(timings), 95);
      return [
        ratioRow(named(`no helper, ${label}: p50`, index), bare, timings, 50, 3),
        {
          name: named(`no helper, ${label}: p95`, index),
          measured: `${p95.toFixed(0)} ms`,
          target: `≤ ${NO_HELPER_P95_MS} ms`,
          met: p95 <= NO_HELPER_P95_MS,
          figures: { hookMs: p95 },
        },
        uncheckedRow(named(`no helper, ${label}: calls unchecked`, index), timings),
      ];
    });
  });
}

interface BenchProject {
  readonly project: string;
  readonly stateDir: string;
}

/** `count` projects of {@link inProject}'s, made and removed together. */
async function inProjects<T>(
  count: number,
  constraints: number,
  work: (projects: readonly BenchProject[]) => Promise<T>,
): Promise<T> {
  const made: BenchProject[] = [];
  const nest = (index: number): Promise<T> =>
    index === count
      ? work(made)
      : inProject(constraints, (project, stateDir) => {
          made.push({ project, stateDir });
          return nest(index + 1);
        });
  return nest(0);
}

/** Runs `work` in a project of its own holding `constraints` learned constraints; removes it after. */
async function inProject<T>(
  constraints: number,
  work: (project: string, stateDir: string) => Promise<T>,
): Promise<T> {
  const project = realpathSync(mkdtempSync(join(tmpdir(), 'narrowing-bench-hooks-')));
  const stateDir = join(project, '.narrowing');
  mkdirSync(stateDir);
  writeFileSync(join(project, 'README.md'), '# Project\n');
  if (constraints > 0) {
    // Written by the file store, as a project's state is: one constraint a line, its index beside it.
    const store = createFileStore({ path: join(stateDir, 'state.json') });
    store.save(learnedState(project, constraints));
    await store.close();
  }
  try {
    return await work(project, stateDir);
  } finally {
    // Returns once the helper has written its last files and exited.
    await stopDaemons(stateDir);
    rmSync(project, { recursive: true, force: true });
  }
}

/**
 * Each round a bare `node -e 0` and then each hook's call, so all see the same load; with two hooks
 * they take turns at going first.
 */
async function interleaved(
  setup: TimingSetup,
  calls: readonly ((index: number) => Promise<Timing>)[],
): Promise<{ bare: Timing[]; hooked: Timing[][] }> {
  const bare: Timing[] = [];
  const hooked: Timing[][] = calls.map(() => []);
  for (let i = 0; i < setup.runs; i += 1) {
    bare.push(await timed(process.execPath, ['-e', '0'], setup.reporter));
    const order = calls.map((_, index) => index);
    if (i % 2 === 1) order.reverse();
    for (const index of order) hooked[index]?.push(await (calls[index] as (i: number) => Promise<Timing>)(i));
  }
  return { bare, hooked };
}

function ratioRow(
  name: string,
  bare: readonly Timing[],
  hooked: readonly Timing[],
  at: number,
  target: number,
): HookBenchRow {
  const bareMs = percentile(walls(bare), at);
  const hookMs = percentile(walls(hooked), at);
  const ratio = hookMs / bareMs;
  return {
    name,
    measured: `${ratio.toFixed(2)}× (${hookMs.toFixed(0)} / ${bareMs.toFixed(0)} ms)`,
    target: `≤ ${target}×`,
    met: ratio <= target,
    figures: { bareMs, hookMs, ratio },
  };
}

function cpuRow(name: string, bare: readonly Timing[], hooked: readonly Timing[]): HookBenchRow {
  const bareMs = percentile(
    bare.map((timing) => timing.cpuMs),
    50,
  );
  const hookMs = percentile(
    hooked.map((timing) => timing.cpuMs),
    50,
  );
  const extra = hookMs - bareMs;
  return {
    name,
    measured: `${extra >= 0 ? '+' : ''}${extra.toFixed(0)} ms (${hookMs.toFixed(0)} / ${bareMs.toFixed(0)} ms)`,
    target: `≤ +${CPU_SLACK_MS} ms`,
    met: extra <= CPU_SLACK_MS,
    figures: { bareCpuMs: bareMs, hookCpuMs: hookMs },
  };
}

function firstEventRow(name: string, timing: Timing): HookBenchRow {
  return {
    name,
    measured: `${timing.wallMs.toFixed(0)} ms${timing.unchecked ? ', unchecked' : ''}`,
    target: `≤ ${FIRST_EVENT_MS} ms`,
    met: timing.wallMs <= FIRST_EVENT_MS && !timing.unchecked,
    figures: { hookMs: timing.wallMs },
  };
}

function uncheckedRow(name: string, timings: readonly Timing[]): HookBenchRow {
  const count = timings.filter((timing) => timing.unchecked).length;
  return {
    name,
    measured: `${count} of ${timings.length}`,
    target: '0',
    met: count === 0,
    figures: { unchecked: count, calls: timings.length },
  };
}

/** Before and after events of a session reading and editing files, as Claude Code sends them. */
export function sessionEvents(project: string, sessionId: string): (index: number) => string {
  return (index) => {
    const step = Math.floor(index / 2);
    const file = join(project, `src/module-${step % 7}.ts`);
    const base = {
      session_id: sessionId,
      transcript_path: join(project, 'transcript.jsonl'),
      cwd: project,
      tool_name: 'Read',
      tool_input: { file_path: file },
      tool_use_id: `toolu_bench${step}`,
    };
    return JSON.stringify(
      index % 2 === 0
        ? { ...base, hook_event_name: 'PreToolUse' }
        : {
            ...base,
            hook_event_name: 'PostToolUse',
            tool_response: { type: 'text', file: { filePath: file, content: `// module ${step}\n` } },
          },
    );
  };
}

/** A state holding `count` learned bans on missing files. */
function learnedState(project: string, count: number): PersistedState {
  const now = Date.now();
  const constraints = Array.from({ length: count }, (_, i) => {
    const target = join(project, `gen/missing-${i}.ts`);
    return {
      id: `c_${i.toString(16).padStart(16, '0')}`,
      type: 'banned_strategy',
      scope: 'call',
      signature: 'file_not_found',
      actionClass: 'file_read',
      tool: 'Read',
      callKey: `Read#${i.toString(16).padStart(16, '0')}`,
      target,
      meaning: 'target-missing',
      dependsOnWorkspace: false,
      evidence: {
        failures: 1,
        firstAt: now - 60_000,
        lastAt: now - 60_000,
        lastError: 'File does not exist.',
        calls: [`Read {file_path: "${target}"}`],
      },
      createdAt: now - 60_000,
      expiresAt: now + 7 * 24 * 3_600_000,
      strikes: 0,
      probation: false,
      persistent: true,
    };
  });
  return { version: 1, savedAt: now, constraints: constraints as Constraint[], lifted: [] };
}

async function waitForHelper(stateDir: string): Promise<void> {
  for (let i = 0; i < 400; i += 1) {
    if (readdirSync(stateDir).some((name) => name.endsWith('.sock'))) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Loaded into every timed process, the bare ones too: writes the CPU time the process used (user
 * and system, in microseconds) to file descriptor 3 as it exits. A CommonJS file given to
 * `--require`: an ES module given to `--import` would start Node's ES module loader in every timed
 * process, and hide what a hook's own loading costs.
 */
function cpuReporter(): { readonly path: string; readonly remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'narrowing-bench-cpu-'));
  const path = join(dir, 'report-cpu.cjs');
  writeFileSync(
    path,
    "process.on('exit', () => { try { const u = process.cpuUsage(); require('node:fs').writeSync(3, String(u.user + u.system)); } catch {} });\n",
  );
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Variables of this environment that make every Node start do work a user's does not: with
 * `NODE_EXTRA_CA_CERTS` each process (the bare starts, the hooks and the helper they start) reads and
 * parses a CA bundle at start-up, which weighs on both sides and hides what the hook itself costs.
 * The timed processes run without them.
 */
export const UNSET_FOR_TIMING: readonly string[] = ['NODE_EXTRA_CA_CERTS'];

/** An environment (this process's by default) without {@link UNSET_FOR_TIMING}. */
export function timingEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const kept = { ...env };
  for (const name of UNSET_FOR_TIMING) delete kept[name];
  return kept;
}

/** Wall milliseconds from spawn to exit, CPU milliseconds the process used, and whether it went unchecked. */
function timed(command: string, args: readonly string[], reporter: string, stdin?: string): Promise<Timing> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    // The answer is read from a pipe, as an agent reads it.
    const child = spawn(command, ['--require', reporter, ...args], {
      env: timingEnv(),
      stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe', 'pipe'],
    });
    child.stdout?.resume();
    let stderr = '';
    let cpu = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < 64 * 1024) stderr += chunk;
    });
    (child.stdio[3] as NodeJS.ReadableStream | null)?.setEncoding('utf8').on('data', (chunk: string) => {
      cpu += chunk;
    });
    if (stdin !== undefined) child.stdin?.end(stdin);
    child.on('error', reject);
    child.on('close', () =>
      resolve({
        wallMs: performance.now() - started,
        cpuMs: (Number(cpu) || 0) / 1000,
        unchecked: stderr.includes('proceeds unchecked'),
      }),
    );
  });
}

function walls(timings: readonly Timing[]): number[] {
  return timings.map((timing) => timing.wallMs);
}

/** Nearest-rank percentile. */
function percentile(values: readonly number[], at: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((at / 100) * sorted.length)));
  return sorted[rank - 1] as number;
}

function table(rows: readonly HookBenchRow[], runs: number): string {
  const nameWidth = Math.max(...rows.map((row) => row.name.length), 'row'.length) + 2;
  const measuredWidth = Math.max(...rows.map((row) => row.measured.length), 'measured'.length) + 2;
  const lines = [
    `Hook cost: ${runs} calls per scenario, each right after a bare \`node -e 0\` timed in the same run`,
    `(both run without ${UNSET_FOR_TIMING.join(', ')}, which makes every Node start read a CA bundle)`,
    '',
    `${'row'.padEnd(nameWidth)}${'measured'.padEnd(measuredWidth)}${'target'.padEnd(12)}verdict`,
  ];
  for (const row of rows) {
    lines.push(
      `${row.name.padEnd(nameWidth)}${row.measured.padEnd(measuredWidth)}${row.target.padEnd(12)}${row.met ? 'met' : 'MISSED'}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
