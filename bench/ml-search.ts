/**
 * The paper's GPU experiment (v6: 5 seeds × 25 trials, batch size 32) as a deterministic simulation:
 * each proposer searches depth, aspect ratio and learning rate with no guard (`vanilla`), with a
 * fresh guard for each seed (`narrowing`, one session per seed), and with the guard's constraints
 * carried from seed to seed (`narrowing-carried`, through snapshot and restore).
 *
 * A blocked proposal costs no GPU time; the proposer reads the block and proposes again in the same
 * trial slot, at most `MAX_PROPOSALS_PER_SLOT` times. A slot whose every proposal is blocked trains
 * nothing and counts as a blocked slot.
 */
import {
  createMlTrainingAdapter,
  mlTrialToOutcome,
  mlTrialToProposal,
} from '../src/adapters/ml-training/index.js';
import { NarrowingEngine } from '../src/core/loop.js';
import type { Clock, PersistedState } from '../src/core/types.js';
import { mulberry32 } from './long-horizon.js';
import {
  type Observation,
  PROPOSERS,
  type ProposerName,
  propose,
  visibleHistory,
} from './ml-search-proposers.js';
import { BASELINE, fitsInMemory, runTrial, type TrialConfig } from './ml-search-world.js';

export type MlMode = 'vanilla' | 'narrowing' | 'narrowing-carried';
export const ML_MODES: readonly MlMode[] = ['vanilla', 'narrowing', 'narrowing-carried'];
export const MAX_PROPOSALS_PER_SLOT = 3;

export interface MlSearchConfig {
  readonly seeds: readonly number[];
  readonly trials: number;
  /** Trials the forgetful proposer can see. */
  readonly window: number;
  readonly batchSize: number;
  readonly proposers: readonly ProposerName[];
  readonly modes: readonly MlMode[];
}

export const DEFAULT_ML_CONFIG: MlSearchConfig = {
  seeds: [1, 2, 3, 4, 5],
  trials: 25,
  window: 3,
  batchSize: 32,
  proposers: PROPOSERS,
  modes: ML_MODES,
};

export interface MlSearchRow {
  readonly proposer: ProposerName;
  readonly mode: MlMode;
  readonly trialSlots: number;
  readonly okTrials: number;
  readonly ooms: number;
  readonly oomsBySeed: readonly number[];
  readonly timeouts: number;
  readonly blockedProposals: number;
  /** Blocked proposals that would have fit in memory: legitimate work the guard refused. */
  readonly falseBlocks: number;
  readonly blockedSlots: number;
  /** GPU seconds spent on trials that trained nothing: OOMs and harness timeouts. */
  readonly gpuSecondsWasted: number;
  /** Lowest validation bpb of any trial (lower is better); null when nothing trained. */
  readonly bestScore: number | null;
  readonly averageScore: number | null;
  readonly constraintsSeeded: number;
}

export interface MlSearchReport {
  readonly config: MlSearchConfig;
  readonly rows: readonly MlSearchRow[];
}

export function runMlSearch(config: MlSearchConfig = DEFAULT_ML_CONFIG): MlSearchReport {
  const rows: MlSearchRow[] = [];
  for (const proposer of config.proposers) {
    for (const mode of config.modes) rows.push(runProposer(proposer, mode, config));
  }
  return { config, rows };
}

function newGuard(config: MlSearchConfig, clock: Clock, seed: number): NarrowingEngine {
  return new NarrowingEngine({
    adapter: createMlTrainingAdapter({ baseline: { ...BASELINE, batch_size: config.batchSize } }),
    clock,
    sessionId: `seed-${seed}`,
  });
}

export function runProposer(proposer: ProposerName, mode: MlMode, config: MlSearchConfig): MlSearchRow {
  const history: Observation[] = [];
  const scores: number[] = [];
  const oomsBySeed: number[] = [];
  let now = Date.UTC(2026, 2, 1);
  const clock: Clock = { now: () => now };
  let carried: PersistedState | undefined;
  let timeouts = 0;
  let blockedProposals = 0;
  let falseBlocks = 0;
  let blockedSlots = 0;
  let gpuSecondsWasted = 0;
  let constraintsSeeded = 0;

  for (const seed of config.seeds) {
    const rng = mulberry32(seed);
    const guard = mode === 'vanilla' ? undefined : newGuard(config, clock, seed);
    if (guard && carried) guard.restore(carried, { scope: 'persistent' });
    let ooms = 0;
    for (let slot = 1; slot <= config.trials; slot++) {
      let trained = false;
      for (let attempt = 0; attempt < MAX_PROPOSALS_PER_SLOT && !trained; attempt++) {
        const visible = visibleHistory(proposer, history, seed, config);
        const parameters = slot === 1 ? BASELINE : propose(proposer, visible, rng);
        const trial: TrialConfig = { ...parameters, batch_size: config.batchSize };
        const proposal = mlTrialToProposal({ ...trial });
        now += 1000;
        const check = guard?.checkProposal(proposal);
        if (check && !check.allowed) {
          blockedProposals++;
          if (fitsInMemory(trial)) falseBlocks++;
          const constraint = check.violations[0]?.constraint;
          const failingDepth = constraint ? (constraint.region?.atLeast?.depth ?? trial.depth) : undefined;
          history.push({ seed, config: trial, result: 'blocked', failingDepth });
          continue;
        }
        const outcome = runTrial(trial, seed, slot);
        now += outcome.seconds * 1000;
        trained = true;
        if (outcome.kind === 'ok') {
          scores.push(outcome.score);
          history.push({ seed, config: trial, result: 'ok', score: outcome.score });
        } else {
          if (outcome.kind === 'oom') ooms++;
          else timeouts++;
          gpuSecondsWasted += outcome.seconds;
          history.push({ seed, config: trial, result: outcome.kind });
        }
        if (guard) {
          const result =
            outcome.kind === 'ok'
              ? { ok: true, score: outcome.score, durationMs: outcome.seconds * 1000 }
              : { ok: false, error: outcome.log, durationMs: outcome.seconds * 1000 };
          const recorded = guard.recordOutcome({ ...mlTrialToOutcome(proposal.args, result), proposal });
          constraintsSeeded += recorded.newConstraints.length;
        }
      }
      if (!trained) blockedSlots++;
    }
    oomsBySeed.push(ooms);
    // A new session of the agent, with what the last one learned: through JSON, as it would travel.
    if (guard && mode === 'narrowing-carried') carried = JSON.parse(JSON.stringify(guard.snapshot()));
  }

  const ooms = oomsBySeed.reduce((total, value) => total + value, 0);
  return {
    proposer,
    mode,
    trialSlots: config.seeds.length * config.trials,
    okTrials: scores.length,
    ooms,
    oomsBySeed,
    timeouts,
    blockedProposals,
    falseBlocks,
    blockedSlots,
    gpuSecondsWasted,
    bestScore: scores.length > 0 ? Math.min(...scores) : null,
    averageScore:
      scores.length > 0
        ? Math.round((scores.reduce((total, score) => total + score, 0) / scores.length) * 10_000) / 10_000
        : null,
    constraintsSeeded,
  };
}
