import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ErrorSubjects,
  namesLookedUp,
  subjectLookedUp,
  subjectNamed,
} from '../../src/core/subject-lookup.js';

/** The subjects of an error as they were read before any shortcut: every pattern over the whole text. */
function subjectsReadInFull(error: string): Set<string> {
  const text = error.slice(0, 4_000).toLowerCase();
  const isName = (word: string) =>
    word.length >= 3 && /[a-z]/.test(word) && !word.includes('/') && !word.startsWith('-');
  const subjects = new Set<string>();
  for (const [, quoted] of text.matchAll(/['"`]([^'"`\s]{3,200})['"`]/g))
    if (isName(quoted as string)) subjects.add(quoted as string);
  for (const [pinned] of text.matchAll(/[^\s'"`@=]{3,200}(?=@|==?)/g))
    if (isName(pinned)) subjects.add(pinned);
  return subjects;
}

/** What a look-up finds with the subjects read in full, as `subjectLookedUp` must. */
function lookedUpInFull(lookup: string, failed: string, error: string): string | undefined {
  const looked = namesLookedUp(lookup);
  const failedNames = namesLookedUp(failed);
  const subjects = subjectsReadInFull(error);
  if (looked.size === 0 || subjects.size === 0) return undefined;
  for (const name of looked) if (subjects.has(name) && !failedNames.has(name)) return name;
  return undefined;
}

const WORDS = ['tsx', 'torch', 'feature-x', 'npm', 'install', 'view', 'lodash', 'src/a.ts', '-v', '42'];
const MARKS = [' ', "'", '"', '`', '@', '=', '==', '^', '.', ':', '\n', '@^4.2.1', '==9.9'];
const text = fc
  .array(fc.oneof(fc.constantFrom(...WORDS), fc.constantFrom(...MARKS), fc.string({ maxLength: 6 })), {
    maxLength: 30,
  })
  .map((parts) => parts.join(''));

describe('the subject of an error a look-up names', () => {
  it('is the one the patterns find over the whole error, with or without a pin in it', () => {
    fc.assert(
      fc.property(text, text, text, (lookup, failed, error) => {
        expect(subjectLookedUp(lookup, failed, error)).toBe(lookedUpInFull(lookup, failed, error));
      }),
      { numRuns: 3_000 },
    );
  });

  it('is the same when the errors read earlier are kept', () => {
    const errors = new ErrorSubjects();
    fc.assert(
      fc.property(text, text, fc.array(text, { minLength: 1, maxLength: 4 }), (lookup, failed, seen) => {
        const looked = namesLookedUp(lookup);
        for (const error of [...seen, ...seen])
          expect(subjectNamed(looked, failed, error, errors)).toBe(subjectLookedUp(lookup, failed, error));
      }),
      { numRuns: 1_000 },
    );
  });

  it('finds a pinned version in an npm error after the error was read once for another look-up', () => {
    const errors = new ErrorSubjects();
    const error = 'npm error notarget No matching version found for tsx@^4.22.1.';
    expect(subjectNamed(namesLookedUp('npm view typescript version'), 'npm install', error, errors)).toBe(
      undefined,
    );
    expect(subjectNamed(namesLookedUp('npm view tsx versions'), 'npm install', error, errors)).toBe('tsx');
  });
});
