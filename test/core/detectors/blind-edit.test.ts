import { describe, expect, it } from 'vitest';
import { GUESSED_TEXTS, guessedEdit, NEXT_GUESS, notFoundText } from '../../fixtures/guesses/unread-file.js';
import { Agent } from '../support.js';

const FILE = '/home/dev/api/src/routes/users.ts';
const edit = (old_string: string) => guessedEdit(FILE, old_string);
const notFound = (old_string: string) => ({ text: notFoundText(old_string), isError: true });

/** Two edits guessed at a file the agent never read, both not found. */
function afterTwoGuesses(agent = new Agent()): Agent {
  for (const guess of GUESSED_TEXTS) agent.call('Edit', edit(guess), notFound(guess));
  return agent;
}

describe('blind-edit', () => {
  it('blocks a third guess at a file never read after two guesses were not found', () => {
    const check = afterTwoGuesses().check('Edit', edit(NEXT_GUESS));
    expect(check).toMatchObject({ verdict: 'block', rule: 'blind-edit' });
    expect(check.reason).toContain(`${FILE}, which you have not read: 2 earlier guesses were not found`);
    expect(check.suggestion).toContain(`Read ${FILE} first`);
  });

  it('allows the second guess', () => {
    const agent = new Agent();
    agent.call('Edit', edit(GUESSED_TEXTS[0] as string), notFound(GUESSED_TEXTS[0] as string));
    expect(agent.check('Edit', edit(NEXT_GUESS)).allowed).toBe(true);
  });

  it('allows the edit once the agent has read the file', () => {
    const agent = afterTwoGuesses();
    agent.call('Read', { file_path: FILE, offset: 1, limit: 40 }, '1\timport { Router } from "express";');
    expect(agent.check('Edit', edit(NEXT_GUESS)).allowed).toBe(true);
  });

  it('allows the edit once the agent has read the file under a relative path', () => {
    const agent = afterTwoGuesses();
    agent.call('Read', { file_path: 'src/routes/users.ts' }, 'import { Router } from "express";');
    expect(agent.check('Edit', edit(NEXT_GUESS)).allowed).toBe(true);
  });

  it('never judges guesses at a file read before under a relative path', () => {
    const agent = new Agent();
    agent.call('Read', { file_path: 'src/routes/users.ts' }, 'import { Router } from "express";');
    afterTwoGuesses(agent);
    expect(agent.check('Edit', edit(NEXT_GUESS)).allowed).toBe(true);
  });

  it('allows the edit once a command printed the file', () => {
    const agent = afterTwoGuesses();
    agent.call('Bash', { command: `sed -n 1,40p ${FILE}` }, 'import { Router } from "express";');
    expect(agent.check('Edit', edit(NEXT_GUESS)).allowed).toBe(true);
  });

  it('allows the edit once a command printed the file under a quoted path', () => {
    const agent = afterTwoGuesses();
    agent.call('Bash', { command: `head -n 40 "${FILE}"` }, 'import { Router } from "express";');
    expect(agent.check('Edit', edit(NEXT_GUESS)).allowed).toBe(true);
  });

  it('still blocks once a command printed another file of the same name', () => {
    const agent = afterTwoGuesses();
    agent.call('Bash', { command: 'cat /home/dev/web/src/routes/users.ts' }, 'export default {};');
    expect(agent.check('Edit', edit(NEXT_GUESS)).verdict).toBe('block');
  });

  it('still blocks guesses at a file once the agent read another file of the same name', () => {
    const agent = afterTwoGuesses();
    const other = '/home/dev/web/src/routes/users.ts';
    for (const guess of GUESSED_TEXTS)
      agent.call('Edit', { ...edit(guess), file_path: other }, notFound(guess));
    agent.call('Read', { file_path: other }, NEXT_GUESS);
    expect(agent.check('Edit', edit(NEXT_GUESS)).verdict).toBe('block');
    expect(agent.check('Edit', { ...edit(NEXT_GUESS), file_path: other }).allowed).toBe(true);
  });

  it('never judges edits of a file the agent read before guessing', () => {
    const agent = new Agent();
    agent.call('Read', { file_path: FILE, offset: 200, limit: 20 }, '200\t  return res.json(users);');
    afterTwoGuesses(agent);
    expect(agent.check('Edit', edit(NEXT_GUESS)).allowed).toBe(true);
  });

  it('never judges edits of a file read before guessing, among other files of the same name read too', () => {
    const agent = new Agent();
    agent.call('Read', { file_path: '/home/dev/web/src/routes/users.ts' }, NEXT_GUESS);
    agent.call('Read', { file_path: FILE }, NEXT_GUESS);
    agent.call('Read', { file_path: '/home/dev/admin/src/routes/users.ts' }, NEXT_GUESS);
    afterTwoGuesses(agent);
    expect(agent.check('Edit', edit(NEXT_GUESS)).allowed).toBe(true);
  });

  it('never judges a write of the whole file', () => {
    const agent = afterTwoGuesses();
    expect(agent.check('Write', { file_path: FILE, content: 'export {};\n' }).allowed).toBe(true);
  });

  it('allows guesses again after a command that may have rewritten the file', () => {
    const agent = afterTwoGuesses();
    agent.call('Bash', { command: 'npx prettier --write src' }, 'src/routes/users.ts 41ms');
    expect(agent.check('Edit', edit(NEXT_GUESS)).allowed).toBe(true);
  });

  it('can be turned off', () => {
    const agent = afterTwoGuesses(new Agent({ policy: { detectors: { blindEdit: { enabled: false } } } }));
    expect(agent.check('Edit', edit(NEXT_GUESS)).allowed).toBe(true);
  });
});
