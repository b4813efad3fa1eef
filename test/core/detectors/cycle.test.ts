import { describe, expect, it } from 'vitest';
import { createCycleDetector } from '../../../src/core/detectors/cycle.js';
import type { CallContext, ObservedOutcome } from '../../../src/core/detectors/types.js';
import { countingShapes } from './counting-shapes.js';
import { callOf, failed, GARBAGE, policies, propose, roundTrip, succeeded, verdicts } from './support.js';

type Step = readonly [CallContext, ObservedOutcome];

function reading(path: string, content: string, policy = policies()): Step {
  return [callOf('read_file', { path }, { policy }), succeeded(content)];
}

const readConfig = reading('config.yaml', 'port: 8080');
const readReadme = reading('README.md', '# Service\nRun with npm start.');
const listSrc: Step = [callOf('list_directory', { path: 'src' }), succeeded('index.ts\nserver.ts')];

describe('cycle', () => {
  it('blocks the call that would start a two-call sequence for the third time', () => {
    const detector = createCycleDetector();
    expect(verdicts(detector, [readConfig, readReadme, readConfig, readReadme, readConfig])).toEqual([
      'allow',
      'allow',
      'allow',
      'allow',
      'block',
    ]);
  });

  it('blocks a three-call sequence on its third round, not before', () => {
    const detector = createCycleDetector();
    const steps = [readConfig, readReadme, listSrc, readConfig, readReadme, listSrc, readConfig];
    expect(verdicts(detector, steps)).toEqual([
      'allow',
      'allow',
      'allow',
      'allow',
      'allow',
      'allow',
      'block',
    ]);
  });

  it('does not trip on a period that repeats a call inside itself, which varied work can line up into', () => {
    const detector = createCycleDetector();
    const steps = [listSrc, readConfig, listSrc, listSrc, readConfig, listSrc, listSrc];
    expect(verdicts(detector, steps)).not.toContain('block');
  });

  it('describes the sequence and how often it ran', () => {
    const detector = createCycleDetector();
    verdicts(detector, [readConfig, readReadme, readConfig, readReadme]);
    const violation = detector.check(readConfig[0]);
    expect(violation?.rule).toBe('cycle');
    expect(violation?.reason).toContain('read_file {path: "config.yaml"} → read_file {path: "README.md"}');
    expect(violation?.reason).toContain('twice');
    expect(violation?.evidence).toMatchObject({ count: 2, period: 2 });
  });

  it('lets through a call that does not start the sequence again', () => {
    const detector = createCycleDetector();
    verdicts(detector, [readConfig, readReadme, readConfig, readReadme]);
    expect(detector.check(readReadme[0])).toBeUndefined();
    expect(detector.check(listSrc[0])).toBeUndefined();
  });

  it('never trips on a productive read, edit and test cycle whose results change', () => {
    const detector = createCycleDetector();
    const test = callOf('bash', { command: 'npm test' }, { kind: 'exec' });
    const read = callOf('read_file', { path: 'src/sum.ts' });
    const edit = (from: string, to: string) =>
      callOf('edit_file', { path: 'src/sum.ts', old_string: from, new_string: to }, { kind: 'mutate' });
    const edited = succeeded('edited src/sum.ts', { changedWorld: true });
    const steps: Step[] = [
      [test, failed('test_failure', 'agent_failure', 'FAIL src/sum.test.ts: expected 4, got 5\nexit code 1')],
      [read, succeeded('export const sum = (a, b) => a + b + 1;')],
      [edit('a + b + 1', 'a + b - 1'), edited],
      [test, failed('test_failure', 'agent_failure', 'FAIL src/sum.test.ts: expected 4, got 3\nexit code 1')],
      [read, succeeded('export const sum = (a, b) => a + b - 1;')],
      [edit('a + b - 1', 'a + b'), edited],
      [test, succeeded('PASS src/sum.test.ts\n1 passed')],
      [read, succeeded('export const sum = (a, b) => a + b;')],
    ];
    expect(verdicts(detector, steps)).not.toContain('block');
  });

  it('does not count sequences whose results change', () => {
    const detector = createCycleDetector();
    const steps = [readConfig, readReadme, reading('config.yaml', 'port: 9090'), readReadme, readConfig];
    expect(verdicts(detector, steps)).not.toContain('block');
  });

  it('leaves a single repeated call to the identical-result detector', () => {
    const detector = createCycleDetector();
    expect(
      verdicts(
        detector,
        Array.from({ length: 8 }, () => readConfig),
      ),
    ).not.toContain('block');
  });

  it('does not see polls, which neither form nor interrupt a cycle', () => {
    const detector = createCycleDetector();
    const poll = (id: string): Step => [
      callOf('build_status', { build_id: id }, { kind: 'poll' }),
      succeeded('{"state": "running"}'),
    ];
    expect(
      verdicts(detector, [poll('b-1'), poll('b-2'), poll('b-1'), poll('b-2'), poll('b-1')]),
    ).not.toContain('block');
    const fresh = createCycleDetector();
    const steps = [
      readConfig,
      poll('b-1'),
      readReadme,
      poll('b-1'),
      readConfig,
      poll('b-1'),
      readReadme,
      readConfig,
    ];
    expect(verdicts(fresh, steps).at(-1)).toBe('block');
  });

  it('neither counts nor breaks a sequence on a harness fault in the middle of it', () => {
    const detector = createCycleDetector();
    const timeout: Step = [readConfig[0], failed('timeout', 'harness_fault', 'read timed out after 30s')];
    expect(verdicts(detector, [readConfig, readReadme, timeout, readConfig, readReadme, readConfig])).toEqual(
      ['allow', 'allow', 'allow', 'allow', 'allow', 'block'],
    );
  });

  it('starts over after a context compaction', () => {
    const detector = createCycleDetector();
    verdicts(detector, [readConfig, readReadme, readConfig, readReadme]);
    detector.compacted?.();
    expect(detector.check(readConfig[0])).toBeUndefined();
  });

  it('starts over on a new user message', () => {
    const detector = createCycleDetector();
    verdicts(detector, [readConfig, readReadme, readConfig, readReadme]);
    detector.reset('user');
    expect(detector.check(readConfig[0])).toBeUndefined();
  });

  it('applies the number of repetitions overridden for the tool by exact name', () => {
    const detector = createCycleDetector();
    const policy = policies({ tools: { read_file: { detectors: { cycle: { repetitions: 4 } } } } });
    const config = reading('config.yaml', 'port: 8080', policy);
    const readme = reading('README.md', '# Service', policy);
    const steps = [config, readme, config, readme, config, readme, config];
    expect(verdicts(detector, steps)).toEqual([
      'allow',
      'allow',
      'allow',
      'allow',
      'allow',
      'allow',
      'block',
    ]);
  });

  it('applies the longest period overridden for the tool by glob', () => {
    const detector = createCycleDetector();
    const policy = policies({ tools: { 'read_*': { detectors: { cycle: { maxPeriod: 2 } } } } });
    const config = reading('config.yaml', 'port: 8080', policy);
    const readme = reading('README.md', '# Service', policy);
    expect(verdicts(detector, [config, readme, listSrc, config, readme, listSrc, config])).not.toContain(
      'block',
    );
  });

  it('never fires for an exempt tool', () => {
    const detector = createCycleDetector();
    const policy = policies({ tools: { read_file: { exempt: true } } });
    const config = reading('config.yaml', 'port: 8080', policy);
    const readme = reading('README.md', '# Service', policy);
    expect(verdicts(detector, [config, readme, config, readme, config, readme, config])).not.toContain(
      'block',
    );
  });

  it('keeps its history through a snapshot and restore', () => {
    const first = createCycleDetector();
    verdicts(first, [readConfig, readReadme, readConfig, readReadme]);
    const second = createCycleDetector();
    roundTrip(first, second);
    const violation = second.check(readConfig[0]);
    expect(violation?.severity).toBe('block');
    expect(violation?.reason).toContain('read_file {path: "config.yaml"} → read_file {path: "README.md"}');
  });

  it('shapes a failure only when a round compares it, and still saves its answer', () => {
    const shaped: string[] = [];
    const plain = failed(
      'test_failure',
      'agent_failure',
      'FAIL src/sum.test.ts: expected 4, got 5\nexit code 1',
    );
    const failing = () => countingShapes(plain, shaped);
    const test = callOf('bash', { command: 'npm test' }, { kind: 'exec' });
    const detector = createCycleDetector();
    verdicts(detector, [[test, failing()], readConfig, [test, failing()], readConfig]);
    expect(shaped).toEqual([]);
    expect(detector.check(test)?.severity).toBe('block');
    expect(shaped).toHaveLength(2);
    const saved = detector.snapshot() as { history: { outcome: string }[] };
    expect(saved.history[0]?.outcome).toMatch(/^error \S+$/);
    expect(shaped).toHaveLength(2);
  });

  it('tells results apart after a snapshot and restore', () => {
    const first = createCycleDetector();
    verdicts(first, [readConfig, readReadme, readConfig, reading('README.md', '# Service, edited')]);
    const second = createCycleDetector();
    roundTrip(first, second);
    expect(second.check(readConfig[0])).toBeUndefined();
  });

  it('ignores a snapshot it cannot read and starts empty', () => {
    for (const garbage of GARBAGE) {
      const detector = createCycleDetector();
      verdicts(detector, [readConfig, readReadme, readConfig, readReadme]);
      detector.restore(garbage);
      expect(detector.check(readConfig[0])).toBeUndefined();
    }
  });

  it('keeps a bounded history however many calls it sees', () => {
    const detector = createCycleDetector();
    for (let index = 0; index < 100_000; index++) {
      propose(detector, callOf('read_file', { path: `src/file-${index}.ts` }), succeeded(`content ${index}`));
    }
    const snapshot = detector.snapshot() as { history: unknown[] };
    expect(snapshot.history.length).toBeLessThanOrEqual(64);
  });
});

