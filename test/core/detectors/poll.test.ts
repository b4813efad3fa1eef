import { describe, expect, it } from 'vitest';
import { createPollDetector } from '../../../src/core/detectors/poll.js';
import {
  callOf,
  failed,
  GARBAGE,
  policies,
  propose,
  repeat,
  roundTrip,
  succeeded,
  verdicts,
} from './support.js';

function status(policy = policies(), buildId = 'b-1842') {
  return callOf('build_status', { build_id: buildId }, { kind: 'poll', policy });
}

const running = succeeded('{"state": "running", "progress": 40}');

describe('poll', () => {
  it('never fires while the status keeps changing', () => {
    const detector = createPollDetector();
    const steps = Array.from(
      { length: 25 },
      (_, index) => [status(), succeeded(`{"state": "running", "progress": ${index * 4}}`)] as const,
    );
    expect(verdicts(detector, steps)).toEqual(repeat(25, 'allow'));
  });

  it('warns on the fifth check of an unchanged status and blocks the twentieth', () => {
    const detector = createPollDetector();
    const seen = verdicts(detector, repeat(20, [status(), running] as const));
    expect(seen.indexOf('warn')).toBe(4);
    expect(seen.indexOf('block')).toBe(19);
    expect(seen.slice(4, 19)).toEqual(repeat(15, 'warn'));
  });

  it('says how long the status has not changed and what it is', () => {
    const detector = createPollDetector();
    verdicts(detector, repeat(4, [status(), running] as const));
    const violation = detector.check(status());
    expect(violation?.rule).toBe('poll');
    expect(violation?.reason).toContain(
      'build_status {build_id: "b-1842"} has returned the same status 4 times',
    );
    expect(violation?.evidence).toMatchObject({
      count: 4,
      lastResult: '{"state": "running", "progress": 40}',
    });
  });

  it('starts over when the status changes', () => {
    const detector = createPollDetector();
    verdicts(detector, repeat(6, [status(), running] as const));
    propose(detector, status(), succeeded('{"state": "running", "progress": 44}'));
    expect(detector.check(status())).toBeUndefined();
  });

  it('starts over when a check fails', () => {
    const detector = createPollDetector();
    verdicts(detector, repeat(6, [status(), running] as const));
    propose(detector, status(), failed('not_found', 'agent_failure', 'build b-1842 not found'));
    expect(detector.check(status())).toBeUndefined();
  });

  it('counts each polled resource separately', () => {
    const detector = createPollDetector();
    verdicts(detector, repeat(6, [status(), running] as const));
    expect(detector.check(status(policies(), 'b-1843'))).toBeUndefined();
  });

  it('has nothing to say about tools that are not polls', () => {
    const detector = createPollDetector();
    const read = callOf('read_file', { path: 'build.log' });
    expect(verdicts(detector, repeat(25, [read, running] as const))).toEqual(repeat(25, 'allow'));
  });

  it('neither counts nor resets on a harness fault in the middle of a run of checks', () => {
    const detector = createPollDetector();
    const timeout = failed('timeout', 'harness_fault', 'GET /builds/b-1842 timed out after 30s');
    verdicts(detector, repeat(3, [status(), running] as const));
    propose(detector, status(), timeout);
    expect(verdicts(detector, repeat(2, [status(), running] as const))).toEqual(['allow', 'warn']);
  });

  it('starts over on a new user message', () => {
    const detector = createPollDetector();
    verdicts(detector, repeat(6, [status(), running] as const));
    detector.reset('user');
    expect(detector.check(status())).toBeUndefined();
  });

  it('applies thresholds overridden for the tool by exact name', () => {
    const detector = createPollDetector();
    const policy = policies({ tools: { build_status: { detectors: { poll: { warnAt: 2, blockAt: 3 } } } } });
    expect(verdicts(detector, repeat(3, [status(policy), running] as const))).toEqual([
      'allow',
      'warn',
      'block',
    ]);
  });

  it('applies thresholds overridden for the tool by glob', () => {
    const detector = createPollDetector();
    const policy = policies({ tools: { '*_status': { detectors: { poll: { warnAt: 10, blockAt: 40 } } } } });
    const seen = verdicts(detector, repeat(40, [status(policy), running] as const));
    expect(seen.indexOf('warn')).toBe(9);
    expect(seen.indexOf('block')).toBe(39);
  });

  it('never fires for an exempt tool', () => {
    const detector = createPollDetector();
    const policy = policies({ tools: { build_status: { exempt: true } } });
    expect(verdicts(detector, repeat(25, [status(policy), running] as const))).toEqual(repeat(25, 'allow'));
  });

  it('keeps its counts through a snapshot and restore', () => {
    const first = createPollDetector();
    verdicts(first, repeat(19, [status(), running] as const));
    const second = createPollDetector();
    roundTrip(first, second);
    expect(second.check(status())?.severity).toBe('block');
  });

  it('ignores a snapshot it cannot read and starts empty', () => {
    for (const garbage of GARBAGE) {
      const detector = createPollDetector();
      verdicts(detector, repeat(6, [status(), running] as const));
      detector.restore(garbage);
      expect(detector.check(status())).toBeUndefined();
    }
  });

  it('remembers at most a thousand polled resources however many it sees', () => {
    const detector = createPollDetector();
    const policy = policies();
    for (let index = 0; index < 100_000; index++) detector.observe(status(policy, `b-${index}`), running);
    const snapshot = detector.snapshot() as { calls: unknown[] };
    expect(snapshot.calls.length).toBeLessThanOrEqual(1_000);
  });
});
