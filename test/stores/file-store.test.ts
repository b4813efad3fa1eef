import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileStore, STATE_VERSION, type StoreProblem } from '../../src/stores/index.js';
import { missingFile, stateOf, temporaryDir } from './sample-state.js';

/** Times near the present: lifted marks older than a month are forgotten on write. */
const NOW = Date.now();
const at = (offset: number) => NOW - 60_000 + offset;

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

function open(debounceMs = 20) {
  return createFileStore({ path, debounceMs, onProblem: (problem) => problems.push(problem) });
}

function onDisk() {
  return JSON.parse(readFileSync(path, 'utf8'));
}

describe('file store', () => {
  it('loads nothing from a missing file and reports no problem', async () => {
    const store = open();
    expect(store.load()).toBeUndefined();
    await store.close();
    expect(problems).toEqual([]);
  });

  it('returns from save before anything is written', async () => {
    const store = open();
    store.save(stateOf([missingFile('src/config.ts', at(1_000))]));
    expect(existsSync(path)).toBe(false);
    await store.close();
  });

  it('writes a debounced save on its own', async () => {
    const store = open(10);
    store.save(stateOf([missingFile('src/config.ts', at(1_000))]));
    await expect.poll(() => existsSync(path)).toBe(true);
    expect(onDisk().constraints.map((constraint: { id: string }) => constraint.id)).toEqual([
      'target-missing:src/config.ts',
    ]);
    await store.close();
  });

  it('writes at once on flush and resolves to the merged state', async () => {
    const store = open(60_000);
    const state = stateOf([missingFile('src/config.ts', at(1_000))]);
    store.save(state);
    const merged = await store.flush();
    expect(merged).toEqual(state);
    // On disk in this build's state format, the rest as it was saved.
    expect(onDisk()).toEqual({ ...state, version: STATE_VERSION });
    await store.close();
  });

  it('writes what is pending when closed', async () => {
    const store = open(60_000);
    store.save(stateOf([missingFile('src/config.ts', at(1_000))]));
    await store.close();
    expect(onDisk().constraints).toHaveLength(1);
  });

  it('loads what an earlier store wrote', async () => {
    const first = open();
    first.save(stateOf([missingFile('src/config.ts', at(1_000))]));
    await first.close();
    const second = open();
    expect(second.load()?.constraints.map((constraint) => constraint.id)).toEqual([
      'target-missing:src/config.ts',
    ]);
    await second.close();
  });

  it('merges with what another store wrote instead of overwriting it', async () => {
    const first = open();
    const second = open();
    first.save(stateOf([missingFile('src/config.ts', at(1_000))]));
    await first.flush();
    second.save(stateOf([missingFile('src/db/pool.ts', at(1_100))]));
    const merged = await second.flush();
    expect(merged?.constraints.map((constraint) => constraint.id)).toEqual([
      'target-missing:src/config.ts',
      'target-missing:src/db/pool.ts',
    ]);
    expect(onDisk().constraints).toHaveLength(2);
    await Promise.all([first.close(), second.close()]);
  });

  it('does not let a store holding a stale copy revive a lifted constraint', async () => {
    const stale = open();
    const lifter = open();
    const learned = stateOf([missingFile('src/config.ts', at(1_000))]);
    stale.save(learned);
    await stale.flush();
    lifter.save(stateOf([], [{ id: 'target-missing:src/config.ts', at: at(1_500) }]));
    await lifter.flush();
    stale.save(learned);
    await stale.flush();
    expect(onDisk().constraints).toEqual([]);
    expect(onDisk().lifted).toEqual([{ id: 'target-missing:src/config.ts', at: at(1_500) }]);
    await Promise.all([stale.close(), lifter.close()]);
  });

  it('keeps a ban that never expires across a write and a load', async () => {
    const store = open();
    const forever = missingFile('src/config.ts', at(1_000), { expiresAt: Number.POSITIVE_INFINITY });
    store.save(stateOf([forever]));
    await store.close();
    expect(open().load()?.constraints[0]?.expiresAt).toBe(Number.POSITIVE_INFINITY);
  });

  it('replaces the file whole, so a reader never sees a partly written state', async () => {
    const store = open(60_000);
    const seen: string[] = [];
    let reading = true;
    const reader = (async () => {
      while (reading) {
        if (existsSync(path)) seen.push(readFileSync(path, 'utf8'));
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    for (let index = 0; index < 15; index++) {
      store.save(stateOf([missingFile(`src/generated/file-${index}.ts`, at(1_000 + index))]));
      await store.flush();
    }
    reading = false;
    await reader;
    await store.close();
    expect(seen.length).toBeGreaterThan(0);
    for (const text of seen) expect(() => JSON.parse(text)).not.toThrow();
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('refuses saves after it was closed', async () => {
    const store = open();
    await store.close();
    expect(() => store.save(stateOf([]))).toThrow(/closed/);
  });
});

describe('file store with a damaged state file', () => {
  const valid = `${JSON.stringify(stateOf([missingFile('src/config.ts', at(1_000))]), null, 2)}\n`;
  const damaged: [string, string, RegExp][] = [
    ['bad JSON', '{"version": 1, "constraints": [', /not valid JSON/],
    ['a truncated file', valid.slice(0, Math.floor(valid.length / 2)), /not valid JSON/],
    ['an empty file', '', /empty/],
    [
      'a file whose constraints are not a list',
      JSON.stringify({ version: 1, savedAt: 0, constraints: { id: 'x' }, lifted: [] }),
      /does not match the state schema/,
    ],
    ['a file without version', JSON.stringify({ savedAt: 0, constraints: [] }), /no version/],
  ];

  for (const [what, text, reason] of damaged) {
    it(`moves ${what} aside, reports it and loads nothing`, async () => {
      writeFileSync(path, text);
      const store = open();
      expect(store.load()).toBeUndefined();
      expect(problems).toHaveLength(1);
      const problem = problems[0] as Extract<StoreProblem, { kind: 'quarantined' }>;
      expect(problem).toMatchObject({ kind: 'quarantined', path });
      expect(problem.reason).toMatch(reason);
      expect(problem.movedTo).toMatch(/state\.json\.corrupt-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z/);
      expect(readFileSync(problem.movedTo, 'utf8')).toBe(text);
      expect(existsSync(path)).toBe(false);
      await store.close();
    });
  }

  it('moves a damaged file aside when it finds one while writing, and writes the new state', async () => {
    const store = open();
    writeFileSync(path, '{"version": 1, "constr');
    store.save(stateOf([missingFile('src/db/pool.ts', at(1_000))]));
    await store.flush();
    expect(problems.map((problem) => problem.kind)).toEqual(['quarantined']);
    expect(onDisk().constraints).toHaveLength(1);
    await store.close();
  });

  it('leaves a path it cannot read alone and says so', async () => {
    mkdirSync(path);
    const store = open();
    expect(store.load()).toBeUndefined();
    expect(problems.map((problem) => problem.kind)).toEqual(['unreadable']);
    store.save(stateOf([missingFile('src/config.ts', at(1_000))]));
    await expect(store.flush()).rejects.toThrow(/cannot be read/);
    expect(readdirSync(path)).toEqual([]);
    expect(readdirSync(dir).filter((name) => name.includes('corrupt'))).toEqual([]);
    rmdirSync(path);
    await store.close();
  });
});
