import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toolCallToProposal } from '../../src/adapters/tool-call/index.js';
import { createBlindEditDetector } from '../../src/core/detectors/index.js';
import { GUESSED_TEXTS, guessedEdit, NEXT_GUESS, notFoundText } from '../fixtures/guesses/unread-file.js';
import { Agent, type ToolResult } from './support.js';

const FILE = '/home/dev/api/src/routes/users.ts';
const edit = (old_string: string) => guessedEdit(FILE, old_string);
const notFound = (old_string: string) => ({ text: notFoundText(old_string), isError: true });

/** A new guard holding what `agent` saved, as a new process reads it back from a store. */
function restarted(agent: Agent): Agent {
  const next = new Agent();
  next.loop.restore(JSON.parse(JSON.stringify(agent.loop.snapshot())));
  return next;
}

/** `agent` after each call, in a process of its own that reads what the one before saved. */
function callEach(
  agent: Agent,
  calls: readonly (readonly [string, Record<string, unknown>, ToolResult])[],
): Agent {
  let current = agent;
  for (const [tool, args, result] of calls) {
    current.call(tool, args, result);
    current = restarted(current);
  }
  return current;
}

const GUESSED = GUESSED_TEXTS.map((guess) => ['Edit', edit(guess), notFound(guess)] as const);

describe('blind-edit across processes, each event in a process of its own', () => {
  it('blocks a third guess at a file never read after two guesses were not found', () => {
    const check = callEach(new Agent(), GUESSED).check('Edit', edit(NEXT_GUESS));
    expect(check).toMatchObject({ verdict: 'block', rule: 'blind-edit' });
    expect(check.reason).toContain(
      '2 earlier guesses were not found in it, and nothing has changed it since',
    );
  });

  it('never judges guesses at a file read in an earlier process', () => {
    const read = ['Read', { file_path: FILE }, 'import { Router } from "express";\n'] as const;
    expect(callEach(new Agent(), [read, ...GUESSED]).check('Edit', edit(NEXT_GUESS)).allowed).toBe(true);
  });

  it('allows the edit once the agent has read the file in a later process', () => {
    const read = [
      'Read',
      { file_path: 'src/routes/users.ts' },
      'import { Router } from "express";\n',
    ] as const;
    expect(callEach(new Agent(), [...GUESSED, read]).check('Edit', edit(NEXT_GUESS)).allowed).toBe(true);
  });

  it('allows the edit once a command in a later process printed the file', () => {
    const cat = ['Bash', { command: `sed -n 1,40p ${FILE}` }, 'import { Router } from "express";\n'] as const;
    expect(callEach(new Agent(), [...GUESSED, cat]).check('Edit', edit(NEXT_GUESS)).allowed).toBe(true);
  });

  it('still blocks the guess after a later process read other files, and allows it once this one is read', () => {
    const readOther = (file_path: string) => ['Read', { file_path }, 'export const limit = 10;\n'] as const;
    const others = [readOther('src/routes/orders.ts'), readOther('/home/dev/api/src/users.test.ts')];
    const cat = [
      'Bash',
      { command: 'cat src/routes/users.ts' },
      'import { Router } from "express";\n',
    ] as const;
    const afterOthers = callEach(new Agent(), [...GUESSED, ...others]);
    expect(afterOthers.check('Edit', edit(NEXT_GUESS))).toMatchObject({
      verdict: 'block',
      rule: 'blind-edit',
    });
    expect(callEach(afterOthers, [cat]).check('Edit', edit(NEXT_GUESS)).allowed).toBe(true);
  });

  it('allows guesses again after a command in a later process that may have rewritten the file', () => {
    const format = ['Bash', { command: 'npx prettier --write src' }, 'src/routes/users.ts 41ms\n'] as const;
    expect(callEach(new Agent(), [...GUESSED, format]).check('Edit', edit(NEXT_GUESS)).allowed).toBe(true);
  });

  it('saves no file name, path or guessed text in clear', () => {
    const read = [
      'Read',
      { file_path: '/home/dev/api/src/server.ts' },
      'import express from "express";\n',
    ] as const;
    const agent = new Agent();
    for (const [tool, args, result] of [read, ...GUESSED]) agent.call(tool, args, result);
    const saved = JSON.stringify(agent.loop.sessionSnapshot().detectors['blind-edit']);
    for (const value of ['server.ts', 'users.ts', 'routes', '/home/dev', 'listUsers', 'router'])
      expect(saved).not.toContain(value);
  });

  it('opens a snapshot of the version that saved nothing, and judges as a new run', () => {
    const detector = createBlindEditDetector();
    detector.restore({ version: 1 });
    expect(detector.snapshot()).toEqual({ version: 2, seen: [], guesses: [] });
  });

  it('ignores a hostile or corrupt snapshot, and never throws reading one or checking after it', () => {
    const agent = new Agent();
    for (const [tool, args, result] of GUESSED) agent.call(tool, args, result);
    const valid = agent.loop.sessionSnapshot().detectors['blind-edit'] as Record<string, unknown>;
    const proposal = toolCallToProposal('Edit', edit(NEXT_GUESS));
    const hostile = fc.oneof(
      fc.anything(),
      fc.record({ version: fc.constant(2), seen: fc.anything(), guesses: fc.constant(valid.guesses) }),
      fc.record({
        version: fc.constant(2),
        seen: fc.array(
          fc.oneof(
            fc.string(),
            fc.integer({ min: 0, max: 0xffffffff }).map((n) => n.toString(16).padStart(8, '0')),
          ),
        ),
        guesses: fc.array(
          fc.tuple(
            fc.oneof(
              fc.string(),
              fc.constantFrom(...(valid.guesses as [string][]).map(([hash]) => hash), '00000000000000ff'),
            ),
            fc.record({ count: fc.oneof(fc.double(), fc.integer()), name: fc.jsonValue() }),
          ),
        ),
      }),
    );
    fc.assert(
      fc.property(hostile, (state) => {
        const guard = agent.restoredWith('blind-edit', state);
        expect(['allow', 'block', 'warn']).toContain(guard.loop.checkProposal(proposal).verdict);
        guard.call('Bash', { command: `cat ${FILE}` }, 'import { Router } from "express";\n');
        expect(guard.check('Edit', edit(NEXT_GUESS)).allowed).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('keeps what it reads of a snapshot bounded, however long its lists', () => {
    const detector = createBlindEditDetector();
    detector.restore({
      version: 2,
      seen: Array.from({ length: 20_000 }, (_, i) => i.toString(16).padStart(8, '0')),
      guesses: Array.from({ length: 5_000 }, (_, i) => [
        i.toString(16).padStart(16, '0'),
        { count: 2, name: 'abcdef01' },
      ]),
    });
    const saved = detector.snapshot() as { seen: unknown[]; guesses: unknown[] };
    expect(saved.seen.length).toBeLessThanOrEqual(4_096);
    expect(saved.guesses.length).toBeLessThanOrEqual(256);
  });
});
