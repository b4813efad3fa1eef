import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PersistedState } from '../../src/core/types.js';
import { runScript } from './run-node.js';
import { temporaryDir } from './sample-state.js';

const WRITER = 'test/fixtures/stores/state-writer.ts';

let dir: string;
let remove: () => void;
let path: string;

beforeEach(() => {
  ({ dir, remove } = temporaryDir());
  path = join(dir, 'state.json');
});
afterEach(() => remove());

async function runAll(runs: readonly (readonly [mode: string, worker: number, count: number])[]) {
  // Node and tsx take a while to start; a shared start time makes the writes overlap.
  const startAt = String(Date.now() + 2_500);
  const exits = await Promise.all(
    runs.map(
      ([mode, worker, count]) =>
        runScript(WRITER, [path, mode, String(worker), String(count), startAt]).exited,
    ),
  );
  for (const exit of exits) expect(exit).toMatchObject({ code: 0, stderr: '' });
}

function ids(): string[] {
  const state = JSON.parse(readFileSync(path, 'utf8')) as PersistedState;
  return state.constraints.map((constraint) => constraint.id);
}

function expected(worker: number, indexes: Iterable<number>): string[] {
  return [...indexes].map((index) => `target-missing:w${worker}/file-${index}.ts`);
}

const range = (count: number) => Array.from({ length: count }, (_, index) => index);

describe('file store shared by several processes', () => {
  it('keeps every constraint that four processes saved at the same time', async () => {
    await runAll([0, 1, 2, 3].map((worker) => ['learn', worker, 40] as const));
    const all = [0, 1, 2, 3].flatMap((worker) => expected(worker, range(40)));
    expect(ids().sort()).toEqual(all.sort());
  });

  it('lets a lift by one process win over a stale copy saved by another at the same time', async () => {
    await runAll([['learn', 0, 30]]);
    await runAll([
      ['lift', 0, 30],
      ['stale', 0, 30],
      ['learn', 1, 30],
    ]);
    const stillBanned = expected(
      0,
      range(30).filter((index) => index % 2 === 1),
    );
    expect(ids().sort()).toEqual([...stillBanned, ...expected(1, range(30))].sort());
  });

  it('writes pending state when a process exits without closing its store', async () => {
    await runAll([
      ['exit', 7, 1],
      ['exit', 8, 1],
    ]);
    expect(ids().sort()).toEqual(['target-missing:w7/unsaved.ts', 'target-missing:w8/unsaved.ts']);
  });
});
