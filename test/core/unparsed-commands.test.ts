import { describe, expect, it } from 'vitest';
import { Agent } from './support.js';

/** A one-line script whose quoting the harness cannot read: it never runs, and never will. */
const INLINE = {
  command: `python3 -c 'alphabet = "abc"; secret = "A:4@r%uL"; for c in secret: print(alphabet.find(c))'`,
};
const MALFORMED = { text: 'Malformed command', isError: true };
const LISTING =
  '# We want our biggest client to know his information is safe with us.\nsecret = "A:4@r%uL"\n';

describe('a command line the harness could not parse', () => {
  it('blocks the same line sent again after a read, since the same text is refused the same way', () => {
    for (const shell of ['bash', 'Bash', 'run_shell_command', 'exec_command', 'run_terminal_cmd']) {
      const agent = new Agent();
      agent.call(shell, INLINE, MALFORMED);
      agent.call(shell, { command: 'cat crackme.py' }, LISTING);
      expect(agent.check(shell, INLINE).verdict).toBe('block');
    }
  });

  it('lets a corrected line run: only the text that was refused is known to be refused', () => {
    const agent = new Agent();
    agent.call('bash', INLINE, MALFORMED);
    const fixed = { command: `python3 -c 'print("abc".find("A"))'` };
    expect(agent.check('run_shell_command', fixed).verdict).toBe('allow');
    expect(agent.check('bash', fixed).verdict).toBe('allow');
  });
});
