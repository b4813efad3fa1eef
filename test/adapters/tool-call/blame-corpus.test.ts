/**
 * The project's own blame corpus: real error texts of real tools and of public issue threads, each
 * labelled by the calibration corpus's labelling rules, split by source into a design half and a
 * validation half. The texts are other people's and stay out of the repository: build the corpus
 * with scripts/blame-corpus (gather.py runs the tools, public.py fetches the threads, build.py
 * splits them) and point NARROWING_BLAME_CORPUS at the folder holding design.jsonl and
 * validation.jsonl. Without it these tests are skipped.
 */
import { describe, expect, it } from 'vitest';
import {
  type BlameEntry,
  type BlameFigures,
  blameCorpusPresent,
  blameReaderOf,
  measureBlame,
  readBlameHalf,
} from '../../../bench/blame-corpus.js';
import * as toolCall from '../../../src/adapters/tool-call/index.js';
import { SignatureMatcher } from '../../../src/adapters/tool-call/matcher.js';
import { TEXT_RULES } from '../../../src/adapters/tool-call/signatures.js';

const DIR = process.env.NARROWING_BLAME_CORPUS;
const PRESENT = blameCorpusPresent(DIR);
const HALVES = {
  design: PRESENT ? readBlameHalf(DIR, 'design') : [],
  validation: PRESENT ? readBlameHalf(DIR, 'validation') : [],
};
const CORPUS = [...HALVES.design, ...HALVES.validation];

const blameOf = blameReaderOf(toolCall);

function measure(entries: readonly BlameEntry[], asScored: boolean): BlameFigures {
  return measureBlame(entries, blameOf, asScored);
}

function report(title: string, figures: BlameFigures): void {
  const percent = ((100 * figures.correct) / figures.scored).toFixed(1);
  const lines = [
    `${title}: ${figures.correct}/${figures.scored} correct (${percent}%), ${figures.poison.length} poison, ${figures.missed.length} missed`,
    ...figures.wrong.map(
      ({ entry, product }) =>
        `  [${entry.category}] label=${entry.blame} product=${product}  ${entry.text.replace(/\s+/g, ' ').slice(0, 100)}`,
    ),
  ];
  console.log(lines.join('\n'));
}

describe.skipIf(!PRESENT)('the blame corpus', () => {
  it('holds at least 500 real error texts, each with its source and labels', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(500);
    for (const entry of CORPUS) {
      // A silent failure is kept only with the exit status it ended with.
      expect(entry.text !== '' || entry.exitCode !== undefined, entry.source).toBe(true);
      expect(entry.source, entry.text).toMatch(/^(?:local:|https:\/\/)/);
      expect(['agent_failure', 'harness_fault', 'unknown', 'ambiguous']).toContain(entry.blame);
      expect(typeof entry.deterministic).toBe('boolean');
      expect(entry.category).toMatch(/^[a-z0-9-]+$/);
    }
  });

  for (const half of ['design', 'validation'] as const) {
    it(`reads the ${half} half right at least 97% of the time, with no poison, as a harness sees the calls`, () => {
      const figures = measure(HALVES[half], false);
      report(`${half} half (arguments and exit status)`, figures);
      expect(figures.poison).toEqual([]);
      expect(figures.correct / figures.scored).toBeGreaterThanOrEqual(0.97);
    });

    it(`reads the ${half} half right at least 97% of the time, with no poison, from the text alone`, () => {
      const figures = measure(HALVES[half], true);
      report(`${half} half (text only, as the calibration scorer asks)`, figures);
      expect(figures.poison).toEqual([]);
      expect(figures.correct / figures.scored).toBeGreaterThanOrEqual(0.97);
    });
  }

  it('reads every text the same with and without the hint prefilter', () => {
    const fast = new SignatureMatcher(TEXT_RULES);
    const unfiltered = new SignatureMatcher(TEXT_RULES.map((rule) => ({ ...rule, hints: undefined })));
    for (const entry of CORPUS) {
      expect({ text: entry.text, rule: fast.match(entry.text)?.pattern.source }).toEqual({
        text: entry.text,
        rule: unfiltered.match(entry.text)?.pattern.source,
      });
    }
  });

  it('never skips a rule whose pattern matches: every match contains one of its hints', () => {
    for (const entry of CORPUS) {
      const lower = entry.text.toLowerCase();
      for (const rule of TEXT_RULES) {
        const subject = rule.folded ? lower : entry.text;
        if (!rule.pattern.test(subject)) continue;
        const hinted = (rule.hints ?? []).some((hint) => lower.includes(hint));
        expect({
          rule: rule.pattern.source.slice(0, 60),
          text: entry.text.slice(0, 80),
          hinted,
        }).toMatchObject({
          hinted: true,
        });
      }
    }
  });
});
