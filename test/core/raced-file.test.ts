import { describe, expect, it } from 'vitest';
import { Agent } from './support.js';

/** ESLint walking the tree while a Vite build writes and removes its bundled config beside it. */
function lintRaced(stamp: string): { text: string; isError: boolean } {
  return {
    text: [
      '',
      '> storefront@0.3.0 lint',
      '> eslint .',
      '',
      '',
      'Oops! Something went wrong! :(',
      '',
      'ESLint: 9.12.0',
      '',
      `Error: ENOENT: no such file or directory, open '/home/dev/storefront/vite.config.ts.timestamp-${stamp}.mjs'`,
      '    at async open (node:internal/fs/promises:639:25)',
      '    at async readFile (node:internal/fs/promises:1242:14)',
    ].join('\n'),
    isError: true,
  };
}

const TESTS_PASS =
  '\n> storefront@0.3.0 test\n> vitest run\n\n Test Files  4 passed (4)\n      Tests  19 passed (19)\n';

describe('a file made and removed while the command ran', () => {
  it('lets a lint run again after it failed on a temporary file another process removed', () => {
    const agent = new Agent();
    agent.call('shell', { command: 'npm run lint' }, lintRaced('1732611402918-9e1c07b5d3a24'));
    agent.call('shell', { command: 'npm test' }, TESTS_PASS);
    expect(agent.check('shell', { command: 'npm run lint' }).verdict).not.toBe('block');
  });

  it('lets it run again after the same race met it twice', () => {
    const agent = new Agent();
    agent.call('shell', { command: 'npm run lint' }, lintRaced('1732611402918-9e1c07b5d3a24'));
    agent.call('shell', { command: 'npm test' }, TESTS_PASS);
    agent.call('shell', { command: 'npm run lint' }, lintRaced('1732611577306-3f8d2a61c0e9b7'));
    agent.call('shell', { command: 'npm test' }, TESTS_PASS);
    expect(agent.check('shell', { command: 'npm run lint' }).verdict).not.toBe('block');
  });

  it('still blocks reading a temporary file the agent named that is not there', () => {
    const agent = new Agent();
    const missing = {
      text: 'cat: .cache/tmpk2v9q0xa/report.json: No such file or directory\n',
      isError: true,
    };
    agent.call('Bash', { command: 'cat .cache/tmpk2v9q0xa/report.json' }, missing);
    expect(agent.check('Bash', { command: 'cat .cache/tmpk2v9q0xa/report.json' }).verdict).toBe('block');
  });

  it('still blocks a script that fails on a missing file with a plain name', () => {
    const agent = new Agent();
    const missing = {
      text: [
        'Traceback (most recent call last):',
        '  File "/home/dev/tools/export.py", line 8, in <module>',
        "    with open('data/orders.csv') as f:",
        "FileNotFoundError: [Errno 2] No such file or directory: 'data/orders.csv'",
      ].join('\n'),
      isError: true,
    };
    agent.call('Bash', { command: 'python3 tools/export.py' }, missing);
    agent.call('Bash', { command: 'python3 tools/export.py' }, missing);
    expect(agent.check('Bash', { command: 'python3 tools/export.py' }).verdict).toBe('block');
  });
});
