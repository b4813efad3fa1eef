import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  askedFields,
  readAskedFields,
  rewords,
  savedAskedFields,
} from '../../../src/core/detectors/rewording.js';

function reworded(before: Record<string, unknown>, after: Record<string, unknown>): boolean {
  return rewords(askedFields(before), askedFields(after));
}

/** What a new process reads back of arguments from the session's run state. */
function restored(args: Record<string, unknown>) {
  const read = readAskedFields(JSON.parse(JSON.stringify(savedAskedFields(askedFields(args)))));
  if (read === undefined) throw new Error('the saved fields were not read back');
  return read;
}

describe('rewording', () => {
  it('reads a question asked again with some of the same words as a rewording', () => {
    expect(
      reworded(
        { chat_uuid: 'c0a8012e', text: 'late payment penalty' },
        { chat_uuid: 'c0a8012e', text: 'penalty for paying rent late' },
      ),
    ).toBe(true);
  });

  it('reads a field changed to words it did not hold as another question', () => {
    expect(
      reworded(
        { repository_name: 'RehealthAI/rehealth-android', query: 'SimulationEngine' },
        { repository_name: 'RehealthAI/rehealth-android', query: 'wearable' },
      ),
    ).toBe(false);
  });

  it('needs every field that changed to share a word with what it held', () => {
    expect(
      reworded(
        { text: 'late rent penalty', section: 'payments' },
        { text: 'rent overdue charges', section: 'termination' },
      ),
    ).toBe(false);
  });

  it('is no rewording when nothing changed', () => {
    expect(reworded({ text: 'late rent penalty' }, { text: 'late rent penalty' })).toBe(false);
  });

  it('does not count the short words every question shares', () => {
    expect(reworded({ query: 'how to add a user' }, { query: 'how to set up the db' })).toBe(false);
  });

  it('compares words whatever their case', () => {
    expect(reworded({ query: 'Spider-Man villains' }, { query: 'spider-man enemies' })).toBe(true);
  });

  it('tells a field that appeared or went from one that changed', () => {
    expect(reworded({ query: 'rent penalty' }, { query: 'rent penalty', page: 2 })).toBe(false);
  });

  it('reads back what it saved as it compared it, for any arguments', () => {
    const value = fc.oneof(fc.string(), fc.integer(), fc.array(fc.string(), { maxLength: 4 }));
    const args = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), value, { maxKeys: 4 });
    fc.assert(
      fc.property(args, args, (before, after) => {
        expect(rewords(restored(before), restored(after))).toBe(reworded(before, after));
      }),
    );
  });

  it('saves no word of the question in clear', () => {
    const word = fc.stringMatching(/^[g-z]{6,12}$/);
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 6 }), (words) => {
        const saved = JSON.stringify(savedAskedFields(askedFields({ query: words.join(' ') })));
        for (const each of words) expect(saved).not.toContain(each);
      }),
    );
  });

  it('keeps at most 32 fields and 64 words of a question, however long its arguments', () => {
    const words = Array.from(
      { length: 500 },
      (_, index) => `word${index.toString(26).replace(/\d/g, (d) => 'qrstuvwxyz'[Number(d)] as string)}`,
    );
    const args: Record<string, string> = {};
    for (let field = 0; field < 100; field++) args[`field${field}`] = words.slice(field).join(' ');
    const fields = askedFields(args);
    expect(fields.size).toBe(32);
    let kept = 0;
    for (const field of fields.values()) kept += field.words.size;
    expect(kept).toBe(64);
  });

  it('reads nothing back from a state it did not write', () => {
    for (const garbage of [undefined, null, 7, 'x', {}, [['a']], [['a', 'b', 'c']], [['a', 'b', [1]]]]) {
      expect(readAskedFields(garbage)).toBeUndefined();
    }
  });
});
