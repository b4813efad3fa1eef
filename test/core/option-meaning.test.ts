import { describe, expect, it } from 'vitest';
import { Agent } from './support.js';

/** The shell tools of several hosts, each with the argument its command goes in. */
const shells = [
  ['Bash', 'command'],
  ['shell', 'command'],
  ['exec_command', 'cmd'],
  ['run_shell_command', 'command'],
  ['run_terminal_cmd', 'command'],
] as const;

const unrecognisedFlag = { text: 'rg: unrecognized flag - \n', isError: true };

describe('a command whose options mean something else when they move', () => {
  it.each(shells)(
    'lets a search run again with `--` before a pattern that starts with a dash (%s)',
    (tool, field) => {
      const agent = new Agent();
      const pattern = String.raw`"- \[( |x|X)\]"`;
      agent.call(tool, { [field]: `rg -n ${pattern} specs/checklists/requirements.md` }, unrecognisedFlag);
      agent.call(tool, { [field]: `rg -n ${pattern} specs/checklists/requirements.md` }, unrecognisedFlag);
      const ended = agent.check(tool, { [field]: `rg -n -- ${pattern} specs/checklists/requirements.md` });
      expect(ended.verdict).toBe('allow');
    },
  );

  it.each(shells)(
    'lets an option move past the word after it, which it may take as its value (%s)',
    (tool, field) => {
      const agent = new Agent();
      const pattern = String.raw`"- \[ \]"`;
      agent.call(tool, { [field]: `rg ${pattern} -c specs/checklists/requirements.md` }, unrecognisedFlag);
      agent.call(tool, { [field]: `rg ${pattern} -c specs/checklists/requirements.md` }, unrecognisedFlag);
      const moved = agent.check(tool, { [field]: `rg -c ${pattern} specs/checklists/requirements.md` });
      expect(moved.verdict).toBe('allow');
    },
  );

  it.each(shells)('keeps two options swapping their values apart (%s)', (tool, field) => {
    const agent = new Agent();
    const refused = { text: 'psql: error: FATAL:  role "shop" does not exist', isError: true };
    agent.call(tool, { [field]: 'psql -U shop -d app -c "select count(*) from orders"' }, refused);
    agent.call(tool, { [field]: 'psql -U shop -d app -c "select count(*) from orders"' }, refused);
    const swapped = agent.check(tool, { [field]: 'psql -d shop -U app -c "select count(*) from orders"' });
    expect(swapped.verdict).toBe('allow');
  });

  it.each(shells)('takes `--name=value` and `--name value` as one attempt (%s)', (tool, field) => {
    const agent = new Agent();
    const missing = { text: "Error: Cannot find module '/repo/jest.ci.js'", isError: true };
    agent.call(tool, { [field]: 'npx jest --config=jest.ci.js tests/cart.test.ts' }, missing);
    agent.call(tool, { [field]: 'npx jest --config jest.ci.js tests/cart.test.ts' }, missing);
    const again = agent.check(tool, { [field]: 'npx jest --config jest.ci.js tests/cart.test.ts' });
    expect(again.verdict).toBe('block');
    const spelled = agent.check(tool, { [field]: 'npx jest --config=jest.ci.js tests/cart.test.ts' });
    expect(spelled.verdict).toBe('block');
  });

  it.each(shells)(
    'lets a path with blanks run again in quotes after it failed unquoted, split into several words (%s)',
    (tool, field) => {
      const agent = new Agent();
      const split = { text: "fatal: pathspec 'src/prompts/service' did not match any files", isError: true };
      agent.call(tool, { [field]: 'git add src/prompts/service accounts description.txt' }, split);
      agent.call(tool, { [field]: 'git add src/prompts/service accounts description.txt' }, split);
      const quoted = agent.check(tool, { [field]: 'git add "src/prompts/service accounts description.txt"' });
      expect(quoted.verdict).toBe('allow');
    },
  );
});
