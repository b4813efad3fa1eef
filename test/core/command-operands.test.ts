import { describe, expect, it } from 'vitest';
import { Agent } from './support.js';

const SYNTAX_ERROR = {
  text:
    '  File "/home/ctfplayer/solve_ecc.sage.py", line 21\n' +
    "    print 'd =', discrete_log(P, G, operation='+')\n" +
    '    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n' +
    "SyntaxError: Missing parentheses in call to 'print'. Did you mean print(...)?\n",
  isError: true,
};
const SCRIPT = "E = EllipticCurve(GF(p), [a, b])\nd = discrete_log(P, G, operation='+')\nprint(f'd = {d}')\n";

describe('a failing command whose error names a file made from the one it runs', () => {
  it('runs again after the file it names was written, though its error named another', () => {
    const agent = new Agent();
    agent.call('run_command', { command: 'sage solve_ecc.sage' }, SYNTAX_ERROR);
    expect(agent.check('run_command', { command: 'sage solve_ecc.sage' }).verdict).toBe('block');
    agent.call(
      'createfile',
      { path: 'solve_ecc.sage', contents: SCRIPT },
      '{"success": true, "path": "/home/ctfplayer/solve_ecc.sage"}',
    );
    expect(agent.check('run_command', { command: 'sage solve_ecc.sage' }).verdict).toBe('allow');
  });

  it('runs again after the file was written under another spelling of its path', () => {
    const agent = new Agent();
    const command = { command: 'sage /home/ctfplayer/ctf_files/solve_ecc.sage' };
    agent.call('run_command', command, SYNTAX_ERROR);
    agent.call(
      'createfile',
      { path: '~/ctf_files/solve_ecc.sage', contents: SCRIPT },
      '{"success": true, "path": "/home/ctfplayer/ctf_files/solve_ecc.sage"}',
    );
    expect(agent.check('run_command', command).verdict).toBe('allow');
  });

  it('stays blocked after a write of a file the command does not name', () => {
    const agent = new Agent();
    agent.call('run_command', { command: 'sage solve_ecc.sage' }, SYNTAX_ERROR);
    agent.call(
      'createfile',
      { path: 'notes.txt', contents: 'curve parameters from the handout' },
      '{"success": true, "path": "/home/ctfplayer/notes.txt"}',
    );
    expect(agent.check('run_command', { command: 'sage solve_ecc.sage' }).verdict).toBe('block');
  });

  it('is blocked again once its retry failed the same way', () => {
    const agent = new Agent();
    agent.call('run_command', { command: 'sage solve_ecc.sage' }, SYNTAX_ERROR);
    agent.call(
      'createfile',
      { path: 'solve_ecc.sage', contents: SCRIPT },
      '{"success": true, "path": "/home/ctfplayer/solve_ecc.sage"}',
    );
    agent.call('run_command', { command: 'sage solve_ecc.sage' }, SYNTAX_ERROR);
    expect(agent.check('run_command', { command: 'sage solve_ecc.sage' }).verdict).toBe('block');
  });
});
