import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileStore, STATE_VERSION, type StoreProblem } from '../../src/stores/index.js';
import { missingFile, stateOf, temporaryDir } from './sample-state.js';

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

function open(options: { maxConstraints?: number } = {}) {
  return createFileStore({ path, debounceMs: 5, onProblem: (problem) => problems.push(problem), ...options });
}

function onDisk() {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** A pid that was just used and is now free: the process has exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid as number;
}

describe('a state file with one bad constraint', () => {
  const good = missingFile('src/config.ts', at(1_000));
  const bad = { id: 'target-missing:src/db.ts', type: 'banned_strategy', evidence: { failures: 'two' } };
  const text = `${JSON.stringify({ version: 1, savedAt: at(0), constraints: [good, bad], lifted: [] }, null, 2)}\n`;

  it('loads the valid constraints and sets only the bad one aside', async () => {
    writeFileSync(path, text);
    const store = open();
    expect(store.load()?.constraints.map((constraint) => constraint.id)).toEqual([good.id]);
    const problem = problems.find((entry) => entry.kind === 'entries-set-aside') as Extract<
      StoreProblem,
      { kind: 'entries-set-aside' }
    >;
    expect(problem).toMatchObject({ count: 1, path });
    expect(JSON.parse(readFileSync(problem.movedTo, 'utf8'))[0]).toMatchObject({
      list: 'constraints',
      value: bad,
    });
    expect(onDisk().constraints.map((constraint: { id: string }) => constraint.id)).toEqual([good.id]);
    await store.close();
  });

  it('sets the bad constraint aside once, however often the file is read', async () => {
    writeFileSync(path, text);
    const store = open();
    store.load();
    store.save(stateOf([missingFile('src/api.ts', at(2_000))]));
    await store.close();
    open().load();
    expect(readdirSync(dir).filter((name) => name.includes('rejected'))).toHaveLength(1);
    expect(onDisk().constraints).toHaveLength(2);
  });
});

describe('a state file written by a later version', () => {
  const newer = `${JSON.stringify({ version: STATE_VERSION + 1, savedAt: at(0), constraints: [], lifted: [], shards: ['a'] })}\n`;

  it('is never moved aside nor overwritten; learning goes on in memory and it says so', async () => {
    writeFileSync(path, newer);
    const store = open();
    expect(store.load()).toBeUndefined();
    store.save(stateOf([missingFile('src/config.ts', at(1_000))]));
    await store.flush();
    await store.close();
    expect(readFileSync(path, 'utf8')).toBe(newer);
    expect(readdirSync(dir).filter((name) => name.includes('corrupt'))).toEqual([]);
    expect(problems.map((problem) => problem.kind)).toEqual(['newer-version']);
    expect(store.load()?.constraints).toHaveLength(1);
  });
});

describe('the size of the state file', () => {
  it('keeps at most maxConstraints, the most recently failed', async () => {
    const store = open({ maxConstraints: 3 });
    for (let index = 0; index < 6; index++) {
      store.save(stateOf([missingFile(`src/module-${index}.ts`, at(index * 1_000))]));
      await store.flush();
    }
    await store.close();
    expect(
      onDisk()
        .constraints.map((constraint: { target: string }) => constraint.target)
        .sort(),
    ).toEqual(['src/module-3.ts', 'src/module-4.ts', 'src/module-5.ts']);
  });
});

describe('locks left behind', () => {
  it('takes over at once a lock whose holder on this machine died', async () => {
    mkdirSync(`${path}.lock`);
    writeFileSync(`${path}.lock.owner`, JSON.stringify({ pid: deadPid(), host: hostname() }));
    const store = open();
    store.save(stateOf([missingFile('src/config.ts', at(1_000))]));
    const started = performance.now();
    await store.flush();
    // At once, not after the 10 s a held lock takes to go stale (half of it leaves a loaded machine room).
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(onDisk().constraints).toHaveLength(1);
    await store.close();
  });

  it('takes over at once a lock dated in the future', async () => {
    mkdirSync(`${path}.lock`);
    const nextYear = (Date.now() + 365 * 86_400_000) / 1000;
    utimesSync(`${path}.lock`, nextYear, nextYear);
    const store = open();
    store.save(stateOf([missingFile('src/config.ts', at(1_000))]));
    const started = performance.now();
    await store.flush();
    // At once, not after the 10 s a held lock takes to go stale (half of it leaves a loaded machine room).
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(existsSync(`${path}.lock`)).toBe(false);
    await store.close();
  });

  it('leaves a live holder’s lock alone', async () => {
    mkdirSync(`${path}.lock`);
    writeFileSync(`${path}.lock.owner`, JSON.stringify({ pid: process.ppid, host: hostname() }));
    const { clearAbandonedLock } = await import('../../src/node/lock.js');
    expect(clearAbandonedLock(path)).toBe(false);
    expect(existsSync(`${path}.lock`)).toBe(true);
  });
});
