import { describe, expect, it } from 'vitest';
import { Agent } from './support.js';

/** SWE-agent's interface: `edit A:B` acts on the file `open` opened, and names no file. */
const FAILED_RUN = {
  text: 'Traceback (most recent call last):\n  File "reproduce.py", line 3, in <module>\n    assert add(1, 2) == 3\nAssertionError',
  isError: true,
};

function editOpenFile(agent: Agent, replacement: string): string {
  return agent.call(
    'edit',
    { lines: '2:2', replacement },
    `[File: src/calc.py (40 lines total)]\n2:${replacement}\nFile updated.`,
  ).check.verdict;
}

describe('edits of the file the editor has open', () => {
  it('let the failing script run again after each edit, since the edit may have fixed it', () => {
    const agent = new Agent();
    agent.call(
      'open',
      { path: 'src/calc.py' },
      '[File: src/calc.py (40 lines total)]\n1:def add(a, b):\n2:    return a - b',
    );
    const runs: string[] = [];
    for (const replacement of [
      '    return a + b + 0',
      '    return b + a',
      '    return sum((a, b))',
      '    return a.__add__(b)',
    ]) {
      runs.push(agent.call('bash', { command: 'python reproduce.py' }, FAILED_RUN).check.verdict);
      expect(editOpenFile(agent, replacement)).not.toBe('block');
    }
    runs.push(agent.call('bash', { command: 'python reproduce.py' }, FAILED_RUN).check.verdict);
    expect(runs).not.toContain('block');
  });

  it('still count the same edit made twice in a row as changing nothing', () => {
    const agent = new Agent();
    agent.call(
      'open',
      { path: 'src/calc.py' },
      '[File: src/calc.py (40 lines total)]\n1:def add(a, b):\n2:    return a - b',
    );
    agent.call('bash', { command: 'python reproduce.py' }, FAILED_RUN);
    editOpenFile(agent, '    return a + b + 0');
    agent.call('bash', { command: 'python reproduce.py' }, FAILED_RUN);
    editOpenFile(agent, '    return a + b + 0');
    agent.call('bash', { command: 'python reproduce.py' }, FAILED_RUN);
    editOpenFile(agent, '    return a + b + 0');
    expect(agent.call('bash', { command: 'python reproduce.py' }, FAILED_RUN).check.verdict).toBe('block');
  });
});
