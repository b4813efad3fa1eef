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

function status(policy = policies(), buildId = 'b-1842', now = 0) {
  return callOf('build_status', { build_id: buildId }, { kind: 'poll', policy, now });
}

/** A status check at `seconds` on the engine's clock. */
function statusAt(seconds: number) {
  return status(policies(), 'b-1842', seconds * 1000);
}

function sleep(seconds: number) {
  const call = callOf('Bash', { command: `sleep ${seconds}` }, { kind: 'exec' });
  return { ...call, facts: { ...call.facts, waitSeconds: seconds } };
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

  it('warns on the third check of an unchanged status in quick succession and blocks the sixth', () => {
    const detector = createPollDetector();
    const seen = verdicts(detector, repeat(6, [status(), running] as const));
    expect(seen).toEqual(['allow', 'allow', 'warn', 'warn', 'warn', 'block']);
  });

  it('lets one probe through after 1, 2, 4 and 8 refusals once blocked', () => {
    const detector = createPollDetector();
    const seen = verdicts(detector, repeat(25, [status(), running] as const));
    const probes = seen.flatMap((verdict, index) => (index >= 5 && verdict !== 'block' ? [index] : []));
    expect(probes).toEqual([6, 9, 14, 23]);
  });

  it('lets the probe see the status that finally changed, and starts over from it', () => {
    const detector = createPollDetector();
    verdicts(detector, repeat(6, [status(), running] as const));
    expect(propose(detector, status(), succeeded('{"state": "done"}'))?.severity).not.toBe('block');
    expect(detector.check(status())).toBeUndefined();
  });

  it('lets a check through after a pause much longer than the gaps before it', () => {
    const detector = createPollDetector();
    verdicts(
      detector,
      [0, 1, 2, 3, 4].map((second) => [statusAt(second), running] as const),
    );
    expect(detector.check(statusAt(5))?.severity).toBe('block');
    expect(detector.check(statusAt(5.2))?.severity).toBe('block');
    expect(detector.check(statusAt(20))).toBeUndefined();
  });

  it('never blocks polls whose gaps grow (a backoff schedule)', () => {
    const detector = createPollDetector();
    const times = [0, 2, 5, 10, 18, 30, 48, 75, 116];
    const seen = verdicts(
      detector,
      times.map((second) => [statusAt(second), running] as const),
    );
    expect(seen).not.toContain('block');
  });

  it('blocks the sixth unchanged answer of checks whose gaps wobble rather than grow', () => {
    const detector = createPollDetector();
    // Gaps of 9.5 s, 7.8 s, 6.1 s, 10.1 s and 6.4 s: the fourth is wider than the one before it, not
    // than every one before it.
    const times = [0, 9.5, 17.3, 23.4, 33.5, 39.9];
    const seen = verdicts(
      detector,
      times.map((second) => [statusAt(second), running] as const),
    );
    expect(seen.at(-1)).toBe('block');
  });

  it('never blocks polls a minute or more apart', () => {
    const detector = createPollDetector();
    const seen = verdicts(
      detector,
      repeat(20, 0).map((_, index) => [statusAt(index * 60), running] as const),
    );
    expect(seen).toEqual(repeat(20, 'allow'));
  });

  it('never blocks polls with a sleep between them, even without timestamps', () => {
    const detector = createPollDetector();
    const seen: string[] = [];
    for (let index = 0; index < 12; index++) {
      seen.push(propose(detector, status(), running)?.severity ?? 'allow');
      propose(detector, sleep(20), succeeded(''));
    }
    expect(seen).toEqual(repeat(12, 'allow'));
  });

  it('never blocks a poll that waits inside its own command', () => {
    const detector = createPollDetector();
    const call = status();
    const waiting = { ...call, facts: { ...call.facts, waitSeconds: 30 } };
    expect(verdicts(detector, repeat(12, [waiting, running] as const))).toEqual(repeat(12, 'allow'));
  });

  it('blocks the sixth unchanged answer of a poll that waits the same few seconds inside each check', () => {
    const detector = createPollDetector();
    const call = status();
    const waiting = { ...call, facts: { ...call.facts, waitSeconds: 10 } };
    const seen = verdicts(detector, repeat(6, [waiting, running] as const));
    expect(seen).toEqual(['allow', 'allow', 'warn', 'warn', 'warn', 'block']);
  });

  it('never blocks a poll whose wait inside each check grows', () => {
    const detector = createPollDetector();
    const seen = [2, 4, 8, 16, 32, 64, 128].map((seconds) => {
      const call = status();
      return propose(detector, { ...call, facts: { ...call.facts, waitSeconds: seconds } }, running);
    });
    expect(seen.map((violation) => violation?.severity ?? 'allow')).toEqual(repeat(7, 'allow'));
  });

  it('counts the clock from one check to the next once, however long each waited inside itself', () => {
    // A recorded run stamps each call when it started: 15 s apart, each waiting 10 s of them.
    const detector = createPollDetector();
    const seen = [0, 15, 30, 45, 60, 75].map((second) => {
      const call = statusAt(second);
      return propose(detector, { ...call, facts: { ...call.facts, waitSeconds: 10 } }, running);
    });
    expect(seen.map((violation) => violation?.severity ?? 'allow').at(-1)).toBe('block');
  });

  it('says how long the status has not changed and what it is', () => {
    const detector = createPollDetector();
    verdicts(detector, repeat(4, [status(), running] as const));
    const violation = detector.check(status());
    expect(violation?.rule).toBe('poll');
    expect(violation?.reason).toContain(
      'build_status {build_id: "b-1842"} has returned the same status 4 times in a row in quick succession',
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

  it('counts checks that differ only in words about the call under the key the adapter gives their answers', () => {
    const detector = createPollDetector();
    const reworded = (description: string) => {
      const call = callOf('BashOutput', { bash_id: 'b7e2', description }, { kind: 'poll' });
      return { ...call, facts: { ...call.facts, answerKey: 'BashOutput#b7e2' } };
    };
    const steps = [
      'Check the build',
      'Is it done yet',
      'Look at the output',
      'Build status',
      'Again',
      'Once more',
    ].map((description) => [reworded(description), running] as const);
    expect(verdicts(detector, steps)).toEqual(['allow', 'allow', 'warn', 'warn', 'warn', 'block']);
  });

  it('has nothing to say about tools that are not polls', () => {
    const detector = createPollDetector();
    const read = callOf('read_file', { path: 'build.log' });
    expect(verdicts(detector, repeat(25, [read, running] as const))).toEqual(repeat(25, 'allow'));
  });

  it('neither counts nor resets on a harness fault in the middle of a run of checks', () => {
    const detector = createPollDetector();
    const timeout = failed('timeout', 'harness_fault', 'GET /builds/b-1842 timed out after 30s');
    verdicts(detector, repeat(1, [status(), running] as const));
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
    verdicts(first, repeat(5, [status(), running] as const));
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
