import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createJournal, verifyJournal } from '../../src/audit/index.js';
import { temporaryDir } from '../stores/sample-state.js';
import { fixedRunBatches } from './fixed-run.js';

/** The lines and head an earlier build wrote for the fixed run: the bytes on disk must not move. */
const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'audit');
const expectedLines = () => readFileSync(join(FIXTURE, 'fixed-run.journal.jsonl'));
const expectedHead = () => readFileSync(join(FIXTURE, 'fixed-run.journal.head.json'));

let dir: string;
let remove: () => void;
let path: string;

beforeEach(() => {
  ({ dir, remove } = temporaryDir());
  path = join(dir, 'journal.jsonl');
});
afterEach(() => remove());

describe('journal bytes', () => {
  it('writes a fixed run in batches byte for byte as the fixture, head included', async () => {
    const journal = createJournal({ path, key: false, flushIntervalMs: 60_000 });
    for (const batch of fixedRunBatches()) {
      for (const event of batch) journal.record(event);
      await journal.flush();
    }
    await journal.close();

    expect(readFileSync(path).equals(expectedLines())).toBe(true);
    expect(readFileSync(join(dir, 'journal.head.json')).equals(expectedHead())).toBe(true);
  });

  it('writes the same bytes when the run is written synchronously', async () => {
    const journal = createJournal({ path, key: false, flushIntervalMs: 60_000 });
    for (const batch of fixedRunBatches()) {
      for (const event of batch) journal.record(event);
      expect(journal.flushSync()).toBe(true);
    }
    await journal.close();

    expect(readFileSync(path).equals(expectedLines())).toBe(true);
  });

  it('verifies the fixture as an unbroken chain its head vouches for', () => {
    const verification = verifyJournal(join(FIXTURE, 'fixed-run.journal.jsonl'), {
      headPath: join(FIXTURE, 'fixed-run.journal.head.json'),
      key: false,
    });

    expect(verification).toEqual({ ok: true, count: 31, entries: 31 });
  });
});
