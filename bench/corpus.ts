/**
 * Scores the guard on a corpus of real agent runs (built by `scripts/corpus/build.ts`): every trace
 * of both halves is replayed through the built guard, as `narrowing-guard replay --json` does, and
 * each block is judged against the run's labels. Per source and per half it counts loops caught by
 * their 5th wasted call, false blocks per 1,000 calls, blocks, and wasted calls saved.
 *
 * A block (or halt) is justified when its step is labelled wasted, and false otherwise. A loop is
 * caught when one of its first five wasted calls is blocked; a wasted call of a loop is saved when
 * it is blocked.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PresetName } from '../src/core/policy.js';
import { type HalfIntervals, type Interval, RESAMPLES, sourceIntervals } from './corpus-intervals.js';

export const CORPUS_HALVES = ['design', 'validation'] as const;
export type CorpusHalf = (typeof CORPUS_HALVES)[number];

/** One run's labels, as `labels.jsonl` holds them. */
export interface CorpusLabels {
  readonly trace: string;
  readonly source: string;
  readonly agent?: string;
  readonly calls: number;
  readonly justified: readonly { readonly step: number }[];
  readonly loops: readonly {
    readonly start: number;
    readonly end: number;
    readonly wasted: readonly number[];
  }[];
}

/** What a replay said about one call: enough to judge it, and to explain a block. */
export interface ScoredStep {
  readonly step: number;
  readonly verdict: string;
  readonly tool?: string;
  readonly rule?: string;
  readonly reason?: string;
  /** What the call returned in the recording, on one short line. */
  readonly returned?: string;
}

/** One false block or one missed loop, with what a reader needs to see why. */
export interface CorpusDetail {
  readonly half: CorpusHalf;
  readonly source: string;
  readonly trace: string;
  readonly kind: 'false block' | 'missed loop';
  /** The blocked step, or the first wasted step of the missed loop. */
  readonly step: number;
  readonly tool: string;
  /** The call's arguments, on one bounded line. */
  readonly args: string;
  readonly returned?: string;
  /** For a false block: the rule and the reason the model would have read. */
  readonly rule?: string;
  readonly reason?: string;
  /** For a missed loop: its wasted steps and the verdict each got. */
  readonly wasted?: readonly { readonly step: number; readonly verdict: string; readonly rule?: string }[];
}

export interface SourceScore {
  readonly source: string;
  readonly agent: string;
  readonly runs: number;
  readonly calls: number;
  readonly blocks: number;
  readonly falseBlocks: number;
  readonly loops: number;
  readonly caught: number;
  readonly loopWasted: number;
  readonly saved: number;
  readonly wasted: number;
}

export interface HalfScore {
  readonly half: CorpusHalf;
  readonly sources: readonly SourceScore[];
  readonly total: SourceScore;
  /** The share of loops caught, averaged over the sources that have loops; undefined when none has. */
  readonly caughtPerSource: number | undefined;
  /** False blocks per 1,000 calls, averaged over the sources. */
  readonly falsePerThousandPerSource: number | undefined;
  /** How far those figures could move on other sources like these (see `corpus-intervals.ts`). */
  readonly intervals: HalfIntervals;
}

