import {
  existsSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createJournal, type Journal, verifyJournal } from '../../src/audit/index.js';
import { removeAbandonedTemporaries } from '../../src/node/atomic-file.js';
import { defaultStateDir, stateLayout } from '../../src/node/index.js';
import { withFileLock } from '../../src/node/lock.js';
import { createFileStore, type StoreProblem } from '../../src/stores/index.js';
import { missingFile, stateOf, temporaryDir } from '../stores/sample-state.js';

const posix = process.platform !== 'win32';

let root: string;
let remove: () => void;
let stateDir: string;
/** A file outside the state directory that a planted link points at. */
let victim: string;
const VICTIM_TEXT = 'export PATH="$HOME/bin:$PATH"\n';
const journals: Journal[] = [];

beforeEach(() => {
  ({ dir: root, remove } = temporaryDir());
  stateDir = join(root, 'project', '.narrowing');
  mkdirSync(stateDir, { recursive: true });
  victim = join(root, 'home', '.bashrc');
  mkdirSync(join(root, 'home'));
  writeFileSync(victim, VICTIM_TEXT);
});
afterEach(async () => {
  await Promise.all(journals.splice(0).map((journal) => journal.close().catch(() => undefined)));
  remove();
});

function openJournal(): Journal {
  const journal = createJournal({ path: stateLayout(stateDir).journal, onProblem: () => undefined });
  journals.push(journal);
  return journal;
}

describe.runIf(posix)('links planted in a state directory', () => {
  it('refuses a journal writer file that links elsewhere, and leaves the target as it was', () => {
    symlinkSync(victim, join(stateDir, 'journal.jsonl.writer'));
    expect(() => openJournal()).toThrow(expect.objectContaining({ code: 'UNSAFE_STATE_FILE' }));
    expect(readFileSync(victim, 'utf8')).toBe(VICTIM_TEXT);
  });

  it('refuses a journal that links elsewhere instead of appending to its target', async () => {
    symlinkSync(victim, join(stateDir, 'journal.jsonl'));
    expect(() => openJournal()).toThrow(/symbolic link/);
    expect(readFileSync(victim, 'utf8')).toBe(VICTIM_TEXT);
  });

  it('does not truncate the target of a linked journal whose last line looks torn', () => {
    writeFileSync(victim, `${VICTIM_TEXT}alias ll='ls -l`);
    symlinkSync(victim, join(stateDir, 'journal.jsonl'));
    expect(() => openJournal()).toThrow(expect.objectContaining({ code: 'UNSAFE_STATE_FILE' }));
    expect(readFileSync(victim, 'utf8')).toBe(`${VICTIM_TEXT}alias ll='ls -l`);
  });

  it('refuses a head file that links elsewhere', () => {
    symlinkSync(victim, join(stateDir, 'journal.head.json'));
    expect(() => openJournal()).toThrow(expect.objectContaining({ code: 'UNSAFE_STATE_FILE' }));
    expect(readFileSync(victim, 'utf8')).toBe(VICTIM_TEXT);
  });

  it('does not verify a journal through a link', () => {
    symlinkSync(victim, join(stateDir, 'journal.jsonl'));
    expect(() => verifyJournal(join(stateDir, 'journal.jsonl'))).toThrow(/symbolic link/);
  });

  it('reports a state file that links elsewhere and never writes through it', async () => {
    const path = stateLayout(stateDir).state;
    symlinkSync(victim, path);
    const problems: StoreProblem[] = [];
    const store = createFileStore({ path, debounceMs: 5, onProblem: (problem) => problems.push(problem) });
    expect(store.load()).toBeUndefined();
    store.save(stateOf([missingFile('config/app.yaml', Date.now())]));
    await expect(store.flush()).rejects.toThrow(/symbolic link/);
    await store.close().catch(() => undefined);
    expect(readFileSync(victim, 'utf8')).toBe(VICTIM_TEXT);
    expect(problems[0]).toMatchObject({ kind: 'unreadable', reason: expect.stringMatching(/symbolic link/) });
  });

  it('does not write through a planted temporary file name', async () => {
    // A fresh copy of the writer, whose temporary names start again at 1 whatever other test files
    // of this worker wrote before.
    vi.resetModules();
    const fresh = await import('../../src/node/atomic-file.js');
    const path = join(stateDir, 'state.json');
    for (let n = 1; n <= 50; n++) symlinkSync(victim, `${path}.${process.pid}.${n}.tmp`);
    await expect(fresh.writeFileAtomic(path, '{}\n')).rejects.toThrow();
    expect(() => fresh.writeFileAtomicSync(path, '{}\n')).toThrow();
    expect(readFileSync(victim, 'utf8')).toBe(VICTIM_TEXT);
  });

  it('refuses a lock that links elsewhere', async () => {
    const path = join(stateDir, 'state.json');
    mkdirSync(join(root, 'elsewhere'));
    symlinkSync(join(root, 'elsewhere'), `${path}.lock`);
    await expect(
      withFileLock(
        path,
        async () => 1,
        () => undefined,
      ),
    ).rejects.toThrow(expect.objectContaining({ code: 'UNSAFE_STATE_FILE' }));
  });

  it('refuses a state directory found in a project when it is a link', () => {
    const project = join(root, 'cloned');
    mkdirSync(join(project, '.git'), { recursive: true });
    symlinkSync(join(root, 'home'), join(project, '.narrowing'));
    expect(() => defaultStateDir(project)).toThrow(expect.objectContaining({ code: 'UNSAFE_STATE_DIR' }));
  });

  it('accepts a linked state directory given explicitly', async () => {
    const linked = join(root, 'linked-state');
    symlinkSync(stateDir, linked);
    const journal = createJournal({ path: join(linked, 'journal.jsonl') });
    journals.push(journal);
    journal.record({ type: 'session', at: 1, sessionId: 's-1' });
    await journal.close();
    expect(verifyJournal(join(linked, 'journal.jsonl')).ok).toBe(true);
  });
});

