import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BARE_FENCE, fencedBlock } from '../../scripts/corpus/fenced-block.js';

const FENCE = '```';

describe('fenced blocks of a saved chat', () => {
  it('reads the body of the first block at or after a line, and the line past its close', () => {
    const lines = [
      '**Result:**',
      '',
      `${FENCE}text`,
      'added 3 packages',
      'found 0 vulnerabilities',
      FENCE,
      'after',
    ];
    expect(fencedBlock(lines, 1)).toEqual({ body: 'added 3 packages\nfound 0 vulnerabilities', next: 6 });
  });

  it('runs a block left open to the end of the lines', () => {
    expect(fencedBlock(['  ```bash', 'npm test'], 0)).toEqual({ body: 'npm test', next: 3 });
  });

  it('skips blocks of other languages when asked for one, and closes only at a bare fence when asked to', () => {
    const lines = [`${FENCE}ts`, 'const a = 1;', FENCE, `${FENCE}diff`, '-old', `+${FENCE}ts inside`, FENCE];
    expect(fencedBlock(lines, 0, /^```diff$/, BARE_FENCE)?.body).toBe(`-old\n+${FENCE}ts inside`);
  });

  it('finds nothing where no block opens', () => {
    expect(fencedBlock(['Result:', 'no block here'], 0)).toBeUndefined();
  });

  it('gives back, for any body without fences, exactly the body written between two fences', () => {
    const line = fc
      .string({ maxLength: 30 })
      .filter((text) => !text.includes('\n') && !text.trim().startsWith(FENCE));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 8 }), fc.array(line, { maxLength: 4 }), (body, before) => {
        const lines = [...before, `${FENCE}text`, ...body, FENCE, 'tail'];
        expect(fencedBlock(lines, 0)).toEqual({
          body: body.join('\n'),
          next: before.length + body.length + 2,
        });
      }),
    );
  });
});
