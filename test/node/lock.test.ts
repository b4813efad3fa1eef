import { spawn } from 'node:child_process';
import { pbkdf2 } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PersistedState } from '../../src/core/types.js';
import {
  clearAbandonedLock,
  giveBackKeptLocks,
  giveBackWantedLocks,
  keptLocks,
  UNNAMED_MS,
  withFileLock,
} from '../../src/node/lock.js';
import { bundleWriter } from '../fixtures/node/bundle-writer.js';
import { temporaryDir } from '../stores/sample-state.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `ready` holds, looked at every few milliseconds (at most 10 s). */
async function until(ready: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 10_000; !ready() && Date.now() < deadline; ) await pause(2);
}

let dir: string;
let remove: () => void;
beforeEach(() => {
  ({ dir, remove } = temporaryDir());
});
afterEach(async () => {
  await giveBackKeptLocks();
  remove();
});

/** The ban writer bundled into one file: twenty processes start in a fraction of tsx's time. */
let writer: string;
let bundleDir: string;
beforeAll(async () => {
  bundleDir = mkdtempSync(join(tmpdir(), 'narrowing-ban-writer-'));
  writer = join(bundleDir, 'ban-writer.mjs');
  await bundleWriter(join(root, 'test/fixtures/node/ban-writer.ts'), writer);
});
afterAll(() => rmSync(bundleDir, { recursive: true, force: true }));

function runWriter(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [writer, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    }),
  );
}

/** Keeps the thread pool busy for a while: whatever file work the process asks for next waits behind. */
function busyThreadPool(): void {
  for (let i = 0; i < 4; i += 1) pbkdf2('narrowing', 'salt', 100_000, 64, 'sha512', () => undefined);
}

/** Takes the lock of `file` to keep it, with no work of its own. */
const keepLock = (file: string) =>
  withFileLock(
    file,
    async () => undefined,
    () => undefined,
    { keep: true },
  );

