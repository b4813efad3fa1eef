import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type CorpusLabels,
  formatCorpusDetails,
  formatCorpusScore,
  formatPredictions,
  halfScore,
  notMeasured,
  runDetails,
  scoreCorpus,
  scoreRun,
} from '../../bench/corpus.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const LABELS: CorpusLabels = {
  trace: 'coder-django-11019.jsonl',
  source: 'coder',
  calls: 12,
  justified: [{ step: 6 }, { step: 7 }, { step: 8 }, { step: 9 }, { step: 10 }, { step: 11 }],
  loops: [{ start: 5, end: 11, wasted: [6, 7, 8, 9, 10, 11] }],
};
const steps = (stopped: readonly number[]) =>
  Array.from({ length: 12 }, (_, index) => ({
    step: index + 1,
    verdict: stopped.includes(index + 1) ? 'block' : 'allow',
  }));

describe('judging one replayed run', () => {
  it('catches a loop when one of its first five wasted calls is blocked, and counts the wasted calls saved', () => {
    expect(scoreRun(LABELS, steps([10, 11, 12]))).toMatchObject({
      caught: 1,
      saved: 2,
      blocks: 3,
      falseBlocks: 1,
    });
  });

  it('does not catch a loop blocked only from its sixth wasted call', () => {
    expect(scoreRun(LABELS, steps([11]))).toMatchObject({ caught: 0, saved: 1, falseBlocks: 0 });
  });

  it('counts a block of a step nobody labelled wasted as false', () => {
    expect(scoreRun(LABELS, steps([2, 3]))).toMatchObject({ blocks: 2, falseBlocks: 2, caught: 0 });
  });
});

describe('listing what went wrong in one run', () => {
  const events = Array.from({ length: 12 }, (_, index) => ({
    type: 'call',
    tool: 'bash',
    args: { command: `python run.py --case ${index + 1}` },
  }));

  it('lists a block of a step nobody labelled wasted with its call, rule and reason', () => {
    const replayed = steps([2]).map((step) =>
      step.step === 2 ? { ...step, tool: 'bash', rule: 'identical-failure', reason: 'failed twice' } : step,
    );
    const [detail] = runDetails('design', LABELS, replayed, events);
    expect(detail).toMatchObject({
      kind: 'false block',
      step: 2,
      tool: 'bash',
      args: '{"command":"python run.py --case 2"}',
      rule: 'identical-failure',
      reason: 'failed twice',
    });
    expect(formatCorpusDetails([detail as NonNullable<typeof detail>])).toContain(
      'design coder false block: coder-django-11019.jsonl step 2 bash',
    );
  });

  it('lists a loop none of whose first five wasted calls was blocked, with the verdict of each', () => {
    const details = runDetails('design', LABELS, steps([11]), events);
    expect(details).toHaveLength(1);
    expect(details[0]).toMatchObject({ kind: 'missed loop', step: 6 });
    expect(details[0]?.wasted?.map((item) => item.verdict)).toEqual([
      'allow',
      'allow',
      'allow',
      'allow',
      'allow',
      'block',
    ]);
  });
});

describe('a half', () => {
  it('averages the share of loops caught over the sources that have loops', () => {
    const half = halfScore('validation', [
      scoreRun(LABELS, steps([6])),
      scoreRun({ ...LABELS, source: 'live-swe-agent' }, steps([])),
      scoreRun({ ...LABELS, source: 'claude', loops: [], justified: [] }, steps([1])),
    ]);
    expect(half.caughtPerSource).toBe(0.5);
    expect(half.total).toMatchObject({ runs: 3, calls: 36, loops: 2, caught: 1, falseBlocks: 1 });
  });

  it('says "not measured" for a half the corpus does not hold', () => {
    const text = formatCorpusScore({
      preset: 'precise',
      halves: { design: halfScore('design', [scoreRun(LABELS, steps([]))]) },
    });
    expect(text).toMatch(/runs, calls +1 runs, 12 calls +not measured/);
  });

  it('prints beside each share and rate how far it could move on other sources like these', () => {
    const text = formatCorpusScore({
      preset: 'precise',
      halves: {
        design: halfScore('design', [
          scoreRun(LABELS, steps([6])),
          scoreRun({ ...LABELS, source: 'live-swe-agent' }, steps([2])),
        ]),
      },
    });
    expect(text).toMatch(/loops caught by the 5th wasted call +1\/2 \(50%; 0–100%\)/);
    expect(text).toMatch(/false blocks per 1,000 calls +41\.67 \(1 of 24 calls; 0\.00–83\.33\)/);
    expect(text).toContain('middle 95% of its values over 10,000 draws');
  });

  it('says the corpus was not measured without a directory', () => {
    expect(notMeasured(undefined)).toMatch(/not measured/);
  });
});

describe('scoring a corpus', () => {
  it('replays every labelled trace of a half through the built guard', async () => {
    const corpus = mkdtempSync(join(tmpdir(), 'narrowing-corpus-'));
    dirs.push(corpus);
    mkdirSync(join(corpus, 'design', 'traces'), { recursive: true });
    const failing = {
      type: 'call',
      tool: 'Bash',
      args: { command: 'npm test' },
      result: {
        isError: true,
        content: 'Exit code 1\nFAIL src/api.test.ts\n  ● creates a user\n    expected 201, got 500',
      },
    };
    writeFileSync(
      join(corpus, 'design', 'traces', 'run.jsonl'),
      `${Array.from({ length: 6 }, () => JSON.stringify(failing)).join('\n')}\n`,
    );
    const labels: CorpusLabels = {
      trace: 'run.jsonl',
      source: 'claude',
      calls: 6,
      justified: [2, 3, 4, 5, 6].map((step) => ({ step })),
      loops: [{ start: 1, end: 6, wasted: [2, 3, 4, 5, 6] }],
    };
    writeFileSync(join(corpus, 'design', 'labels.jsonl'), `${JSON.stringify(labels)}\n`);
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const score = await scoreCorpus(corpus, { root });
    expect(score.halves.validation).toBeUndefined();
    expect(score.halves.design?.total).toMatchObject({ runs: 1, calls: 6, loops: 1 });
  });

  it('checks each block against what the blocked call answered, and counts per rule and per source', async () => {
    const corpus = mkdtempSync(join(tmpdir(), 'narrowing-corpus-'));
    dirs.push(corpus);
    mkdirSync(join(corpus, 'design', 'traces'), { recursive: true });
    const missing = {
      isError: true,
      content: "Exit code 1\nError: Cannot find module '/app/dist/server.js'",
    };
    const run = (result: object) => ({
      type: 'call',
      tool: 'Bash',
      args: { command: 'node dist/server.js' },
      result,
    });
    const lines = [run(missing), run(missing), run(missing), run({ content: 'listening on :3000' })];
    writeFileSync(
      join(corpus, 'design', 'traces', 'run.jsonl'),
      `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`,
    );
    const labels: CorpusLabels = { trace: 'run.jsonl', source: 'claude', calls: 4, justified: [], loops: [] };
    writeFileSync(join(corpus, 'design', 'labels.jsonl'), `${JSON.stringify(labels)}\n`);
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const score = await scoreCorpus(corpus, { root, predictions: true });
    const bySource = score.predictions?.design?.bySource.claude ?? {};
    expect(bySource['new-success']).toBe(1);
    const text = formatPredictions(score.predictions ?? {});
    expect(text).toMatch(/design blocks by rule/);
    expect(text).toMatch(/claude\s+\d+\s+1\s+0\s+0\s+\d+%/);
  });
});
