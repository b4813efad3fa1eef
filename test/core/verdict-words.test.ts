import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createToolCallAdapter,
  toolCallToOutcome,
  toolCallToProposal,
} from '../../src/adapters/tool-call/index.js';
import type { Detector } from '../../src/core/detectors/types.js';
import { NarrowingEngine } from '../../src/core/loop.js';
import { REDACTED } from '../../src/core/secrets.js';
import type { CheckResult, Violation } from '../../src/core/types.js';

const TOKEN = 'ghp_R4nd0mT0k3nV4lu3F0rT3st1ngXyZ12';

/** A detector that warns on every call, its reason counting how often it was read. */
function countingWarner(reads: { count: number }, extra: Record<string, unknown> = {}): Detector {
  return {
    name: 'counting',
    check: (): Violation => ({
      rule: 'counting',
      severity: 'warn',
      get reason() {
        reads.count++;
        return `git push failed with https://${TOKEN}@github.com/acme/shop.git`;
      },
      suggestion: 'Check the remote.',
      evidence: { count: 1 },
      ...extra,
    }),
    observe: () => undefined,
    reset: () => undefined,
    snapshot: () => ({}),
    restore: () => undefined,
  };
}

function failingRead(engine: NarrowingEngine, path: string): CheckResult {
  const proposal = toolCallToProposal('read_file', { path });
  const result = engine.checkProposal(proposal);
  engine.recordOutcome({
    ...toolCallToOutcome('read_file', proposal.args, {
      content: [{ type: 'text', text: `ENOENT: no such file or directory, open '/srv/app/${path}'` }],
      isError: true,
    }),
    proposal,
  });
  return result;
}

