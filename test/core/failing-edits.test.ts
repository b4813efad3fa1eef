import { describe, expect, it } from 'vitest';
import { Agent } from './support.js';

const FILE = '/home/dev/shop/src/cart/totals.ts';

/** Edits of one file by each host's editor tool, the `n`th with its own text, and how each failed. */
const HOSTS = [
  {
    host: 'Claude Code (its screen shows no more than that the edit failed)',
    edit: (n: number) => ({
      file_path: FILE,
      old_string: `const total = sum(${n});`,
      new_string: 'const total = sum(items);',
    }),
    error: 'Error editing file',
  },
  {
    host: 'Gemini CLI',
    edit: (n: number) => ({
      file_path: FILE,
      old_string: `  return price * ${n};`,
      new_string: '  return price * qty;',
    }),
    error: `Failed to edit, expected 1 occurrence but found 2 for old_string in file: ${FILE}`,
  },
  {
    host: 'Codex',
    edit: (n: number) => ({
      input: `*** Begin Patch\n*** Update File: ${FILE}\n@@\n-  return price * ${n};\n+  return price * qty;\n`,
    }),
    error: "Invalid patch: The last line of the patch must be '*** End Patch'",
  },
  {
    host: 'Cursor',
    edit: (n: number) => ({
      target_file: FILE,
      instructions: `Use the quantity (${n})`,
      code_edit: `  return price * qty${n};`,
    }),
    error: 'The apply model made no changes to the file.',
  },
] as const;
const TOOLS = {
  'Claude Code (its screen shows no more than that the edit failed)': 'Edit',
  'Gemini CLI': 'replace',
  Codex: 'apply_patch',
  Cursor: 'edit_file',
} as const;

function failingEdits(agent: Agent, host: (typeof HOSTS)[number], from: number, count: number): string[] {
  return Array.from(
    { length: count },
    (_, index) =>
      agent.call(TOOLS[host.host], host.edit(from + index), { text: host.error, isError: true }).check
        .verdict,
  );
}

/** An engine whose policy lets this rule block, not only steer. */
const blocking = () => new Agent({ policy: { detectors: { editStreak: { effect: 'block' } } } });

/** What this rule said of each of `count` more failing edits: its verdict, or `-` when it said nothing. */
function streakVerdicts(agent: Agent, host: (typeof HOSTS)[number], from: number, count: number): string[] {
  return Array.from({ length: count }, (_, index) => {
    const { check } = agent.call(TOOLS[host.host], host.edit(from + index), {
      text: host.error,
      isError: true,
    });
    return check.violations.find((violation) => violation.rule === 'edit-streak')?.severity ?? '-';
  });
}

