import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PersistedState } from '../../src/core/types.js';
import {
  buildInspection,
  formatInspection,
  inspectionJson,
  type RecentBlocks,
  recentBlocks,
} from '../../src/report/index.js';
import { parseStateText } from '../../src/stores/index.js';
import { DAY, type SampleStateDir, writeSampleStateDir } from './sample-state.js';

let sample: SampleStateDir;
let state: PersistedState;
let recent: RecentBlocks;
const root = mkdtempSync(join(tmpdir(), 'narrowing-inspect-'));

beforeAll(async () => {
  sample = await writeSampleStateDir(join(root, '.narrowing'));
  const parsed = parseStateText(readFileSync(join(sample.dir, 'state.json'), 'utf8'));
  if (!parsed.ok) throw new Error(parsed.reason);
  state = parsed.state;
  recent = await recentBlocks(join(sample.dir, 'journal.jsonl'), 10);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const format = { stateDirLabel: '.narrowing/' };

describe('inspect', () => {
  it('says what each learned constraint blocks, in words', () => {
    const inspection = buildInspection({ state, recent, now: sample.end + 60_000 });
    expect(inspection.constraints.map((view) => view.blocks)).toEqual([
      'blocks repeating Read {file_path: "/home/dev/shop/src/routes/orders.ts"} unchanged until ' +
        '/home/dev/shop/src/routes/orders.ts is created',
      expect.stringMatching(
        /^blocks repeating edit_file \{path: "src\/server\.ts", .* unchanged until src\/server\.ts changes$/,
      ),
      'blocks reading, editing, deleting, searching or polling src/config.ts: it does not exist',
    ]);
  });

  it('leaves out what was lifted', () => {
    const text = formatInspection(buildInspection({ state, recent, now: sample.end }), format);
    expect(text).not.toContain('docs/api.md');
  });

  it('shows scope, evidence, last error and a relative expiry', () => {
    const text = formatInspection(buildInspection({ state, recent, now: sample.end + DAY }), format);
    expect(text).toContain('Learned constraints in .narrowing/ (3 active):');
    expect(text).toContain('scope: target · file_not_found');
    expect(text).toContain('evidence: failed once (read_file {path: "src/config.ts"}), last 1 day ago');
    expect(text).toContain(
      "last error: ENOENT: no such file or directory, open '/home/dev/shop/src/config.ts'",
    );
    expect(text).toContain('expires in 5 days');
  });

  it('names a call that failed the same way several times once in the evidence', () => {
    const inspection = buildInspection({ state, recent, now: sample.end + DAY });
    const read = 'read_file {path: "src/config.ts"}';
    const [first, ...rest] = inspection.constraints;
    if (first === undefined) throw new Error('the sample state has constraints');
    const repeated = { ...first, failures: 3, calls: [read, read, read] };
    const text = formatInspection({ ...inspection, constraints: [repeated, ...rest] }, format);
    expect(text).toContain(`evidence: failed 3 times (${read}), last`);
  });

  it('lists recent blocks newest first with tool, rule and reason', () => {
    const text = formatInspection(buildInspection({ state, recent, now: sample.end + 60_000 }), format);
    const blocks = text.slice(text.indexOf('Blocks (4), newest first:'));
    expect(blocks.split('\n').slice(1, 4)).toEqual([
      '  1 minute ago · read_file · blocked by identical-failure (a call that already failed, repeated unchanged)',
      expect.stringContaining(
        'read_file {path: "src/config.ts"} failed and nothing it depends on has changed since: ENOENT',
      ),
      '  1 minute ago · edit_file · blocked by missing-target (acting on something that does not exist)',
    ]);
  });

  it('says how many blocks it left out', async () => {
    const lastTwo = await recentBlocks(join(sample.dir, 'journal.jsonl'), 2);
    const text = formatInspection(buildInspection({ state, recent: lastTwo, now: sample.end }), format);
    expect(text).toContain('Recent blocks (last 2 of 4), newest first:');
  });

  it('hides expired constraints unless asked for all', () => {
    const now = sample.end + 8 * DAY;
    expect(formatInspection(buildInspection({ state, recent, now }), format)).toContain(
      'No learned constraints in force in .narrowing/.\n\n3 expired constraints not shown (--all shows them).',
    );
    const all = formatInspection(buildInspection({ state, recent, now, all: true }), format);
    expect(all).toContain('expired 1 day ago: the next attempt is let through on probation');
  });

  it('explains probation', () => {
    const onProbation = { ...state, constraints: state.constraints.map((c) => ({ ...c, probation: true })) };
    const text = formatInspection(buildInspection({ state: onProbation, recent, now: sample.end }), format);
    expect(text).toContain('(0 active, 3 on probation)');
    expect(text).toContain(
      'on probation: the next attempt is let through; if it fails the same way, the ban returns for longer',
    );
  });

  it('gives machine output with ISO times', () => {
    const json = inspectionJson(buildInspection({ state, recent, now: sample.end })) as {
      constraints: { scope: string; expiresAt: string; status: string }[];
      totalBlocks: number;
      blocks: { rule: string; at: string }[];
    };
    expect(json.constraints[2]).toMatchObject({
      scope: 'target',
      status: 'active',
      expiresAt: expect.stringMatching(/^2026-03-11T/),
    });
    expect(json.totalBlocks).toBe(4);
    expect(json.blocks.map((block) => block.rule)).toEqual([
      'identical-failure',
      'identical-failure',
      'missing-target',
      'identical-failure',
    ]);
  });
});