describe('the words of a verdict', () => {
  it('writes and redacts a reason only when it is read, once however often it is read', () => {
    const reads = { count: 0 };
    const engine = new NarrowingEngine({
      adapter: createToolCallAdapter(),
      detectors: [countingWarner(reads)],
    });
    const result = engine.checkProposal(toolCallToProposal('bash', { command: 'git push' }));
    expect(result.verdict).toBe('warn');
    expect(reads.count).toBe(0);
    expect(result.reason).toContain(REDACTED);
    expect(result.reason).not.toContain(TOKEN);
    expect(result.violations[0]?.reason).toBe(result.reason);
    expect(reads.count).toBe(1);
  });

  it('keeps the fields a detector added to its verdict beside the redacted ones', () => {
    const engine = new NarrowingEngine({
      adapter: createToolCallAdapter(),
      detectors: [countingWarner({ count: 0 }, { hint: 'see the remote' })],
    });
    const result = engine.checkProposal(toolCallToProposal('bash', { command: 'git push' }));
    expect(result.violations[0]).toMatchObject({ hint: 'see the remote', rule: 'counting' });
    expect(result.violations[0]?.reason).not.toContain(TOKEN);
  });

  it('gives the words of a verdict read after its rules learned from another failure as they stood at the check', () => {
    const clock = { now: () => 1_700_000_000_000 };
    const readLate = new NarrowingEngine({ adapter: createToolCallAdapter(), clock });
    const readAtOnce = new NarrowingEngine({ adapter: createToolCallAdapter(), clock });
    for (let index = 0; index < 3; index++) {
      failingRead(readLate, `docs/notes-${index}.md`);
      failingRead(readAtOnce, `docs/notes-${index}.md`);
    }
    const late = failingRead(readLate, 'docs/notes-3.md');
    const atOnce = failingRead(readAtOnce, 'docs/notes-3.md');
    const words = JSON.stringify(atOnce);
    failingRead(readLate, 'docs/notes-4.md');
    expect(late.violations.map((violation) => violation.rule)).toEqual(['banned-strategy', 'error-streak']);
    expect(JSON.stringify(late)).toBe(words);
    expect(late.reason).toBe(atOnce.reason);
  });

  it('writes every field of a verdict when it is serialised or copied', () => {
    const engine = new NarrowingEngine({ adapter: createToolCallAdapter() });
    for (let index = 0; index < 3; index++) failingRead(engine, `docs/notes-${index}.md`);
    const result = failingRead(engine, 'docs/notes-3.md');
    const strategy = result.violations.find((violation) => violation.rule === 'banned-strategy');
    const copied = { ...strategy };
    expect(copied.constraint?.id).toBe(strategy?.constraint?.id);
    expect(copied.reason).toMatch(/^file_read has failed with file_not_found on 3 different targets/);
    const parsed = JSON.parse(JSON.stringify(result)) as CheckResult;
    expect(parsed.reason).toBe(result.reason);
    expect(parsed.suggestion).toBe(result.suggestion);
    expect(parsed.violations.map((violation) => violation.constraint?.id)).toContain(
      strategy?.constraint?.id,
    );
  });

  it('hands back the fields of a check no verdict decided as plain values, in the order of a decided one', () => {
    const engine = new NarrowingEngine({ adapter: createToolCallAdapter() });
    const allowed = engine.checkProposal(toolCallToProposal('read_file', { path: 'src/orders/parse.ts' }));
    expect(allowed.verdict).toBe('allow');
    expect(Object.getOwnPropertyDescriptor(allowed, 'reason')).toMatchObject({
      value: undefined,
      writable: true,
    });
    expect(Object.getOwnPropertyDescriptor(allowed, 'suggestion')).toMatchObject({ value: undefined });
    const reads = { count: 0 };
    const warned = new NarrowingEngine({
      adapter: createToolCallAdapter(),
      detectors: [countingWarner(reads)],
    });
    const warning = warned.checkProposal(toolCallToProposal('bash', { command: 'git push' }));
    expect(Object.keys(warning)).toEqual(Object.keys(allowed));
    expect(reads.count).toBe(0);
    expect({ ...warning }.reason).toContain(REDACTED);
    expect(reads.count).toBe(1);
  });

  it('gives the same words read at the end of a run of failures as read at each check', () => {
    const tool = fc.constantFrom('read_file', 'edit_file', 'bash');
    const place = fc.constantFrom('docs/a.md', 'docs/b.md', `https://${TOKEN}@github.com/acme`, 'src/c.ts');
    fc.assert(
      fc.property(fc.array(fc.tuple(tool, place, fc.nat(3)), { minLength: 1, maxLength: 14 }), (steps) => {
        const clock = { now: () => 1_700_000_000_000 };
        const atOnce = new NarrowingEngine({ adapter: createToolCallAdapter(), clock });
        const atEnd = new NarrowingEngine({ adapter: createToolCallAdapter(), clock });
        const readAtOnce: string[] = [];
        const kept: CheckResult[] = [];
        for (const [name, where, variant] of steps) {
          const args: Record<string, unknown> =
            name === 'bash'
              ? { command: `cat ${where}` }
              : name === 'edit_file'
                ? { path: where, old_string: `const retries = ${variant};`, new_string: 'const retries = 3;' }
                : { path: `${where}.${variant}` };
          const text =
            name === 'edit_file'
              ? `Error: Could not find exact match for edit:\nconst retries = ${variant};`
              : `ENOENT: no such file or directory, open '/srv/app/${where}'`;
          for (const [engine, read] of [
            [atOnce, (result: CheckResult) => readAtOnce.push(JSON.stringify(result))],
            [atEnd, (result: CheckResult) => kept.push(result)],
          ] as const) {
            const proposal = toolCallToProposal(name, args);
            read(engine.checkProposal(proposal));
            engine.recordOutcome({
              ...toolCallToOutcome(name, args, { content: [{ type: 'text', text }], isError: true }),
              proposal,
            });
          }
        }
        const readAtEnd = kept.map((result) => JSON.stringify(result));
        expect(readAtEnd).toEqual(readAtOnce);
        for (const result of kept) expect(`${result.reason} ${result.suggestion}`).not.toContain(TOKEN);
      }),
      { numRuns: 30 },
    );
  });
});
