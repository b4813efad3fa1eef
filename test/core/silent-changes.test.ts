import { describe, expect, it } from 'vitest';
import { Agent } from './support.js';

const SYNTAX_ERROR = {
  text: [
    '  File "/ctf/34/find_password.py", line 1',
    '    import hashlib  def hash_pw(pw_str):     m = hashlib.md5()     return m.digest()',
    '                    ^^^',
    'SyntaxError: invalid syntax',
  ].join('\n'),
  isError: true,
};
const WRITE_SCRIPT = {
  command: `echo "import hashlib  def hash_pw(pw_str):     m = hashlib.md5()     return m.digest()" > find_password.py`,
};

describe('a change that answers nothing', () => {
  it('lets a failing script run again after the command that writes it runs again, silently', () => {
    const agent = new Agent();
    agent.call('bash', WRITE_SCRIPT, '');
    agent.call('bash', { command: 'python3 find_password.py' }, SYNTAX_ERROR);
    expect(agent.call('bash', WRITE_SCRIPT, '').check.verdict).toBe('allow');
    expect(agent.check('bash', { command: 'python3 find_password.py' }).verdict).toBe('allow');
  });

  it('still blocks the failing script when the command that writes it answered as it did before', () => {
    const agent = new Agent();
    const shown = 'wrote find_password.py (92 bytes)';
    agent.call('bash', WRITE_SCRIPT, shown);
    agent.call('bash', { command: 'python3 find_password.py' }, SYNTAX_ERROR);
    agent.call('bash', WRITE_SCRIPT, shown);
    expect(agent.check('bash', { command: 'python3 find_password.py' }).verdict).toBe('block');
  });

  it('never counts a silent write repeated back to back as a call returning the same result', () => {
    const agent = new Agent();
    const writeAndRun = { command: `${WRITE_SCRIPT.command}  python3 decrypt.py` };
    expect(agent.repeat(7, 'bash', writeAndRun, '')).toEqual(Array(7).fill('allow'));
  });

  it('keeps the ban of a failed command when a silent check that writes nothing runs again', () => {
    const agent = new Agent();
    agent.call('bash', { command: 'npx tsc --noEmit' }, '');
    agent.call(
      'bash',
      { command: 'git checkout -b fix/port-config' },
      {
        text: "fatal: a branch named 'fix/port-config' already exists",
        isError: true,
      },
    );
    agent.call('bash', { command: 'npx tsc --noEmit' }, '');
    expect(agent.check('bash', { command: 'git checkout -b fix/port-config' }).verdict).toBe('block');
  });

  it('lets a failing command run again after a silent script of unknown effects runs again', () => {
    const agent = new Agent();
    const missingKey = {
      text: [
        'Traceback (most recent call last):',
        '  File "/ctf/41/solve.py", line 3, in <module>',
        "    key = open('key.bin', 'rb').read()",
        "FileNotFoundError: [Errno 2] No such file or directory: 'key.bin'",
      ].join('\n'),
      isError: true,
    };
    agent.call('bash', { command: 'python3 make_key.py' }, '');
    agent.call('bash', { command: 'python3 solve.py' }, missingKey);
    agent.call('bash', { command: 'python3 make_key.py' }, '');
    expect(agent.check('bash', { command: 'python3 solve.py' }).verdict).toBe('allow');
  });

  it('keeps the ban of a failed command when a silent linter, type checker or test of the shell runs again', () => {
    for (const check of [
      'npx eslint src',
      'python -m mypy src',
      '[ -f .env.production ]',
      'git diff --quiet',
    ]) {
      const agent = new Agent();
      const branchExists = { text: "fatal: a branch named 'fix/port-config' already exists", isError: true };
      agent.call('bash', { command: check }, '');
      agent.call('bash', { command: 'git checkout -b fix/port-config' }, branchExists);
      agent.call('bash', { command: check }, '');
      expect(agent.check('bash', { command: 'git checkout -b fix/port-config' }).verdict, check).toBe(
        'block',
      );
    }
  });

  it('keeps the ban of a failing script across a line that is only a comment, whatever it mentions', () => {
    const agent = new Agent();
    const missing = {
      text: "python3: can't open file '/ctf/86/decode.py': [Errno 2] No such file or directory",
      isError: true,
    };
    agent.call('bash', { command: 'python3 decode.py' }, missing);
    for (const nothing of [
      `# The script failed. Write it again.  ${WRITE_SCRIPT.command}  python3 decode.py`,
      ': ',
      'true',
      '',
    ]) {
      agent.call('bash', { command: nothing }, '');
    }
    expect(agent.check('bash', { command: 'python3 decode.py' }).verdict).toBe('block');
  });

  it('lets a failing script run again after a command whose first line is a comment wrote it', () => {
    const agent = new Agent();
    const missing = {
      text: "python3: can't open file '/ctf/86/decode.py': [Errno 2] No such file or directory",
      isError: true,
    };
    agent.call('bash', { command: 'python3 decode.py' }, missing);
    agent.call('bash', { command: '# write the decoder\necho "print(42)" > decode.py' }, '');
    expect(agent.check('bash', { command: 'python3 decode.py' }).verdict).toBe('allow');
  });

  it('still blocks a command that only looks, repeated back to back with no answer', () => {
    const agent = new Agent();
    expect(agent.repeat(6, 'bash', { command: 'grep -rl TODO src' }, '')).toContain('block');
  });
});

describe('a long inline script written to a file', () => {
  /** A script of a few dozen lines, as an agent hands one over inline, with JSX in a Python string. */
  const SCRIPT = [
    'from pathlib import Path',
    "path = Path('src/components/CommandCenter.tsx')",
    'text = path.read_text()',
    "idx = text.rindex('  return (')",
    "new_block = '''  const sidebar = activeView === 'chat' ? null : (",
    '    <>',
    ...Array.from(
      { length: 30 },
      (_, row) =>
        `      <div className="row-${row} flex items-center justify-between px-4">{items[${row}]}</div>`,
    ),
    '    </>',
    '  );',
    "'''",
    'path.write_text(text[:idx] + new_block)',
  ].join('\n');
  const ENCODING_ERROR = {
    text: "SyntaxError: Non-UTF-8 code starting with '\\xff' in file C:\\app\\update_view.py on line 1, but no encoding declared; see https://peps.python.org/pep-0263/ for details\r\n",
    isError: true,
  };

  it('lets the script run again after a long PowerShell here-string rewrote it with another encoding', () => {
    const agent = new Agent();
    agent.call('shell', { command: `@'\n${SCRIPT}\n'@ > update_view.py` }, '');
    agent.call('shell', { command: 'python update_view.py' }, ENCODING_ERROR);
    agent.call('shell', { command: `@'\n${SCRIPT}\n'@ | Set-Content -Encoding UTF8 update_view.py` }, '');
    expect(agent.check('shell', { command: 'python update_view.py' }).verdict).toBe('allow');
  });
});
