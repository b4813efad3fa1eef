import { describe, expect, it } from 'vitest';
import {
  createMlTrainingAdapter,
  mlTrialToOutcome,
  mlTrialToProposal,
} from '../../src/adapters/ml-training/index.js';
import { NarrowingEngine } from '../../src/core/loop.js';
import { Agent } from './support.js';

const NOT_VERBATIM = (oldStr: string) => ({
  text: `ERROR:\nNo replacement was performed, old_str \`${oldStr}\` did not appear verbatim in /workspace/src/match.c.`,
  isError: true,
});
const MULTIPLE = {
  text: 'ERROR:\nNo replacement was performed. Multiple occurrences of old_str `return pattern_type;` in lines [317, 449]. Please ensure it is unique.',
  isError: true,
};
const SYNTAX_ERROR = {
  text: 'Your proposed edit has introduced new syntax error(s). Please read this error message carefully and then retry editing the file.\n\nERRORS:\n- E999 IndentationError: unexpected indent',
  isError: true,
};

describe('edits that fail by the text they look for', () => {
  it('blocks an edit whose old text already failed on the file, whatever it would write instead', () => {
    const agent = new Agent();
    const edit = (newStr: string) => ({
      command: 'str_replace',
      path: '/workspace/src/match.c',
      old_str: 'case TK_MATCH_CAPTURE:\n   316\t    case TK_MATCH_DONTCARE:',
      new_str: newStr,
    });
    agent.call(
      'str_replace_editor',
      edit('case TK_MATCH_CAPTURE: /* iso */'),
      NOT_VERBATIM('case TK_MATCH_CAPTURE:'),
    );
    const retry = agent.check('str_replace_editor', edit('case TK_MATCH_CAPTURE: // consume'));
    expect(retry).toMatchObject({ verdict: 'block', rule: 'identical-failure' });
  });

  it('blocks an edit whose old text occurs several times, whatever it would write instead', () => {
    const agent = new Agent();
    const edit = (newStr: string) => ({
      command: 'str_replace',
      path: '/workspace/src/match.c',
      old_str: 'return pattern_type;',
      new_str: newStr,
    });
    agent.call(
      'str_replace_editor',
      edit('pattern_type = alias(pattern_type); return pattern_type;'),
      MULTIPLE,
    );
    expect(agent.check('str_replace_editor', edit('return consume(pattern_type);')).verdict).toBe('block');
  });

  it('allows the same old text again once the file has changed', () => {
    const agent = new Agent();
    const edit = {
      command: 'str_replace',
      path: '/workspace/src/match.c',
      old_str: 'return pattern_type;',
      new_str: 'x',
    };
    agent.call('str_replace_editor', edit, MULTIPLE);
    agent.call(
      'str_replace_editor',
      { command: 'insert', path: '/workspace/src/match.c', insert_line: 317, new_str: '// aliasing' },
      'The file /workspace/src/match.c has been edited.',
    );
    expect(agent.check('str_replace_editor', { ...edit, new_str: 'y' }).verdict).toBe('allow');
  });
});

describe('calls that act on hidden state', () => {
  it('blocks an edit of the open file repeated back to back after it failed', () => {
    const agent = new Agent();
    const edit = { lines: '287:295', replacement: "    required = ['Rows', 'Columns']\n" };
    agent.call('edit', edit, SYNTAX_ERROR);
    expect(agent.check('edit', edit).verdict).toBe('block');
  });

  it('allows the same edit arguments once another file has been opened, since they now edit that file', () => {
    const agent = new Agent();
    const edit = { lines: '2:2', replacement: '    cipher = binascii.unhexlify(f.read())\n' };
    agent.call('edit', edit, SYNTAX_ERROR);
    agent.call(
      'open',
      { path: 'decrypt.py' },
      "[File: /ctf/decrypt.py (6 lines total)]\n1:with open('msg.enc', 'rb') as f:",
    );
    expect(agent.check('edit', edit).verdict).toBe('allow');
  });

  it('allows going to the same line again once another file has been opened, since it is a line of that file', () => {
    const agent = new Agent();
    agent.call(
      'open',
      { path: 'django/db/models/sql/compiler.py' },
      '[File: compiler.py (1678 lines total)]',
    );
    agent.call(
      'goto',
      { line_number: '2091' },
      {
        text: 'Error: <line> must be less than or equal to 1678',
        isError: true,
      },
    );
    agent.call('open', { path: 'django/db/models/sql/query.py' }, '[File: query.py (2452 lines total)]');
    expect(agent.check('goto', { line_number: '2091' }).verdict).toBe('allow');
  });
});

