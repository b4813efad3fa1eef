/**
 * `narrowing-guard bench hooks`: what a hook costs, the price the agent pays on every tool call.
 * Spawns the hook as an agent does, each call right after a bare `node -e 0` start timed in the same
 * run (the machine's load weighs on both), and prints one row per target with its verdict: with the
 * helper (an empty state and a large one) the wall time's p50 and p90 against the bare start's, the
 * CPU a hook process spends beyond a bare start, and the first event of a session; without the
 * helper (`--no-daemon`) the p50 and p95 on the large state. A call that answers "proceeds
 * unchecked" (the guard missed its deadline) is a failure of its own row.
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
  const hook = options.hook ?? fileURLToPath(new URL('./hook.js', import.meta.url));
  if (!existsSync(hook)) {
    io.stderr.write(
      `narrowing-guard: ${hook} does not exist: run \`npm run build\` first, or pass --hook <file>\n`,
    );
    return undefined;
  }
  const runs = options.runs ?? 21;
  const constraints = options.constraints ?? 40_000;
  const size = constraints.toLocaleString('en-US');
  const rows: HookBenchRow[] = [];
  rows.push(...(await withHelper(hook, 'empty state', runs, 0)));
  rows.push(...(await withHelper(hook, `${size} constraints`, runs, constraints)));
  rows.push(...(await withoutHelper(hook, `${size} constraints`, runs, constraints)));
  return { runs, constraints, rows };
}

/** The rows of the CPU a hook process spends with the helper, beside a bare start (issue #29's row). */
export function helperCpuRows(rows: readonly HookBenchRow[]): HookBenchRow[] {
  return rows.filter((row) => row.name.startsWith('helper, ') && row.name.endsWith(': CPU per event'));
}

/** The helper's scenario: the first events (which start it), then calls interleaved with bare starts. */
async function withHelper(hook: string, label: string, runs: number, constraints: number) {
  return inProject(constraints, async (project, stateDir) => {
    const events = sessionEvents(project, 'bench-session');
    const call = (payload: string) =>
      timed(process.execPath, [hook, 'claude-code', '--idle-ms', '60000'], payload);
    const rows: HookBenchRow[] = [];
    // The session's first event finds no helper: it starts one and is answered all the same.
    const first = await call(events(0));
    if (constraints > 0) rows.push(firstEventRow(`helper, ${label}: first event, helper starting`, first));
    await waitForHelper(stateDir);
    for (let i = 1; i < 4; i += 1) await call(events(i));
    if (constraints > 0) {
      const other = await call(sessionEvents(project, 'bench-session-2')(0));
      rows.push(firstEventRow(`helper, ${label}: first event of a new session`, other));
    }
    const { bare, hooked } = await interleaved(runs, (i) => call(events(4 + i)));
    rows.push(
      ratioRow(`helper, ${label}: p50`, bare, hooked, 50, 1.25),
      ratioRow(`helper, ${label}: p90`, bare, hooked, 90, 1.5),
      cpuRow(`helper, ${label}: CPU per event`, bare, hooked),
      uncheckedRow(`helper, ${label}: calls unchecked`, [first, ...hooked]),
    );
    return rows;
  });
}

/** Every hook process handles its event itself (`--no-daemon`). */
async function withoutHelper(hook: string, label: string, runs: number, constraints: number) {
  return inProject(constraints, async (project) => {
    const events = sessionEvents(project, 'bench-session');
    const call = (payload: string) => timed(process.execPath, [hook, 'claude-code', '--no-daemon'], payload);
    const { bare, hooked } = await interleaved(runs, (i) => call(events(i)));
    const p95 = percentile(walls(hooked), 95);
    return [
      ratioRow(`no helper, ${label}: p50`, bare, hooked, 50, 3),
      {
        name: `no helper, ${label}: p95`,
        measured: `${p95.toFixed(0)} ms`,
        target: `≤ ${NO_HELPER_P95_MS} ms`,
        met: p95 <= NO_HELPER_P95_MS,
        figures: { hookMs: p95 },
      },
      uncheckedRow(`no helper, ${label}: calls unchecked`, hooked),
    ];
  });
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

/** Each hook call right after a bare `node -e 0`, so both see the same load. */
async function interleaved(
  runs: number,
  call: (index: number) => Promise<Timing>,
): Promise<{ bare: Timing[]; hooked: Timing[] }> {
  const bare: Timing[] = [];
  const hooked: Timing[] = [];
  for (let i = 0; i < runs; i += 1) {
    bare.push(await timed(process.execPath, ['-e', '0']));
    hooked.push(await call(i));
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
function sessionEvents(project: string, sessionId: string): (index: number) => string {
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
 * and system, in microseconds) to file descriptor 3 as it exits.
 */
const CPU_REPORTER = `data:text/javascript,${encodeURIComponent(
  "import { writeSync } from 'node:fs'; process.on('exit', () => { try { const u = process.cpuUsage(); writeSync(3, String(u.user + u.system)); } catch {} });",
)}`;

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
function timed(command: string, args: readonly string[], stdin?: string): Promise<Timing> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, ['--import', CPU_REPORTER, ...args], {
      env: timingEnv(),
      stdio: [stdin === undefined ? 'ignore' : 'pipe', 'ignore', 'pipe', 'pipe'],
    });
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
