import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type BlameEntry,
  blameNotMeasured,
  formatBlameCorpusScore,
  runBlameCorpusCommand,
  scoreBlameCorpus,
} from '../../bench/blame-corpus.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function entry(text: string, blame: BlameEntry['blame'], extra: Partial<BlameEntry> = {}): BlameEntry {
  return {
    text,
    blame,
    deterministic: blame === 'agent_failure',
    category: 'test',
    source: 'local:test',
    ...extra,
  };
}

const MISSING_FILE = entry('cat: nothere.txt: No such file or directory', 'agent_failure', {
  tool: 'Bash',
  args: { command: 'cat nothere.txt' },
  exitCode: 1,
});
const UNRESOLVED_HOST = entry(
  'curl: (6) Could not resolve host: registry.internal.example',
  'harness_fault',
  {
    tool: 'Bash',
    args: { command: 'curl -fsS https://registry.internal.example/v2/' },
    exitCode: 6,
  },
);

function corpus(halves: { design: BlameEntry[]; validation: BlameEntry[] }): string {
  const dir = mkdtempSync(join(tmpdir(), 'narrowing-blame-corpus-'));
  dirs.push(dir);
  for (const [half, entries] of Object.entries(halves)) {
    writeFileSync(join(dir, `${half}.jsonl`), entries.map((item) => `${JSON.stringify(item)}\n`).join(''));
  }
  return dir;
}

describe('the blame corpus figures', () => {
  it('reads each half with the built adapter, as a harness sees the call and from the text alone', async () => {
    const dir = corpus({
      design: [MISSING_FILE, UNRESOLVED_HOST],
      validation: [MISSING_FILE, UNRESOLVED_HOST, entry('Error: something went wrong', 'ambiguous')],
    });
    const score = await scoreBlameCorpus(dir, root);
    for (const half of ['design', 'validation'] as const) {
      for (const reading of ['call', 'text'] as const) {
        expect(score.halves[half][reading]).toMatchObject({ scored: 2, correct: 2, poison: [], missed: [] });
      }
    }
    expect(formatBlameCorpusScore(score)).toContain('both readings: met');
  });

  it('counts an environment failure the guard blames on the agent as poison, and the target as not met', async () => {
    const mislabelled = { ...MISSING_FILE, blame: 'harness_fault' as const };
    const score = await scoreBlameCorpus(corpus({ design: [MISSING_FILE], validation: [mislabelled] }), root);
    expect(score.halves.validation.call.poison).toEqual([mislabelled]);
    expect(formatBlameCorpusScore(score)).toMatch(/0\/1 \(0\.0%\), 1 poison, 0 missed[\s\S]*NOT MET/);
  });

  it('counts an agent failure the guard blames on nobody as missed', async () => {
    const unreadable = entry('Error: something went wrong', 'agent_failure');
    const score = await scoreBlameCorpus(corpus({ design: [unreadable], validation: [MISSING_FILE] }), root);
    expect(score.halves.design.text.missed).toEqual([unreadable]);
  });

  it('says the texts were not measured without a folder, or with a folder missing a half', async () => {
    let printed = '';
    const io = { stdout: { write: (text: string) => (printed += text) } };
    await runBlameCorpusCommand(undefined, { root }, io);
    const half = mkdtempSync(join(tmpdir(), 'narrowing-blame-corpus-'));
    dirs.push(half);
    writeFileSync(join(half, 'design.jsonl'), `${JSON.stringify(MISSING_FILE)}\n`);
    await runBlameCorpusCommand(half, { root }, io);
    expect(printed).toBe(`${blameNotMeasured(undefined)}\n${blameNotMeasured(half)}\n`);
    expect(printed).toContain('not measured (no design.jsonl and validation.jsonl in');
  });

  it('names the file and line of a line that is not an entry', async () => {
    const dir = corpus({ design: [MISSING_FILE], validation: [] });
    writeFileSync(join(dir, 'validation.jsonl'), '{"text": "x"}\n');
    await expect(scoreBlameCorpus(dir, root)).rejects.toThrow(
      /validation\.jsonl:1: an entry needs "text" and "blame"/,
    );
  });
});
