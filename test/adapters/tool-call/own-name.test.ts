import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerNamesTool } from '../../../src/adapters/tool-call/own-name.js';
import type { Outcome } from '../../../src/core/types.js';

function answer(tool: string, content: string): Outcome {
  return { proposal: { tool, args: {} }, success: true, content };
}

const REVIEW = [
  'Please review your changes before they go in:',
  '1. Run your reproduction script again if you changed code after running it.',
  '2. Remove the reproduction script.',
  '3. Run the submit command again to confirm.',
  '',
  '<diff>',
  'diff --git a/moto/core/models.py b/moto/core/models.py',
].join('\n');

describe('an answer that names its own tool', () => {
  it('reads a review that asks for the submit command again', () => {
    expect(answerNamesTool(answer('submit', REVIEW))).toBe(true);
  });

  it('reads the bare name of a tool reached through an MCP server', () => {
    expect(answerNamesTool(answer('mcp__sweagent__submit', REVIEW))).toBe(true);
    expect(answerNamesTool(answer('sweagent.submit', REVIEW))).toBe(true);
  });

  it('does not take a longer word that holds the name for the name', () => {
    expect(
      answerNamesTool(answer('submit', 'Your answer was submitted. Resubmitting is not possible.')),
    ).toBe(false);
    expect(answerNamesTool(answer('book_reservation', 'Booking HATHAT confirmed for mia_li_3668.'))).toBe(
      false,
    );
  });

  it('reads only the head of a long answer', () => {
    const long = `${'+ unchanged line\n'.repeat(1_000)}Run the submit command again to confirm.`;
    expect(answerNamesTool(answer('submit', long))).toBe(false);
  });

  it('agrees with a whole-word pattern on any short answer', () => {
    const text = fc.stringMatching(/^[a-zA-Z_ .\n-]{0,80}$/);
    fc.assert(
      fc.property(text, (content) => {
        const expected = /(^|[^a-z0-9_])submit([^a-z0-9_]|$)/.test(content.toLowerCase());
        expect(answerNamesTool(answer('submit', content))).toBe(expected);
      }),
    );
  });
});
