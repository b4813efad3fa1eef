import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createToolCallAdapter,
  toolCallToOutcome,
  toolCallToProposal,
} from '../../src/adapters/tool-call/index.js';
import type { Detector, ObservedOutcome } from '../../src/core/detectors/types.js';
import { NarrowingEngine } from '../../src/core/loop.js';
import { keptText, ownCopy, REDACTED, redactText } from '../../src/core/secrets.js';

function collectGarbage(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

describe('what the engine keeps of tool output', () => {
  it('keeps a bounded, redacted excerpt of a long error', () => {
    const output = `fatal: could not read Username for 'https://ghp_R4nd0mT0k3nV4lu3F0rT3st1ngXyZ12@github.com'\n${'x'.repeat(50_000)}`;
    const kept = keptText(output, 300);
    expect(kept.length).toBeLessThanOrEqual(300);
    expect(kept).toContain(REDACTED);
    expect(kept).not.toContain('ghp_');
  });

  it('keeps of each text what it alone gives, whatever was kept just before and at whatever length', () => {
    const token = 'ghp_R4nd0mT0k3nV4lu3F0rT3st1ngXyZ12';
    const texts = [
      `fatal: could not read Username for 'https://${token}@github.com'`,
      `ENOENT: no such file or directory, open '/srv/app/src/a.ts'\n${'x'.repeat(2_000)}`,
      `ENOENT: no such file or directory, open '/srv/app/src/b.ts'\n${'x'.repeat(2_000)}`,
    ];
    // The excerpt as its definition gives it: the redacted start of the text, cut at the limit.
    const expected = (text: string, limit: number) => {
      const clean = redactText(text.slice(0, limit * 4));
      return clean.length <= limit ? clean : `${clean.slice(0, limit - 1)}…`;
    };
    for (const limit of [300, 500, 300, 20]) {
      for (const text of [...texts, ...[...texts].reverse(), texts[0] as string]) {
        const kept = keptText(text, limit);
        expect(kept).toBe(expected(text, limit));
        expect(kept).not.toContain('ghp_');
      }
    }
  });

  it('keeps what its definition gives for any text kept at one length after another, as learning and the journal keep them', () => {
    const piece = fc.oneof(
      fc.constantFrom(
        'ENOENT: no such file ',
        'password=hunter2 ',
        'ghp_R4nd0mT0k3nV4lu3F0rT3st1ngXyZ12 ',
        '\n',
      ),
      fc.string({ maxLength: 40 }),
      fc.nat({ max: 700 }).map((length) => 'x'.repeat(length)),
    );
    const expected = (text: string, limit: number) => {
      const clean = redactText(text.slice(0, limit * 4));
      return clean.length <= limit ? clean : `${clean.slice(0, limit - 1)}…`;
    };
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.array(piece, { maxLength: 12 }),
            fc.array(fc.constantFrom(20, 300, 500, 1200), { minLength: 1, maxLength: 4 }),
          ),
        ),
        (cases) => {
          for (const [pieces, limits] of cases) {
            const text = pieces.join('');
            for (const limit of limits) expect(keptText(text, limit)).toBe(expected(text, limit));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('tells detectors the whole result and a redacted excerpt of it, and whether the call failed', () => {
    const observed: ObservedOutcome[] = [];
    const listener: Detector = {
      name: 'listener',
      check: () => undefined,
      observe: (_call, outcome) => {
        observed.push(outcome);
      },
      reset: () => undefined,
      snapshot: () => ({}),
      restore: () => undefined,
    };
    const engine = new NarrowingEngine({ adapter: createToolCallAdapter(), detectors: [listener] });
    const token = 'ghp_R4nd0mT0k3nV4lu3F0rT3st1ngXyZ12';
    const output = `remote: https://${token}@github.com/acme/shop.git\n${'ok '.repeat(400)}`;
    const call = (command: string, text: string, isError: boolean) => {
      engine.checkProposal(toolCallToProposal('bash', { command }));
      engine.recordOutcome(
        toolCallToOutcome('bash', { command }, { content: [{ type: 'text', text }], isError }),
      );
    };
    call('git remote -v', output, false);
    call('npm run lint', 'npm error Missing script: "lint"', true);
    const [succeeded, failed] = observed;
    expect(succeeded?.success).toBe(true);
    expect(succeeded?.failure).toBeUndefined();
    expect(succeeded?.content).toBe(output);
    expect(succeeded?.text.length).toBeLessThanOrEqual(300);
    expect(succeeded?.text).toContain(REDACTED);
    expect(succeeded?.text).not.toContain(token);
    expect(failed?.success).toBe(false);
    expect(failed?.failure?.blame).toBe('agent_failure');
    expect(failed?.text).toBe('npm error Missing script: "lint"');
  });

  it('does not keep 20 KB error outputs alive through the excerpts it learned from them', () => {
    const gc = collectGarbage();
    const loop = new NarrowingEngine({ adapter: createToolCallAdapter() });
    gc();
    const before = process.memoryUsage().heapUsed;
    // 20 MB of outputs: enough that keeping them would show far above what the excerpts take (about
    // 3 MB), few enough that a loaded machine gets through them well within the test's time.
    const calls = 1_000;
    for (let index = 0; index < calls; index++) {
      const path = `src/generated/module-${index}.ts`;
      const proposal = toolCallToProposal('read_file', { path });
      loop.checkProposal(proposal);
      const stack = `    at Object.openSync (node:fs:573:18) #${index}\n`.repeat(400);
      const text = `ENOENT: no such file or directory, open '/srv/api/${path}'\n${stack}`;
      loop.recordOutcome({
        ...toolCallToOutcome('read_file', proposal.args, {
          content: [{ type: 'text', text }],
          isError: true,
        }),
        proposal,
      });
    }
    gc();
    const retained = process.memoryUsage().heapUsed - before;
    expect(loop.exportState().constraints.length).toBe(calls);
    // 1,000 outputs of 20 KB are 20 MB; the excerpts and constraints themselves take a few.
    expect(retained).toBeLessThan(10_000_000);
  }, 120_000);
});

describe('a copy of a part of a tool output', () => {
  it('is the same text, whatever its length and characters', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.nat({ max: 3 }), (text, repeat) => {
        const whole = text.repeat(repeat + 1);
        expect(ownCopy(whole)).toBe(whole);
      }),
      { numRuns: 200 },
    );
  });

  it('keeps none of the output it was cut from alive', () => {
    const gc = collectGarbage();
    gc();
    const before = process.memoryUsage().heapUsed;
    const copies: string[] = [];
    // 64 outputs of 1 MB each: a part that were a view of its output would keep 64 MB alive.
    for (let index = 0; index < 64; index++) {
      const output = JSON.parse(JSON.stringify(`✓ test ${index}\n${'x'.repeat(1_000_000)}`)) as string;
      copies.push(ownCopy(output.slice(4, 4_004)));
    }
    gc();
    const retained = process.memoryUsage().heapUsed - before;
    expect(copies.every((copy) => copy.length === 4_000)).toBe(true);
    expect(retained).toBeLessThan(16_000_000);
  }, 60_000);
});
