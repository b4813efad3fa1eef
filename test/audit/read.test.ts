import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createJournal, type JournalEntry, readJournal, readJournalSync } from '../../src/audit/index.js';
import { temporaryDir } from '../stores/sample-state.js';
import { readMissingFile } from './sample-events.js';

let dir: string;
let remove: () => void;
let path: string;

beforeEach(async () => {
  ({ dir, remove } = temporaryDir());
  path = join(dir, 'journal.jsonl');
  const journal = createJournal({ path });
  for (const event of readMissingFile()) journal.record(event);
  await journal.close();
});
afterEach(() => remove());

async function collect(iterable: AsyncIterable<JournalEntry>): Promise<JournalEntry[]> {
  const out: JournalEntry[] = [];
  for await (const entry of iterable) out.push(entry);
  return out;
}

describe('readJournal', () => {
  it('yields every entry in order', async () => {
    const entries = await collect(readJournal(path));
    expect(entries.map((entry) => [entry.seq, entry.type])).toEqual([
      [1, 'session'],
      [2, 'proposal'],
      [3, 'outcome'],
      [4, 'constraint_added'],
      [5, 'proposal'],
    ]);
  });

  it('skips a torn last line', async () => {
    appendFileSync(path, '{"seq":6,"type":"outc');
    expect((await collect(readJournal(path))).map((entry) => entry.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(readJournalSync(path).map((entry) => entry.seq)).toEqual([1, 2, 3, 4, 5]);
  });

  it('stops at a damaged line in the middle unless told what to do with it', async () => {
    appendFileSync(path, 'not json\n{"seq":7,"type":"run","reason":"user","at":1}\n');
    await expect(collect(readJournal(path))).rejects.toThrow(/Line 6 .* is not a journal entry/);
    const skipped: number[] = [];
    const entries = await collect(readJournal(path, { onBadLine: (line) => skipped.push(line.number) }));
    expect(skipped).toEqual([6]);
    expect(entries.map((entry) => entry.seq)).toEqual([1, 2, 3, 4, 5, 7]);
  });

  it('says clearly when there is no journal', async () => {
    await expect(collect(readJournal(join(dir, 'none.jsonl')))).rejects.toThrow(/There is no journal at/);
    expect(() => readJournalSync(join(dir, 'none.jsonl'))).toThrow(/There is no journal at/);
  });

  it('reads an empty journal as no entries', async () => {
    writeFileSync(path, '');
    expect(await collect(readJournal(path))).toEqual([]);
  });
});
