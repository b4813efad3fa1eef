/**
 * Whichever writer runs first in a project (the file store, the journal, an atomic write, a wrap
 * record, the agent's saved run, SQLite), `.narrowing` is made the one way: private (0700) and
 * with its `.gitignore`.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runStatePath, saveRunState } from '../../src/agent/persist.js';
import { writeRecord } from '../../src/install/wrap-record.js';
import { writeFileAtomic, writeFileAtomicSync } from '../../src/node/index.js';
import { createFileStore, type StoreProblem } from '../../src/stores/file-store.js';
import { openSqliteStore } from '../../src/stores/sqlite-store.js';
import { missingFile, stateOf } from '../stores/sample-state.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function freshStateDir(): string {
  const project = mkdtempSync(join(tmpdir(), 'narrowing-first-writer-'));
  dirs.push(project);
  return join(project, '.narrowing');
}

const writers: [string, (stateDir: string) => Promise<unknown> | unknown][] = [
  ['an atomic write', (stateDir) => writeFileAtomic(join(stateDir, 'state.json'), '{}\n')],
  ['a synchronous atomic write', (stateDir) => writeFileAtomicSync(join(stateDir, 'state.json'), '{}\n')],
  [
    'a wrap record',
    (stateDir) =>
      writeRecord(join(stateDir, 'wraps', 'claude-code', 'project', 'fs.json'), {
        version: 1,
      } as unknown as Parameters<typeof writeRecord>[1]),
  ],
  [
    "the agent's saved run",
    (stateDir) =>
      saveRunState(runStatePath(stateDir, 'session-1'), {} as unknown as Parameters<typeof saveRunState>[1]),
  ],
  [
    'the sqlite store',
    async (stateDir) => {
      const store = await openSqliteStore({ path: join(stateDir, 'state.sqlite') });
      await store.close();
    },
  ],
];

describe('the first writer in a project', () => {
  it.each(writers)('makes .narrowing private, with its .gitignore, when it is %s', async (_, write) => {
    const stateDir = freshStateDir();
    await write(stateDir);
    expect(statSync(stateDir).mode & 0o777).toBe(0o700);
    expect(existsSync(join(stateDir, '.gitignore'))).toBe(true);
  });
});

describe('a writer whose project folder was removed', () => {
  it.each(writers)('does not make the project folder again when it is %s', async (_, write) => {
    const stateDir = freshStateDir();
    const project = join(stateDir, '..');
    await write(stateDir);
    rmSync(project, { recursive: true, force: true });
    await expect(Promise.resolve().then(() => write(stateDir))).rejects.toThrow(/was removed/);
    expect(existsSync(project)).toBe(false);
  });

  it('does not make the project folder again when a file store saves after it was removed', async () => {
    const stateDir = freshStateDir();
    const problems: StoreProblem[] = [];
    const store = createFileStore({ path: join(stateDir, 'state.json'), onProblem: (p) => problems.push(p) });
    store.save(stateOf([missingFile('src/app.ts', Date.now())]));
    await store.flush();
    rmSync(join(stateDir, '..'), { recursive: true, force: true });
    store.save(stateOf([missingFile('src/api.ts', Date.now())]));
    await expect(store.close()).rejects.toThrow(/was removed/);
    expect(existsSync(join(stateDir, '..'))).toBe(false);
    expect(problems.map((problem) => problem.kind)).toContain('write-failed');
  });
});
