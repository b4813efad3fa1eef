/**
 * What `narrowing bench long-horizon` reports: the suite's rows beside the paper's published figures,
 * the check that the vanilla simulation is the paper's, and aggregates per memory window.
 */
import {
  DEFAULT_CONFIG,
  type LongHorizonConfig,
  type LongHorizonReport,
  type LongHorizonRow,
  type Mode,
  PUBLISHED_GUARD,
  PUBLISHED_VANILLA,
  runLongHorizon,
  runLongHorizonSuite,
} from './long-horizon.js';
import { type Cell, type Column, percentOf, type Section, usd } from './table.js';

export interface LongHorizonOptions {
  readonly seeds?: readonly number[];
  readonly windows?: readonly number[];
  readonly calls?: number;
}

/** The paper's degradation curve for its guard (seed 42, window 20): repeats at each horizon. */
export const PUBLISHED_GUARD_CURVE: readonly { calls: number; repeatedFailures: number }[] = [
  { calls: 50, repeatedFailures: 1 },
  { calls: 100, repeatedFailures: 2 },
  { calls: 150, repeatedFailures: 2 },
  { calls: 200, repeatedFailures: 2 },
];

/** Also a figure a correct vanilla run must give: seed 42, window 20, 200 calls. */
const PUBLISHED_VANILLA_CALLS = { seed: 42, window: 20, calls: 200, successfulCalls: 101, failedCalls: 99 };

type Metric = 'repeatedFailures' | 'successfulCalls' | 'failedCalls';

export interface FidelityFigure {
  readonly seed: number;
  readonly window: number;
  readonly calls: number;
  readonly metric: Metric;
  readonly published: number;
  readonly simulated: number;
}

export interface Fidelity {
  readonly ok: boolean;
  readonly figures: readonly FidelityFigure[];
}

export interface LongHorizonResult extends LongHorizonReport {
  readonly fidelity: Fidelity;
}

type Simulate = (seed: number, window: number, calls: number, mode: Mode) => LongHorizonRow;

/** Every published vanilla figure against a fresh vanilla run, whatever seeds the caller chose. */
export function checkFidelity(simulate: Simulate = runLongHorizon): Fidelity {
  const figures: FidelityFigure[] = PUBLISHED_VANILLA.map(({ seed, window, calls, repeatedFailures }) => ({
    seed,
    window,
    calls,
    metric: 'repeatedFailures',
    published: repeatedFailures,
    simulated: simulate(seed, window, calls, 'vanilla').repeatedFailures,
  }));
  const { seed, window, calls } = PUBLISHED_VANILLA_CALLS;
  const row = simulate(seed, window, calls, 'vanilla');
  for (const metric of ['successfulCalls', 'failedCalls'] as const) {
    figures.push({
      seed,
      window,
      calls,
      metric,
      published: PUBLISHED_VANILLA_CALLS[metric],
      simulated: row[metric],
    });
  }
  return { ok: figures.every((figure) => figure.published === figure.simulated), figures };
}

export function longHorizonConfig(options: LongHorizonOptions = {}): LongHorizonConfig {
  return {
    ...DEFAULT_CONFIG,
    ...(options.seeds ? { seeds: [...options.seeds] } : {}),
    ...(options.windows ? { windows: [...options.windows] } : {}),
    ...(options.calls !== undefined ? { calls: options.calls } : {}),
  };
}

export function runLongHorizonBench(options: LongHorizonOptions = {}): LongHorizonResult {
  return { ...runLongHorizonSuite(longHorizonConfig(options)), fidelity: checkFidelity() };
}

const METRIC_WORDS: Record<Metric, string> = {
  repeatedFailures: 'repeated failures',
  successfulCalls: 'successful calls',
  failedCalls: 'failed calls',
};

/** One line when everything matches; every mismatch spelled out when not. */
export function fidelityLine(fidelity: Fidelity): string {
  const total = fidelity.figures.length;
  if (fidelity.ok) {
    return `Fidelity check: all ${total} published vanilla figures reproduced exactly (seed 42 at windows 10/20/50; seeds 1-5; horizons 50/100/150; successful and failed calls).`;
  }
  const wrong = fidelity.figures.filter((figure) => figure.published !== figure.simulated);
  const details = wrong.map(
    (figure) =>
      `seed ${figure.seed}, window ${figure.window}, ${figure.calls} calls: published ${figure.published} ${METRIC_WORDS[figure.metric]}, simulated ${figure.simulated}`,
  );
  return [
    `FIDELITY CHECK FAILED: ${wrong.length} of ${total} published vanilla figures differ from this simulation.`,
    ...details.map((detail) => `  ${detail}`),
    "The simulation is not the paper's, so none of the figures below can be compared with it.",
  ].join('\n');
}

const MODE_LABEL: Record<Mode, string> = { vanilla: 'vanilla', precise: 'precise', strict: 'strict' };
const PAPER_GUARD = "paper's guard";

const WINDOW_COLUMNS: readonly Column[] = [
  { title: 'seed', align: 'right' },
  { title: 'mode' },
  { title: 'repeats', align: 'right' },
  { title: 'blocked', align: 'right' },
  { title: 'false blocks', align: 'right' },
  { title: 'successful', align: 'right' },
  { title: 'failed', align: 'right' },
  { title: 'wasted', align: 'right' },
  { title: 'constraints', align: 'right' },
];

