/**
 * A save whose lock another process takes over between the save's read of the file and its write,
 * and writes the file in that moment: what happens when a holder stands still past the lock's stale
 * time on a loaded machine. The read of the file is where the store stands still here.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StoreProblem } from '../../src/stores/index.js';
import { layOutState } from '../../src/stores/state-layout.js';
import { missingFile, stateOf, temporaryDir } from './sample-state.js';

const afterRead = vi.hoisted(() => ({ run: undefined as (() => void) | undefined }));

/**
 * The worker processes share the modules their files import: the store is loaded anew here, over the
 * mocked read, and the module registry given back afterwards.
 */
let stores: typeof import('../../src/stores/index.js');
beforeAll(async () => {
  const real = await import('../../src/node/safe-fs.js');
  vi.resetModules();
  vi.doMock('../../src/node/safe-fs.js', () => ({
    ...real,
    readTextNoFollow: async (path: string) => {
      const text = await real.readTextNoFollow(path);
      const run = afterRead.run;
      afterRead.run = undefined;
      run?.();
      return text;
    },
  }));
  stores = await import('../../src/stores/index.js');
});
afterAll(() => {
  vi.doUnmock('../../src/node/safe-fs.js');
  vi.resetModules();
});

const NOW = Date.now();
let dir: string;
let remove: () => void;
let path: string;
let problems: StoreProblem[];
beforeEach(() => {
  ({ dir, remove } = temporaryDir());
  path = join(dir, 'state.json');
  problems = [];
});
afterEach(() => remove());

const open = () =>
  stores.createFileStore({ path, debounceMs: 5, onProblem: (problem) => problems.push(problem) });
const bans = () =>
  (JSON.parse(readFileSync(path, 'utf8')) as { constraints: { id: string }[] }).constraints
    .map(({ id }) => id)
    .sort();

/** Another process takes the lock over, writes its ban, and gives the lock back a moment later. */
function anotherProcessWrites(): void {
  rmSync(`${path}.lock`, { recursive: true, force: true });
  mkdirSync(`${path}.lock`);
  writeFileSync(
    join(`${path}.lock`, 'owner'),
    JSON.stringify({ pid: process.ppid, host: hostname(), token: 'another-holder' }),
  );
  const first = JSON.parse(readFileSync(path, 'utf8'));
  const theirs = stateOf([...first.constraints, missingFile('src/theirs.ts', NOW - 1_000)]);
  writeFileSync(path, layOutState(theirs).text);
  setTimeout(() => rmSync(`${path}.lock`, { recursive: true, force: true }), 200);
}

describe('a save whose lock was taken over while it held it', () => {
  async function saveOverAnothersWrite(): Promise<void> {
    const first = open();
    first.save(stateOf([missingFile('src/first.ts', NOW - 3_000)]));
    await first.close();
    const store = open();
    afterRead.run = anotherProcessWrites;
    store.save(stateOf([missingFile('src/mine.ts', NOW - 2_000)]));
    await store.close();
  }

  it('writes nothing over the other process’s ban', async () => {
    await saveOverAnothersWrite();
    expect(bans()).toEqual([
      'target-missing:src/first.ts',
      'target-missing:src/mine.ts',
      'target-missing:src/theirs.ts',
    ]);
  });

  it('says so', async () => {
    await saveOverAnothersWrite();
    expect(problems.map((problem) => problem.kind)).toEqual(['lock-lost']);
  });
});
