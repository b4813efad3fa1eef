import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createJournal, verifyJournal } from '../../src/audit/index.js';
import { canonicalJson } from '../../src/core/identity/index.js';
import { temporaryDir } from '../stores/sample-state.js';
import { events } from './sample-events.js';

let dir: string;
let remove: () => void;
let path: string;

/** A closed journal of ten receipts. */
beforeEach(async () => {
  ({ dir, remove } = temporaryDir());
  path = join(dir, 'journal.jsonl');
  const journal = createJournal({ path });
  for (const event of events(10)) journal.record(event);
  await journal.close();
});
afterEach(() => remove());

function readLines(): string[] {
  return readFileSync(path, 'utf8').split('\n').slice(0, -1);
}

function writeLines(lines: readonly string[]): void {
  writeFileSync(path, lines.map((line) => `${line}\n`).join(''));
}

function editReceipt(seq: number, edit: (entry: Record<string, unknown>) => void): void {
  const lines = readLines();
  const entry = JSON.parse(lines[seq - 1]!);
  edit(entry);
  lines[seq - 1] = JSON.stringify(entry);
  writeLines(lines);
}

/** What a forger who knows the format writes: a line with a correct hash, linked to `prev`. */
function forge(fields: Record<string, unknown>, prev: string): string {
  const body = { ...fields, prev };
  const hash = createHash('sha256')
    .update(prev + canonicalJson(body))
    .digest('hex');
  return `${canonicalJson(body).slice(0, -1)},"hash":"${hash}"}`;
}

