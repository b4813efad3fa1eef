import { describe, expect, it } from 'vitest';
import { parseExpectation, unmetExpectations } from '../../src/replay/expectations.js';
import type { ReplayStep } from '../../src/replay/replay.js';

function steps(...verdicts: ReplayStep['verdict'][]): ReplayStep[] {
  return verdicts.map((verdict, index) => ({ step: index + 1, tool: 'read_file', verdict, rule: 'r' }));
}

describe('unmetExpectations', () => {
  it('accepts a first block inside block_at', () => {
    expect(unmetExpectations({ block_at: [3, 4] }, steps('allow', 'allow', 'warn', 'block'))).toEqual([]);
  });

  it('counts a halt as a block', () => {
    expect(unmetExpectations({ block_at: [2, 2] }, steps('allow', 'halt'))).toEqual([]);
  });

  it('reports a first block that comes too early', () => {
    expect(unmetExpectations({ block_at: [3, 4] }, steps('allow', 'block', 'block'))).toEqual([
      'expected the first block between steps 3 and 4, but step 2 was block (r)',
    ]);
  });

  it('reports a loop that was never blocked', () => {
    expect(unmetExpectations({ block_at: [1, 2] }, steps('allow', 'warn'))).toEqual([
      'expected the first block between steps 1 and 2, but nothing was blocked',
    ]);
  });

  it('lets never_block pass with warnings', () => {
    expect(unmetExpectations({ never_block: true }, steps('allow', 'warn', 'warn'))).toEqual([]);
  });

  it('reports every blocked step under never_block', () => {
    expect(unmetExpectations({ never_block: true }, steps('block', 'allow', 'halt'))).toHaveLength(2);
  });

  it('checks must_block and must_not_block step by step', () => {
    const expectation = { must_block: [2, 3], must_not_block: [1] };
    expect(unmetExpectations(expectation, steps('block', 'block', 'allow'))).toEqual([
      'expected step 3 to be blocked, but step 3 was allow (r)',
      'expected step 1 not to be blocked, but step 1 was block (r)',
    ]);
  });
});

describe('parseExpectation', () => {
  it('accepts the documented forms', () => {
    expect(parseExpectation({ block_at: [3, 3] })).toEqual({ block_at: [3, 3] });
    expect(parseExpectation({ must_block: [3], must_not_block: [1, 4] })).toEqual({
      must_block: [3],
      must_not_block: [1, 4],
    });
  });

  it('rejects a reversed range', () => {
    expect(() => parseExpectation({ block_at: [4, 3] })).toThrow(/lo <= hi/);
  });

  it('rejects unknown fields', () => {
    expect(() => parseExpectation({ blockAt: [1, 2] })).toThrow('expect has unknown fields: blockAt');
  });
});
