import { describe, expect, it } from 'vitest';
import { createToolHealthDetector } from '../../../src/core/detectors/tool-health.js';
import type { Detector } from '../../../src/core/detectors/types.js';
import { callOf, failed, GARBAGE, policies, propose, roundTrip, succeeded, verdictOf } from './support.js';

const SECOND = 1000;

function fetchItems(seconds: number, policy = policies()) {
  return callOf(
    'http_get',
    { url: 'https://api.example.com/v1/items' },
    { kind: 'api', now: seconds * SECOND, policy },
  );
}

const timedOut = failed('timeout', 'harness_fault', 'Request timed out after 30s');
const rateLimited = failed('rate_limited', 'harness_fault', 'HTTP 429 Too Many Requests (retry-after: 2)', {
  retryAfterSeconds: 2,
});

/** Faults at the given seconds; returns the verdicts each call got. */
function faultsAt(detector: Detector, seconds: readonly number[], policy = policies()) {
  return seconds.map((at) => verdictOf(propose(detector, fetchItems(at, policy), timedOut)));
}

describe('tool-health', () => {
  it('opens the circuit after five faults in a row and warns while it is open', () => {
    const detector = createToolHealthDetector();
    expect(faultsAt(detector, [0, 1, 2, 3, 4])).toEqual(['allow', 'allow', 'allow', 'allow', 'allow']);
    const violation = detector.check(fetchItems(5));
    expect(violation?.severity).toBe('warn');
    expect(violation?.rule).toBe('tool-health');
    expect(violation?.reason).toContain(
      'http_get has failed 5 times in a row for reasons outside your control',
    );
    expect(violation?.reason).toContain('about 119 s');
    expect(violation?.evidence).toMatchObject({ count: 5, lastError: 'Request timed out after 30s' });
  });

  it('never blocks an API that keeps timing out and rate limiting', () => {
    const detector = createToolHealthDetector();
    const seen = [0, 40, 80, 120, 160, 200, 240, 280, 320, 360].map((at, index) =>
      verdictOf(propose(detector, fetchItems(at), index % 2 === 0 ? timedOut : rateLimited)),
    );
    seen.push(verdictOf(propose(detector, fetchItems(420), succeeded('[{"id":1}]'))));
    expect(seen).not.toContain('block');
    expect(seen).not.toContain('halt');
    expect(seen).toContain('warn');
  });

  it('allows one trial call once the cool-down is over', () => {
    const detector = createToolHealthDetector();
    faultsAt(detector, [0, 1, 2, 3, 4]);
    expect(detector.check(fetchItems(123))?.severity).toBe('warn');
    expect(detector.check(fetchItems(124))).toBeUndefined();
  });

  it('doubles the cool-down when the trial call fails too', () => {
    const detector = createToolHealthDetector();
    faultsAt(detector, [0, 1, 2, 3, 4, 124]);
    expect(detector.check(fetchItems(124 + 239))?.severity).toBe('warn');
    expect(detector.check(fetchItems(124 + 240))).toBeUndefined();
  });

  it('does not let the cool-down grow beyond its maximum', () => {
    const detector = createToolHealthDetector();
    const policy = policies({ detectors: { toolHealth: { cooldownSeconds: 100, maxCooldownSeconds: 150 } } });
    faultsAt(detector, [0, 1, 2, 3, 4, 104, 254], policy);
    expect(detector.check(fetchItems(254 + 149, policy))?.severity).toBe('warn');
    expect(detector.check(fetchItems(254 + 150, policy))).toBeUndefined();
  });

  it('waits at least as long as the server asked', () => {
    const detector = createToolHealthDetector();
    faultsAt(detector, [0, 1, 2, 3]);
    const slowDown = failed(
      'rate_limited',
      'harness_fault',
      'HTTP 429 Too Many Requests (retry-after: 600)',
      {
        retryAfterSeconds: 600,
      },
    );
    propose(detector, fetchItems(4), slowDown);
    expect(detector.check(fetchItems(4 + 599))?.reason).toContain('about 1 s');
    expect(detector.check(fetchItems(4 + 600))).toBeUndefined();
  });

  it('passes on a Retry-After even before the circuit opens', () => {
    const detector = createToolHealthDetector();
    const slowDown = failed('rate_limited', 'harness_fault', 'HTTP 429 Too Many Requests (retry-after: 30)', {
      retryAfterSeconds: 30,
    });
    propose(detector, fetchItems(0), slowDown);
    expect(detector.check(fetchItems(10))?.reason).toContain('within the next 20 s');
    expect(detector.check(fetchItems(30))).toBeUndefined();
  });

  it('closes the circuit and forgets the faults when the tool works again', () => {
    const detector = createToolHealthDetector();
    faultsAt(detector, [0, 1, 2, 3, 4]);
    propose(detector, fetchItems(5), succeeded('[{"id":1}]'));
    expect(detector.check(fetchItems(6))).toBeUndefined();
    faultsAt(detector, [7, 8, 9, 10]);
    expect(detector.check(fetchItems(11))).toBeUndefined();
  });

  it('counts a failure the agent caused as a sign that the tool is reachable', () => {
    const detector = createToolHealthDetector();
    faultsAt(detector, [0, 1, 2, 3]);
    propose(detector, fetchItems(4), failed('not_found', 'agent_failure', 'HTTP 404 Not Found'));
    faultsAt(detector, [5, 6, 7, 8]);
    expect(detector.check(fetchItems(9))).toBeUndefined();
  });

  it('suggests the alternatives configured for the tool', () => {
    const detector = createToolHealthDetector();
    const policy = policies({ alternatives: { http_get: ['web_fetch', 'browser_navigate'] } });
    faultsAt(detector, [0, 1, 2, 3, 4], policy);
    expect(detector.check(fetchItems(5, policy))?.suggestion).toContain('web_fetch, browser_navigate');
  });

  it('applies thresholds overridden for the tool by exact name', () => {
    const detector = createToolHealthDetector();
    const policy = policies({ tools: { http_get: { detectors: { toolHealth: { openAfter: 2 } } } } });
    expect(faultsAt(detector, [0, 1, 2], policy)).toEqual(['allow', 'allow', 'warn']);
  });

  it('applies thresholds overridden for the tool by glob', () => {
    const detector = createToolHealthDetector();
    const policy = policies({
      tools: { 'http_*': { detectors: { toolHealth: { openAfter: 3, cooldownSeconds: 10 } } } },
    });
    expect(faultsAt(detector, [0, 1, 2, 3], policy)).toEqual(['allow', 'allow', 'allow', 'warn']);
    expect(detector.check(fetchItems(12, policy))).toBeUndefined();
  });

  it('never fires for an exempt tool', () => {
    const detector = createToolHealthDetector();
    const policy = policies({ tools: { http_get: { exempt: true } } });
    expect(faultsAt(detector, [0, 1, 2, 3, 4, 5, 6], policy)).not.toContain('warn');
  });

  it('keeps the circuit open through a new user message, since a message does not repair a server', () => {
    const detector = createToolHealthDetector();
    faultsAt(detector, [0, 1, 2, 3, 4]);
    detector.reset('user');
    expect(detector.check(fetchItems(5))?.severity).toBe('warn');
    detector.reset('session');
    expect(detector.check(fetchItems(5))).toBeUndefined();
  });

  it('keeps an open circuit through a snapshot and restore', () => {
    const first = createToolHealthDetector();
    faultsAt(first, [0, 1, 2, 3, 4]);
    const second = createToolHealthDetector();
    roundTrip(first, second);
    expect(second.check(fetchItems(5))?.severity).toBe('warn');
    expect(second.check(fetchItems(124))).toBeUndefined();
  });

  it('saves the last fault of a tool on one line, as its reason quotes it', () => {
    const detector = createToolHealthDetector();
    detector.observe(fetchItems(0), failed('timeout', 'harness_fault', 'Request timed out\n  after   30s'));
    expect(detector.snapshot()).toEqual({
      version: 1,
      tools: [
        [
          'http_get',
          { faults: 1, opens: 0, openUntil: 0, waitUntil: 0, lastError: 'Request timed out after 30s' },
        ],
      ],
    });
    const [, saved] = (detector.snapshot() as { tools: [string, object][] }).tools[0] ?? [];
    expect(Object.keys(saved ?? {})).toEqual(['faults', 'opens', 'openUntil', 'waitUntil', 'lastError']);
  });

  it('ignores a snapshot it cannot read and starts empty', () => {
    for (const garbage of GARBAGE) {
      const detector = createToolHealthDetector();
      faultsAt(detector, [0, 1, 2, 3, 4]);
      detector.restore(garbage);
      expect(detector.check(fetchItems(5))).toBeUndefined();
    }
  });

  it('remembers at most a thousand tools however many it sees', () => {
    const detector = createToolHealthDetector();
    for (let index = 0; index < 100_000; index++) {
      detector.observe(callOf(`api_${index}`, {}, { kind: 'api', now: index }), timedOut);
    }
    const snapshot = detector.snapshot() as { tools: unknown[] };
    expect(snapshot.tools.length).toBeLessThanOrEqual(1_000);
  });
});
