/**
 * An edit refused because its text is not in the file, retried after the file was read in full right
 * after the refusal: the read is new evidence, so the retry runs once; going round the same read and
 * the same refused edit is a cycle, proven when its third round starts.
 */
import { describe, expect, it } from 'vitest';
import { Agent } from './support.js';

const FILE = '/home/ana/notes-api/src/routes.ts';
const HELD =
  'import { Hono } from "hono";\n\nexport const routes = new Hono();\nroutes.get("/notes", listNotes);\n';
const READ = { filePath: FILE };
const EDIT = {
  filePath: FILE,
  oldString: 'routes.get("/notes/:id", getNote);',
  newString: 'routes.get("/notes/:id", getNoteOr404);',
};
const NOT_FOUND = { text: 'oldString not found in content', isError: true };

describe('an edit whose text was not found, retried after its file was read', () => {
  it('runs the retry once the file was read in full right after the refusal', () => {
    const agent = new Agent();
    agent.call('read', READ, HELD);
    agent.call('edit', EDIT, NOT_FOUND);
    expect(agent.check('edit', EDIT).verdict).toBe('block');
    agent.call('read', READ, HELD);
    expect(agent.check('edit', EDIT).allowed).toBe(true);
  });

  it('blocks the third round of the same read and the same refused edit, and not before', () => {
    const agent = new Agent();
    const verdicts: string[] = [];
    for (let round = 0; round < 3; round++) {
      verdicts.push(agent.call('read', READ, HELD).check.verdict);
      verdicts.push(agent.call('edit', EDIT, NOT_FOUND).check.verdict);
    }
    expect(verdicts.slice(0, 4).every((verdict) => verdict !== 'block')).toBe(true);
    expect(verdicts.slice(4)).toContain('block');
  });

  it('gives no second retry for a read after the retry was refused the same way', () => {
    const agent = new Agent();
    agent.call('edit', EDIT, NOT_FOUND);
    agent.call('read', READ, HELD);
    agent.call('edit', EDIT, NOT_FOUND);
    agent.call('read', READ, HELD);
    expect(agent.check('edit', EDIT).verdict).toBe('block');
  });

  it('gives no retry for a read of another file', () => {
    const agent = new Agent();
    agent.call('edit', EDIT, NOT_FOUND);
    agent.call('read', { filePath: '/home/ana/notes-api/src/db.ts' }, 'export const db = {};\n');
    expect(agent.check('edit', EDIT).verdict).toBe('block');
  });

  it('gives no retry for a read made some calls after the refusal: it says no more than any other', () => {
    const agent = new Agent();
    agent.call('edit', EDIT, NOT_FOUND);
    agent.call('bash', { command: 'npm test' }, '12 passing');
    agent.call('read', READ, HELD);
    expect(agent.check('edit', EDIT).verdict).toBe('block');
  });

  it('gives the retry in a new process restored from the last one, as a hook runs once per event', () => {
    const first = new Agent();
    first.call('edit', EDIT, NOT_FOUND);
    const second = new Agent();
    second.loop.restore(JSON.parse(JSON.stringify(first.loop.snapshot())));
    second.call('read', READ, HELD);
    const third = new Agent();
    third.loop.restore(JSON.parse(JSON.stringify(second.loop.snapshot())));
    expect(third.check('edit', EDIT).allowed).toBe(true);
  });
});
