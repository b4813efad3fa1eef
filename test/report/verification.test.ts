import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  formatVerifyReport,
  locateJournal,
  verifyExitCode,
  verifyJson,
  verifyLocation,
} from '../../src/report/index.js';
import { type SampleStateDir, writeSampleStateDir } from './sample-state.js';

let sample: SampleStateDir;
const root = mkdtempSync(join(tmpdir(), 'narrowing-verify-'));
let copies = 0;

beforeAll(async () => {
  sample = await writeSampleStateDir(join(root, 'original'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A copy of the sample state directory whose journal lines went through `edit`. */
function tampered(edit: (lines: string[]) => string[]): string {
  const dir = join(root, `copy-${++copies}`);
  cpSync(sample.dir, dir, { recursive: true });
  const path = join(dir, 'journal.jsonl');
  const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
  writeFileSync(path, `${edit(lines).join('\n')}\n`);
  return dir;
}

function check(stateDir: string) {
  const report = verifyLocation(locateJournal({ stateDir }, root));
  return { report, text: formatVerifyReport(report, 'journal.jsonl', 'UTC'), code: verifyExitCode(report) };
}

const seqOf = (line: string) => (JSON.parse(line) as { seq: number }).seq;

describe('verify', () => {
  it('counts the receipts of an untouched journal', () => {
    const { text, code } = check(sample.dir);
    expect(text).toBe('OK: 32 receipts verified in journal.jsonl.\n');
    expect(code).toBe(0);
  });

  it('names the receipt whose content was changed, and what it was', () => {
    let changed = 0;
    const dir = tampered((lines) =>
      lines.map((line) => {
        if (changed > 0 || !line.includes('"verdict":"block"')) return line;
        changed = seqOf(line);
        return line.replace('"verdict":"block"', '"verdict":"allow"');
      }),
    );
    const { text, code } = check(dir);
    expect(changed).toBeGreaterThan(1);
    expect(text).toContain(`BROKEN at receipt ${changed} of journal.jsonl: receipt ${changed} was modified`);
    expect(text).toContain(
      `Receipt ${changed} reads: a proposal of read_file (allow, identical-failure) at 2026-03-04 10:00.`,
    );
    expect(text).toContain(`The ${changed - 1} receipts before it verified`);
    expect(code).toBe(1);
  });

  it('names the first receipt of a removed stretch', () => {
    const dir = tampered((lines) => [...lines.slice(0, 9), ...lines.slice(12)]);
    const { report, code } = check(dir);
    expect(report).toMatchObject({
      result: { ok: false, brokenAt: 10, problem: expect.stringContaining('receipts 10–12 are missing') },
    });
    expect(code).toBe(1);
  });

  it('notices receipts cut off the end', () => {
    const dir = tampered((lines) => lines.slice(0, -2));
    const { text } = check(dir);
    expect(text).toContain('BROKEN at receipt 31 of journal.jsonl: the journal ends at receipt 30');
  });

  it('says it cannot verify a journal that does not exist', () => {
    const { text, code } = check(join(root, 'nowhere'));
    expect(text).toBe(
      'Cannot verify journal.jsonl: the file does not exist; check the path (a journal is written once a guarded agent, through its hooks or the MCP proxy, has made a call).\n',
    );
    expect(code).toBe(2);
  });

  it('gives machine output naming the broken receipt', () => {
    const dir = tampered((lines) =>
      lines.map((line, index) => (index === 4 ? line.replace('"at":', '"at": ') : line)),
    );
    const report = verifyLocation(locateJournal({ stateDir: dir }, root));
    expect(verifyJson(report, 'journal.jsonl')).toMatchObject({ ok: false, brokenAt: 5, receipts: 4 });
  });
});