describe('file lock', () => {
  it('does not take the lock of a holder giving it back, after holding it over a second, for an abandoned one', async () => {
    const file = join(dir, 'state.json');
    writeFileSync(file, '{}');
    let takenAsAbandoned: boolean | undefined;
    await withFileLock(
      file,
      async () => {
        // Over a second, counted from a lock time proper-lockfile may set up to a second ahead.
        await pause(2_200);
        // The lock's removal waits behind the busy pool; meanwhile another process looks at the lock.
        busyThreadPool();
        setImmediate(() => {
          takenAsAbandoned = clearAbandonedLock(file);
        });
      },
      () => undefined,
    );
    expect(takenAsAbandoned).toBe(false);
  });

  it('is not told its lock was lost when it holds the lock it named past its first refresh', async () => {
    const file = join(dir, 'state.json');
    const told: string[] = [];
    // proper-lockfile refreshes the lock's time every 5 s, after checking it is the time it set.
    await withFileLock(
      file,
      () => pause(5_600),
      (error) => told.push(error.message),
    );
    expect(told).toEqual([]);
  }, 20_000);

  it('leaves a lock not yet named alone for longer than a loaded machine keeps its holder waiting', () => {
    const file = join(dir, 'state.json');
    writeFileSync(file, '{}');
    mkdirSync(`${file}.lock`);
    const taken = Date.now() - 2_000;
    utimesSync(`${file}.lock`, new Date(taken), new Date(taken));
    expect(clearAbandonedLock(file)).toBe(false);
    expect(clearAbandonedLock(file, taken + UNNAMED_MS + 100)).toBe(true);
  });

  it('kept after a work, runs the next works of the process one at a time with no lock made or removed', async () => {
    const file = join(dir, 'state.json');
    await keepLock(file);
    const lock = statSync(`${file}.lock`);
    let running = 0;
    let most = 0;
    const work = async () => {
      running += 1;
      most = Math.max(most, running);
      await pause(20);
      expect(statSync(`${file}.lock`).ino).toBe(lock.ino);
      running -= 1;
    };
    await Promise.all([1, 2, 3].map(() => withFileLock(file, work, () => undefined)));
    expect(most).toBe(1);
    await giveBackKeptLocks();
    expect([existsSync(`${file}.lock`), existsSync(`${file}.lock.owner`)]).toEqual([false, false]);
  });

  it('kept after a work, is given back to another process that waits for it', async () => {
    const path = join(dir, 'state.json');
    await keepLock(path);
    expect(existsSync(`${path}.lock`)).toBe(true);
    let written: { code: number | null; stderr: string } | undefined;
    const writing = runWriter([path, '1', String(Date.now())]).then((exit) => {
      written = exit;
    });
    // What the hook helper does between its events.
    while (written === undefined) {
      await giveBackWantedLocks();
      await pause(100);
    }
    await writing;
    expect(written).toEqual({ code: 0, stderr: '' });
    expect(keptLocks()).toEqual([]);
    expect(existsSync(`${path}.lock.wanted`)).toBe(false);
    const state = JSON.parse(readFileSync(path, 'utf8')) as PersistedState;
    expect(state.constraints.map((constraint) => constraint.id)).toEqual(['target-missing:w1/missing.ts']);
  }, 30_000);

  it('kept after a work, is given back as soon as another process says it waits, with no look for it', async () => {
    const file = join(dir, 'state.json');
    await keepLock(file);
    // What a process that finds the lock held writes.
    writeFileSync(`${file}.lock.wanted`, `${process.ppid}\n`);
    await until(() => !existsSync(`${file}.lock`));
    expect([existsSync(`${file}.lock`), keptLocks()]).toEqual([false, []]);
  });

  it('is not kept when it had to be waited for, so that two keepers of one file take turns', async () => {
    const file = join(dir, 'state.json');
    // Another live process's lock, given back half a second later.
    mkdirSync(`${file}.lock`);
    writeFileSync(`${file}.lock.owner`, JSON.stringify({ pid: process.ppid, host: hostname() }));
    setTimeout(() => rmSync(`${file}.lock`, { recursive: true, force: true }), 500);
    await keepLock(file);
    expect(keptLocks()).toEqual([]);
    expect([existsSync(`${file}.lock`), existsSync(`${file}.lock.wanted`)]).toEqual([false, false]);
  });

  it('says that it waits for a lock held by another live process before it pauses to try again', async () => {
    const file = join(dir, 'state.json');
    // Another live process's lock, kept until this one says it waits.
    mkdirSync(`${file}.lock`);
    writeFileSync(`${file}.lock.owner`, JSON.stringify({ pid: process.ppid, host: hostname() }));
    const started = Date.now();
    const waiting = withFileLock(
      file,
      async () => 'ran',
      () => undefined,
    );
    await until(() => existsSync(`${file}.lock.wanted`));
    const markedAfter = Date.now() - started;
    rmSync(`${file}.lock`, { recursive: true, force: true });
    expect(await waiting).toBe('ran');
    // A round of attempts lasts 130 ms at least (10 ms, then each pause half as long again): the
    // mark comes before it.
    expect(markedAfter).toBeLessThan(120);
  });

  it('runs the work of a process that waited for the lock when a folder stands where its wanted mark goes', async () => {
    const file = join(dir, 'state.json');
    // Another live process's lock, given back a moment later, and a folder planted at the mark's name.
    mkdirSync(`${file}.lock`);
    writeFileSync(`${file}.lock.owner`, JSON.stringify({ pid: process.ppid, host: hostname() }));
    mkdirSync(`${file}.lock.wanted`);
    setTimeout(() => rmSync(`${file}.lock`, { recursive: true, force: true }), 300);
    const ran = await withFileLock(
      file,
      async () => 'ran',
      () => undefined,
    );
    expect([ran, existsSync(`${file}.lock`)]).toEqual(['ran', false]);
  });

  it('keeps the ban each of twenty processes started at once saves', async () => {
    const path = join(dir, 'state.json');
    const startAt = String(Date.now() + 3_000);
    const exits = await Promise.all(
      Array.from({ length: 20 }, (_, worker) => runWriter([path, String(worker), startAt])),
    );
    for (const exit of exits) expect(exit).toEqual({ code: 0, stderr: '' });
    const state = JSON.parse(readFileSync(path, 'utf8')) as PersistedState;
    expect(state.constraints.map((constraint) => constraint.id).sort()).toEqual(
      Array.from({ length: 20 }, (_, worker) => `target-missing:w${worker}/missing.ts`).sort(),
    );
  }, 90_000);
});