describe.runIf(posix)('files narrowing creates', () => {
  it('creates the state file readable by the user only', async () => {
    const path = stateLayout(stateDir).state;
    const store = createFileStore({ path, debounceMs: 5 });
    store.save(stateOf([missingFile('config/app.yaml', Date.now())]));
    await store.close();
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('creates the journal and its head readable by the user only', async () => {
    const journal = openJournal();
    journal.record({ type: 'session', at: 1, sessionId: 's-1' });
    await journal.close();
    expect(statSync(stateLayout(stateDir).journal).mode & 0o777).toBe(0o600);
    expect(statSync(stateLayout(stateDir).journalHead).mode & 0o777).toBe(0o600);
  });

  it('keeps a new state directory out of git with a .gitignore', async () => {
    const fresh = join(root, 'other', '.narrowing');
    const store = createFileStore({ path: join(fresh, 'state.json'), debounceMs: 5 });
    store.save(stateOf([missingFile('config/app.yaml', Date.now())]));
    await store.close();
    expect(readFileSync(join(fresh, '.gitignore'), 'utf8')).toMatch(/^\*$/m);
    expect(statSync(fresh).mode & 0o777).toBe(0o700);
  });

  it('adds no .gitignore to a directory it did not create and that is not named .narrowing', async () => {
    const project = join(root, 'project');
    const store = createFileStore({ path: join(project, 'narrowing-state.json'), debounceMs: 5 });
    store.save(stateOf([missingFile('config/app.yaml', Date.now())]));
    await store.close();
    expect(existsSync(join(project, '.gitignore'))).toBe(false);
  });

  it('removes temporary files a killed writer left more than a minute ago, and only those', () => {
    const path = stateLayout(stateDir).state;
    const old = `${path}.4242.1.tmp`;
    const recent = `${path}.4242.2.tmp`;
    writeFileSync(old, '{"version":1');
    writeFileSync(recent, '{"version":1');
    const twoMinutesAgo = (Date.now() - 120_000) / 1000;
    utimesSync(old, twoMinutesAgo, twoMinutesAgo);
    expect(removeAbandonedTemporaries(path)).toBe(1);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(recent)).toBe(true);
  });

  it('treats a temporary file dated in the future as abandoned', () => {
    const path = stateLayout(stateDir).state;
    const planted = `${path}.4242.3.tmp`;
    writeFileSync(planted, '{}');
    const nextYear = (Date.now() + 365 * 86_400_000) / 1000;
    utimesSync(planted, nextYear, nextYear);
    createFileStore({ path }).load();
    expect(existsSync(planted)).toBe(false);
  });
});
