import { describe, expect, it } from 'vitest';
import { createCreationRateDetector } from '../../../src/core/detectors/creation-rate.js';
import { callOf, failed, GARBAGE, policies, propose, roundTrip, succeeded, verdicts } from './support.js';

/** A new branch every 7 seconds whose name differs only by its timestamp. */
function branchAt(seconds: number, policy = policies()) {
  const stamp = `2026-03-02T10-15-${String(seconds).padStart(2, '0')}`;
  const call = callOf(
    'git_create_branch',
    { repo: 'web', name: `agent/task-${stamp}` },
    { kind: 'create', now: seconds * 1000, policy },
  );
  return [call, succeeded(`Created branch agent/task-${stamp}`, { changedWorld: true })] as const;
}

describe('creation-rate', () => {
  it('blocks the fourth creation of the same shape within a minute', () => {
    const detector = createCreationRateDetector();
    const steps = [0, 7, 14, 21, 28].map((seconds) => branchAt(seconds));
    expect(verdicts(detector, steps)).toEqual(['allow', 'allow', 'allow', 'block', 'block']);
  });

  it('says how many were made, how fast, and that only the timestamp differs', () => {
    const detector = createCreationRateDetector();
    verdicts(
      detector,
      [0, 7, 14].map((seconds) => branchAt(seconds)),
    );
    const violation = detector.check(branchAt(21)[0]);
    expect(violation?.rule).toBe('creation-rate');
    expect(violation?.reason).toContain('git_create_branch has already created 3 resources in the last 60 s');
    expect(violation?.reason).toContain('timestamp');
    expect(violation?.evidence).toMatchObject({ count: 3, masked: ['timestamp'] });
  });

  it('allows creations spread wider than the window', () => {
    const detector = createCreationRateDetector();
    const steps = [0, 25, 50, 75, 100, 125].map((seconds) => branchAt(seconds));
    expect(verdicts(detector, steps)).not.toContain('block');
  });

  it('allows creating again once the window has passed', () => {
    const detector = createCreationRateDetector();
    verdicts(
      detector,
      [0, 7, 14].map((seconds) => branchAt(seconds)),
    );
    expect(detector.check(branchAt(61)[0])).toBeUndefined();
  });

  it('counts only creations that succeeded', () => {
    const detector = createCreationRateDetector();
    const exists = failed(
      'already_exists',
      'agent_failure',
      "fatal: a branch named 'agent/task' already exists",
    );
    verdicts(detector, [branchAt(0), [branchAt(7)[0], exists], branchAt(14)]);
    expect(detector.check(branchAt(21)[0])).toBeUndefined();
  });

  it('counts each shape separately', () => {
    const detector = createCreationRateDetector();
    verdicts(
      detector,
      [0, 7, 14].map((seconds) => branchAt(seconds)),
    );
    const worktree = callOf('git_worktree_add', { path: '../wt-feature' }, { kind: 'create', now: 21_000 });
    const fix = callOf(
      'git_create_branch',
      { repo: 'web', name: 'fix/login-redirect' },
      { kind: 'create', now: 21_000 },
    );
    expect(detector.check(worktree)).toBeUndefined();
    expect(detector.check(fix)).toBeUndefined();
  });

  it('has nothing to say about calls that create nothing', () => {
    const detector = createCreationRateDetector();
    const checkout = (seconds: number) =>
      [
        callOf('git_checkout', { repo: 'web', branch: 'main' }, { kind: 'mutate', now: seconds * 1000 }),
        succeeded("Switched to branch 'main'"),
      ] as const;
    expect(verdicts(detector, [0, 1, 2, 3, 4, 5].map(checkout))).not.toContain('block');
  });

  it('ignores harness faults', () => {
    const detector = createCreationRateDetector();
    const fault = failed('rate_limited', 'harness_fault', 'API rate limit exceeded');
    verdicts(detector, [branchAt(0), branchAt(7), [branchAt(10)[0], fault]]);
    expect(detector.check(branchAt(14)[0])).toBeUndefined();
    propose(detector, ...branchAt(14));
    expect(detector.check(branchAt(21)[0])?.severity).toBe('block');
  });

  it('starts over on a new user message', () => {
    const detector = createCreationRateDetector();
    verdicts(
      detector,
      [0, 7, 14].map((seconds) => branchAt(seconds)),
    );
    detector.reset('user');
    expect(detector.check(branchAt(21)[0])).toBeUndefined();
  });

  it('applies limits overridden for the tool by exact name', () => {
    const detector = createCreationRateDetector();
    const policy = policies({ tools: { git_create_branch: { detectors: { creationRate: { max: 5 } } } } });
    const steps = [0, 7, 14, 21, 28, 35].map((seconds) => branchAt(seconds, policy));
    expect(verdicts(detector, steps)).toEqual(['allow', 'allow', 'allow', 'allow', 'allow', 'block']);
  });

  it('applies limits overridden for the tool by glob', () => {
    const detector = createCreationRateDetector();
    const policy = policies({ tools: { 'git_*': { detectors: { creationRate: { windowSeconds: 10 } } } } });
    const steps = [0, 7, 14, 21, 28].map((seconds) => branchAt(seconds, policy));
    expect(verdicts(detector, steps)).not.toContain('block');
  });

  it('never fires for an exempt tool', () => {
    const detector = createCreationRateDetector();
    const policy = policies({ tools: { git_create_branch: { exempt: true } } });
    const steps = [0, 1, 2, 3, 4, 5].map((seconds) => branchAt(seconds, policy));
    expect(verdicts(detector, steps)).not.toContain('block');
  });

  it('keeps its creation times through a snapshot and restore', () => {
    const first = createCreationRateDetector();
    verdicts(
      first,
      [0, 7, 14].map((seconds) => branchAt(seconds)),
    );
    const second = createCreationRateDetector();
    roundTrip(first, second);
    expect(second.check(branchAt(21)[0])?.severity).toBe('block');
  });

  it('ignores a snapshot it cannot read and starts empty', () => {
    for (const garbage of [...GARBAGE, { version: 1, shapes: [['s', { times: ['soon', null] }]] }]) {
      const detector = createCreationRateDetector();
      verdicts(
        detector,
        [0, 7, 14].map((seconds) => branchAt(seconds)),
      );
      detector.restore(garbage);
      expect(detector.check(branchAt(21)[0])).toBeUndefined();
    }
  });

  it('remembers a bounded number of shapes and times however many creations it sees', () => {
    const detector = createCreationRateDetector();
    const policy = policies({ detectors: { creationRate: { max: 1_000_000, windowSeconds: 1_000_000 } } });
    for (let index = 0; index < 100_000; index++) {
      const call = callOf(
        'create_file',
        { path: `notes/${index % 2 === 0 ? 'a' : `n${index}`}.md` },
        {
          kind: 'create',
          now: index,
          policy,
        },
      );
      detector.observe(call, succeeded('created'));
    }
    const snapshot = detector.snapshot() as { shapes: [string, { times: unknown[] }][] };
    expect(snapshot.shapes.length).toBeLessThanOrEqual(1_000);
    for (const [, shape] of snapshot.shapes) expect(shape.times.length).toBeLessThanOrEqual(64);
  });
});
