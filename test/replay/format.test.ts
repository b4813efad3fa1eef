import { describe, expect, it } from 'vitest';
import { stepJson, stepTable, summaryJson, summaryLine } from '../../src/replay/format.js';
import type { ReplayStep } from '../../src/replay/replay.js';

const blocked: ReplayStep = {
  step: 4,
  tool: 'read_file',
  verdict: 'block',
  rule: 'identical-failure',
  reason:
    'read_file {file: data.json} failed 2 times with empty_result and nothing it depends on has changed since',
  suggestion: 'Read another file.',
};

describe('stepJson', () => {
  it('writes step, tool and verdict for an allowed call', () => {
    expect(stepJson({ step: 1, tool: 'read_file', verdict: 'allow' })).toBe(
      '{"step":1,"tool":"read_file","verdict":"allow"}',
    );
  });

  it('adds rule and reason, in that order, when the call is not allowed', () => {
    expect(stepJson(blocked)).toBe(
      '{"step":4,"tool":"read_file","verdict":"block","rule":"identical-failure",' +
        '"reason":"read_file {file: data.json} failed 2 times with empty_result and nothing it depends on has changed since"}',
    );
  });
});

describe('summaryJson', () => {
  it('writes the counts in the documented order', () => {
    expect(summaryJson({ halt: 0, block: 2, warn: 1, allow: 9, calls: 12 })).toBe(
      '{"summary":{"calls":12,"allow":9,"warn":1,"block":2,"halt":0}}',
    );
  });
});

describe('stepTable', () => {
  const steps: ReplayStep[] = [
    { step: 3, tool: 'read_file', verdict: 'allow' },
    { ...blocked, step: 12 },
  ];

  it('aligns the columns', () => {
    const [header, first, second] = stepTable(steps);
    expect(header).toBe('STEP  TOOL       VERDICT  RULE               REASON');
    expect(first).toBe('   3  read_file  allow');
    expect(second?.indexOf('block')).toBe(header?.indexOf('VERDICT'));
    expect(second?.indexOf('identical-failure')).toBe(header?.indexOf('RULE'));
  });

  it('cuts reasons to the terminal width', () => {
    const lines = stepTable(steps, { verdict: (_verdict, text) => text, dim: (text) => text, width: 60 });
    expect(lines.every((line) => line.length <= 60)).toBe(true);
    expect(lines[2]?.endsWith('…')).toBe(true);
  });

  it('keeps whole reasons when there is no terminal', () => {
    expect(stepTable(steps)[2]).toContain('has changed since');
  });

  it('colours the verdict only', () => {
    const lines = stepTable(steps, {
      verdict: (verdict, text) => `<${verdict}>${text}</>`,
      dim: (text) => text,
    });
    expect(lines[2]).toContain('<block>block  </>');
  });
});

describe('summaryLine', () => {
  it('counts every verdict', () => {
    expect(summaryLine({ calls: 12, allow: 9, warn: 1, block: 2, halt: 0 })).toBe(
      '12 calls: 9 allow, 1 warn, 2 block, 0 halt',
    );
  });
});
