/**
 * Three simulated proposers for the hyperparameter search. They reason alike — start by doubling the
 * depth, then refine around the best result, and keep below a depth they saw fail — and differ in
 * what they remember, which is what the paper's v6 run turned on:
 *
 * - `frontier` sees every trial it ever ran, across sessions, and corrects after one OOM.
 * - `fresh-session` is the paper's v6 pattern: each seed is a new session that remembers nothing of
 *   the last one; trial 2 doubles the depth and OOMs, trial 3 retries a similar configuration (the
 *   same size, a lower learning rate, as if the rate were at fault), then it stays below the wall.
 * - `forgetful` sees only its last `window` trials (a compacted context), so once an OOM scrolls out
 *   of view it walks back into the OOM region.
 *
 * A block counts as a failure of the configuration it names: the block message says which sizes
 * fail, so a proposer that is told keeps below them while it remembers being told.
 */
import { ASPECT_RATIOS, BASELINE, type TrialConfig } from './ml-search-world.js';

export type ProposerName = 'frontier' | 'fresh-session' | 'forgetful';
export const PROPOSERS: readonly ProposerName[] = ['frontier', 'fresh-session', 'forgetful'];

export interface Observation {
  readonly seed: number;
  readonly config: TrialConfig;
  readonly result: 'ok' | 'oom' | 'timeout' | 'blocked';
  readonly score?: number;
  /** For a block by a learned constraint: the smallest depth it says fails. */
  readonly failingDepth?: number;
}

export interface ProposerOptions {
  /** Trials the forgetful proposer can see. */
  readonly window: number;
}

type Parameters = Pick<TrialConfig, 'depth' | 'aspect_ratio' | 'matrix_lr'>;

const MAX_DEPTH = 24;
const MIN_LR = 0.005;
const MAX_LR = 0.16;

/** What the proposer can see of everything that happened, by what it remembers. */
export function visibleHistory(
  name: ProposerName,
  history: readonly Observation[],
  seed: number,
  options: ProposerOptions,
): readonly Observation[] {
  switch (name) {
    case 'frontier':
      return history;
    case 'fresh-session':
      return history.filter((observation) => observation.seed === seed);
    case 'forgetful':
      return history.slice(Math.max(0, history.length - options.window));
  }
}

function failingDepth(observation: Observation): number | undefined {
  if (observation.result === 'oom') return observation.config.depth;
  return observation.result === 'blocked' ? observation.failingDepth : undefined;
}

function pick<T>(rng: () => number, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)] as T;
}

function sameParameters(a: Parameters, b: Parameters): boolean {
  return a.depth === b.depth && a.aspect_ratio === b.aspect_ratio && a.matrix_lr === b.matrix_lr;
}

/** The next configuration, given what the proposer sees. Draws from `rng` only. */
export function propose(name: ProposerName, visible: readonly Observation[], rng: () => number): Parameters {
  const depths = visible.map(failingDepth).filter((depth): depth is number => depth !== undefined);
  const wall = depths.length > 0 ? Math.min(...depths) : Number.POSITIVE_INFINITY;
  let best: Parameters = BASELINE;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const observation of visible) {
    if (observation.result === 'ok' && observation.score !== undefined && observation.score < bestScore) {
      best = observation.config;
      bestScore = observation.score;
    }
  }
  const last = visible[visible.length - 1];
  const ooms = visible.filter((observation) => observation.result === 'oom').length;
  // The v6 pattern: right after its first OOM, the model blames the learning rate and retries the size.
  if (name === 'fresh-session' && last?.result === 'oom' && ooms === 1) {
    return { ...last.config, matrix_lr: round(last.config.matrix_lr * 0.5) };
  }
  if (!Number.isFinite(wall) && shouldScaleUp(visible, rng)) {
    return { ...best, depth: Math.min(MAX_DEPTH, best.depth * 2) };
  }
  const ceiling = Number.isFinite(wall) ? wall - 1 : MAX_DEPTH;
  let candidate = refine(best, ceiling, rng);
  for (
    let attempt = 0;
    attempt < 3 && visible.some((seen) => sameParameters(seen.config, candidate));
    attempt++
  ) {
    candidate = refine(best, ceiling, rng);
  }
  return candidate;
}

/** Ambition: the first proposal of a session scales up; later ones do half of the time. */
function shouldScaleUp(visible: readonly Observation[], rng: () => number): boolean {
  const trained = visible.filter((observation) => observation.result === 'ok').length;
  return trained <= 1 || rng() < 0.5;
}

function refine(best: Parameters, ceiling: number, rng: () => number): Parameters {
  const depth = Math.max(2, Math.min(ceiling, best.depth + pick(rng, [-1, 0, 0, 1])));
  const index = ASPECT_RATIOS.indexOf(best.aspect_ratio as (typeof ASPECT_RATIOS)[number]);
  const aspectIndex = Math.max(
    0,
    Math.min(ASPECT_RATIOS.length - 1, (index < 0 ? 2 : index) + pick(rng, [-1, 0, 0, 1])),
  );
  const lr = Math.max(MIN_LR, Math.min(MAX_LR, best.matrix_lr * pick(rng, [2 / 3, 1, 1, 1.5])));
  return { depth, aspect_ratio: ASPECT_RATIOS[aspectIndex] as number, matrix_lr: round(lr) };
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
