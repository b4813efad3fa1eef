import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Agent } from './support.js';

const SOLVER =
  "from pwn import remote\n\nconn = remote('crypto.chal.csaw.io', 5000)\nprint(conn.recvline())\n";
const REFUSED = 'Please send data as json using the expected format\n';
const LISTING = 'flag.txt.enc\nsolve.py\n';
const TEST_OUTPUT =
  '> api@2.3.0 test:e2e\n> playwright test\n\nRunning 48 tests using 4 workers\n  12 passed (14.2s)\n';

const runSolver = { command: 'python3 solve.py', description: 'Run the solver' };
const showSolver = { command: 'cat solve.py', description: 'Show the solver' };
const listFiles = { command: 'ls', description: 'List the task files' };

/**
 * A shell agent that ran its script, read it and listed the task's files, then ran it and read it
 * again with nothing done in between: both came back as before. Three calls, not a cycle of two.
 */
function wentOverItTwice(agent: Agent): void {
  agent.call('Bash', runSolver, REFUSED);
  agent.call('Bash', showSolver, SOLVER);
  agent.call('Bash', listFiles, LISTING);
  agent.call('Bash', runSolver, REFUSED);
  agent.call('Bash', showSolver, SOLVER);
}

describe('an agent going over answers it already has', () => {
  it('blocks a call that would come back as before once two calls of its tool did, nothing done in between', () => {
    const agent = new Agent();
    agent.call('Bash', runSolver, REFUSED);
    agent.call('Bash', showSolver, SOLVER);
    agent.call('Bash', listFiles, LISTING);
    expect(agent.call('Bash', runSolver, REFUSED).check.verdict).toBe('allow');
    expect(agent.call('Bash', showSolver, SOLVER).check.verdict).toBe('allow');
    const third = agent.check('Bash', listFiles);
    expect(third.verdict).toBe('block');
    expect(third.reason).toMatch(/nothing has been done since it last ran, and 2 calls of Bash/);
  });

  it('lets a call that has not run yet through, however often the others came back as before', () => {
    const agent = new Agent();
    wentOverItTwice(agent);
    expect(agent.check('Bash', { command: 'cat README.md', description: 'Read the task' }).verdict).toBe(
      'allow',
    );
  });

  it('leaves one call asked again and again to the count of answers alike in a row', () => {
    const agent = new Agent();
    const tail = {
      command: 'tail -n 20 /tmp/claude-1000/tasks/b8k2m1x.output',
      description: 'Check the output',
    };
    expect(agent.repeat(4, 'Bash', tail, TEST_OUTPUT)).toEqual(['allow', 'allow', 'warn', 'warn']);
  });

  it('lets the calls run again once something was done in between, whatever it touched', () => {
    const agent = new Agent();
    wentOverItTwice(agent);
    agent.call(
      'Edit',
      { file_path: '/home/ctf/notes.md', old_string: '- json?', new_string: '- send {"curve": ...}' },
      'The file /home/ctf/notes.md has been updated.',
    );
    expect(agent.check('Bash', listFiles).verdict).toBe('allow');
  });

  it('forgets the answers that came back as before more than eight calls ago', () => {
    const agent = new Agent();
    wentOverItTwice(agent);
    for (const file of ['a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt', 'f.txt', 'g.txt', 'h.txt'])
      agent.call('Read', { file_path: `/home/ctf/${file}` }, `contents of ${file}\n`);
    expect(agent.check('Bash', listFiles).verdict).toBe('allow');
  });

  it('leaves alone a tool whose nature it does not know, whose answers may follow a conversation', () => {
    const agent = new Agent();
    const send = (line: string, answer: string) => agent.call('connect_sendline', { args: line }, answer);
    send('help', 'Commands: 1) encrypt 2) quit\n');
    send('1', 'Enter plaintext:\n');
    send('2', 'Bye\n');
    send('help', 'Commands: 1) encrypt 2) quit\n');
    send('1', 'Enter plaintext:\n');
    expect(agent.check('connect_sendline', { args: '2' }).verdict).toBe('allow');
  });

  it('starts over after a message from the user, who may ask for what the agent already has', () => {
    const agent = new Agent();
    wentOverItTwice(agent);
    agent.loop.newRun('user');
    expect(agent.call('Bash', listFiles, LISTING).check.verdict).toBe('allow');
    expect(agent.call('Bash', runSolver, REFUSED).check.verdict).toBe('allow');
    expect(agent.check('Bash', showSolver).verdict).toBe('allow');
  });

  it('keeps what it saw across processes, as a hook that runs once per event does', () => {
    const agent = new Agent();
    wentOverItTwice(agent);
    const next = new Agent();
    next.loop.restore(agent.loop.snapshot());
    expect(next.check('Bash', listFiles).verdict).toBe('block');
  });

  it('is off with a repeat window of 0', () => {
    const agent = new Agent({ policy: { detectors: { identicalResult: { repeatWindow: 0 } } } });
    wentOverItTwice(agent);
    expect(agent.check('Bash', listFiles).verdict).toBe('allow');
  });
});

/** What the rule saved of an agent that went over it twice, as a state file holds it. */
function savedAfterGoingOver(agent: Agent): Record<string, unknown> | undefined {
  wentOverItTwice(agent);
  const saved = agent.loop.snapshot() as {
    session?: { detectors?: Record<string, Record<string, unknown>> };
  };
  return saved.session?.detectors?.['identical-result'];
}

describe('the saved record of answers that came back as before', () => {
  it('drops what it cannot read in a saved state and blocks nothing on it', () => {
    const agent = new Agent();
    const own = savedAfterGoingOver(agent);
    expect(own?.repeatedAt).toBeDefined();
    const hostile = {
      ...own,
      repeatedAt: [['Bash', { repeats: [{ at: -3, key: 'x' }, { at: 4 }, 'x', null] }], ['Bash'], 42],
    };
    expect(agent.restoredWith('identical-result', hostile).check('Bash', listFiles).verdict).toBe('allow');
  });

  it('restores any value without throwing, and a call not run yet still runs', () => {
    const agent = new Agent();
    const own = savedAfterGoingOver(agent);
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const restored = agent.restoredWith('identical-result', { ...own, repeatedAt: value });
        expect(restored.check('Bash', { command: 'cat flag.txt.enc', description: 'Read it' }).verdict).toBe(
          'allow',
        );
      }),
      { numRuns: 200 },
    );
  });
});
