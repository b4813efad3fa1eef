import { describe, expect, it } from 'vitest';
import { subjectLookedUp } from '../../src/core/subject-lookup.js';
import { Agent } from './support.js';

const NO_VERSION = {
  text: "npm error code ETARGET\nnpm error notarget No matching version found for tsx@^4.22.1.\nnpm error notarget In most cases you or one of your dependencies are requesting\nnpm error notarget a package version that doesn't exist.",
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
