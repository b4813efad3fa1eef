import { createHash } from 'node:crypto';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createJournal,
  createJournalKey,
  journalHeadPath,
  resolveJournalKey,
  verifyJournal,
} from '../../src/audit/index.js';
import { canonicalJson } from '../../src/core/identity/index.js';
import { temporaryDir } from '../stores/sample-state.js';
import { events } from './sample-events.js';

const KEY = '9f2c4e61b7a8d03f5e1c2b4a6d8f0e13';

let dir: string;
let remove: () => void;
let path: string;

beforeEach(() => {
  ({ dir, remove } = temporaryDir());
  path = join(dir, 'journal.jsonl');
});
afterEach(() => remove());

async function writeJournal(key: string | false, count = 10): Promise<void> {
  const journal = createJournal({ path, key });
  for (const event of events(count)) journal.record(event);
  await journal.close();
}

/**
 * The best a forger without the key can do: change receipt 3, then recompute every hash after it
 * with SHA-256 and write a matching head.
 */
function rewriteConsistently(edit: (entry: Record<string, unknown>) => void): void {
  const entries = readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  edit(entries[2] as Record<string, unknown>);
  let prev = '0'.repeat(64);
  const lines: string[] = [];
  for (const { hash: _hash, keyed: _keyed, ...fields } of entries) {
    const body = { ...fields, prev };
    const canonical = canonicalJson(body);
    prev = createHash('sha256')
      .update(prev + canonical)
      .digest('hex');
    lines.push(`${canonical.slice(0, -1)},"hash":"${prev}"}\n`);
  }
  writeFileSync(path, lines.join(''));
  writeFileSync(journalHeadPath(path), `${JSON.stringify({ count: entries.length, lastHash: prev })}\n`);
}

describe('tamper evidence of the journal', () => {
  it('fails an emptied journal whose head was deleted', async () => {
    await writeJournal(false);
    writeFileSync(path, '');
    rmSync(journalHeadPath(path));
    expect(verifyJournal(path, { key: false })).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/empty and has no head file/),
    });
  });

  it('fails a cut journal whose head was rewritten without the last hash', async () => {
    await writeJournal(false);
    const lines = readFileSync(path, 'utf8').split('\n').slice(0, 6);
    writeFileSync(path, `${lines.join('\n')}\n`);
    writeFileSync(journalHeadPath(path), '{"count":6}\n');
    expect(verifyJournal(path, { key: false })).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/does not record the hash of the last receipt/),
    });
  });

  it('accepts a keyed journal checked with its key', async () => {
    await writeJournal(KEY);
    expect(verifyJournal(path, { key: KEY })).toEqual({ ok: true, count: 10, entries: 10 });
    expect(readFileSync(path, 'utf8')).toContain('"keyed":true');
  });

  it('fails a keyed journal rewritten consistently without the key', async () => {
    await writeJournal(KEY);
    rewriteConsistently((entry) => {
      entry.tool = 'write_file';
    });
    expect(verifyJournal(path, { key: KEY })).toMatchObject({ ok: false });
  });

  it('fails a keyed journal rewritten with another key', async () => {
    await writeJournal(KEY);
    const other = createJournal({ path: join(dir, 'other.jsonl'), key: 'a-different-key-0123456789' });
    for (const event of events(10)) other.record(event);
    await other.close();
    writeFileSync(path, readFileSync(join(dir, 'other.jsonl')));
    writeFileSync(journalHeadPath(path), readFileSync(join(dir, 'other.head.json')));
    expect(verifyJournal(path, { key: KEY })).toMatchObject({
      ok: false,
      brokenAt: 1,
      problem: expect.stringMatching(/does not match its HMAC/),
    });
  });

  it('fails a keyed journal cut short with a head recomputed without the key', async () => {
    await writeJournal(KEY);
    const lines = readFileSync(path, 'utf8').split('\n').slice(0, 6);
    writeFileSync(path, `${lines.join('\n')}\n`);
    const last = JSON.parse(lines[5] as string) as { hash: string };
    writeFileSync(journalHeadPath(path), `${JSON.stringify({ count: 6, lastHash: last.hash })}\n`);
    expect(verifyJournal(path, { key: KEY })).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/head file has no MAC/),
    });
  });

  it('says the key is needed when a keyed journal is checked without one', async () => {
    await writeJournal(KEY);
    expect(verifyJournal(path, { key: false })).toMatchObject({
      ok: false,
      brokenAt: 1,
      problem: expect.stringMatching(/no journal key is at hand/),
    });
  });

  it('continues an unkeyed journal keyed once a key exists, and verifies the whole', async () => {
    await writeJournal(false, 5);
    await writeJournal(KEY, 5);
    expect(verifyJournal(path, { key: KEY })).toEqual({ ok: true, count: 10, entries: 10 });
  });

  it('shows what a plain chain cannot catch: a consistent rewrite verifies without a key', async () => {
    await writeJournal(false);
    rewriteConsistently((entry) => {
      entry.tool = 'write_file';
    });
    expect(verifyJournal(path, { key: false }).ok).toBe(true);
  });
});

describe('the journal key', () => {
  it('is created outside the project, readable by the user only, and never replaced', () => {
    const env = { XDG_CONFIG_HOME: join(dir, 'config') };
    const first = createJournalKey(env);
    const key = resolveJournalKey(env);
    expect(first).toEqual({ path: join(dir, 'config', 'narrowing', 'journal.key'), created: true });
    if (process.platform !== 'win32') expect(statSync(first.path).mode & 0o777).toBe(0o600);
    expect(createJournalKey(env).created).toBe(false);
    expect(resolveJournalKey(env)).toBe(key);
  });

  it('comes from NARROWING_JOURNAL_KEY first', () => {
    const env = { XDG_CONFIG_HOME: join(dir, 'config'), NARROWING_JOURNAL_KEY: KEY };
    expect(resolveJournalKey(env)).toBe(KEY);
  });

  it('is refused when too short to resist guessing', () => {
    expect(() => resolveJournalKey({ NARROWING_JOURNAL_KEY: 'hunter2' })).toThrow(
      expect.objectContaining({ code: 'NARROWING_JOURNAL_KEY' }),
    );
  });
});