function rowCells(row: LongHorizonRow): Cell[] {
  return [
    row.seed,
    MODE_LABEL[row.mode],
    row.repeatedFailures,
    row.blocked,
    row.falseBlocks,
    row.successfulCalls,
    row.failedCalls,
    usd(row.wastedCostUsd),
    row.constraintsSeeded,
  ];
}

function find(rows: readonly LongHorizonRow[], seed: number, window: number, calls: number, mode: Mode) {
  return rows.find(
    (row) => row.seed === seed && row.window === window && row.calls === calls && row.mode === mode,
  );
}

function sum(rows: readonly LongHorizonRow[], pick: (row: LongHorizonRow) => number): number {
  return rows.reduce((total, row) => total + pick(row), 0);
}

/** The paper's guard was published for seed 42 at 200 calls only. */
function publishedGuard(window: number, seed: number, calls: number) {
  return seed === 42 && calls === 200 ? PUBLISHED_GUARD.find((guard) => guard.window === window) : undefined;
}

function windowSection(report: LongHorizonReport, window: number): Section {
  const { config, rows } = report;
  const cells: Cell[][] = [];
  for (const seed of config.seeds) {
    for (const mode of config.modes) {
      const row = find(rows, seed, window, config.calls, mode);
      if (row) cells.push(rowCells(row));
    }
    const guard = publishedGuard(window, seed, config.calls);
    if (guard) {
      cells.push([
        seed,
        PAPER_GUARD,
        guard.repeatedFailures,
        guard.blocked,
        guard.falseBlocks,
        guard.successfulCalls,
        '—',
        '—',
        '—',
      ]);
    }
  }
  return {
    title: `Window ${window} (${config.calls} calls per run)`,
    columns: WINDOW_COLUMNS,
    rows: cells,
    notes: windowAggregates(report, window),
  };
}

function windowAggregates(report: LongHorizonReport, window: number): string[] {
  const { config, rows } = report;
  const inWindow = (mode: Mode) =>
    rows.filter((row) => row.window === window && row.calls === config.calls && row.mode === mode);
  const vanilla = inWindow('vanilla');
  const notes: string[] = [];
  const seedCount = new Set(vanilla.map((row) => row.seed)).size;
  for (const mode of config.modes) {
    if (mode === 'vanilla' || vanilla.length === 0) continue;
    const guarded = inWindow(mode);
    const repeats = percentOf(
      sum(guarded, (row) => row.repeatedFailures),
      sum(vanilla, (row) => row.repeatedFailures),
    );
    const successes = percentOf(
      sum(guarded, (row) => row.successfulCalls),
      sum(vanilla, (row) => row.successfulCalls),
    );
    const maxFalse = Math.max(0, ...guarded.map((row) => row.falseBlocks));
    const halted = guarded.filter((row) => row.haltedAt !== undefined);
    const halts =
      halted.length === 0
        ? ''
        : `, ${halted.length} run${halted.length === 1 ? '' : 's'} halted (at call ${halted.map((row) => row.haltedAt).join(', ')})`;
    notes.push(
      `${mode} over ${seedCount} seeds: repeats ${repeats} of vanilla, successful calls ${successes} of vanilla, at most ${maxFalse} false blocks in a run${halts}`,
    );
  }
  const guard = publishedGuard(window, 42, config.calls);
  const vanilla42 = find(rows, 42, window, config.calls, 'vanilla');
  if (guard && vanilla42) {
    notes.push(
      `${PAPER_GUARD} (seed 42, published): repeats ${percentOf(guard.repeatedFailures, vanilla42.repeatedFailures)} of vanilla, successful calls ${percentOf(guard.successfulCalls, vanilla42.successfulCalls)} of vanilla, ${guard.falseBlocks} false blocks`,
    );
  }
  return notes;
}

function curveSection(report: LongHorizonReport): Section | undefined {
  const { config, rows } = report;
  const seed = config.seeds[0];
  if (seed === undefined || config.curve.length === 0) return undefined;
  const showPaper = seed === 42 && config.curveWindow === 20;
  const columns: Column[] = [
    { title: 'calls', align: 'right' },
    ...config.modes.map((mode) => ({ title: MODE_LABEL[mode], align: 'right' as const })),
    ...(showPaper ? [{ title: PAPER_GUARD, align: 'right' as const }] : []),
  ];
  const cells = config.curve.map((calls) => [
    calls,
    ...config.modes.map((mode) => find(rows, seed, config.curveWindow, calls, mode)?.repeatedFailures ?? '—'),
    ...(showPaper
      ? [PUBLISHED_GUARD_CURVE.find((point) => point.calls === calls)?.repeatedFailures ?? '—']
      : []),
  ]);
  return {
    title: `Degradation with horizon (seed ${seed}, window ${config.curveWindow}): repeated failures`,
    columns,
    rows: cells,
  };
}

export function longHorizonSections(report: LongHorizonReport): Section[] {
  const sections = report.config.windows.map((window) => windowSection(report, window));
  const curve = curveSection(report);
  if (curve) sections.push(curve);
  return sections;
}

export function longHorizonTitle(config: LongHorizonConfig): string {
  return `Long-horizon tool-call benchmark: seeds ${config.seeds.join(', ')} × windows ${config.windows.join(', ')}, ${config.calls} calls each (simulated agent, mock codebase, no LLM)`;
}
