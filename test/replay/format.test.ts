import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { VerdictKind } from '../../src/core/types.js';
import { PLAIN_STYLE, stepJson, stepTable, summaryJson, summaryLine } from '../../src/replay/format.js';
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

describe('stepJson on long traces', () => {
  it('writes a name the same on a later line as on its first, past as many names as a trace of made-up tools holds', () => {
    const names = Array.from({ length: 1_500 }, (_, index) => `mcp__srv_${index}__say "hi"\u2028`);
    names.push(`mcp__${'x'.repeat(300)}`);
    const step = (tool: string) => ({ step: 7, tool, verdict: 'block' as const, rule: tool, reason: 'r' });
    const expected = names.map((tool) => JSON.stringify(step(tool)));
    expect(names.map((tool) => stepJson(step(tool)))).toEqual(expected);
    expect(names.map((tool) => stepJson(step(tool)))).toEqual(expected);
  });
});

describe('summaryJson', () => {
  it('writes the counts in the documented order', () => {
    expect(summaryJson({ halt: 0, block: 2, warn: 1, allow: 9, calls: 12 })).toBe(
      '{"summary":{"calls":12,"allow":9,"warn":1,"block":2,"halt":0}}',
    );
  });

  it('counts coalesced calls apart from blocks', () => {
    expect(summaryJson({ calls: 3, allow: 1, warn: 0, block: 0, halt: 0, coalesced: 2 })).toBe(
      '{"summary":{"calls":3,"allow":1,"warn":0,"block":0,"halt":0,"coalesced":2}}',
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

  it('counts coalesced calls apart from blocks', () => {
    expect(summaryLine({ calls: 3, allow: 1, warn: 0, block: 0, halt: 0, coalesced: 2 })).toBe(
      '3 calls: 1 allow, 0 warn, 0 block, 0 halt, 2 coalesced',
    );
  });
});

describe('stepJson, field by field', () => {
  /** The line as `JSON.stringify` writes the object with the documented fields in their order. */
  function objectLine(step: ReplayStep): string {
    const { step: number, tool, verdict, rule, reason, returned, agent } = step;
    const stopped = verdict !== 'allow';
    return JSON.stringify({
      step: number,
      tool,
      ...(agent !== undefined ? { agent } : {}),
      verdict,
      ...(stopped && rule !== undefined ? { rule } : {}),
      ...(stopped && reason !== undefined ? { reason } : {}),
      ...(returned !== undefined ? { returned } : {}),
    });
  }

  it('writes every step as JSON.stringify writes it, whatever its texts hold', () => {
    const text = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.string({ unit: 'binary', maxLength: 30 }),
      fc.constantFrom('"quoted"', 'back\\slash', 'line\nbreak', '\u2028', '\ud800', '</script>'),
    );
    const step = fc.record(
      {
        step: fc.integer({ min: 1, max: 10_000_000 }),
        tool: text,
        verdict: fc.constantFrom('allow', 'warn', 'block', 'halt') as fc.Arbitrary<VerdictKind>,
        rule: text,
        reason: text,
        suggestion: text,
        returned: text,
        agent: text,
      },
      { requiredKeys: ['step', 'tool', 'verdict'] },
    );
    fc.assert(
      fc.property(step, (value) => {
        expect(stepJson(value)).toBe(objectLine(value));
        expect(JSON.parse(stepJson(value))).toEqual(JSON.parse(objectLine(value)));
      }),
      { numRuns: 1_000 },
    );
  });
});

describe('stepTable on a narrow terminal', () => {
  it('narrows the tool and returned columns so a row with a long MCP tool name still fits, reason included', () => {
    const steps: ReplayStep[] = [
      {
        step: 7,
        tool: 'mcp__github__create_pull_request_review',
        returned: 'error: Validation Failed: {"resource":"PullRequestReview","code":"custom"}',
        verdict: 'block',
        rule: 'identical-failure',
        reason:
          'mcp__github__create_pull_request_review failed twice and nothing it depends on has changed since: Validation Failed',
      },
    ];
    const lines = stepTable(steps, { ...PLAIN_STYLE, width: 80 });
    expect(lines.every((line) => line.length <= 80)).toBe(true);
    expect(lines[1]).toMatch(/identical-failure {2}mcp__github.{10,}…$/);
  });
});
