import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJournal } from '../../src/audit/index.js';
import {
  chooseSession,
  DEFAULT_SAVINGS,
  estimateSavings,
  explanationJson,
  type FullStory,
  formatExplanation,
  indexSessions,
} from '../../src/report/index.js';
import { type SampleStateDir, writeSampleStateDir } from './sample-state.js';

let sample: SampleStateDir;
let index: Awaited<ReturnType<typeof indexSessions>>;
const root = mkdtempSync(join(tmpdir(), 'narrowing-explain-'));

beforeAll(async () => {
  sample = await writeSampleStateDir(join(root, '.narrowing'));
  index = await indexSessions(readJournal(join(sample.dir, 'journal.jsonl')));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function story(id?: string): FullStory {
  const choice = chooseSession(index, id);
  if (!choice.ok) throw new Error(choice.problem);
  return choice.session.story();
}

const format = { journalLabel: '.narrowing/journal.jsonl', assumption: DEFAULT_SAVINGS, timeZone: 'UTC' };

describe('explain', () => {
  it('tells the latest session by default', () => {
    expect(story().sessionId).toBe(sample.sessions[1]);
  });

  it('finds a session by the start of its id', () => {
    expect(story(sample.sessions[0]!.slice(0, 8)).proposals).toBe(2);
  });

  it('lists the sessions it knows when the id matches none', () => {
    const choice = chooseSession(index, 'f00dfeed');
    expect(choice).toEqual({ ok: false, problem: expect.stringContaining(sample.sessions[1]!) });
  });

  it('counts calls by tool with successes, failures and blocks', () => {
    const text = formatExplanation(story(), format);
    expect(text).toContain(
      '12 tool calls proposed: 8 ran (3 succeeded, 5 failed, 1 with a warning) and 4 were blocked before running.',
    );
    expect(text).toContain('  read_file    6 proposed · 2 succeeded · 2 failed · 2 blocked');
    expect(text).toContain('  fetch        1 proposed · 1 failed');
  });

  it('keeps infrastructure faults apart from the agent’s failures', () => {
    const text = formatExplanation(story(), format);
    expect(text).toContain('Failures caused by the call itself: file_not_found ×3, edit_failed ×1.');
    expect(text).toContain('Failures of the infrastructure (never held against the agent): rate_limited ×1.');
  });

  it('groups blocks by rule with one example reason each', () => {
    const text = formatExplanation(story(), format);
    expect(text).toContain(
      'identical-failure — 3 blocks (read_file ×2, edit_file ×1): a call that already failed, repeated unchanged',
    );
    expect(text).toContain(
      '    e.g. read_file {path: "src/config.ts"} failed and nothing it depends on has changed since: ENOENT: no such file or directory, open \'/home/dev/shop/src/config.ts\'',
    );
    expect(text).toContain(
      'missing-target — 1 block (edit_file ×1): acting on something that does not exist',
    );
  });

  it('tells what was learned and what was lifted, once per constraint', () => {
    const text = formatExplanation(story(), format);
    expect(text).toContain(
      '+ learned: blocks reading, editing, deleting, searching or polling src/config.ts: it does not exist',
    );
    const lifted = text.split('\n').filter((line) => line.startsWith('  - lifted:'));
    // The ban on docs/api.md went on probation when the file was created and was cleared when the read
    // succeeded: two receipts, one line.
    expect(lifted).toEqual([
      '  - lifted:  blocks reading, editing, deleting, searching or polling docs/api.md: it does not exist — read_file {path: "docs/api.md"} succeeded on docs/api.md',
    ]);
  });

  it('counts blocked repeats of known failures as saved, with the assumption stated', () => {
    const text = formatExplanation(story(), {
      ...format,
      assumption: { secondsPerCall: 30, costPerCall: 0.02 },
    });
    expect(text).toContain('4 of 4 blocked calls would have repeated a known failure.');
    expect(text).toContain('about 2 min of agent time and $0.08');
    expect(text).toContain('assuming 30 s and $0.02 per avoided call');
  });

  it('says when nothing was blocked', () => {
    const quiet = story(sample.sessions[0]);
    const text = formatExplanation(quiet, format);
    expect(text).toContain('  Nothing was blocked.');
    expect(text).toContain('  Nothing new: no constraint was learned or lifted.');
    expect(estimateSavings(quiet, DEFAULT_SAVINGS)).toMatchObject({ blockedCalls: 0, seconds: 0 });
  });

  it('dates the session in the time zone asked for', () => {
    expect(formatExplanation(story(), format)).toContain('2026-03-04 10:00 to 10:00 (24 s)');
  });

  it('gives machine output', () => {
    const json = explanationJson(story(), DEFAULT_SAVINGS) as {
      calls: Record<string, number>;
      blocks: { rule: string; count: number; tools: Record<string, number> }[];
      savings: { repeatsPrevented: number; costUsd: number };
    };
    expect(json.calls).toEqual({
      proposed: 12,
      ran: 8,
      succeeded: 3,
      failed: 5,
      warned: 1,
      blocked: 4,
      halted: 0,
    });
    expect(json.blocks[0]).toMatchObject({
      rule: 'identical-failure',
      count: 3,
      tools: { read_file: 2, edit_file: 1 },
    });
    expect(json.savings.repeatsPrevented).toBe(4);
    expect(json.savings.costUsd).toBeCloseTo(0.012);
  });
});
