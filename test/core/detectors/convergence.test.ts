import { describe, expect, it } from 'vitest';
import { createConvergenceDetector } from '../../../src/core/detectors/convergence.js';
import { createDefaultDetectors, isConvergenceDetector } from '../../../src/core/detectors/index.js';
import { callOf, failed, GARBAGE, policies, propose, roundTrip, succeeded } from './support.js';

function train(trial: number, policy = policies()) {
  return callOf('train_model', { learning_rate: 0.001 * (trial + 1), depth: 6 }, { kind: 'exec', policy });
}

function loss(value: number) {
  return succeeded(`epoch 10: val_loss=${value}`, { score: value });
}

/** Runs one training trial per score. */
function trials(
  detector: ReturnType<typeof createConvergenceDetector>,
  scores: readonly number[],
  policy = policies(),
) {
  return scores.map((score, index) => propose(detector, train(index, policy), loss(score)));
}

const read = callOf('read_file', { path: 'train.py' });
/** Three approaches a text game refused: a thing not there, and two ways that lead nowhere. */
const takeCoin = callOf('take', { input: 'coin' }, { kind: 'mutate' });
const goNorth = callOf('go', { input: 'north' }, { kind: 'mutate' });
const goEast = callOf('go', { input: 'east' }, { kind: 'mutate' });
const approaches = [goNorth, goEast, takeCoin];

/** The `count`th of a run of blocked proposals going round the first `of` approaches. */
function approach(count: number, of = 3) {
  return approaches[count % of] ?? takeCoin;
}

/** A detector for a recorded run replayed: the agent never read a refusal. */
function replaying() {
  const detector = createConvergenceDetector();
  detector.readsRefusals?.(false);
  return detector;
}

