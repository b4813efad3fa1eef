import { describe, expect, it } from 'vitest';
import { Agent } from './support.js';

const CIPHER = [
  '[File: /ctf/cipher.py (53 lines total)]',
  '1:from mathutils import *',
  '2:import numpy as np',
  '3:from sympy.abc import x',
].join('\n');
const MATHUTILS = [
  '[File: /ctf/mathutils.py (46 lines total)]',
  '1:from cipher import Cipher',
  '2:from sympy import Poly, ZZ',
  '3:from sympy.abc import x',
].join('\n');
const CIRCULAR = {
  isError: true,
  text: [
    'Traceback (most recent call last):',
    '  File "/ctf/solve.py", line 1, in <module>',
    '    from cipher import Cipher',
    '  File "/ctf/cipher.py", line 1, in <module>',
    '    from mathutils import *',
    '  File "/ctf/mathutils.py", line 1, in <module>',
    '    from cipher import Cipher',
    "ImportError: cannot import name 'Cipher' from partially initialized module 'cipher' (most likely due to a circular import) (/ctf/cipher.py)",
  ].join('\n'),
};

describe('moves of an editor back to a file it left', () => {
  it('lets an editor go back and forth between two files: each open moves the view', () => {
    const agent = new Agent();
    const verdicts: string[] = [];
    for (let round = 0; round < 3; round++) {
      verdicts.push(agent.call('open', { path: 'cipher.py' }, CIPHER).check.verdict);
      verdicts.push(agent.call('open', { path: 'mathutils.py' }, MATHUTILS).check.verdict);
    }
    expect(verdicts).toEqual(['allow', 'allow', 'allow', 'allow', 'allow', 'allow']);
  });

  it('still blocks the same failing script run between those opens, which change none of its files', () => {
    const agent = new Agent();
    agent.call('bash', { command: 'python solve.py' }, CIRCULAR);
    agent.call('open', { path: 'cipher.py' }, CIPHER);
    agent.call('open', { path: 'mathutils.py' }, MATHUTILS);
    const { check } = agent.call('bash', { command: 'python solve.py' }, CIRCULAR);
    expect(check.verdict).toBe('block');
  });

  it('still counts the file the editor shows opened again and again as one question asked again', () => {
    const agent = new Agent();
    const verdicts = Array.from(
      { length: 5 },
      () => agent.call('open', { path: 'cipher.py' }, CIPHER).check.verdict,
    );
    expect(verdicts).toEqual(['allow', 'allow', 'warn', 'warn', 'block']);
  });
});

describe('a command line that moves to the directory it is in before it looks', () => {
  const grep = (word: string, place = '/srv/app') => ({
    command: `cd ${place} && grep -rn "${word}" src --include=*.ts`,
    description: `Look for ${word}`,
  });
  const FOUND = (word: string) =>
    `src/agents/base-agent.ts:731:  abstract get${word}(): ${word} | undefined;`;

  it('counts two searches run in turn from the same directory, answered alike, as questions asked again', () => {
    const agent = new Agent();
    const verdicts: string[] = [];
    for (let round = 0; round < 5; round++)
      for (const word of ['ShellPolicy', 'ShellCommandPolicy'])
        verdicts.push(agent.call('Bash', grep(word), FOUND(word)).check.verdict);
    expect(verdicts.slice(0, 4)).toEqual(['allow', 'allow', 'allow', 'allow']);
    expect(verdicts).toContain('block');
  });

  it('still takes searches run in turn from two directories for moves', () => {
    const agent = new Agent();
    const verdicts: string[] = [];
    for (let round = 0; round < 5; round++)
      for (const place of ['/srv/app', '/srv/api'])
        verdicts.push(agent.call('Bash', grep('ShellPolicy', place), FOUND('ShellPolicy')).check.verdict);
    expect(verdicts).not.toContain('block');
  });
});
