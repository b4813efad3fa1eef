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

/** A jest run failing on one assertion, as the test runner prints it. */
const failingAssertion = {
  text: [
    'FAIL src/date/parse.test.ts',
    '  ● parseStatementDate › reads day-first bank dates',
    '',
    '    expect(received).toEqual(expected) // deep equality',
    '',
    '    Expected: 2024-03-04T00:00:00.000Z',
    '    Received: 2024-04-03T00:00:00.000Z',
    '',
    'Tests:       1 failed, 11 passed, 12 total',
  ].join('\n'),
  isError: true,
};

describe('a command spelled with its options moved', () => {
  it.each(shells)(
    'is the same attempt once two spellings failed alike: every spelling of it is blocked next (%s)',
    (tool, field) => {
      const agent = new Agent();
      agent.call(tool, { [field]: 'npx jest src/date/parse.test.ts --runInBand' }, failingAssertion);
      agent.call(tool, { [field]: 'npx jest --runInBand src/date/parse.test.ts' }, failingAssertion);
      expect(
        agent.check(tool, { [field]: 'CI=true npx jest --runInBand src/date/parse.test.ts' }).verdict,
      ).toBe('block');
      expect(agent.check(tool, { [field]: 'npx  jest src/date/parse.test.ts   --runInBand' }).verdict).toBe(
        'block',
      );
    },
  );

  it.each(shells)('runs again when the two spellings failed otherwise (%s)', (tool, field) => {
    const agent = new Agent();
    const otherAssertion = {
      ...failingAssertion,
      text: failingAssertion.text.replace('reads day-first bank dates', 'reads month names in French'),
    };
    agent.call(tool, { [field]: 'npx jest src/date/parse.test.ts --runInBand' }, failingAssertion);
    agent.call(tool, { [field]: 'npx jest --runInBand src/date/parse.test.ts' }, otherAssertion);
    expect(agent.check(tool, { [field]: 'npx jest src/date/parse.test.ts --runInBand' }).verdict).not.toBe(
      'block',
    );
  });

  it.each(shells)('runs again when something changed between the two spellings (%s)', (tool, field) => {
    const agent = new Agent();
    agent.call(tool, { [field]: 'npx jest src/date/parse.test.ts --runInBand' }, failingAssertion);
    agent.call(
      'Edit',
      { file_path: 'src/date/parse.ts', old_string: 'const [month, day]', new_string: 'const [day, month]' },
      'The file src/date/parse.ts has been updated successfully.',
    );
    agent.call(tool, { [field]: 'npx jest --runInBand src/date/parse.test.ts' }, failingAssertion);
    expect(agent.check(tool, { [field]: 'npx jest src/date/parse.test.ts --runInBand' }).verdict).not.toBe(
      'block',
    );
  });

  it.each(shells)('is the same attempt across a restart that reads back the session (%s)', (tool, field) => {
    const before = new Agent();
    before.call(tool, { [field]: 'npx jest src/date/parse.test.ts --runInBand' }, failingAssertion);
    const after = new Agent();
    after.loop.restore(before.loop.snapshot());
    after.call(tool, { [field]: 'npx jest --runInBand src/date/parse.test.ts' }, failingAssertion);
    expect(after.check(tool, { [field]: 'npx jest src/date/parse.test.ts --runInBand' }).verdict).toBe(
      'block',
    );
  });
});
