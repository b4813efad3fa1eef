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

describe('the file an editor has open', () => {
  /** A run that fails at a line of the script the agent keeps editing, with the error naming it. */
  const failingAt = (line: number) => ({
    text: `Traceback (most recent call last):\n  File "/repo/reproduce.py", line ${line}, in <module>\n    INSTALLED_APPS.append(AppConfig(name='app'))\nTypeError: __init__() got an unexpected keyword argument 'name'`,
    isError: true,
  });

  it('is the one a created file opened: an edit naming no file changes it, so its script may run again', () => {
    const agent = new Agent();
    agent.call('create', { path: 'reproduce.py' }, '[File: /repo/reproduce.py (1 lines total)]\n1:');
    agent.call('bash', { command: 'python reproduce.py' }, failingAt(27));
    editOpenFile(agent, "INSTALLED_APPS.append('app')");
    expect(agent.call('bash', { command: 'python reproduce.py' }, failingAt(27)).check.verdict).not.toBe(
      'block',
    );
    editOpenFile(agent, "INSTALLED_APPS.append('other_app')");
    expect(agent.call('bash', { command: 'python reproduce.py' }, failingAt(27)).check.verdict).not.toBe(
      'block',
    );
  });

  it('is the last one opened: an edit after opening another file does not change the first', () => {
    const agent = new Agent();
    agent.call('create', { path: 'reproduce.py' }, '[File: /repo/reproduce.py (1 lines total)]\n1:');
    agent.call('bash', { command: 'python reproduce.py' }, failingAt(27));
    agent.call('open', { path: 'src/calc.py' }, '[File: /repo/src/calc.py (40 lines total)]\n1:def add');
    editOpenFile(agent, '    return a + b');
    expect(agent.call('bash', { command: 'python reproduce.py' }, failingAt(27)).check.verdict).toBe('block');
  });
});

describe('a creation refused because the file exists, whose answer opened it', () => {
  const FAILED_EXPLOIT = {
    text: '  File "/root/ctf/exploit.py", line 4\n    p = remote("pwn.chal.csaw.io", 5000\n                                      ^\nSyntaxError: \'(\' was never closed',
    isError: true,
  };
  const EXISTS = {
    text: "Error: File 'exploit.py' already exists.\n[File: /root/ctf/exploit.py (6 lines total)]\n1:import time\n2:\n3:\n4:p = remote(\"pwn.chal.csaw.io\", 5000)\n5:p.sendline(b'42')\n6:print(p.recvall())",
    isError: true,
  };

  function runUntilBlocked(agent: Agent): void {
    agent.call(
      'open',
      { path: 'notes.md' },
      '[File: /root/ctf/notes.md (3 lines total)]\n1:# notes\n2:first question: 42\n3:',
    );
    agent.call('bash', { command: 'python exploit.py' }, FAILED_EXPLOIT);
    agent.call('bash', { command: 'python exploit.py' }, FAILED_EXPLOIT);
    expect(agent.check('bash', { command: 'python exploit.py' }).verdict).toBe('block');
  }

  it('lets the failing script run again once an edit of the open file changed it', () => {
    const agent = new Agent();
    runUntilBlocked(agent);
    agent.call('create', { path: 'exploit.py' }, EXISTS);
    agent.call(
      'edit',
      { lines: '4:4', replacement: 'p = remote("pwn.chal.csaw.io", 5000)' },
      '[File: /root/ctf/exploit.py (6 lines total)]\n4:p = remote("pwn.chal.csaw.io", 5000)\nFile updated.',
    );
    expect(agent.check('bash', { command: 'python exploit.py' }).verdict).toBe('allow');
  });

  it('keeps the failing script banned when the refused creation opened nothing', () => {
    const agent = new Agent();
    runUntilBlocked(agent);
    agent.call(
      'create',
      { path: 'exploit.py' },
      { text: "Error: File 'exploit.py' already exists.", isError: true },
    );
    agent.call(
      'edit',
      { lines: '1:1', replacement: '# notes on the service' },
      '[File: /root/ctf/notes.md (3 lines total)]\n1:# notes on the service\nFile updated.',
    );
    expect(agent.check('bash', { command: 'python exploit.py' }).verdict).toBe('block');
  });
});

describe('an edit that names no file, with none open', () => {
  const EDIT = { path: 'src/parser.py', old_str: '        return None', new_str: '        return []' };
  const NOT_FOUND = {
    text: 'No replacement was performed, old_str `        return None` did not appear verbatim in src/parser.py.',
    isError: true,
  };
  const EDITED = '[File: /repo/src/parser.py (88 lines total)]\n41:        return None\nFile updated.';

  function editUntilBlocked(agent: Agent): void {
    agent.call('str_replace_editor', EDIT, NOT_FOUND);
    agent.call('str_replace_editor', EDIT, NOT_FOUND);
    expect(agent.check('str_replace_editor', EDIT).verdict).toBe('block');
  }

  it('may have changed any file, so an edit that failed before it may be tried again', () => {
    const agent = new Agent();
    editUntilBlocked(agent);
    agent.call('edit', { lines: '41:41', replacement: '        return None' }, EDITED);
    expect(agent.check('str_replace_editor', EDIT).verdict).toBe('allow');
  });

  it('changes nothing when made again with the same answer and nothing changed since', () => {
    const agent = new Agent();
    agent.call('edit', { lines: '41:41', replacement: '        return None' }, EDITED);
    editUntilBlocked(agent);
    agent.call('edit', { lines: '41:41', replacement: '        return None' }, EDITED);
    expect(agent.check('str_replace_editor', EDIT).verdict).toBe('block');
  });
});