describe('edits of one file failing one after another, the file not read again', () => {
  it('steers the third and every one after it, whichever host edits, and blocks none by default', () => {
    for (const host of HOSTS) {
      const agent = new Agent();
      expect([host.host, ...failingEdits(agent, host, 1, 6)]).toEqual([
        host.host,
        'allow',
        'allow',
        'warn',
        'warn',
        'warn',
        'warn',
      ]);
    }
  });

  it('blocks the fifth, whichever host edits, under a policy that lets the rule block', () => {
    for (const host of HOSTS) {
      const agent = blocking();
      expect([host.host, ...failingEdits(agent, host, 1, 5)]).toEqual([
        host.host,
        'allow',
        'allow',
        'warn',
        'warn',
        'block',
      ]);
    }
  });

  it('tells the agent to read the file again', () => {
    const agent = blocking();
    const claude = HOSTS[0];
    failingEdits(agent, claude, 1, 4);
    const check = agent.check('Edit', claude.edit(5));
    expect(check.rule).toBe('edit-streak');
    expect(check.violations[0]?.suggestion).toMatch(/Read .*totals\.ts again/);
  });

  it('starts over once the agent reads the file', () => {
    const agent = new Agent();
    const claude = HOSTS[0];
    failingEdits(agent, claude, 1, 4);
    agent.call('Read', { file_path: FILE }, [5, 6, 7].map((n) => `const total = sum(${n});`).join('\n'));
    expect(streakVerdicts(agent, claude, 5, 3)).toEqual(['-', '-', 'warn']);
  });

  it('starts over for every spelling of the file read, and for no other file', () => {
    const agent = new Agent();
    const claude = HOSTS[0];
    const relative = 'src/cart/totals.ts';
    const other = '/home/dev/shop/src/cart/discounts.ts';
    const edit = (file: string, n: number) => ({
      file_path: file,
      old_string: `const total = sum(${n});`,
      new_string: 'const total = sum(items);',
    });
    for (const file of [FILE, relative, other]) {
      for (const n of [1, 2]) agent.call('Edit', edit(file, n), { text: claude.error, isError: true });
    }
    agent.call('Read', { file_path: relative }, 'export const total = 0;\n');
    const verdictOf = (file: string) =>
      agent.check('Edit', edit(file, 3)).violations.find((violation) => violation.rule === 'edit-streak')
        ?.severity ?? '-';
    expect([FILE, relative, other].map(verdictOf)).toEqual(['-', '-', 'warn']);
  });

  it('starts over once a command prints the file', () => {
    const agent = new Agent();
    const gemini = HOSTS[1];
    failingEdits(agent, gemini, 1, 4);
    agent.call('run_shell_command', { command: `sed -n 1,40p ${FILE}` }, 'export function total() {}\n');
    expect(streakVerdicts(agent, gemini, 5, 3)).toEqual(['-', '-', 'warn']);
  });

  it('starts over once an edit of the file succeeds', () => {
    const agent = new Agent();
    const claude = HOSTS[0];
    failingEdits(agent, claude, 1, 3);
    agent.call(
      'Edit',
      { file_path: FILE, old_string: 'qty', new_string: 'quantity' },
      `The file ${FILE} has been updated.`,
    );
    expect(streakVerdicts(agent, claude, 5, 3)).toEqual(['-', '-', 'warn']);
  });

  it('keeps the count when a hook process resumes the session from its snapshot', () => {
    const agent = blocking();
    const claude = HOSTS[0];
    failingEdits(agent, claude, 1, 4);
    const resumed = blocking();
    resumed.loop.restore(JSON.parse(JSON.stringify(agent.loop.snapshot())));
    expect(failingEdits(resumed, claude, 5, 1)).toEqual(['block']);
  });

  it('does not add up failures of edits of different files', () => {
    const agent = new Agent();
    const verdicts = ['a', 'b', 'c', 'd', 'e'].map(
      (name) =>
        agent.call(
          'Edit',
          { file_path: `/home/dev/shop/src/${name}.ts`, old_string: 'x', new_string: 'y' },
          {
            text: 'Error editing file',
            isError: true,
          },
        ).check.verdict,
    );
    expect(verdicts).toEqual(['allow', 'allow', 'allow', 'allow', 'allow']);
  });

  it('counts again when the edits fail another way', () => {
    const agent = new Agent();
    const gemini = HOSTS[1];
    failingEdits(agent, gemini, 1, 3);
    agent.call('replace', gemini.edit(4), {
      text: 'File not found. Cannot apply edit. Use an empty old_string to create a new file.',
      isError: true,
    });
    expect(streakVerdicts(agent, gemini, 5, 3)).toEqual(['-', '-', 'warn']);
  });

  it('counts refusals no rule recognises as one kind only when they read alike', () => {
    const agent = blocking();
    const refusals = [
      'PreToolUse:Edit hook error: [lint-guard]: edits under src/cart need a ticket id in the commit',
      'Error editing file',
      'Validation failed: new_string must differ from old_string',
      'PreToolUse:Edit hook error: [lint-guard]: edits under src/cart need a ticket id in the commit',
      'Error editing file',
    ];
    const verdicts = refusals.map((text, n) => {
      const { check } = agent.call('Edit', HOSTS[0].edit(n), { text, isError: true });
      return check.violations.find((violation) => violation.rule === 'edit-streak')?.severity ?? '-';
    });
    expect(verdicts).toEqual(['-', '-', '-', '-', '-']);
    expect(streakVerdicts(agent, HOSTS[0], 10, 4)).toEqual(['-', 'warn', 'warn', 'block']);
  });

  it('leaves alone edits of the open file that name no file, whose refusals show the file', () => {
    const agent = new Agent();
    agent.call(
      'open',
      { path: 'django/core/management/commands/inspectdb.py' },
      '[File: /django__django/django/core/management/commands/inspectdb.py (386 lines total)]\n165:                    if is_relation:',
    );
    const refused = {
      text: [
        'Your proposed edit has introduced new syntax error(s). Please understand the fixes and retry your edit commmand.',
        '',
        'ERRORS:',
        '- E999 SyntaxError: invalid syntax',
        '',
        'This is how your edit would have looked if applied',
        '[File: /django__django/django/core/management/commands/inspectdb.py (390 lines total)]',
      ].join('\n'),
      isError: true,
    };
    const verdicts = Array.from(
      { length: 5 },
      (_, index) =>
        agent
          .call(
            'edit',
            { lines: '165:188', replacement: `                    if is_relation:  # ${index}\n` },
            refused,
          )
          .check.violations.find((violation) => violation.rule === 'edit-streak')?.severity ?? '-',
    );
    expect(verdicts).toEqual(['-', '-', '-', '-', '-']);
  });
  it('lets an edit run with its path under the name the tool asked for after it refused another name', () => {
    const agent = new Agent();
    const table = '/home/dev/portal/src/features/audit-logs/AuditLogTable.tsx';
    const change = { old_string: '<div className="px-6 py-4">', new_string: '<div className="px-4 py-3">' };
    agent.call(
      'Edit',
      { replace_path: table, ...change },
      {
        text: [
          '<tool_use_error>InputValidationError: Edit failed due to the following issues:',
          'The required parameter `file_path` is missing',
          'An unexpected parameter `replace_path` was provided</tool_use_error>',
        ].join('\n'),
        isError: true,
      },
    );
    expect(agent.check('Edit', { replace_all: false, file_path: table, ...change }).verdict).toBe('allow');
  });
});