describe('moves within the open file', () => {
  const view = (from: number) =>
    `[File: /repo/sets.py (2101 lines total)]\n(${from} more lines above)\n${from + 1}:    def _contains(self, other):`;

  it('let a scroll that failed run again: it starts from where the last one left off', () => {
    const agent = new Agent();
    agent.call('open', { path: 'sets.py' }, view(0));
    agent.call('scroll_down', {}, view(100));
    agent.call(
      'scroll_down',
      {},
      {
        text: `${view(200)}\n202:        else:\n203:            raise ValueError("Unknown argument '%s'" % other)`,
        isError: true,
      },
    );
    expect(agent.check('scroll_down', {}).verdict).toBe('allow');
  });

  it('block a scroll that failed the same way twice in a row', () => {
    const agent = new Agent();
    agent.call('open', { path: 'sets.py' }, view(0));
    const failing = { text: 'Error: already at the end of the file', isError: true };
    agent.call('scroll_down', {}, failing);
    agent.call('scroll_down', {}, failing);
    expect(agent.check('scroll_down', {}).verdict).toBe('block');
  });
});

describe('searches for a file by its name', () => {
  it('are allowed after the file failed to open at that path: the search is how its real path is found', () => {
    const agent = new Agent();
    agent.call('open', { path: 'run.py' }, { text: 'File run.py not found', isError: true });
    expect(agent.check('find_file', { file_name: 'run.py' }).verdict).toBe('allow');
  });

  it('keep a missing relative path banned after an edit of another file of the same name', () => {
    const agent = new Agent();
    const missing = { text: 'File run.py not found', isError: true };
    agent.call('open', { path: 'run.py' }, missing);
    agent.call('open', { path: 'pylint/lint/run.py' }, '[File: /repo/pylint/lint/run.py (190 lines total)]');
    agent.call(
      'edit',
      { lines: '135:140', replacement: '        pass' },
      '[File: /repo/pylint/lint/run.py (185 lines total)]',
    );
    expect(agent.check('open', { path: 'run.py' }).verdict).toBe('block');
  });
});

describe('paths relative to the working directory', () => {
  const NOT_FOUND = { text: 'Directory style not found', isError: true };

  it('let a search of a relative directory run again after the shell moved into another directory', () => {
    const agent = new Agent();
    agent.call('find_file', { file_name: 'core.py', dir: 'style' }, NOT_FOUND);
    agent.call('find_file', { file_name: 'core.py', dir: 'style' }, NOT_FOUND);
    expect(agent.check('find_file', { file_name: 'core.py', dir: 'style' }).verdict).toBe('block');
    agent.call('bash', { command: 'cd lib/matplotlib' }, '');
    expect(agent.check('find_file', { file_name: 'core.py', dir: 'style' }).verdict).toBe('allow');
  });

  it('keep blocking a search of an absolute directory after the shell moved', () => {
    const agent = new Agent();
    const absent = { text: 'Directory /repo/style not found', isError: true };
    agent.call('find_file', { file_name: 'core.py', dir: '/repo/style' }, absent);
    agent.call('find_file', { file_name: 'core.py', dir: '/repo/style' }, absent);
    agent.call('bash', { command: 'cd lib/matplotlib' }, '');
    expect(agent.check('find_file', { file_name: 'core.py', dir: '/repo/style' }).verdict).toBe('block');
  });

  it('keep blocking a relative path after a move within the open file, which leaves the directory alone', () => {
    const agent = new Agent();
    agent.call('find_file', { file_name: 'core.py', dir: 'style' }, NOT_FOUND);
    agent.call('find_file', { file_name: 'core.py', dir: 'style' }, NOT_FOUND);
    agent.call('goto', { line_number: '120' }, '[File: /repo/lib/matplotlib/pyplot.py (3257 lines total)]');
    expect(agent.check('find_file', { file_name: 'core.py', dir: 'style' }).verdict).toBe('block');
  });
});

describe('failures nobody can blame yet', () => {
  // An error that says nothing about its cause (a cancelled sibling call is the environment's, not this).
  const UNREADABLE = { text: '<tool_use_error>Error: undefined</tool_use_error>', isError: true };

  it('lets the same call retry once after an error it cannot read, and blocks the third attempt', () => {
    const agent = new Agent();
    expect(agent.repeat(3, 'Read', { file_path: '/repo/lib/app.ex' }, UNREADABLE)).toEqual([
      'allow',
      'allow',
      'block',
    ]);
  });

  it('blocks the second attempt at once when the error quotes what the call asked for', () => {
    const agent = new Agent();
    const change = {
      reservation_id: 'XEWRD9',
      cabin: 'economy',
      flights: [{ flight_number: 'HAT217', date: '2024-05-18' }],
      payment_id: 'gift_card_4643416',
    };
    const unavailable = { text: 'Error: flight HAT217 not available on date 2024-05-18', isError: true };
    expect(agent.repeat(2, 'update_reservation_flights', change, unavailable)).toEqual(['allow', 'block']);
  });

  it('keeps the ban across a new user message: a reply does not make the flight available', () => {
    const agent = new Agent();
    const change = { reservation_id: 'XEWRD9', flights: [{ flight_number: 'HAT217', date: '2024-05-18' }] };
    const unavailable = { text: 'Error: flight HAT217 not available on date 2024-05-18', isError: true };
    agent.call('update_reservation_flights', change, unavailable);
    agent.loop.newRun('user');
    agent.call('search_direct_flight', { origin: 'ATL', destination: 'LAS', date: '2024-05-26' }, '[]');
    expect(agent.check('update_reservation_flights', change).verdict).toBe('block');
  });

  it('bans a call after its first failure when another call on the same target just failed with the same error', () => {
    const agent = new Agent();
    const booking = (bags: number) => ({
      user_id: 'mohamed_silva_9265',
      origin: 'JFK',
      destination: 'SFO',
      payment_methods: [{ payment_id: 'certificate_3765853', amount: 500 }],
      total_baggages: bags,
    });
    const mismatch = {
      text: 'Error: payment amount does not add up, total price is 1203, but paid 833',
      isError: true,
    };
    agent.call('book_reservation', booking(6), mismatch);
    agent.call('book_reservation', booking(2), mismatch);
    expect(agent.check('book_reservation', booking(2)).verdict).toBe('block');
  });
});

