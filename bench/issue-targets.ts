/**
 * The performance targets in one table: each row what is measured, its target, the figure of this
 * run and the verdict, from the benchmarks' own targets. `npm run results` prints it and writes it
 * into docs/results.md and the README.
 */
import { existsSync, readFileSync } from 'node:fs';
import { type HookBenchRow, helperCpuRows } from '../src/hooks/bench.js';
import type { PerfReport, TargetResult } from './perf.js';
import { type ProxyBenchResult, proxyTargets } from './proxy.js';

export type Verdict = 'met' | 'not met' | 'not measured';

export interface TargetRow {
  readonly what: string;
  readonly target: string;
  readonly measured: string;
  readonly verdict: Verdict;
}

/**
 * What the continuous integration writes after `npm test` (`--test-timing FILE`): the suite's CPU
 * time, all processes included, and its wall-clock time, in minutes, and whether the machine was idle.
 */
export interface TestTiming {
  readonly cpuMinutes: number;
  readonly wallMinutes: number;
  readonly idle?: boolean;
  readonly node?: string;
  /** The command's exit status: a run that failed did not do all the work, so its times prove nothing. */
  readonly status?: number;
}

export const TEST_CPU_MINUTES = 15;
export const TEST_WALL_MINUTES = 6;

export interface IssueInputs {
  /** The rows of `bench hooks`. */
  readonly hooks?: readonly HookBenchRow[];
  readonly perf?: PerfReport;
  readonly proxy?: ProxyBenchResult;
  readonly testTiming?: TestTiming;
}

/** The rows in the order of the table, with `not measured` where this run has no figure. */
export function issueTargetRows({ hooks, perf, proxy, testTiming }: IssueInputs): TargetRow[] {
  const perfTargets = perf?.targets ?? [];
  // A target by its id, or measured at several constraint counts (`pair-typical-1000`).
  const find = (id: string) =>
    perfTargets.filter((target) => target.id === id || new RegExp(`^${id}-\\d+$`).test(target.id));
  const rows: TargetRow[] = [hookRow(hooks)];
  const proxyRows = proxy ? proxyTargets(proxy) : [];
  rows.push(
    combined(
      'proxy added latency (echo server, stdio)',
      "p50 ≤ 0.25 ms; p99 ≤ 2× the direct p99 of the same run; CPU ≤ 2× a byte relay (shown beside it, not judged: the measure proposed, CPU ≤ 2× a JSON relay plus the guard's own work)",
      proxyRows,
    ),
    combined(
      'guard, typical call (10% failures, conversion included)',
      '≤ 5× the recursion sentinel',
      find('pair-typical'),
      true,
    ),
    combined(
      'guard, 1–4 KB edits (failing ones included)',
      '≤ 1.5× the sentinel; a failing 4 KB edit ≤ 100 µs',
      [...find('pair-edit-4kb'), ...find('failing-edit-4kb')],
      true,
    ),
    combined('guard, failing call', '≤ 50 µs + 5 ns per character of output', [
      ...find('failing-short'),
      ...find('failing-20kb'),
    ]),
    combined('fresh process', 'first call ≤ 5 ms CPU; first 100 calls ≤ 25 ms CPU in total', [
      ...find('cold-first-call'),
      ...find('cold-first-100'),
    ]),
    combined('replay', '≥ 20,000 calls per CPU second warm; ≥ 10,000 calls/s end to end through the CLI', [
      ...find('replay'),
      ...find('replay-cli'),
    ]),
    combined('journal, heap', 'journal ≤ 1× guard; heap < 64 MB with 20 KB outputs', [
      ...find('journal'),
      ...find('heap'),
    ]),
    testRow(testTiming),
  );
  return rows;
}

/**
 * The CPU (user and system) a hook process spends per event with the helper, beside a bare
 * `node -e 0` timed in the same run, from `bench hooks` (an empty state and a large one).
 */
function hookRow(hooks: readonly HookBenchRow[] | undefined): TargetRow {
  const what = 'hook per event, helper (default)';
  const target = 'CPU ≤ `node -e 0` + 15 ms';
  const parts = helperCpuRows(hooks ?? []);
  if (parts.length === 0)
    return { what, target, measured: 'not measured in this run', verdict: 'not measured' };
  return {
    what,
    target,
    measured: parts
      .map((row) => `${row.name.replace(/^helper, /, '').replace(/: CPU per event$/, '')}: ${row.measured}`)
      .join('; '),
    verdict: parts.every((row) => row.met) ? 'met' : 'not met',
  };
}