describe('convergence', () => {
  it('reports progress while the score improves', () => {
    const detector = createConvergenceDetector();
    trials(detector, [0.9, 0.7, 0.5]);
    expect(detector.report()).toMatchObject({
      state: 'progressing',
      bestScore: 0.5,
      lastImprovementStep: 3,
      steps: 3,
    });
  });

  it('reports progressing with no scores at all', () => {
    expect(createConvergenceDetector().report()).toMatchObject({ state: 'progressing', steps: 0 });
  });

  it('warns once ten trials in a row brought no improvement, not one trial before', () => {
    const detector = createConvergenceDetector();
    trials(detector, [0.5, ...Array.from({ length: 9 }, () => 0.6)]);
    expect(detector.check(train(10))).toBeUndefined();
    expect(detector.report().state).toBe('progressing');
    trials(detector, [0.61]);
    const violation = detector.check(train(11));
    expect(violation?.severity).toBe('warn');
    expect(violation?.rule).toBe('convergence');
    expect(violation?.reason).toContain('No improvement in 10 trials');
    expect(violation?.reason).toContain('0.5');
    expect(detector.report()).toMatchObject({ state: 'plateau', bestScore: 0.5, lastImprovementStep: 1 });
  });

  it('counts an improvement only when it beats the best by more than the tolerance', () => {
    const detector = createConvergenceDetector();
    const policy = policies({ detectors: { convergence: { tolerance: 0.01, plateauWindow: 3 } } });
    trials(detector, [0.5, 0.495, 0.492, 0.491], policy);
    expect(detector.report()).toMatchObject({ state: 'plateau', bestScore: 0.491 });
  });

  it('treats a higher score as better when maximizing', () => {
    const detector = createConvergenceDetector();
    const policy = policies({ detectors: { convergence: { direction: 'maximize', plateauWindow: 2 } } });
    trials(detector, [0.7, 0.8, 0.9], policy);
    expect(detector.report()).toMatchObject({ state: 'progressing', bestScore: 0.9 });
    trials(detector, [0.85, 0.88], policy);
    expect(detector.report().state).toBe('plateau');
  });

  it('does not warn calls to tools that never reported a score', () => {
    const detector = createConvergenceDetector();
    trials(detector, [0.5, ...Array.from({ length: 10 }, () => 0.6)]);
    expect(detector.check(read)).toBeUndefined();
  });

  it('halts once fifteen proposals in a row were blocked, not one before', () => {
    const detector = createConvergenceDetector();
    for (let count = 0; count < 14; count++) detector.afterCheck?.(read, 'block');
    expect(detector.check(read)).toBeUndefined();
    detector.afterCheck?.(read, 'block');
    const violation = detector.check(read);
    expect(violation?.severity).toBe('halt');
    expect(violation?.reason).toContain('The last 15 proposals were all blocked');
    expect(detector.report().state).toBe('exhausted');
  });

  it('does not halt a replayed run whose blocked proposals were all one call or two, however many', () => {
    const detector = replaying();
    for (let count = 0; count < 40; count++) detector.afterCheck?.(approach(count, 2), 'block');
    expect(detector.check(read)).toBeUndefined();
    expect(detector.report().state).toBe('progressing');
    detector.afterCheck?.(takeCoin, 'block');
    expect(detector.check(read)?.severity).toBe('halt');
  });

  it('halts a replayed run once fifteen blocked proposals in a row held three distinct calls', () => {
    const detector = replaying();
    for (let count = 0; count < 14; count++) detector.afterCheck?.(approach(count), 'block');
    expect(detector.check(read)).toBeUndefined();
    detector.afterCheck?.(takeCoin, 'block');
    expect(detector.check(read)?.reason).toContain('The last 15 proposals were all blocked');
  });

  it('counts the distinct calls of a replayed run of blocks afresh once a proposal goes ahead', () => {
    const detector = replaying();
    for (const call of approaches) detector.afterCheck?.(call, 'block');
    detector.afterCheck?.(read, 'allow');
    for (let count = 0; count < 20; count++) detector.afterCheck?.(approach(count, 2), 'block');
    expect(detector.report().state).toBe('progressing');
  });

  it('keeps the distinct calls of a replayed run of blocks through a snapshot and restore', () => {
    const first = replaying();
    for (let count = 0; count < 14; count++) first.afterCheck?.(approach(count, 2), 'block');
    const restored = replaying();
    roundTrip(first, restored);
    restored.afterCheck?.(takeCoin, 'block');
    expect(restored.check(read)?.severity).toBe('halt');
  });

  it('neither counts nor ends the run of blocks with a blocked guess or poll', () => {
    const detector = createConvergenceDetector();
    const blocked = (rule: string) =>
      ({ rule, severity: 'block', reason: rule, suggestion: '', evidence: { count: 1 } }) as const;
    const guess = blocked('error-streak');
    for (let count = 0; count < 14; count++) detector.afterCheck?.(read, 'block');
    for (let count = 0; count < 30; count++) detector.afterCheck?.(read, 'block', guess);
    expect(detector.check(read)).toBeUndefined();
    detector.afterCheck?.(read, 'block', blocked('identical-failure'));
    expect(detector.check(read)?.severity).toBe('halt');
  });

  it('ends the run of blocks with any proposal that goes ahead', () => {
    const detector = createConvergenceDetector();
    for (let count = 0; count < 14; count++) detector.afterCheck?.(read, 'block');
    detector.afterCheck?.(read, 'warn');
    for (let count = 0; count < 14; count++) detector.afterCheck?.(read, 'block');
    expect(detector.report().state).toBe('progressing');
  });

  it('halts with the reason given when the loop marks the run exhausted', () => {
    const detector = createConvergenceDetector();
    detector.markExhausted('Every remaining strategy is banned: depth >= 8 runs out of memory.');
    expect(detector.check(read)?.reason).toBe(
      'Every remaining strategy is banned: depth >= 8 runs out of memory.',
    );
    expect(detector.report()).toMatchObject({ state: 'exhausted' });
  });

  it('lifts exhaustion and restarts the plateau clock on a new user message, keeping the best score', () => {
    const detector = createConvergenceDetector();
    trials(detector, [0.5, ...Array.from({ length: 10 }, () => 0.6)]);
    detector.markExhausted('nothing left to try');
    detector.reset('user');
    expect(detector.check(train(20))).toBeUndefined();
    expect(detector.report()).toMatchObject({ state: 'progressing', bestScore: 0.5 });
  });

  it('forgets everything in a new session', () => {
    const detector = createConvergenceDetector();
    trials(detector, [0.5, 0.4]);
    detector.reset('session');
    expect(detector.report()).toEqual({
      state: 'progressing',
      steps: 0,
      reason: 'No progress score reported yet.',
    });
  });

  it('ignores scores that come with a harness fault', () => {
    const detector = createConvergenceDetector();
    trials(detector, [0.5]);
    detector.observe(train(1), failed('oom', 'harness_fault', 'CUDA out of memory', { score: 0.1 }));
    expect(detector.report()).toMatchObject({ bestScore: 0.5, steps: 1 });
  });

  it('applies the plateau window overridden for the tool by exact name', () => {
    const detector = createConvergenceDetector();
    const policy = policies({ tools: { train_model: { detectors: { convergence: { plateauWindow: 3 } } } } });
    trials(detector, [0.5, 0.6, 0.6], policy);
    expect(detector.check(train(3, policy))).toBeUndefined();
    trials(detector, [0.6], policy);
    expect(detector.check(train(4, policy))?.severity).toBe('warn');
  });

  it('applies the number of blocks overridden for the tool by glob', () => {
    const detector = createConvergenceDetector();
    const policy = policies({
      tools: { 'train_*': { detectors: { convergence: { exhaustAfterBlocks: 2 } } } },
    });
    detector.afterCheck?.(train(0, policy), 'block');
    expect(detector.report().state).toBe('progressing');
    detector.afterCheck?.(train(1, policy), 'block');
    expect(detector.report().state).toBe('exhausted');
  });

  it('never fires for an exempt tool, nor counts its blocks', () => {
    const detector = createConvergenceDetector();
    const policy = policies({ tools: { train_model: { exempt: true } } });
    for (let count = 0; count < 15; count++) detector.afterCheck?.(train(count, policy), 'block');
    trials(detector, [0.5, ...Array.from({ length: 12 }, () => 0.6)], policy);
    expect(detector.check(train(0, policy))).toBeUndefined();
    expect(detector.report()).toMatchObject({ state: 'progressing', steps: 0 });
  });

  it('keeps a plateau and an exhausted run through a snapshot and restore', () => {
    const first = createConvergenceDetector();
    trials(first, [0.5, ...Array.from({ length: 10 }, () => 0.6)]);
    const plateau = createConvergenceDetector();
    roundTrip(first, plateau);
    expect(plateau.report()).toEqual(first.report());
    expect(plateau.check(train(11))?.severity).toBe('warn');
    first.markExhausted('nothing left to try');
    const exhausted = createConvergenceDetector();
    roundTrip(first, exhausted);
    expect(exhausted.check(read)?.severity).toBe('halt');
  });

  it('ignores a snapshot it cannot read and starts empty', () => {
    for (const garbage of GARBAGE) {
      const detector = createConvergenceDetector();
      trials(detector, [0.5, 0.4]);
      detector.markExhausted('nothing left to try');
      detector.restore(garbage);
      expect(detector.report()).toMatchObject({ state: 'progressing', steps: 0 });
    }
  });

  it('remembers a bounded number of scoring tools however many it sees', () => {
    const detector = createConvergenceDetector();
    for (let index = 0; index < 100_000; index++) {
      detector.observe(callOf(`train_${index}`, {}, { kind: 'exec' }), loss(index));
    }
    const snapshot = detector.snapshot() as { scoredTools: unknown[] };
    expect(snapshot.scoredTools.length).toBeLessThanOrEqual(100);
  });

  it('can be found among the default detectors', () => {
    const found = createDefaultDetectors().filter(isConvergenceDetector);
    expect(found).toHaveLength(1);
    expect(found[0]?.report().state).toBe('progressing');
  });
});
