import { describe, expect, it } from 'vitest';
import { Agent } from '../support.js';

const TEST = { command: 'npm test' };
const failing = (expected: number, received: number) => ({
  isError: true,
  text:
    ` FAIL  test/cart.test.ts > cart > adds up the total\nAssertionError: expected ${received} to be ${expected} // Object.is equality\n` +
    ' ❯ test/cart.test.ts:14:32\n\n Test Files  1 failed (1)\n      Tests  1 failed | 11 passed (12)\nexit code 1',
});
const edit = (from: string, to: string) => ({ file_path: 'src/cart.ts', old_string: from, new_string: to });
const updated = 'The file src/cart.ts has been updated.';
const FORWARD = edit('total += item.price', 'total += item.price * item.qty');
const BACK = edit('total += item.price * item.qty', 'total += item.price');

/** The test fails, the edit is made, the test fails otherwise, the edit is undone: one round. */
function round(agent: Agent): void {
  agent.call('Bash', TEST, failing(30, 27));
  agent.call('Edit', FORWARD, updated);
  agent.call('Bash', TEST, failing(30, 33));
  agent.call('Edit', BACK, updated);
}

describe('state-cycle', () => {
  it('blocks a test run after an edit and its undoing, with nothing run between them, put the file back as it was when the run failed', () => {
    const agent = new Agent();
    agent.call('Bash', TEST, failing(30, 27));
    agent.call('Edit', FORWARD, updated);
    agent.call('Edit', BACK, updated);
    const { check } = agent.call('Bash', TEST, failing(30, 27));
    expect(check.verdict).toBe('block');
    expect(check.rule).toBe('state-cycle');
    expect(check.reason).toContain('brought them back to that state');
  });

  it('lets a script run again after write_file wrote it once more with the text it had written, which the agent would write only if the file held other text', () => {
    const agent = new Agent();
    const script = {
      file_path: '/home/jules/scripts/test_share.py',
      content:
        'from share_engine import generate_secure_link\n\nresult = generate_secure_link("/movies/Inception (2010)")\nprint("\\nFINAL RESULT:", result)\n',
    };
    const run = { command: 'python3 /home/jules/scripts/test_share.py' };
    agent.call(
      'write_file',
      script,
      'Successfully created and wrote to new file: /home/jules/scripts/test_share.py.',
    );
    agent.call('run_shell_command', run, {
      isError: true,
      text: '  File "/home/jules/scripts/test_share.py", line 4\n    print("\n          ^\nSyntaxError: unterminated string literal (detected at line 4)\nExit Code: 1',
    });
    agent.call('write_file', script, 'Successfully overwrote file: /home/jules/scripts/test_share.py.');
    expect(agent.check('run_shell_command', run).verdict).toBe('allow');
  });

  it('lets the test run of the second round of an undo and redo cycle through, before its evidence repeats', () => {
    const agent = new Agent();
    round(agent);
    expect(agent.call('Bash', TEST, failing(30, 27)).check.verdict).toBe('allow');
  });

  it('blocks the test run that starts the third round of an undo and redo cycle', () => {
    const agent = new Agent();
    round(agent);
    round(agent);
    const { check } = agent.call('Bash', TEST, failing(30, 27));
    expect(check.verdict).toBe('block');
    expect(check.rule).toBe('state-cycle');
    expect(check.reason).toContain('twice with the files exactly as they are now');
  });

  it('blocks the fifth swing of a flip-flop between two versions of a line, not the third', () => {
    const agent = new Agent();
    const a = 'const limit = items.length';
    const b = 'const limit = items.length - 1';
    const verdicts: string[] = [];
    for (const [from, to, received] of [
      [a, b, 27],
      [b, a, 33],
      [a, b, 27],
      [b, a, 33],
    ] as const) {
      verdicts.push(agent.call('Edit', edit(from, to), updated).check.verdict);
      verdicts.push(agent.call('Bash', TEST, failing(30, received)).check.verdict);
    }
    expect(verdicts).not.toContain('block');
    // The swing that starts the third round is the first call of it to be stopped.
    expect(agent.call('Edit', edit(a, b), updated).check.verdict).toBe('block');
  });

  it('never blocks an edit, test, edit, test cycle that keeps moving the file forward', () => {
    const agent = new Agent();
    const versions = [
      'price',
      'price * qty',
      'price * item.qty',
      'item.price * item.qty',
      'item.price * item.quantity',
    ];
    const verdicts: string[] = [agent.call('Bash', TEST, failing(30, 27)).check.verdict];
    for (let i = 1; i < versions.length; i++) {
      verdicts.push(
        agent.call('Edit', edit(`total += ${versions[i - 1]}`, `total += ${versions[i]}`), updated).check
          .verdict,
      );
      verdicts.push(agent.call('Bash', TEST, failing(30, 27 + i)).check.verdict);
    }
    expect(verdicts).not.toContain('block');
  });

  it('blocks a run after a whole file is written back, a third time, with content it already failed with', () => {
    const agent = new Agent();
    const write = (content: string) =>
      agent.call(
        'Write',
        { file_path: 'src/limits.ts', content },
        'File created successfully at: src/limits.ts',
      );
    const change = (from: string, to: string) =>
      agent.call(
        'Edit',
        { file_path: 'src/limits.ts', old_string: from, new_string: to },
        'The file src/limits.ts has been updated.',
      );
    write('export const MAX = 10;\n');
    agent.call('Bash', TEST, failing(10, 9));
    write('export const MAX = 9;\n');
    agent.call('Bash', TEST, failing(10, 8));
    write('export const MAX = 10;\n');
    expect(agent.call('Bash', TEST, failing(10, 9)).check.verdict).toBe('allow');
    change('MAX = 10', 'MAX = 9');
    agent.call('Bash', TEST, failing(10, 8));
    change('MAX = 9', 'MAX = 10');
    expect(agent.call('Bash', TEST, failing(10, 9)).check.rule).toBe('state-cycle');
  });

  it('does not block once a command with unknown effects ran since, since nobody knows what it wrote', () => {
    const agent = new Agent();
    round(agent);
    agent.call('Bash', TEST, failing(30, 27));
    agent.call('Edit', FORWARD, updated);
    agent.call('Bash', TEST, failing(30, 33));
    agent.call(
      'Bash',
      { command: 'npm install decimal.js' },
      'added 1 package, and audited 212 packages in 2s',
    );
    agent.call('Edit', BACK, updated);
    expect(agent.call('Bash', TEST, failing(30, 27)).check.rule).not.toBe('state-cycle');
  });

  it('does not block a command that has since succeeded', () => {
    const agent = new Agent();
    agent.call('Bash', TEST, failing(30, 27));
    agent.call('Edit', edit('total += item.price', 'total += item.price * item.qty'), updated);
    agent.call('Bash', TEST, ' Test Files  1 passed (1)\n      Tests  12 passed (12)');
    agent.call('Edit', edit('total += item.price * item.qty', 'total += item.price'), updated);
    expect(agent.call('Bash', TEST, failing(30, 27)).check.verdict).not.toBe('block');
  });

  it('learns nothing from a run the harness cut short', () => {
    const agent = new Agent();
    agent.call('Bash', TEST, { error: 'Command timed out after 2m 0.0s' });
    agent.call('Edit', edit('total += item.price', 'total += item.price * item.qty'), updated);
    agent.call('Edit', edit('total += item.price * item.qty', 'total += item.price'), updated);
    expect(agent.call('Bash', TEST, failing(30, 27)).check.verdict).not.toBe('block');
  });

  it('can be turned off in the policy', () => {
    const agent = new Agent({ policy: { detectors: { stateCycle: { enabled: false } } } });
    round(agent);
    round(agent);
    expect(agent.call('Bash', TEST, failing(30, 27)).check.rule).not.toBe('state-cycle');
  });

  it('carries the states of the files over to a guard restored from a snapshot', () => {
    const first = new Agent();
    round(first);
    first.call('Bash', TEST, failing(30, 27));
    first.call('Edit', FORWARD, updated);
    first.call('Bash', TEST, failing(30, 33));
    const second = new Agent();
    second.loop.restore(JSON.parse(JSON.stringify(first.loop.snapshot())));
    second.call('Edit', BACK, updated);
    expect(second.call('Bash', TEST, failing(30, 27)).check.rule).toBe('state-cycle');
  });

  it('saves the edits it follows as hashes, never their texts', () => {
    const agent = new Agent();
    agent.call('Bash', TEST, failing(30, 27));
    agent.call('Edit', edit('const token = readToken()', 'const token = "ghp_live_example_value"'), updated);
    const saved = JSON.stringify(agent.loop.snapshot());
    expect(saved).toContain('state-cycle');
    expect(saved).not.toContain('readToken');
    expect(saved).not.toContain('ghp_live_example_value');
  });
});

