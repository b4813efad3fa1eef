/**
 * The `expect` field of a trace's meta line: what a good guard does on this trace under the
 * default policy. Used by tests and benchmarks to score the guard against recorded incidents.
 *
 * - `{"block_at": [lo, hi]}`: the first block or halt comes at a step from lo to hi;
 * - `{"never_block": true}`: no step is block or halt (a warn is fine);
 * - `{"must_block": [steps], "must_not_block": [steps]}`: those steps are, or are not, stopped.
 */
import type { ReplayStep } from './replay.js';

export interface TraceExpectation {
  readonly block_at?: readonly [number, number];
  readonly never_block?: boolean;
  readonly must_block?: readonly number[];
  readonly must_not_block?: readonly number[];
}

function isStepList(value: unknown): value is number[] {
  return Array.isArray(value) && value.every((step) => Number.isInteger(step) && step >= 1);
}

/** Reads an `expect` value; throws with a plain explanation when it has the wrong shape. */
export function parseExpectation(value: unknown): TraceExpectation {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error('expect must be an object with block_at, never_block, must_block or must_not_block');
  }
  const { block_at, never_block, must_block, must_not_block, ...rest } = value as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) throw new Error(`expect has unknown fields: ${unknown.join(', ')}`);
  if (
    block_at !== undefined &&
    !(isStepList(block_at) && block_at.length === 2 && block_at[0]! <= block_at[1]!)
  ) {
    throw new Error('expect.block_at must be [lo, hi], two step numbers with lo <= hi');
  }
  if (never_block !== undefined && typeof never_block !== 'boolean')
    throw new Error('expect.never_block must be true or false');
  if (must_block !== undefined && !isStepList(must_block))
    throw new Error('expect.must_block must be a list of steps');
  if (must_not_block !== undefined && !isStepList(must_not_block)) {
    throw new Error('expect.must_not_block must be a list of steps');
  }
  return value as TraceExpectation;
}

const stopped = (step: ReplayStep) => step.verdict === 'block' || step.verdict === 'halt';

/** Every way the replayed steps miss the expectation; empty when they meet it. */
export function unmetExpectations(expectation: TraceExpectation, steps: readonly ReplayStep[]): string[] {
  const problems: string[] = [];
  const byStep = new Map(steps.map((step) => [step.step, step]));
  const firstStop = steps.find(stopped);
  const describe = (step: ReplayStep | undefined) =>
    step ? `step ${step.step} was ${step.verdict}${step.rule ? ` (${step.rule})` : ''}` : 'no such step';
  if (expectation.block_at) {
    const [lo, hi] = expectation.block_at;
    if (!firstStop)
      problems.push(`expected the first block between steps ${lo} and ${hi}, but nothing was blocked`);
    else if (firstStop.step < lo || firstStop.step > hi) {
      problems.push(`expected the first block between steps ${lo} and ${hi}, but ${describe(firstStop)}`);
    }
  }
  if (expectation.never_block) {
    for (const step of steps.filter(stopped)) problems.push(`expected no block, but ${describe(step)}`);
  }
  for (const number of expectation.must_block ?? []) {
    const step = byStep.get(number);
    if (!step || !stopped(step))
      problems.push(`expected step ${number} to be blocked, but ${describe(step)}`);
  }
  for (const number of expectation.must_not_block ?? []) {
    const step = byStep.get(number);
    if (step && stopped(step))
      problems.push(`expected step ${number} not to be blocked, but ${describe(step)}`);
  }
  return problems;
}
