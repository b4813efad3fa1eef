import { describe, expect, it } from 'vitest';
import {
  endsWithPath,
  homeSpelling,
  isAbsolutePath,
  relativeSpellings,
  underHome,
} from '../../src/core/path-spellings.js';
import { Agent } from './support.js';

const MISSING = {
  text: '<tool_use_error>File does not exist. Did you mean .env.local?</tool_use_error>',
  isError: true,
};

/** A decompiler asked for a function the binary at an absolute path does not have. */
const BINARY = { path: '/home/ctfplayer/ctf_files/bard', function: 'main' };
const NOT_FOUND = { text: 'Function main not found in /home/ctfplayer/ctf_files/bard', isError: true };

describe('one file named by an absolute and a relative path', () => {
  it.each([
    ['/home/dev/shop/apps/docs/.env.example', 'on POSIX'],
    ['C:/Users/dev/shop/apps/docs/.env.example', 'from a Windows drive'],
  ])(
    'lets a failed read of a relative path run again once a write names the same file absolutely (%s, %s)',
    (absolute) => {
      const agent = new Agent();
      agent.call('Read', { file_path: './apps/docs/.env.example' }, MISSING);
      expect(agent.check('Read', { file_path: './apps/docs/.env.example' }).verdict).toBe('block');
      agent.call(
        'Write',
        { file_path: absolute, content: 'API_URL=http://localhost:3001\n' },
        `File created successfully at: ${absolute}`,
      );
      expect(agent.check('Read', { file_path: './apps/docs/.env.example' }).verdict).toBe('allow');
    },
  );

  it('keeps the ban on a relative path when the write is of another file of the same name', () => {
    const agent = new Agent();
    agent.call('Read', { file_path: './apps/docs/.env.example' }, MISSING);
    agent.call(
      'Write',
      { file_path: '/home/dev/shop/apps/api/.env.example', content: 'API_KEY=\n' },
      'File created successfully at: /home/dev/shop/apps/api/.env.example',
    );
    expect(agent.check('Read', { file_path: './apps/docs/.env.example' }).verdict).toBe('block');
  });

  it('lets a failed read of an absolute path run again once a write names the same file relatively', () => {
    const agent = new Agent();
    agent.call('Read', { file_path: '/home/dev/shop/apps/docs/.env.example' }, MISSING);
    expect(agent.check('Read', { file_path: '/home/dev/shop/apps/docs/.env.example' }).verdict).toBe('block');
    agent.call(
      'write_file',
      { file_path: 'apps/docs/.env.example', content: 'API_URL=http://localhost:3001\n' },
      'Successfully created and wrote to new file: apps/docs/.env.example.',
    );
    expect(agent.check('Read', { file_path: '/home/dev/shop/apps/docs/.env.example' }).verdict).toBe('allow');
  });

  it('lets a failed call on an absolute path run again once a command of unknown effects names the file relatively', () => {
    const agent = new Agent();
    agent.call('decompile_function', BINARY, NOT_FOUND);
    agent.call('decompile_function', BINARY, NOT_FOUND);
    expect(agent.check('decompile_function', BINARY).verdict).toBe('block');
    agent.call('run_command', { command: 'python3 strip_symbols.py ./ctf_files/bard' }, 'done');
    expect(agent.check('decompile_function', BINARY).verdict).not.toBe('block');
  });

  it('keeps the ban on an absolute path when a command names another file of the same name', () => {
    const agent = new Agent();
    agent.call('decompile_function', BINARY, NOT_FOUND);
    agent.call('decompile_function', BINARY, NOT_FOUND);
    agent.call('run_command', { command: 'python3 strip_symbols.py ./backup/bard' }, 'done');
    expect(agent.check('decompile_function', BINARY).verdict).toBe('block');
  });

  it('keeps the ban on an absolute path when the relative write is of another file of the same name', () => {
    const agent = new Agent();
    agent.call('Read', { file_path: '/home/dev/shop/apps/docs/.env.example' }, MISSING);
    agent.call(
      'write_file',
      { file_path: 'apps/api/.env.example', content: 'API_KEY=\n' },
      'Successfully created and wrote to new file: apps/api/.env.example.',
    );
    expect(agent.check('Read', { file_path: '/home/dev/shop/apps/docs/.env.example' }).verdict).toBe('block');
  });

  it('spells an absolute path as each relative path it can be from a working directory above it', () => {
    expect(relativeSpellings('/home/dev/a.ts')).toEqual(['home/dev/a.ts', 'dev/a.ts', 'a.ts']);
    expect(relativeSpellings('apps/a.ts')).toEqual([]);
    expect(relativeSpellings('/')).toEqual([]);
  });

  it('spells a path from a Windows drive as each relative path below the drive', () => {
    expect(isAbsolutePath('C:/Users/dev/app/a.ts')).toBe(true);
    expect(isAbsolutePath('src/a.ts')).toBe(false);
    expect(relativeSpellings('C:/Users/dev/a.ts')).toEqual(['Users/dev/a.ts', 'dev/a.ts', 'a.ts']);
    expect(endsWithPath('D:/work/app/src/a.ts', 'src/a.ts')).toBe(true);
    expect(endsWithPath('D:/work/app/src/a.ts', 'C:/src/a.ts')).toBe(false);
  });
});

describe('one file named from the home directory and by its absolute path', () => {
  const SYNTAX_ERROR = {
    text: '  File "/home/ctfplayer/ctf_files/RSA.py", line 2\n    def rsa_decrypt(c, n, d):    plaintext = pow(c, d, n)\n                                 ^^^^^^^^^\nSyntaxError: invalid syntax',
    isError: true,
  };

  it('lets a failed script run again once a write names it under the home directory', () => {
    const agent = new Agent();
    agent.call('run_command', { command: 'python3 ~/ctf_files/RSA.py' }, SYNTAX_ERROR);
    agent.call('run_command', { command: 'python3 ~/ctf_files/RSA.py' }, SYNTAX_ERROR);
    expect(agent.check('run_command', { command: 'python3 ~/ctf_files/RSA.py' }).verdict).toBe('block');
    agent.call(
      'createfile',
      { path: '~/ctf_files/RSA.py', contents: 'print(pow(3, -1, 7))\n' },
      '{"success": true, "path": "/home/ctfplayer/ctf_files/RSA.py"}',
    );
    expect(agent.check('run_command', { command: 'python3 ~/ctf_files/RSA.py' }).verdict).toBe('allow');
  });

  it('lets a failed read of an absolute path run again once a write names it under the home directory', () => {
    const agent = new Agent();
    agent.call('Read', { file_path: '/home/dev/notes/todo.md' }, MISSING);
    expect(agent.check('Read', { file_path: '/home/dev/notes/todo.md' }).verdict).toBe('block');
    agent.call('Write', { file_path: '~/notes/todo.md', content: '- ship\n' }, 'File created successfully');
    expect(agent.check('Read', { file_path: '/home/dev/notes/todo.md' }).verdict).toBe('allow');
  });

  it('spells a path under a home directory from it, and reads what follows a leading ~/', () => {
    expect(homeSpelling('/home/dev/a/b.py')).toBe('~/a/b.py');
    expect(homeSpelling('/root/a.py')).toBe('~/a.py');
    expect(homeSpelling('/srv/a.py')).toBeUndefined();
    expect(homeSpelling('C:/Users/dev/a/b.py')).toBe('~/a/b.py');
    expect(homeSpelling('C:/Program Files/a.py')).toBeUndefined();
    expect(underHome('~/a/b.py')).toBe('a/b.py');
    expect(underHome('a/b.py')).toBeUndefined();
  });
});
