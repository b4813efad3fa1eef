import { describe, expect, it, vi } from 'vitest';
import { createToolCallAdapter } from '../../src/adapters/tool-call/index.js';
import { subjectLookedUp } from '../../src/core/subject-lookup.js';
import { Agent } from './support.js';

const NO_VERSION = {
  text: "npm error code ETARGET\nnpm error notarget No matching version found for tsx@^4.22.1.\nnpm error notarget In most cases you or one of your dependencies are requesting\nnpm error notarget a package version that doesn't exist.",
  isError: true,
};

const FILE_MISSING = {
  text: '<tool_use_error>File does not exist. Note: your current working directory is /home/dev/app.</tool_use_error>',
  isError: true,
};

describe('looking up what an error was about', () => {
  it('gives a failed command one retry after a look-up that names what its error was about', () => {
    const agent = new Agent();
    agent.call('Bash', { command: 'npm install' }, NO_VERSION);
    expect(agent.check('Bash', { command: 'npm install' }).verdict).toBe('block');
    agent.call('Bash', { command: 'npm view tsx versions' }, "[ '4.19.0', '4.19.1', '4.20.3' ]");
    expect(agent.check('Bash', { command: 'npm install' }).verdict).toBe('allow');
  });

  it('keeps the ban after a look-up of something else than what the error was about', () => {
    const agent = new Agent();
    agent.call('Bash', { command: 'npm install' }, NO_VERSION);
    agent.call('Bash', { command: 'npm view typescript version' }, '5.9.3');
    expect(agent.check('Bash', { command: 'npm install' }).verdict).toBe('block');
  });

  it('gives a read of a file not found one retry after a command that only looks named the file and answered', () => {
    const agent = new Agent();
    const read = { file_path: '/home/dev/app/docs/plan.md' };
    agent.call('Read', read, FILE_MISSING);
    expect(agent.check('Read', read).verdict).toBe('block');
    agent.call(
      'Bash',
      { command: 'ls -la /home/dev/app/docs/plan.md', description: 'Check whether the plan exists' },
      '-rw-r--r--  1 dev  staff  2048 Nov 30 10:12 /home/dev/app/docs/plan.md',
    );
    expect(agent.check('Read', read).verdict).toBe('allow');
  });

  it('reads no file names from a command that only looks while nothing is banned', () => {
    const adapter = createToolCallAdapter();
    const targetsIn = vi.spyOn(adapter.workspace!, 'targetsIn');
    const agent = new Agent({ adapter });
    agent.call(
      'Bash',
      { command: 'ls -la /home/dev/app/docs/plan.md' },
      '-rw-r--r--  1 dev  staff  2048 Nov 30 10:12 /home/dev/app/docs/plan.md',
    );
    expect(targetsIn).not.toHaveBeenCalled();
  });

  it('keeps the ban on a read of a file not found after a command that looked at another file', () => {
    const agent = new Agent();
    const read = { file_path: '/home/dev/app/docs/plan.md' };
    agent.call('Read', read, FILE_MISSING);
    agent.call(
      'Bash',
      { command: 'ls -la /home/dev/app/docs/notes.md' },
      '-rw-r--r--  1 dev  staff  90 Nov 30 10:12 /home/dev/app/docs/notes.md',
    );
    expect(agent.check('Read', read).verdict).toBe('block');
  });

  it('finds the subject a look-up shares with an error and not with the failed call', () => {
    expect(
      subjectLookedUp(
        'git branch --list feature-x',
        'git checkout feature-x',
        "error: pathspec 'feature-x' did not match",
      ),
    ).toBeUndefined();
    expect(
      subjectLookedUp(
        'pip index versions torch',
        'pip install -r requirements.txt',
        'No matching distribution found for torch==9.9',
      ),
    ).toBe('torch');
  });
});
