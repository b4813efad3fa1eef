import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { presetPolicy, ToolPolicyIndex } from '../../src/core/policy.js';
import { loadPolicyFile, PolicyError, parsePolicy, policyJsonSchema } from '../../src/policy-file/index.js';

const dir = mkdtempSync(join(tmpdir(), 'narrowing-policy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function writePolicy(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function problemsOf(input: unknown): readonly string[] {
  try {
    parsePolicy(input);
  } catch (error) {
    if (error instanceof PolicyError) return error.problems;
    throw error;
  }
  throw new Error('expected the policy to be rejected');
}

describe('parsePolicy error messages', () => {
  it('names the field, the allowed values and the value it got for an enum', () => {
    expect(() => parsePolicy({ learning: { strategyEffect: 'maybe' } }, 'policy.yaml')).toThrow(
      'policy.yaml: learning.strategyEffect must be one of "warn", "block", "off" (got "maybe")',
    );
  });

  it('says a count must be a positive integer', () => {
    expect(problemsOf({ detectors: { poll: { blockAt: -1 } } })).toEqual([
      'detectors.poll.blockAt must be a positive integer (got -1)',
    ]);
  });

  it('rejects a fractional count', () => {
    expect(problemsOf({ detectors: { errorStreak: { warnAt: 2.5 } } })).toEqual([
      'detectors.errorStreak.warnAt must be a positive integer (got 2.5)',
    ]);
  });

  it('rejects a number written as a string', () => {
    expect(problemsOf({ budget: { maxSteps: '100' } })).toEqual([
      'budget.maxSteps must be a positive integer (got "100")',
    ]);
  });

  it('suggests the closest field for an unknown top-level field', () => {
    expect(problemsOf({ detector: {} })).toEqual([
      'unknown field "detector" at the top level — did you mean "detectors"?',
    ]);
  });

  it('suggests a field whose only difference is letter case', () => {
    expect(problemsOf({ detectors: { poll: { blockat: 3 } } })).toEqual([
      'unknown field "blockat" in detectors.poll — did you mean "blockAt"?',
    ]);
  });

  it('lists the known fields when no field is close', () => {
    expect(problemsOf({ retries: 3 })).toEqual([
      'unknown field "retries" at the top level (known fields: preset, enforcement, learning, ' +
        'detectors, budget, tools, alternatives, context, sharing, store, otel)',
    ]);
  });

  it('names a tool whose name is a glob in bracket form', () => {
    expect(problemsOf({ tools: { 'mcp__github__*': { kind: 'fetch' } } })).toEqual([
      'tools["mcp__github__*"].kind must be one of "read", "search", "mutate", "create", "delete", ' +
        '"exec", "api", "poll", "other" (got "fetch")',
    ]);
  });

  it('finds typos inside a per-tool override', () => {
    expect(problemsOf({ tools: { Bash: { exmpt: true } } })).toEqual([
      'unknown field "exmpt" in tools.Bash — did you mean "exempt"?',
    ]);
  });

  it('validates detector thresholds inside a per-tool override', () => {
    expect(problemsOf({ tools: { Read: { detectors: { identicalResult: { blockAt: 0 } } } } })).toEqual([
      'tools.Read.detectors.identicalResult.blockAt must be a positive integer (got 0)',
    ]);
  });

  it('says a boolean switch must be true or false', () => {
    expect(problemsOf({ learning: { radius: { enabled: 'yes' } } })).toEqual([
      'learning.radius.enabled must be true or false (got "yes")',
    ]);
  });

  it('points at the bad element of a list', () => {
    expect(problemsOf({ learning: { radius: { curve: [5, 0, 1] } } })).toEqual([
      'learning.radius.curve[1] must be a positive integer (got 0)',
    ]);
  });

  it('rejects a section that is not a mapping', () => {
    expect(problemsOf({ detectors: 'all' })).toEqual(['detectors must be a mapping of fields (got "all")']);
  });

  it('rejects an empty tool name', () => {
    expect(problemsOf({ alternatives: { '': ['grep'] } })).toEqual([
      'every key in alternatives must be a non-empty tool name or glob (got "")',
    ]);
  });

  it('rejects a policy that is a list', () => {
    expect(problemsOf([{ preset: 'strict' }])).toEqual([
      'the policy must be a mapping of fields such as "preset" (got a list)',
    ]);
  });

  it('checks rules between fields after the preset is applied', () => {
    expect(problemsOf({ detectors: { cycle: { minPeriod: 9 } } })).toEqual([
      'detectors.cycle.minPeriod (9) must not be greater than detectors.cycle.maxPeriod (8)',
    ]);
  });

  it('rejects a warning threshold above the blocking one, for the detectors and per tool', () => {
    expect(problemsOf({ detectors: { identicalResult: { warnAt: 6 } } })).toEqual([
      'detectors.identicalResult.warnAt (6) must not be greater than detectors.identicalResult.blockAt (5): ' +
        'a call would be blocked before any warning',
    ]);
    expect(problemsOf({ tools: { get_job_status: { detectors: { poll: { warnAt: 30 } } } } })).toEqual([
      'tools.get_job_status.detectors.poll.warnAt (30) must not be greater than ' +
        'tools.get_job_status.detectors.poll.blockAt (6): a call would be blocked before any warning',
    ]);
  });

  it('rejects a warning threshold above the blocking one for failing edits of one file too', () => {
    expect(problemsOf({ detectors: { editStreak: { effect: 'block', warnAt: 7 } } })).toEqual([
      'detectors.editStreak.warnAt (7) must not be greater than detectors.editStreak.blockAt (5): ' +
        'a call would be blocked before any warning',
    ]);
  });

  it('reports every problem, one per line', () => {
    const problems = problemsOf({ preset: 'loose', enforcement: 'soft' });
    expect(problems).toEqual([
      'preset must be one of "precise", "strict", "off" (got "loose")',
      'enforcement must be one of "enforce", "advisory" (got "soft")',
    ]);
  });
});

describe('parsePolicy results', () => {
  it('returns the precise preset for an empty policy', () => {
    expect(parsePolicy({})).toEqual(presetPolicy('precise'));
  });

  it.each(['precise', 'strict', 'off'] as const)(
    'accepts the whole %s preset written out as a policy',
    (name) => {
      expect(parsePolicy(presetPolicy(name))).toEqual(presetPolicy(name));
    },
  );

  it('treats a missing document as the defaults', () => {
    expect(parsePolicy(null)).toEqual(presetPolicy('precise'));
  });

  it('starts from the named preset and overlays the fields given', () => {
    const policy = parsePolicy({ preset: 'strict', detectors: { poll: { blockAt: 30 } } });
    expect(policy.learning).toEqual(presetPolicy('strict').learning);
    expect(policy.detectors.poll).toEqual({ ...presetPolicy('strict').detectors.poll, blockAt: 30 });
  });

  it('turns every detector off with the off preset', () => {
    const policy = parsePolicy({ preset: 'off' });
    expect(Object.values(policy.detectors).every((detector) => !detector.enabled)).toBe(true);
  });

  it('lets a preset option win over the preset in the document', () => {
    expect(parsePolicy({ preset: 'strict' }, undefined, { preset: 'off' }).preset).toBe('off');
  });

  it('accepts a $schema field and leaves it out of the policy', () => {
    const policy = parsePolicy({ $schema: './policy.schema.json', enforcement: 'advisory' });
    expect(policy.enforcement).toBe('advisory');
    expect(policy).not.toHaveProperty('$schema');
  });
});

describe('per-tool overrides', () => {
  const policy = parsePolicy({
    tools: {
      'mcp__github__*': { detectors: { identicalResult: { blockAt: 6 } } },
      'mcp__github__create_*': { detectors: { creationRate: { max: 1 } } },
      mcp__github__create_issue: { exempt: true },
      ci_status: { kind: 'poll', alternatives: ['ci_logs'] },
    },
  });
  const index = new ToolPolicyIndex(policy);

  it('applies an exact name', () => {
    expect(index.resolve('ci_status')).toMatchObject({
      kind: 'poll',
      alternatives: ['ci_logs'],
      exempt: false,
    });
  });

  it('applies a glob to every tool it matches', () => {
    expect(index.resolve('mcp__github__get_issue').detectors.identicalResult.blockAt).toBe(6);
  });

  it('prefers the longest glob', () => {
    const resolved = index.resolve('mcp__github__create_branch');
    expect(resolved.detectors.creationRate.max).toBe(1);
    expect(resolved.detectors.identicalResult.blockAt).toBe(policy.detectors.identicalResult.blockAt);
  });

  it('prefers an exact name over any glob', () => {
    expect(index.resolve('mcp__github__create_issue').exempt).toBe(true);
  });

  it('leaves unmatched tools on the global thresholds', () => {
    expect(index.resolve('read_file').detectors).toEqual(policy.detectors);
  });
});

describe('loadPolicyFile', () => {
  it('loads YAML', () => {
    const path = writePolicy('a.yaml', 'preset: strict\ndetectors:\n  poll:\n    warnAt: 4\n');
    const policy = loadPolicyFile(path);
    expect(policy.preset).toBe('strict');
    expect(policy.detectors.poll.warnAt).toBe(4);
  });

  it('reads "off" in YAML as the preset name, not as false', () => {
    expect(loadPolicyFile(writePolicy('off.yml', 'preset: off\n')).preset).toBe('off');
  });

  it('loads JSON', () => {
    const path = writePolicy('a.json', JSON.stringify({ enforcement: 'advisory' }));
    expect(loadPolicyFile(path).enforcement).toBe('advisory');
  });

  it('reads a file without a known extension as JSON or else YAML', () => {
    expect(loadPolicyFile(writePolicy('policy-json', '{"preset":"strict"}')).preset).toBe('strict');
    expect(loadPolicyFile(writePolicy('policy-yaml', 'preset: strict\n')).preset).toBe('strict');
  });

  it('treats a file of comments only as the defaults', () => {
    expect(loadPolicyFile(writePolicy('empty.yaml', '# nothing yet\n'))).toEqual(presetPolicy('precise'));
  });

  it('prefixes problems with the file name', () => {
    const path = writePolicy('bad.yaml', 'learning:\n  strategyEffect: maybe\n');
    expect(() => loadPolicyFile(path)).toThrow(
      `${path}: learning.strategyEffect must be one of "warn", "block", "off" (got "maybe")`,
    );
  });

  it('gives the line and column of a YAML syntax error', () => {
    const path = writePolicy('broken.yaml', 'preset: strict\ndetectors:\n  poll: [1, 2\n');
    expect(() => loadPolicyFile(path)).toThrow(
      new RegExp(`^${escapeRegExp(path)}:\\d+:\\d+: not valid YAML: `),
    );
  });

  it('rejects a duplicated YAML key', () => {
    const path = writePolicy('dup.yaml', 'preset: strict\npreset: off\n');
    expect(() => loadPolicyFile(path)).toThrow(/not valid YAML: Map keys must be unique/);
  });

  it('rejects a YAML alias to an anchor that does not exist', () => {
    const path = writePolicy('alias.yaml', 'preset: *missing\n');
    expect(() => loadPolicyFile(path)).toThrow(PolicyError);
  });

  it('gives the line and column of a JSON syntax error', () => {
    const path = writePolicy('broken.json', '{\n  "preset": "strict",\n  "detectors": }\n');
    expect(() => loadPolicyFile(path)).toThrow(new RegExp(`^${escapeRegExp(path)}:3:\\d+: not valid JSON: `));
  });

  it('says when the file does not exist', () => {
    const path = join(dir, 'missing.yaml');
    expect(() => loadPolicyFile(path)).toThrow(`${path}: the file does not exist`);
  });

  it('loads the annotated example shipped with the package', () => {
    const policy = loadPolicyFile(new URL('../../examples/policy.yaml', import.meta.url).pathname);
    const index = new ToolPolicyIndex(policy);
    expect(policy.budget.maxSteps).toBe(400);
    expect(index.resolve('ci_build_status').kind).toBe('poll');
    expect(index.resolve('mcp__github__create_pull_request').detectors.creationRate.max).toBe(1);
    expect(index.resolve('mcp__github__list_issues').detectors.identicalResult.blockAt).toBe(6);
  });
});

describe('policyJsonSchema', () => {
  const schema = policyJsonSchema();
  const at = (...path: string[]): unknown =>
    path.reduce<unknown>(
      (node, key) => (node as Record<string, Record<string, unknown>>).properties?.[key],
      schema,
    );

  it('forbids unknown top-level fields', () => {
    expect(schema.additionalProperties).toBe(false);
  });

  it('describes the enumerations', () => {
    expect(at('learning', 'strategyEffect')).toMatchObject({
      enum: ['warn', 'block', 'off'],
    });
  });

  it('describes counts as positive integers', () => {
    expect(at('detectors', 'poll', 'blockAt')).toMatchObject({ type: 'integer', minimum: 1 });
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