/** How the blocks' predictions fared, counted per rule and per source (see `src/replay/predictions.ts`). */
export interface PredictionTally {
  /** `rule` or `source` → outcome (`held`, `new-success`, `new-error`, `not-run`) → count. */
  readonly byRule: Readonly<Record<string, Readonly<Record<string, number>>>>;
  readonly bySource: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

export interface CorpusScore {
  readonly preset: string;
  /** Per half: the blocks' predictions checked against what the blocked calls answered, when asked for. */
  readonly predictions?: Readonly<Partial<Record<CorpusHalf, PredictionTally>>>;
  /** Undefined for a half the corpus does not hold. */
  readonly halves: Readonly<Partial<Record<CorpusHalf, HalfScore>>>;
  /** Every false block and missed loop, when `details` was asked for. */
  readonly details?: readonly CorpusDetail[];
}

const STOPPING = new Set(['block', 'halt']);

/** Judges one replayed run against its labels. */
export function scoreRun(labels: CorpusLabels, steps: readonly ScoredStep[]): SourceScore {
  const wasted = new Set(labels.justified.map((item) => item.step));
  const stopped = new Set(steps.filter((step) => STOPPING.has(step.verdict)).map((step) => step.step));
  let falseBlocks = 0;
  for (const step of stopped) if (!wasted.has(step)) falseBlocks++;
  let caught = 0;
  let loopWasted = 0;
  let saved = 0;
  for (const loop of labels.loops) {
    if (loop.wasted.slice(0, 5).some((step) => stopped.has(step))) caught++;
    loopWasted += loop.wasted.length;
    saved += loop.wasted.filter((step) => stopped.has(step)).length;
  }
  return {
    source: labels.source,
    agent: labels.agent ?? '',
    runs: 1,
    calls: steps.length,
    blocks: stopped.size,
    falseBlocks,
    loops: labels.loops.length,
    caught,
    loopWasted,
    saved,
    wasted: wasted.size,
  };
}

function add(a: SourceScore, b: SourceScore): SourceScore {
  return {
    source: a.source,
    agent: a.agent || b.agent,
    runs: a.runs + b.runs,
    calls: a.calls + b.calls,
    blocks: a.blocks + b.blocks,
    falseBlocks: a.falseBlocks + b.falseBlocks,
    loops: a.loops + b.loops,
    caught: a.caught + b.caught,
    loopWasted: a.loopWasted + b.loopWasted,
    saved: a.saved + b.saved,
    wasted: a.wasted + b.wasted,
  };
}

function empty(source: string, agent = ''): SourceScore {
  return {
    source,
    agent,
    runs: 0,
    calls: 0,
    blocks: 0,
    falseBlocks: 0,
    loops: 0,
    caught: 0,
    loopWasted: 0,
    saved: 0,
    wasted: 0,
  };
}

export function perThousand(score: SourceScore): number {
  return score.calls === 0 ? 0 : (score.falseBlocks * 1000) / score.calls;
}

const ARGS_WIDTH = 160;

function oneLine(value: unknown, width = ARGS_WIDTH): string {
  const text = (typeof value === 'string' ? value : (JSON.stringify(value) ?? '')).replace(/\s+/g, ' ');
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}

/** The arguments of each call, by step (steps count `call` events from 1). */
function argsByStep(events: readonly unknown[]): unknown[] {
  const args: unknown[] = [];
  for (const event of events) {
    const call = event as { type?: string; args?: unknown };
    if (call.type === 'call') args.push(call.args);
  }
  return args;
}

/** The false blocks and missed loops of one replayed run. */
export function runDetails(
  half: CorpusHalf,
  labels: CorpusLabels,
  steps: readonly ScoredStep[],
  events: readonly unknown[],
): CorpusDetail[] {
  const wasted = new Set(labels.justified.map((item) => item.step));
  const byStep = new Map(steps.map((step) => [step.step, step]));
  const args = argsByStep(events);
  const base = (step: ScoredStep | undefined, at: number) => ({
    half,
    source: labels.source,
    trace: labels.trace,
    step: at,
    tool: step?.tool ?? '',
    args: oneLine(args[at - 1]),
    ...(step?.returned !== undefined && { returned: oneLine(step.returned) }),
  });
  const details: CorpusDetail[] = [];
  for (const step of steps) {
    if (!STOPPING.has(step.verdict) || wasted.has(step.step)) continue;
    details.push({
      ...base(step, step.step),
      kind: 'false block',
      ...(step.rule !== undefined && { rule: step.rule }),
      ...(step.reason !== undefined && { reason: oneLine(step.reason, 400) }),
    });
  }
  for (const loop of labels.loops) {
    const first = loop.wasted.slice(0, 5);
    if (first.some((at) => STOPPING.has(byStep.get(at)?.verdict ?? ''))) continue;
    const start = first[0] ?? loop.start;
    details.push({
      ...base(byStep.get(start), start),
      kind: 'missed loop',
      wasted: loop.wasted.map((at) => {
        const step = byStep.get(at);
        return {
          step: at,
          verdict: step?.verdict ?? '?',
          ...(step?.rule !== undefined && { rule: step.rule }),
        };
      }),
    });
  }
  return details;
}

/** Sums runs into sources and sources into a half. */
export function halfScore(half: CorpusHalf, runs: readonly SourceScore[]): HalfScore {
  const bySource = new Map<string, SourceScore>();
  for (const run of runs) bySource.set(run.source, add(bySource.get(run.source) ?? empty(run.source), run));
  const sources = [...bySource.values()];
  const total = sources.reduce((sum, source) => add(sum, source), empty('all'));
  const withLoops = sources.filter((source) => source.loops > 0);
  const mean = (values: number[]) =>
    values.length === 0 ? undefined : values.reduce((a, b) => a + b, 0) / values.length;
  return {
    half,
    sources,
    total,
    caughtPerSource: mean(withLoops.map((source) => source.caught / source.loops)),
    falsePerThousandPerSource: mean(sources.filter((source) => source.calls > 0).map(perThousand)),
    intervals: sourceIntervals(sources),
  };
}

/** The half's directory holds what it needs: `labels.jsonl` and `traces/`. */
export function hasHalf(corpus: string, half: CorpusHalf): boolean {
  return existsSync(join(corpus, half, 'labels.jsonl')) && existsSync(join(corpus, half, 'traces'));
}

export function readLabels(corpus: string, half: CorpusHalf): CorpusLabels[] {
  const text = readFileSync(join(corpus, half, 'labels.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as CorpusLabels);
}

export interface CorpusOptions {
  /** The repository whose `dist/` holds the built guard to measure. */
  readonly root: string;
  readonly preset?: string;
  /** Also list every false block and missed loop. */
  readonly details?: boolean;
  /** Also check every block's prediction against the recorded outcome of the call it stopped. */
  readonly predictions?: boolean;
  readonly onProgress?: (done: number, total: number, half: CorpusHalf) => void;
}

export interface BuiltGuard {
  /** The preset the policy resolved to. */
  readonly preset: string;
  replay(events: unknown[]): ScoredStep[];
  parse(text: string, name: string): unknown[];
  /** Each block of `steps` (a replay of `events`) checked against what the blocked call answered. */
  predictions(events: unknown[], steps: readonly ScoredStep[]): { rule: string; outcome: string }[];
}

/** The built guard's replay, loaded from `dist/` as a user of the package would. */
export async function loadBuiltGuard(root: string, preset: string | undefined): Promise<BuiltGuard> {
  const dist = (path: string) => pathToFileURL(join(root, 'dist', path)).href;
  if (!existsSync(join(root, 'dist', 'replay', 'index.js'))) {
    throw new Error(`no built guard in ${join(root, 'dist')}: run npm run build first`);
  }
  const replayModule = (await import(dist('replay/index.js'))) as typeof import('../src/replay/index.js');
  const policyModule = (await import(
    dist('policy-file/index.js')
  )) as typeof import('../src/policy-file/index.js');
  const traceModule = (await import(dist('trace/index.js'))) as typeof import('../src/trace/index.js');
  const policy = policyModule.parsePolicy({}, undefined, preset ? { preset: preset as PresetName } : {});
  return {
    preset: policy.preset,
    replay(events) {
      const report = replayModule.replayTrace(events as Parameters<typeof replayModule.replayTrace>[0], {
        policy,
      });
      return report.steps.map((step) => ({
        step: step.step,
        verdict: step.verdict,
        tool: step.tool,
        ...(step.rule !== undefined && { rule: step.rule }),
        ...(step.reason !== undefined && { reason: step.reason }),
        ...(step.returned !== undefined && { returned: step.returned }),
      }));
    },
    parse(text, name) {
      return traceModule.parseTrace(text, name);
    },
    predictions(events, steps) {
      return replayModule.checkPredictions(
        events as Parameters<typeof replayModule.checkPredictions>[0],
        steps as Parameters<typeof replayModule.checkPredictions>[1],
      );
    },
  };
}

/** Replays both halves of the corpus through the built guard and scores them. */
export async function scoreCorpus(corpus: string, options: CorpusOptions): Promise<CorpusScore> {
  const guard = await loadBuiltGuard(options.root, options.preset);
  const halves: Partial<Record<CorpusHalf, HalfScore>> = {};
  const details: CorpusDetail[] = [];
  const predictions: Partial<Record<CorpusHalf, PredictionTally>> = {};
  for (const half of CORPUS_HALVES) {
    const tally = { byRule: {}, bySource: {} } as {
      byRule: Record<string, Record<string, number>>;
      bySource: Record<string, Record<string, number>>;
    };
    if (!hasHalf(corpus, half)) continue;
    const labels = readLabels(corpus, half);
    if (labels.length === 0) continue;
    const present = new Set(readdirSync(join(corpus, half, 'traces')));
    const runs: SourceScore[] = [];
    let done = 0;
    for (const label of labels) {
      if (!present.has(label.trace))
        throw new Error(`${half}/traces/${label.trace} is labelled but missing: rebuild the corpus`);
      const events = guard.parse(
        readFileSync(join(corpus, half, 'traces', label.trace), 'utf8'),
        label.trace,
      );
      const steps = guard.replay(events);
      runs.push(scoreRun(label, steps));
      if (options.details) details.push(...runDetails(half, label, steps, events));
      if (options.predictions)
        for (const { rule, outcome } of guard.predictions(events, steps)) {
          count(tally.byRule, rule, outcome);
          count(tally.bySource, label.source, outcome);
        }
      options.onProgress?.(++done, labels.length, half);
    }
    halves[half] = halfScore(half, runs);
    if (options.predictions) predictions[half] = tally;
  }
  return {
    preset: guard.preset,
    halves,
    ...(options.details && { details }),
    ...(options.predictions && { predictions }),
  };
}

function count(table: Record<string, Record<string, number>>, row: string, outcome: string): void {
  const counts = table[row] ?? {};
  counts[outcome] = (counts[outcome] ?? 0) + 1;
  table[row] = counts;
}

const PREDICTION_OUTCOMES = ['held', 'new-success', 'new-error', 'not-run'] as const;

/**
 * The blocks' predictions per rule and per source: how many blocked calls answered as the evidence
 * did (`held`), and how many answered something new (a success, another error), so were wrong.
 */
export function formatPredictions(
  predictions: Readonly<Partial<Record<CorpusHalf, PredictionTally>>>,
): string {
  const lines: string[] = [];
  for (const half of CORPUS_HALVES) {
    const tally = predictions[half];
    if (!tally) continue;
    for (const [title, table] of [
      ['rule', tally.byRule],
      ['source', tally.bySource],
    ] as const) {
      const rows = Object.entries(table).map(([name, counts]) => {
        const cells = PREDICTION_OUTCOMES.map((outcome) => counts[outcome] ?? 0);
        const judged = (cells[0] ?? 0) + (cells[1] ?? 0) + (cells[2] ?? 0);
        const wrong = (cells[1] ?? 0) + (cells[2] ?? 0);
        return [name, ...cells.map(String), percent(wrong, judged)];
      });
      rows.sort((a, b) => wrongOf(b) - wrongOf(a) || (a[0] ?? '').localeCompare(b[0] ?? ''));
      const header = [`${half} blocks by ${title}`, ...PREDICTION_OUTCOMES, 'wrong'];
      lines.push(...alignedTable(header, rows, 1), '');
    }
  }
  return lines.join('\n').trimEnd();
}

/** A row's wrong predictions: its `new-success` and `new-error` cells. */
function wrongOf(row: readonly string[]): number {
  return Number(row[2]) + Number(row[3]);
}

/** Every false block and missed loop, one paragraph each, grouped by half and source. */
export function formatCorpusDetails(details: readonly CorpusDetail[]): string {
  if (details.length === 0) return 'No false block and no missed loop.';
  const lines: string[] = [];
  for (const detail of details) {
    lines.push(
      `${detail.half} ${detail.source} ${detail.kind}: ${detail.trace} step ${detail.step} ${detail.tool}`,
    );
    lines.push(`  args: ${detail.args}`);
    if (detail.returned !== undefined) lines.push(`  returned: ${detail.returned}`);
    if (detail.rule !== undefined) lines.push(`  rule: ${detail.rule}`);
    if (detail.reason !== undefined) lines.push(`  reason: ${detail.reason}`);
    if (detail.wasted !== undefined) {
      const verdicts = detail.wasted.map(
        (item) => `${item.step} ${item.verdict}${item.rule ? ` (${item.rule})` : ''}`,
      );
      lines.push(`  wasted: ${verdicts.join(', ')}`);
    }
  }
  return lines.join('\n');
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '–' : `${Math.round((part * 100) / whole)}%`;
}

function fixed(value: number | undefined, digits = 1): string {
  return value === undefined ? '–' : value.toFixed(digits);
}

/** A share's range in whole percentages, between `before` and `after`; nothing without a range. */
function shareRange(range: Interval | undefined, before: string, after = ''): string {
  return range === undefined
    ? ''
    : `${before}${Math.round(range.low * 100)}–${Math.round(range.high * 100)}%${after}`;
}

/** A rate's range with two decimals, between `before` and `after`; nothing without a range. */
function rateRange(range: Interval | undefined, before: string, after = ''): string {
  return range === undefined ? '' : `${before}${range.low.toFixed(2)}–${range.high.toFixed(2)}${after}`;
}

/**
 * A header and its rows in columns as wide as their widest cell: the first `leftColumns` (names)
 * aligned left, the others (figures) right.
 */
function alignedTable(header: readonly string[], rows: readonly string[][], leftColumns: number): string[] {
  const widths = header.map((cell, index) =>
    Math.max(cell.length, ...rows.map((row) => (row[index] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, index) =>
        index < leftColumns ? cell.padEnd(widths[index] ?? 0) : cell.padStart(widths[index] ?? 0),
      )
      .join('  ');
  return [header, ...rows].map(line);
}

function sourceRow(half: string, score: SourceScore): string[] {
  return [
    half,
    score.source,
    String(score.runs),
    String(score.calls),
    `${score.caught}/${score.loops}`,
    fixed(perThousand(score), 2),
    String(score.blocks),
    `${score.saved}/${score.loopWasted}`,
  ];
}

/** The figures of both halves, per source and averaged per source, as plain text. */
export function formatCorpusScore(score: CorpusScore): string {
  const header = [
    'half',
    'source',
    'runs',
    'calls',
    'loops caught',
    'false/1k calls',
    'blocks',
    'saved wasted',
  ];
  const rows: string[][] = [];
  for (const half of CORPUS_HALVES) {
    const measured = score.halves[half];
    if (!measured) continue;
    for (const source of measured.sources) rows.push(sourceRow(half, source));
    rows.push(sourceRow(half, { ...measured.total, source: 'all sources' }));
  }
  const lines = [
    `Real agent runs (preset: ${score.preset}); loops caught by their 5th wasted call`,
    ...alignedTable(header, rows, 2),
    '',
  ];
  const cell = (half: CorpusHalf, pick: (measured: HalfScore) => string) => {
    const measured = score.halves[half];
    return measured ? pick(measured) : 'not measured';
  };
  const summary: [string, (measured: HalfScore) => string][] = [
    [
      'loops caught by the 5th wasted call',
      (m) =>
        `${m.total.caught}/${m.total.loops} (${percent(m.total.caught, m.total.loops)}${shareRange(m.intervals.caught, '; ')})`,
    ],
    [
      '  averaged per source',
      (m) =>
        m.caughtPerSource === undefined
          ? '–'
          : `${Math.round(m.caughtPerSource * 100)}%${shareRange(m.intervals.caughtPerSource, ' (', ')')}`,
    ],
    [
      'false blocks per 1,000 calls',
      (m) =>
        `${fixed(perThousand(m.total), 2)} (${m.total.falseBlocks} of ${m.total.calls} calls${rateRange(m.intervals.falsePerThousand, '; ')})`,
    ],
    [
      '  averaged per source',
      (m) =>
        `${fixed(m.falsePerThousandPerSource, 2)}${rateRange(m.intervals.falsePerThousandPerSource, ' (', ')')}`,
    ],
    ['blocks', (m) => String(m.total.blocks)],
    ['wasted calls of loops saved', (m) => `${m.total.saved}/${m.total.loopWasted}`],
    ['runs, calls', (m) => `${m.total.runs} runs, ${m.total.calls} calls`],
  ];
  const labelWidth = Math.max(...summary.map(([label]) => label.length));
  const columns = CORPUS_HALVES.map((half) => summary.map(([, pick]) => cell(half, pick)));
  const columnWidth = Math.max('design'.length, ...columns.flat().map((text) => text.length));
  lines.push(
    `${''.padEnd(labelWidth)}  ${CORPUS_HALVES.map((half) => half.padEnd(columnWidth)).join('  ')}`.trimEnd(),
  );
  summary.forEach(([label], index) => {
    lines.push(
      `${label.padEnd(labelWidth)}  ${columns.map((column) => (column[index] ?? '').padEnd(columnWidth)).join('  ')}`.trimEnd(),
    );
  });
  lines.push(
    '',
    `A range after a share or a rate holds the middle 95% of its values over ${RESAMPLES.toLocaleString('en-US')} draws of the half's sources`,
    'with replacement: how far it could move on other sources like these.',
  );
  return lines.join('\n');
}

/** What `--corpus` prints when there is no corpus to measure. */
export function notMeasured(corpus: string | undefined): string {
  return corpus === undefined
    ? 'Real agent runs: not measured (give --corpus DIR, built by scripts/corpus/build.ts)'
    : `Real agent runs: not measured (no design/ or validation/ labels and traces in ${corpus})`;
}
