import { describe, expect, it } from 'vitest';
import { computesInline } from '../../src/adapters/tool-call/inline-code.js';
import { Agent } from './support.js';

const binary = { command: '~/ctf_files/test.out' };
const refused = "Enter the String: that isn't correct, im sorry!";
const digest = { command: `python3 -c "import hashlib; print(hashlib.md5(b'csawctf{').hexdigest())"` };

describe('code given to an interpreter on its command line that only computes', () => {
  it('does not start over the runs of a program run again between computations', () => {
    const agent = new Agent();
    agent.call('bash', binary, refused);
    agent.call('bash', digest, 'a1a9724bbb6336630760ba82db8c971b');
    agent.call('bash', binary, refused);
    agent.call('bash', { command: `python3 -c "print('csawctf{' + 'x'*5 + '}')"` }, 'csawctf{xxxxx}');
    expect(agent.check('bash', binary)).toMatchObject({ verdict: 'block', rule: 'identical-result' });
  });

  it('starts them over when the code writes a file', () => {
    const agent = new Agent();
    const write = (guess: string) => ({
      command: `python3 -c "open('input.txt', 'w').write('csawctf{${guess}}')"`,
    });
    agent.call('bash', binary, refused);
    agent.call('bash', write('xxxxx'), '');
    agent.call('bash', binary, refused);
    agent.call('bash', write('yyyyy'), '');
    expect(agent.check('bash', binary).allowed).toBe(true);
  });

  it('reads imports of modules that reach files, processes or the network as unknown effects', () => {
    const code = (text: string) => computesInline('python3', ['-c', text]);
    expect(code('import base64; print(base64.b64decode("ZmxhZ3t9"))')).toBe(true);
    expect(code('from Crypto.Util.number import long_to_bytes; print(long_to_bytes(1718378855))')).toBe(true);
    expect(code('import os; print(os.listdir("/home/ctfplayer/ctf_files"))')).toBe(true);
    expect(code('import os; os.remove("flag.txt")')).toBe(false);
    expect(code('import subprocess; subprocess.run(["./chall"])')).toBe(false);
    expect(code('from pwn import *; r = remote("crypto.chal.csaw.io", 5000)')).toBe(false);
    expect(code('exec("import os")')).toBe(false);
    expect(computesInline('python3', ['solve.py'])).toBe(false);
  });
});
