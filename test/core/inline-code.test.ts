import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computesInline, nodeCodeOnlyLooks } from '../../src/adapters/tool-call/inline-code.js';
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

describe('code given to Node on its command line', () => {
  const start = { command: 'node server.js' };
  const compileError = {
    text: [
      'file:///home/dev/shop/backend/routes/webhooks.js:77',
      "   missing.map((s) => '   ' + s + '=<secret>').join('",
      '                                                  ^',
      '',
      'SyntaxError: Invalid or unexpected token',
      '    at compileSourceTextModule (node:internal/modules/esm/utils:340:16)',
    ].join('\n'),
    isError: true,
  };
  const script = (code: string) => ({ command: `node -e "${code}"` });
  const rewrite = (from: string, to: string) =>
    script(
      `const fs = require('fs'); const c = fs.readFileSync('routes/webhooks.js', 'utf8'); fs.writeFileSync('routes/webhooks.js', c.replace('${from}', '${to}')); console.log('Fixed')`,
    );

  it('lets a server run again after a script rewrote the file its syntax error names, also after an earlier script', () => {
    const agent = new Agent();
    agent.call('Bash', rewrite('router.use((req) => {});}', 'router.use((req) => {});'), 'Fixed');
    agent.call('Bash', start, compileError);
    expect(agent.check('Bash', start).verdict).toBe('block');
    agent.call('Bash', rewrite(".join('", ".join('\\\\n')"), 'Fixed');
    expect(agent.check('Bash', start).verdict).toBe('allow');
  });

  it('keeps the server blocked after a script that only printed the file', () => {
    const agent = new Agent();
    agent.call('Bash', start, compileError);
    const line = (n: number) =>
      script(`console.log(require('fs').readFileSync('routes/webhooks.js', 'utf8').split('\\n')[${n}])`);
    agent.call('Bash', line(76), "   missing.map((s) => '   ' + s + '=<secret>').join('");
    agent.call('Bash', line(77), "')");
    expect(agent.check('Bash', start).verdict).toBe('block');
  });

  it('reads code that writes, runs programs or loads modules it cannot follow as unknown effects', () => {
    expect(nodeCodeOnlyLooks("console.log(require('./package.json').version)")).toBe(true);
    expect(
      nodeCodeOnlyLooks(
        "const fs = require('node:fs'); process.stdout.write(fs.readFileSync('a.txt', 'utf8'))",
      ),
    ).toBe(true);
    expect(nodeCodeOnlyLooks("import('node:os').then((os) => console.log(os.cpus().length))")).toBe(true);
    expect(nodeCodeOnlyLooks("require('fs').writeFileSync('a.js', 'x')")).toBe(false);
    expect(nodeCodeOnlyLooks("require('fs').rmSync('dist', { recursive: true })")).toBe(false);
    expect(nodeCodeOnlyLooks("require('child_process').execSync('npm run build')")).toBe(false);
    expect(nodeCodeOnlyLooks('const m = /v(\\d+)/.exec(process.version); console.log(m[1])')).toBe(true);
    expect(nodeCodeOnlyLooks("require('./scripts/seed.js')")).toBe(false);
    expect(nodeCodeOnlyLooks('const m = process.argv[1]; require(m)')).toBe(false);
    expect(
      nodeCodeOnlyLooks("fetch('https://api.example.com/health').then((r) => console.log(r.status))"),
    ).toBe(false);
  });

  it('never reads code that writes a file as only looking, whatever comes before it', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (before) => {
        const code = `${before}; require('fs').writeFileSync('routes/a.js', 'x')`;
        expect(nodeCodeOnlyLooks(code)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
});