type Part = Pick<TargetResult, 'pass' | 'value' | 'id'> & { readonly shownOnly?: true };

/**
 * One row from several targets: met when every one judged is, its figures side by side. A target
 * shown only (a measure proposed, kept in view) says its own verdict and does not weigh on the row's.
 */
function combined(what: string, target: string, parts: readonly Part[], worstOnly = false): TargetRow {
  if (parts.length === 0)
    return { what, target, measured: 'not measured in this run', verdict: 'not measured' };
  const shown = worstOnly ? worstPerKind(parts) : parts;
  return {
    what,
    target,
    measured: shown
      .map(
        (part) =>
          `${label(part.id)}${part.value}${part.shownOnly ? ` (${part.pass ? 'met' : 'not met'} on the measure proposed, not judged)` : ''}`,
      )
      .join('; '),
    verdict: parts.every((part) => part.pass || part.shownOnly) ? 'met' : 'not met',
  };
}

/** Of targets measured at several constraint counts, the failing one, or else the first. */
function worstPerKind(parts: readonly Part[]) {
  const kinds = new Map<string, Part>();
  for (const part of parts) {
    const kind = part.id.replace(/-\d+$/, '');
    const seen = kinds.get(kind);
    if (seen === undefined || (seen.pass && !part.pass)) kinds.set(kind, part);
  }
  return [...kinds.values()];
}

const LABELS: Readonly<Record<string, string>> = {
  'proxy-median': 'p50 added ',
  'proxy-p99': 'p99 ',
  'proxy-cpu-work': 'CPU vs a JSON relay + the guard ',
  'proxy-cpu': 'CPU vs a byte relay ',
  'failing-short': 'short output: ',
  'failing-20kb': '20 KB output: ',
  'failing-edit-4kb': 'failing 4 KB edit ',
  'cold-first-call': 'first call ',
  'cold-first-100': 'first 100 calls ',
  replay: 'warm ',
  'replay-cli': 'CLI ',
  journal: 'journal ',
  heap: 'heap ',
};

function label(id: string): string {
  const match = /^pair-(typical|edit-4kb)-(\d+)$/.exec(id);
  if (match) return `${Number(match[2]).toLocaleString('en-US')} constraints: `;
  return LABELS[id] ?? '';
}

function testRow(timing: TestTiming | undefined): TargetRow {
  const what = '`npm test`';
  const target = `≤ ${TEST_CPU_MINUTES} CPU-minutes, and ≤ ${TEST_WALL_MINUTES} minutes wall on an idle 2-core machine`;
  if (timing === undefined) {
    return { what, target, measured: 'not measured (no timing file from the CI)', verdict: 'not measured' };
  }
  const failed = timing.status !== undefined && timing.status !== 0;
  const pass =
    !failed &&
    timing.cpuMinutes <= TEST_CPU_MINUTES &&
    (timing.idle === false || timing.wallMinutes <= TEST_WALL_MINUTES);
  return {
    what,
    target,
    measured: `${timing.cpuMinutes.toFixed(1)} CPU-minutes, ${timing.wallMinutes.toFixed(1)} minutes wall${timing.idle === false ? ' (machine not idle: wall time not judged)' : ''}${timing.node ? `, Node ${timing.node}` : ''}${failed ? ` (the run failed with exit status ${timing.status}: not judged)` : ''}`,
    verdict: pass ? 'met' : 'not met',
  };
}

/** The CI's timing file, or undefined when it is missing or not one. */
export function readTestTiming(path: string | undefined): TestTiming | undefined {
  if (path === undefined || !existsSync(path)) return undefined;
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<TestTiming>;
    if (typeof value.cpuMinutes !== 'number' || typeof value.wallMinutes !== 'number') return undefined;
    return value as TestTiming;
  } catch {
    return undefined;
  }
}

/** The table as plain text, for the terminal. */
export function issueTargetsText(rows: readonly TargetRow[]): string {
  const lines = ['Performance targets:'];
  for (const row of rows) {
    lines.push(`  ${row.verdict.toUpperCase().padEnd(12)} ${row.what}`);
    lines.push(`               target:   ${row.target}`);
    lines.push(`               measured: ${row.measured}`);
  }
  return lines.join('\n');
}
