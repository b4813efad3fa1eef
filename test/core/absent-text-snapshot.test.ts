import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toolCallToProposal } from '../../src/adapters/tool-call/index.js';
import { createAbsentTextDetector } from '../../src/core/detectors/index.js';
import { Agent, type ToolResult } from './support.js';

const SOURCE = [
  'import express from "express";',
  '',
  'export function save(user) {',
  '  if (!user.email) throw new Error("email required");',
  '  return db.insert(user);',
  '}',
  '',
].join('\n');
/** The file as Claude Code's `Read` shows it: each line after its number and a tab. */
const NUMBERED = SOURCE.split('\n')
  .map((line, index) => `${String(index + 1).padStart(6)}\t${line}`)
  .join('\n');
const edit = (old_string: string) => ({ path: 'src/app.js', old_string, new_string: 'replacement' });
const NOT_FOUND = { text: 'Error: old_string not found in src/app.js', isError: true };
/** A guess whose inner line is not in the file: the check is `user.name`, not `user.email`. */
const ABSENT =
  'export function save(user) {\n  if (!user.name) throw new Error("name required");\n  return db.insert(user);';
const PRESENT =
  'export function save(user) {\n  if (!user.email) throw new Error("email required");\n  return db.insert(user);';

/** A new guard holding what `agent` saved, as a new process reads it back from a store. */
function restarted(agent: Agent): Agent {
  const next = new Agent();
  next.loop.restore(JSON.parse(JSON.stringify(agent.loop.snapshot())));
  return next;
}

function callEach(calls: readonly (readonly [string, Record<string, unknown>, ToolResult])[]): Agent {
  let agent = new Agent();
  for (const [tool, args, result] of calls) {
    agent.call(tool, args, result);
    agent = restarted(agent);
  }
  return agent;
}

const READ_THEN_FAILED = [
  ['read_file', { path: 'src/app.js' }, SOURCE],
  ['edit_file', edit('function store(user) {'), NOT_FOUND],
] as const;

describe('absent-text across processes, each event in a process of its own', () => {
  it('blocks an edit whose inner line is not in the file read, once an edit of it failed', () => {
    const check = callEach(READ_THEN_FAILED).check('edit_file', edit(ABSENT));
    expect(check).toMatchObject({ verdict: 'block', rule: 'absent-text' });
    expect(check.reason).toContain(
      '"if (!user.name) throw new Error("name required");" is not in src/app.js',
    );
    expect(check.reason).toContain('where an edit has already failed');
  });

  it('finds, in the lines saved, an inner line written with plain quotes where the file has curly ones', () => {
    const curly = SOURCE.replace('"email required"', '\u201cemail required\u201d');
    const calls = [['read_file', { path: 'src/app.js' }, curly], READ_THEN_FAILED[1]] as const;
    expect(callEach(calls).check('edit_file', edit(PRESENT)).verdict).toBe('allow');
  });

  it('blocks it too when the file was read with line numbers before its lines', () => {
    const calls = [['Read', { file_path: 'src/app.js' }, NUMBERED], READ_THEN_FAILED[1]] as const;
    const agent = callEach([
      calls[0],
      ['Edit', { file_path: 'src/app.js', old_string: 'function store(user) {', new_string: 'x' }, NOT_FOUND],
    ]);
    const check = agent.check('Edit', { file_path: 'src/app.js', old_string: ABSENT, new_string: 'x' });
    expect(check).toMatchObject({ verdict: 'block', rule: 'absent-text' });
    const present = agent.check('Edit', { file_path: 'src/app.js', old_string: PRESENT, new_string: 'x' });
    expect(present.verdict).not.toBe('block');
  });

  it('allows an edit whose inner lines are all in the file read', () => {
    expect(callEach(READ_THEN_FAILED).check('edit_file', edit(PRESENT)).verdict).toBe('allow');
  });

  it('allows the edit once the file was changed in a later process', () => {
    const agent = callEach([
      ...READ_THEN_FAILED,
      ['bash', { command: 'npx prettier --write src' }, 'src/app.js 12ms'],
    ]);
    expect(agent.check('edit_file', edit(ABSENT)).verdict).toBe('allow');
  });

  it('saves no line of the file, nor its path, in clear', () => {
    const agent = new Agent();
    for (const [tool, args, result] of READ_THEN_FAILED) agent.call(tool, args, result);
    const saved = JSON.stringify(agent.loop.sessionSnapshot().detectors['absent-text']);
    for (const value of ['express', 'save(user)', 'email required', 'db.insert', 'src/app.js'])
      expect(saved).not.toContain(value);
    expect(
      (agent.loop.sessionSnapshot().detectors['absent-text'] as { files: unknown[] }).files,
    ).toHaveLength(1);
  });

  it('steers, without blocking, an edit whose inner line is not in a file read in an earlier process', () => {
    const check = callEach([READ_THEN_FAILED[0]]).check('edit_file', edit(ABSENT));
    expect(check).toMatchObject({ verdict: 'warn', rule: 'absent-text' });
  });

  it('saves nothing of a read that may not be the whole file', () => {
    const agent = new Agent();
    agent.call(
      'read_file',
      { path: 'src/app.js' },
      `${SOURCE}
[... 1200 more lines truncated ...]`,
    );
    expect(agent.loop.sessionSnapshot().detectors['absent-text']).toEqual({ version: 2, files: [] });
  });

  it('opens a snapshot of the version that saved nothing', () => {
    const detector = createAbsentTextDetector();
    detector.restore({ version: 1 });
    expect(detector.snapshot()).toEqual({ version: 2, files: [] });
  });

  it('ignores a hostile or corrupt snapshot, and never throws reading one or checking after it', () => {
    const agent = new Agent();
    for (const [tool, args, result] of READ_THEN_FAILED) agent.call(tool, args, result);
    const valid = agent.loop.sessionSnapshot().detectors['absent-text'] as {
      files: [string, string[], boolean][];
    };
    const [file, lines] = valid.files[0] as [string, string[], boolean];
    const proposal = toolCallToProposal('edit_file', edit(PRESENT));
    const hostile = fc.oneof(
      fc.anything(),
      fc.record({ version: fc.constant(2), files: fc.anything() }),
      fc.record({
        version: fc.constant(2),
        files: fc.array(
          fc.tuple(
            fc.oneof(fc.string(), fc.constant(file)),
            fc.oneof(fc.jsonValue(), fc.array(fc.oneof(fc.string(), fc.constantFrom(...lines)))),
            fc.jsonValue(),
          ),
        ),
      }),
    );
    fc.assert(
      fc.property(hostile, (state) => {
        const guard = agent.restoredWith('absent-text', state);
        expect(['allow', 'block', 'warn']).toContain(guard.loop.checkProposal(proposal).verdict);
      }),
      { numRuns: 150 },
    );
  });

  it('keeps what it reads of a snapshot bounded, however long its lists', () => {
    const detector = createAbsentTextDetector();
    detector.restore({
      version: 2,
      files: Array.from({ length: 40 }, (_, i) => [
        i.toString(16).padStart(16, '0'),
        Array.from({ length: 5_000 }, (_, j) => j.toString(16).padStart(8, '0')),
      ]),
    });
    const saved = detector.snapshot() as { files: [string, string[]][] };
    expect(saved.files.length).toBeLessThanOrEqual(4);
    for (const [, lines] of saved.files) expect(lines.length).toBeLessThanOrEqual(1_000);
  });
});
