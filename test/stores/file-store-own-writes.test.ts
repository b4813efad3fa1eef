import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileStore, type StoreProblem } from '../../src/stores/index.js';
import { missingFile, stateOf, temporaryDir } from './sample-state.js';

const NOW = Date.now();
const at = (offset: number) => NOW - 60_000 + offset;

let remove: () => void;
let path: string;
let problems: StoreProblem[];

beforeEach(() => {
  let dir: string;
  ({ dir, remove } = temporaryDir());
  path = join(dir, 'state.json');
  problems = [];
});
afterEach(() => remove());

function open() {
  return createFileStore({ path, debounceMs: 60_000, onProblem: (problem) => problems.push(problem) });
}

/** What changes when a process writes the file again, even with the same text. */
function stamp(): string {
  const stat = statSync(path, { bigint: true });
  return `${stat.ino}:${stat.mtimeNs}`;
}

describe('file store and its own writes', () => {
  it('writes nothing when a save adds nothing to what it last wrote, however later the save', async () => {
    const store = open();
    const learned = [missingFile('src/config.ts', at(1_000))];
    store.save(stateOf(learned, [], at(1_000)));
    await store.flush();
    const written = stamp();
    store.save(stateOf(learned, [], at(9_000)));
    expect(await store.flush()).toBeUndefined();
    expect(stamp()).toBe(written);
    await store.close();
    expect(stamp()).toBe(written);
  });

  it('writes a save that adds a constraint on top of what it wrote', async () => {
    const store = open();
    const first = missingFile('src/config.ts', at(1_000));
    store.save(stateOf([first]));
    await store.flush();
    store.save(stateOf([first, missingFile('src/db/pool.ts', at(2_000))]));
    const merged = await store.flush();
    expect(merged?.constraints.map((constraint) => constraint.id)).toEqual([
      'target-missing:src/config.ts',
      'target-missing:src/db/pool.ts',
    ]);
    expect(JSON.parse(readFileSync(path, 'utf8')).constraints).toHaveLength(2);
    await store.close();
  });

  it('tells another process writing the file from its own writes', async () => {
    const mine = open();
    mine.load();
    mine.save(stateOf([missingFile('src/config.ts', at(1_000))]));
    await mine.flush();
    expect(mine.changedElsewhere()).toBe(false);
    const other = open();
    other.load();
    other.save(stateOf([], [{ id: 'target-missing:src/config.ts', at: at(1_500) }]));
    await other.close();
    expect(mine.changedElsewhere()).toBe(true);
    // The next flush reads the other's write and adopts it: the lifted constraint stays lifted.
    mine.save(stateOf([missingFile('src/config.ts', at(1_000))]));
    const merged = await mine.flush();
    expect(merged?.constraints).toEqual([]);
    expect(mine.changedElsewhere()).toBe(false);
    await mine.close();
    expect(JSON.parse(readFileSync(path, 'utf8')).constraints).toEqual([]);
  });

  it('counts a file removed by another process as changed', async () => {
    const mine = open();
    mine.save(stateOf([missingFile('src/config.ts', at(1_000))]));
    await mine.flush();
    const { rmSync } = await import('node:fs');
    rmSync(path);
    expect(mine.changedElsewhere()).toBe(true);
    await mine.close();
    expect(problems).toEqual([]);
  });
});