describe('state-cycle: a place the agent comes back to', () => {
  const REFUSED = { isError: true, text: 'Nothing happens.' };
  const COUNTERTOP = 'On the countertop 1, you see a egg 2, a spoon 1, and a vase 1.';
  const PUT = { input: 'lettuce 1 in/on countertop 1' };

  /** Walks to the countertop, is refused the put there, then walks to `elsewhere` and is refused again. */
  function stay(agent: Agent, elsewhere: string, seen: string, countertop = COUNTERTOP) {
    agent.call('go_to', { input: 'countertop 1' }, countertop);
    const put = agent.call('put', PUT, REFUSED).check;
    agent.call('go_to', { input: elsewhere }, seen);
    agent.call('cool', { input: `lettuce 1 with ${elsewhere}` }, REFUSED);
    return put;
  }

  it('blocks a command refused at a place in two stays, each after walking away and back, on the third', () => {
    const agent = new Agent();
    stay(agent, 'fridge 1', 'The fridge 1 is closed.');
    const second = stay(agent, 'stoveburner 1', 'On the stoveburner 1, you see a pot 1.');
    expect(second.verdict).not.toBe('block');
    agent.call('go_to', { input: 'countertop 1' }, COUNTERTOP);
    const third = agent.check('put', PUT);
    expect([third.verdict, third.rule]).toEqual(['block', 'state-cycle']);
    expect(third.reason).toContain('was refused at this place twice already');
  });

  it('lets the command through when the place answers the agent otherwise on arrival', () => {
    const agent = new Agent();
    stay(agent, 'fridge 1', 'The fridge 1 is closed.');
    stay(agent, 'stoveburner 1', 'On the stoveburner 1, you see a pot 1.');
    agent.call('go_to', { input: 'countertop 1' }, 'On the countertop 1, you see a egg 2, and a spoon 1.');
    expect(agent.check('put', PUT).verdict).toBe('allow');
  });

  it('lets the command through after something that worked on the way changed what the agent holds', () => {
    const agent = new Agent();
    stay(agent, 'fridge 1', 'The fridge 1 is closed.');
    stay(agent, 'stoveburner 1', 'On the stoveburner 1, you see a pot 1.');
    agent.call('go_to', { input: 'fridge 1' }, 'The fridge 1 is closed.');
    agent.call(
      'open',
      { input: 'fridge 1' },
      'You open the fridge 1. The fridge 1 is open. In it, you see a lettuce 1.',
    );
    agent.call('take', { input: 'lettuce 1 from fridge 1' }, 'You pick up the lettuce 1 from the fridge 1.');
    agent.call('go_to', { input: 'countertop 1' }, COUNTERTOP);
    expect(agent.check('put', PUT).verdict).toBe('allow');
  });

  it('keeps the stays at a place across a guard saved and restored', () => {
    const agent = new Agent();
    stay(agent, 'fridge 1', 'The fridge 1 is closed.');
    stay(agent, 'stoveburner 1', 'On the stoveburner 1, you see a pot 1.');
    const restored = new Agent();
    restored.loop.restore(JSON.parse(JSON.stringify(agent.loop.snapshot())));
    restored.call('go_to', { input: 'countertop 1' }, COUNTERTOP);
    expect(restored.check('put', PUT).rule).toBe('state-cycle');
  });
});