describe('rounds that wait', () => {
  /** A wait in a call of its own, as an agent lets time pass before it checks again. */
  const wait: Step = [
    (() => {
      const call = callOf('bash', { command: 'sleep 20' }, { kind: 'exec' });
      return { ...call, facts: { ...call.facts, waitSeconds: 20 } };
    })(),
    succeeded(''),
  ];
  const ready: Step = [
    callOf('bash', { command: 'curl -s localhost:8080/ready' }, { kind: 'exec' }),
    succeeded('{"ready":false}'),
  ];
  const metrics: Step = [
    callOf('bash', { command: 'curl -s localhost:8080/metrics' }, { kind: 'exec' }),
    succeeded('requests_total 0'),
  ];

  it('leaves a wait then a check, round after round, alone: what it asks about had time to change', () => {
    const detector = createCycleDetector();
    expect(verdicts(detector, [wait, ready, wait, ready, wait, ready, wait, ready])).not.toContain('block');
  });

  it('still blocks the same checks going round with no wait between them', () => {
    const detector = createCycleDetector();
    expect(verdicts(detector, [ready, metrics, ready, metrics, ready])).toContain('block');
  });

  it('keeps which steps waited through a snapshot, so a restart does not turn a paced poll into a cycle', () => {
    const detector = createCycleDetector();
    verdicts(detector, [wait, ready, metrics, wait, ready, metrics]);
    const restored = createCycleDetector();
    roundTrip(detector, restored);
    expect(verdicts(restored, [wait, ready, metrics])).not.toContain('block');
  });
});