describe('verifyJournal', () => {
  it('accepts an untouched journal', () => {
    expect(verifyJournal(path)).toEqual({ ok: true, count: 10, entries: 10 });
  });

  const fields: [string, (entry: Record<string, unknown>) => void][] = [
    ['the tool', (entry) => (entry.tool = 'write_file')],
    ['the time', (entry) => (entry.at = (entry.at as number) + 1)],
    ['the type', (entry) => (entry.type = 'run')],
    ['the session', (entry) => (entry.sessionId = 'sess-other')],
    ['the verdict', (entry) => (entry.verdict = 'allow')],
    ['the argument digest', (entry) => (entry.args = { sha256: '0'.repeat(64), bytes: 1 })],
    ['the sequence number', (entry) => (entry.seq = 40)],
    ['the link', (entry) => (entry.prev = '1'.repeat(64))],
    ['the hash', (entry) => (entry.hash = '2'.repeat(64))],
    ['an added field', (entry) => (entry.note = 'approved by admin')],
  ];
  for (const [what, edit] of fields) {
    it(`names receipt 5 when ${what} of receipt 5 was changed`, () => {
      editReceipt(5, edit);
      expect(verifyJournal(path)).toMatchObject({
        ok: false,
        count: 4,
        brokenAt: 5,
        problem: expect.stringContaining('receipt 5 was modified'),
      });
    });
  }

  it('names a receipt whose line was only reformatted', () => {
    const lines = readLines();
    lines[2] = JSON.stringify(JSON.parse(lines[2]!), null, 1).replace(/\n/g, '');
    writeLines(lines);
    expect(verifyJournal(path)).toMatchObject({ ok: false, brokenAt: 3 });
  });

  it('names a deleted receipt', () => {
    const lines = readLines();
    lines.splice(5, 1);
    writeLines(lines);
    expect(verifyJournal(path)).toMatchObject({
      ok: false,
      count: 5,
      brokenAt: 6,
      problem: 'receipt 6 is missing: receipt 7 follows receipt 5',
    });
  });

  it('names the first of several deleted receipts', () => {
    const lines = readLines();
    lines.splice(2, 3);
    writeLines(lines);
    expect(verifyJournal(path)).toMatchObject({
      brokenAt: 3,
      problem: 'receipts 3–5 are missing: receipt 6 follows receipt 2',
    });
  });

  it('names a deleted first receipt', () => {
    writeLines(readLines().slice(1));
    expect(verifyJournal(path)).toMatchObject({
      brokenAt: 1,
      problem: expect.stringContaining('the start of the journal'),
    });
  });

  it('names a forged line inserted without a valid hash', () => {
    const lines = readLines();
    const forged = { ...JSON.parse(lines[3]!), seq: 5, verdict: 'allow' };
    lines.splice(4, 0, JSON.stringify(forged));
    writeLines(lines);
    expect(verifyJournal(path)).toMatchObject({ ok: false, count: 4, brokenAt: 5 });
  });

  it('names a forged line inserted with a hash recomputed by the forger', () => {
    const lines = readLines();
    const fourth = JSON.parse(lines[3]!);
    const { hash: _hash, prev: _prev, ...fields } = JSON.parse(lines[4]!);
    lines.splice(4, 0, forge({ ...fields, verdict: 'allow' }, fourth.hash));
    writeLines(lines);
    expect(verifyJournal(path)).toMatchObject({
      ok: false,
      brokenAt: 5,
      problem: 'there are two different receipts 5: one was inserted',
    });
  });

  it('names a copied receipt inserted after the original', () => {
    const lines = readLines();
    lines.splice(4, 0, lines[3]!);
    writeLines(lines);
    expect(verifyJournal(path)).toMatchObject({
      ok: false,
      count: 4,
      brokenAt: 5,
      problem: expect.stringContaining('receipt 4 appears again'),
    });
  });

  it('names swapped receipts', () => {
    const lines = readLines();
    [lines[6], lines[7]] = [lines[7]!, lines[6]!];
    writeLines(lines);
    expect(verifyJournal(path)).toMatchObject({
      ok: false,
      count: 6,
      brokenAt: 7,
      problem: 'receipts 7 and 8 are out of order',
    });
  });

  it('names the first receipt cut from the end, using the head', () => {
    writeLines(readLines().slice(0, 7));
    expect(verifyJournal(path)).toMatchObject({
      ok: false,
      count: 7,
      brokenAt: 8,
      problem:
        'the journal ends at receipt 7, but its head records 10 receipts: ' +
        'receipts 8–10 are missing from the end',
    });
  });

  it('names the last receipt when only it was cut', () => {
    writeLines(readLines().slice(0, 9));
    expect(verifyJournal(path)).toMatchObject({
      brokenAt: 10,
      problem: expect.stringContaining('receipt 10 is missing'),
    });
  });

  it('catches a chain rewritten from the start after a deletion, through the head', () => {
    const kept = readLines()
      .filter((_, index) => index !== 2)
      .map((line) => JSON.parse(line));
    let prev = '0'.repeat(64);
    const rewritten = kept.map((entry, index) => {
      const { hash: _hash, prev: _prev, ...fields } = entry;
      const line = forge({ ...fields, seq: index + 1 }, prev);
      prev = JSON.parse(line).hash;
      return line;
    });
    writeLines(rewritten);
    expect(verifyJournal(path)).toMatchObject({ ok: false, brokenAt: 10 });
  });

  it('does not accept a journal without its head file', () => {
    rmSync(join(dir, 'journal.head.json'));
    expect(verifyJournal(path)).toMatchObject({
      ok: false,
      count: 10,
      problem: expect.stringContaining('head file is missing'),
    });
  });

  it('names a line that is not JSON', () => {
    const lines = readLines();
    lines[1] = 'garbage';
    writeLines(lines);
    expect(verifyJournal(path)).toMatchObject({ brokenAt: 2, problem: 'line 2 is not a journal entry' });
  });

  it('names an incomplete last line', () => {
    writeFileSync(path, `${readLines().join('\n')}\n{"seq":11,"ty`);
    expect(verifyJournal(path)).toMatchObject({
      brokenAt: 11,
      problem: expect.stringContaining('incomplete'),
    });
  });

  it('says when there is no journal', () => {
    expect(verifyJournal(join(dir, 'elsewhere.jsonl'))).toMatchObject({
      ok: false,
      entries: 0,
      problem: expect.stringContaining('there is no journal'),
    });
  });
});
