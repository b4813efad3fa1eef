import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseExpectation, unmetExpectations } from '../../src/replay/expectations.js';
import { replayTrace } from '../../src/replay/replay.js';
import { parseTrace } from '../../src/trace/index.js';

const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const ownFixtures = join(repoRoot, 'test', 'fixtures', 'traces');
const sharedTraces = resolve(repoRoot, '..', 'shared', 'traces');

function traceFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .sort();
}

function replayAgainstExpectation(path: string): string[] {
  const events = parseTrace(readFileSync(path, 'utf8'), path);
  const meta = events[0]?.type === 'meta' ? events[0] : undefined;
  if (meta?.expect === undefined) throw new Error(`${path} has no meta.expect`);
  const expectation = parseExpectation(meta.expect);
  return unmetExpectations(expectation, replayTrace(events).steps);
}

describe('fixture traces under the default policy', () => {
  const files = traceFiles(ownFixtures);

  it('include at least 15 loops and 15 legitimate repetitions', () => {
    expect(files.filter((name) => name.startsWith('loop-')).length).toBeGreaterThanOrEqual(15);
    expect(files.filter((name) => name.startsWith('legit-')).length).toBeGreaterThanOrEqual(15);
  });

  it.each(files)('%s meets its expectation', (name) => {
    expect(replayAgainstExpectation(join(ownFixtures, name))).toEqual([]);
  });
});

const sharedExists = existsSync(sharedTraces);
if (!sharedExists) {
  console.warn(`note: no example traces at ${sharedTraces}; skipping the shared trace replays`);
}

describe.runIf(process.env.CI === 'true')('on CI', () => {
  it('finds the example traces beside the repository instead of skipping them', () => {
    expect(sharedExists, `no example traces at ${sharedTraces}`).toBe(true);
  });
});

describe.skipIf(!sharedExists)('example traces beside the repository', () => {
  const files = sharedExists ? traceFiles(sharedTraces) : [];

  it.each(files)('%s meets its expectation', (name) => {
    expect(replayAgainstExpectation(join(sharedTraces, name))).toEqual([]);
  });
});