describe('failures that come back after a change', () => {
  const check = { command: 'npm run lint:licenses' };
  const failing = {
    text: 'license-checker: 3 packages have no license field: left-pad@1.3.0, tiny-queue@0.2.1, zoo@0.0.1\nexit code 1',
    isError: true,
  };
  const editReadme = () => ({
    file_path: '/repo/README.md',
    old_string: '## Usage',
    new_string: '## Using it',
  });

  it('blocks the next run with nothing changed once a command failed the same way before and after an edit', () => {
    const agent = new Agent();
    agent.call('Bash', check, failing);
    agent.call('Edit', editReadme(), 'The file /repo/README.md has been updated.');
    expect(agent.call('Bash', check, failing).check.verdict).toBe('allow');
    const next = agent.check('Bash', check);
    expect(next).toMatchObject({ verdict: 'block', rule: 'identical-failure' });
    expect(next.reason).toContain('failed twice');
  });

  it('lets the command run twice after the edit when its failure changed', () => {
    const agent = new Agent();
    agent.call('Bash', check, { ...failing, text: failing.text.replace('3 packages', '4 packages') });
    agent.call('Edit', editReadme(), 'The file /repo/README.md has been updated.');
    agent.call('Bash', check, failing);
    expect(agent.check('Bash', check).verdict).toBe('allow');
  });

  it('still lets the command retry once after each later edit', () => {
    const agent = new Agent();
    agent.call('Bash', check, failing);
    agent.call('Edit', editReadme(), 'The file /repo/README.md has been updated.');
    agent.call('Bash', check, failing);
    agent.call(
      'Edit',
      { ...editReadme(), old_string: '## Using it', new_string: '## Usage' },
      'The file /repo/README.md has been updated.',
    );
    expect(agent.call('Bash', check, failing).check.verdict).toBe('allow');
  });
});

describe('parameter ranges', () => {
  const divergence = { ok: false, error: 'FloatingPointError: Loss became infinite or NaN at iteration 120' };

  function learnedAfter(first: number, second: number): NarrowingEngine {
    const loop = new NarrowingEngine({ adapter: createMlTrainingAdapter() });
    for (const lr of [first, second]) {
      const proposal = mlTrialToProposal({ lr, batch_size: 64 });
      loop.checkProposal(proposal);
      loop.recordOutcome({ ...mlTrialToOutcome({ lr, batch_size: 64 }, divergence), proposal });
    }
    return loop;
  }

  it('learns the same range whichever of two diverging learning rates failed first', () => {
    for (const loop of [learnedAfter(0.1, 0.11), learnedAfter(0.11, 0.1)]) {
      const check = loop.checkProposal(mlTrialToProposal({ lr: 0.105, batch_size: 64 }));
      expect(check).toMatchObject({ verdict: 'block', rule: 'parameter-ban' });
      expect(check.reason).toContain('lr >= 0.1');
    }
  });
});

describe('what a learned ban keeps of the calls it was learned from', () => {
  it('saves no credential of a failing command line with the session, in the bans learned from it or their first call', () => {
    const agent = new Agent();
    const token = 'ghp_R4nd0mT0k3nV4lu3F0rT3st1ngXyZ12';
    const deploy = (environment: string) => ({
      command: `deployctl --token ${token} --env ${environment}`,
    });
    const notFound = { text: 'bash: line 1: deployctl: command not found', isError: true };
    agent.call('Bash', deploy('staging'), notFound);
    agent.call('Bash', deploy('production'), notFound);
    const kept = JSON.stringify(agent.loop.snapshot());
    expect(kept).toContain('banned_strategy');
    expect(kept).not.toContain(token);
  });
});

describe('what the detectors keep of results', () => {
  it('saves no credential a result showed twice in the run state of the session', () => {
    const agent = new Agent();
    const key = 'sk-proj-R4nd0mK3yV4lu3F0rT3st1ngAbCdEfGhIjKlMn';
    const read = { file_path: '/srv/api/.env' };
    const content = `OPENAI_API_KEY=${key}\nPORT=3000\n`;
    for (let time = 0; time < 3; time++) agent.call('Read', read, content);
    expect(JSON.stringify(agent.loop.sessionSnapshot())).not.toContain(key);
  });
});
