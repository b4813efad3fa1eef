/**
 * A takeover judged on what the lock was a moment before: a holder killed while it held the lock,
 * whose lock another process removed since, and the lock there now a live holder's, with the inode
 * the removed one had (a file system gives a freed inode to the next folder made) and the same time
 * (proper-lockfile rounds a new lock's time up to the second). The judge's read of the holder's name
 * is the moment before: here it reads the killed holder's name once, as it did then.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { temporaryDir } from '../stores/sample-state.js';

const earlier = vi.hoisted(() => ({ name: undefined as string | undefined }));

/**
 * The worker processes share the modules their files import: the lock module is loaded anew here,
 * over the mocked reads, and the module registry given back afterwards.
 */
let lock: typeof import('../../src/node/lock.js');
beforeAll(async () => {
  const real = await import('../../src/node/safe-fs.js');
  vi.resetModules();
  vi.doMock('../../src/node/safe-fs.js', () => ({
    ...real,
    readTextNoFollowSync: (path: string) => {
      const name = earlier.name;
      if (name === undefined || !path.endsWith('owner')) return real.readTextNoFollowSync(path);
      earlier.name = undefined;
      return name;
    },
  }));
  lock = await import('../../src/node/lock.js');
});
afterAll(() => {
  vi.doUnmock('../../src/node/safe-fs.js');
  vi.resetModules();
});

/** A pid that was just used and is now free: the process has exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid as number;
}

/** A process killed while it held the lock. */
let killedHolder: number;
beforeAll(() => {
  killedHolder = deadPid();
}, 60_000);

let dir: string;
let remove: () => void;
beforeEach(() => {
  ({ dir, remove } = temporaryDir());
  earlier.name = undefined;
});
afterEach(() => remove());

/** Another live process's lock, named as this version names it, made where this one's stood. */
function replaceWithAnothersLock(file: string): string {
  rmSync(`${file}.lock`, { recursive: true, force: true });
  mkdirSync(`${file}.lock`);
  const name = JSON.stringify({ pid: process.ppid, host: hostname(), token: 'another-holder' });
  writeFileSync(join(`${file}.lock`, 'owner'), name);
  return name;
}

describe('taking over an abandoned lock', () => {
  it('leaves the lock a live holder took since the judge read the name of a killed holder', async () => {
    const file = join(dir, 'state.json');
    await lock.withFileLock(
      file,
      async () => {
        earlier.name = JSON.stringify({ pid: killedHolder, host: hostname(), token: 'a-killed-holder' });
        expect([lock.clearAbandonedLock(file), existsSync(`${file}.lock`)]).toEqual([false, true]);
      },
      () => undefined,
    );
  });
});

describe('a holder whose lock was taken over while it held it', () => {
  it('leaves the new holder’s lock and name when it gives its own back', async () => {
    const file = join(dir, 'state.json');
    let name = '';
    await lock.withFileLock(
      file,
      async () => {
        name = replaceWithAnothersLock(file);
      },
      () => undefined,
    );
    expect(readFileSync(join(`${file}.lock`, 'owner'), 'utf8')).toBe(name);
  });

  it('is told its lock was taken over', async () => {
    const file = join(dir, 'state.json');
    const told: string[] = [];
    await lock.withFileLock(
      file,
      async () => {
        replaceWithAnothersLock(file);
      },
      (error) => told.push((error as NodeJS.ErrnoException).code ?? ''),
    );
    expect(told).toEqual(['ECOMPROMISED']);
  });
});