describe('edits refused until the file is read, refused again after every read', () => {
  const COMPOSE = 'C:/Users/dev/shop/docker-compose.yml';
  const CONTENT = "     1→version: '3.8'\n     2→\n     3→services:\n     4→  postgres:\n";
  /** Claude Code's refusals when its record of a file is older than the file's time on disk. */
  const MODIFIED = {
    text: 'File has been unexpectedly modified. Read it again before attempting to write it.',
    isError: true,
  };
  const NOT_READ = {
    text: '<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>',
    isError: true,
  };
  const edit = (n: number) => ({
    file_path: COMPOSE,
    old_string: '  postgres:',
    new_string: `  postgres:\n    image: postgres:${16 + n}`,
  });

  /** Read, then an edit or a write refused, `rounds` times; the verdict of each edit or write. */
  function rounds(agent: Agent, count: number, content: (round: number) => string = () => CONTENT) {
    return Array.from({ length: count }, (_, round) => {
      agent.call('Read', { file_path: COMPOSE }, content(round));
      const write = round % 3 === 2;
      return write
        ? agent.call('Write', { file_path: COMPOSE, content: `${CONTENT}# ${round}\n` }, NOT_READ).check
            .verdict
        : agent.call('Edit', edit(round), MODIFIED).check.verdict;
    });
  }

  /** The edit-streak rule's word on the next edit, '-' when it has none. */
  const streakWord = (agent: Agent) =>
    agent.check('Edit', edit(9)).violations.find((violation) => violation.rule === 'edit-streak');

  it('counts refused edits and writes on through reads that showed the file unchanged', () => {
    const agent = new Agent();
    expect(rounds(agent, 4)).toEqual(['allow', 'allow', 'warn', 'warn']);
    agent.call('Read', { file_path: COMPOSE }, CONTENT);
    expect(streakWord(agent)?.evidence.count).toBe(4);
  });

  it('tells the agent that reading again will not help and that another way of writing is needed', () => {
    const agent = new Agent();
    rounds(agent, 4);
    agent.call('Read', { file_path: COMPOSE }, CONTENT);
    const word = streakWord(agent);
    expect(word?.severity).toBe('warn');
    expect(word?.reason).toContain('each read in between showed it unchanged');
    expect(word?.suggestion).toContain('another way');
  });

  it('blocks the fifth under a policy that lets the rule block', () => {
    const agent = new Agent({ policy: { detectors: { editStreak: { effect: 'block' } } } });
    expect(rounds(agent, 5)).toEqual(['allow', 'allow', 'warn', 'warn', 'block']);
  });

  it('starts over at each read that shows the file changed', () => {
    const agent = new Agent();
    const changing = (round: number) => `${CONTENT}     5→# formatted ${round}\n`;
    expect(rounds(agent, 6, changing)).toEqual(['allow', 'allow', 'allow', 'allow', 'allow', 'allow']);
  });

  it('keeps what the reads showed when a hook process resumes the session from its snapshot', () => {
    const agent = new Agent();
    rounds(agent, 4);
    const resumed = new Agent();
    resumed.loop.restore(JSON.parse(JSON.stringify(agent.loop.snapshot())));
    resumed.call('Read', { file_path: COMPOSE }, CONTENT);
    expect(streakWord(resumed)?.evidence.count).toBe(4);
  });
});
