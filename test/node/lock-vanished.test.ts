/**
 * A lock made and gone before its holder could read its time: proper-lockfile makes the lock's folder,
 * then reads its time, and a process that judged the lock abandoned in between (its maker, slowed
 * down on a busy machine, had not named itself yet) removes it. proper-lockfile then fails with the
 * `stat` that found nothing; here its first attempt fails that way, as it does then.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { temporaryDir } from '../stores/sample-state.js';

const attempts = vi.hoisted(() => ({ async: 0, sync: 0 }));

function lockGone(path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOENT: no such file or directory, stat '${path}.lock'`), {
    code: 'ENOENT',
    errno: -2,
    syscall: 'stat',
    path: `${path}.lock`,
  });
}

function failingFirst(real: typeof import('proper-lockfile')) {
  return {
    default: {
      ...real,
      lock: (file: string, options: Parameters<typeof real.lock>[1]) => {
        attempts.async += 1;
        return attempts.async === 1 ? Promise.reject(lockGone(file)) : real.lock(file, options);
      },
      lockSync: (file: string, options: Parameters<typeof real.lockSync>[1]) => {
        attempts.sync += 1;
        if (attempts.sync === 1) throw lockGone(file);
        return real.lockSync(file, options);
      },
    },
  };
}

/**
 * The worker processes share the modules their files import: the lock module is loaded anew here,
 * over the failing proper-lockfile, and the module registry given back afterwards.
 */
let lock: typeof import('../../src/node/lock.js');
beforeAll(async () => {
  const real = (await import('proper-lockfile')).default;
  vi.resetModules();
  vi.doMock('proper-lockfile', () => failingFirst(real));
  lock = await import('../../src/node/lock.js');
});
afterAll(() => {
  vi.doUnmock('proper-lockfile');
  vi.resetModules();
});

let dir: string;
let remove: () => void;
beforeEach(() => {
  ({ dir, remove } = temporaryDir());
  attempts.async = 0;
  attempts.sync = 0;
});
afterEach(() => remove());

describe('a lock that vanished as it was being taken', () => {
  it('is taken again, and the work runs under it', async () => {
    const file = join(dir, 'state.json');
    const seen = await lock.withFileLock(
      file,
      async () => existsSync(`${file}.lock`),
      () => undefined,
    );
    expect([seen, attempts.async]).toEqual([true, 2]);
  });

  it('is taken again at exit too, rather than the work running unlocked', () => {
    const file = join(dir, 'state.json');
    const result = lock.withFileLockSync(file, () => existsSync(`${file}.lock`));
    expect([result, attempts.sync]).toEqual([{ value: true, locked: true }, 2]);
  });
});
