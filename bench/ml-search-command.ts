/** `narrowing bench ml-search`: the paper's table shape, per proposer and mode. */
import type { MlSearchCommandOptions } from '../src/cli/commands/bench.js';
import type { CommandIO } from '../src/cli/commands/io.js';
import {
  DEFAULT_ML_CONFIG,
  MAX_PROPOSALS_PER_SLOT,
  type MlMode,
  type MlSearchConfig,
  type MlSearchReport,
  type MlSearchRow,
  runMlSearch,
} from './ml-search.js';
import type { ProposerName } from './ml-search-proposers.js';
import { MEMORY_BUDGET, OOM_SECONDS, TIMEOUT_SECONDS, TRIAL_SECONDS } from './ml-search-world.js';
import { type Cell, renderText, type Section, thousands } from './table.js';

/** The paper's v6 run (Gemini 2.5 Flash on an L4, 5 seeds × 25 trials, batch size 32), as published. */
export const PUBLISHED_V6 = [
  { mode: 'vanilla', okTrials: 113, ooms: 10, blocked: 0 },
  { mode: 'narrowing', okTrials: 102, ooms: 10, blocked: 12 },
] as const;

export function mlSearchConfig(options: MlSearchCommandOptions = {}): MlSearchConfig {
  return {
    ...DEFAULT_ML_CONFIG,
    ...(options.seeds ? { seeds: [...options.seeds] } : {}),
    ...(options.trials !== undefined ? { trials: options.trials } : {}),
    ...(options.window !== undefined ? { window: options.window } : {}),
    ...(options.batchSize !== undefined ? { batchSize: options.batchSize } : {}),
  };
}

export async function mlSearchCommand(options: MlSearchCommandOptions, io: CommandIO): Promise<number> {
  const report = runMlSearch(mlSearchConfig(options));
  io.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatMlSearch(report)}\n`);
  return 0;
}

const DESCRIPTION: Record<ProposerName, string> = {
  frontier: 'sees every trial it ever ran and corrects after one OOM',
  'fresh-session':
    "the paper's v6 pattern: each seed a new session; trial 2 doubles the depth, trial 3 retries the size",
  forgetful: 'sees only its last few trials, so it walks back into the OOM region',
};

const score = (value: number | null) => (value === null ? '—' : value.toFixed(4));

export function mlSearchSections(report: MlSearchReport): Section[] {
  const { config, rows } = report;
  const table: Section = {
    title: `Hyperparameter search: ${config.seeds.length} seeds × ${config.trials} trials, batch size ${config.batchSize} (val bpb, lower is better)`,
    columns: [
      { title: 'proposer' },
      { title: 'mode' },
      { title: 'trained', align: 'right' },
      { title: 'OOMs', align: 'right' },
      { title: 'OOMs by seed' },
      { title: 'timeouts', align: 'right' },
      { title: 'blocked', align: 'right' },
      { title: 'false blocks', align: 'right' },
      { title: 'blocked slots', align: 'right' },
      { title: 'GPU s wasted', align: 'right' },
      { title: 'best', align: 'right' },
      { title: 'average', align: 'right' },
    ],
    rows: rows.map((row): Cell[] => [
      row.proposer,
      row.mode,
      `${row.okTrials}/${row.trialSlots}`,
      row.ooms,
      row.oomsBySeed.join(' '),
      row.timeouts,
      row.blockedProposals,
      row.falseBlocks,
      row.blockedSlots,
      thousands(row.gpuSecondsWasted),
      score(row.bestScore),
      score(row.averageScore),
    ]),
    notes: [
      ...config.proposers.map((proposer) => proposerNote(proposer, rows)),
      `A trial trains for ${TRIAL_SECONDS} s; an OOM dies after ${OOM_SECONDS} s, a hung trial is killed after ${TIMEOUT_SECONDS} s (timeouts are the harness's, identical in every mode, and never teach the guard anything).`,
      `OOM when batch × depth × width exceeds ${thousands(MEMORY_BUDGET)} units (width = depth × aspect ratio): depth 8 OOMs at batch 32 and aspect ratio 64, as in v6.`,
      `A blocked proposal costs no GPU time; the proposer reads the block and proposes again in the same slot, up to ${MAX_PROPOSALS_PER_SLOT} times.`,
    ],
  };
  const paper: Section = {
    title: 'The paper (v6, Gemini 2.5 Flash on an L4, published)',
    columns: [
      { title: 'mode' },
      { title: 'trained', align: 'right' },
      { title: 'OOMs', align: 'right' },
      { title: 'blocked', align: 'right' },
    ],
    rows: PUBLISHED_V6.map((row) => [row.mode, `${row.okTrials}/125`, row.ooms, row.blocked]),
    notes: [
      "Scores are not comparable: the paper's bpb comes from real training, this surface is a model of it.",
    ],
  };
  return [table, paper];
}

function find(rows: readonly MlSearchRow[], proposer: ProposerName, mode: MlMode): MlSearchRow | undefined {
  return rows.find((row) => row.proposer === proposer && row.mode === mode);
}

function proposerNote(proposer: ProposerName, rows: readonly MlSearchRow[]): string {
  const vanilla = find(rows, proposer, 'vanilla');
  const parts = [`${proposer} (${DESCRIPTION[proposer]}):`];
  if (!vanilla) return parts.join(' ');
  const saved = (mode: MlMode, label: string) => {
    const row = find(rows, proposer, mode);
    if (!row) return;
    const ooms = vanilla.ooms - row.ooms;
    const seconds = vanilla.gpuSecondsWasted - row.gpuSecondsWasted;
    parts.push(`${label} ${ooms} of ${vanilla.ooms} OOMs (${thousands(seconds)} GPU s);`);
  };
  saved('narrowing', 'a guard per session saves');
  saved('narrowing-carried', 'carrying constraints across sessions saves');
  return parts.join(' ').replace(/;$/, '.');
}

export function formatMlSearch(report: MlSearchReport): string {
  return renderText(mlSearchSections(report));
}
