import { describe, expect, it } from 'vitest';
import { Agent } from '../support.js';

/**
 * Paths guessed through whichever program reads a file (`cat`, `sed -n`, `head`), as Codex's
 * `exec_command` runs them: one run of guesses, however each reader words that the file is not there.
 */
const missing = (command: string, path: string) => {
  const program = command.split(' ')[0];
  const text =
    program === 'sed'
      ? `sed: can't read ${path}: No such file or directory`
      : program === 'head'
        ? `head: cannot open '${path}' for reading: No such file or directory`
        : `cat: ${path}: No such file or directory`;
  return { text, isError: true };
};

const GUESSES = [
  'cat books/ember-road/outline/volume-1.md',
  "sed -n '1,160p' books/ember-road/outline.md",
  'cat books/ember-road/story/_guide/style.md',
  'head -n 120 books/ember-road/story/outline/volume-1.md',
  "sed -n '1,80p' books/ember-road/story/volume-outline.md",
  'cat books/ember-road/_guide/outline.md',
];

function guess(agent: Agent, command: string) {
  const path = command.split(' ').at(-1) as string;
  return agent.call('exec_command', { cmd: command, workdir: '/home/yk/novels' }, missing(command, path));
}

describe('paths guessed through several readers', () => {
  it('blocks the fifth guess, its reader one that guessed before, whichever reader each earlier guess used', () => {
    const agent = new Agent();
    const verdicts = GUESSES.map((command) => guess(agent, command).check.verdict);
    expect(verdicts.slice(0, 4)).not.toContain('block');
    expect(verdicts[4]).toBe('block');
  });

  it('lets a search through after four guesses: looking for the file is what to do instead', () => {
    const agent = new Agent();
    for (const command of GUESSES.slice(0, 4)) guess(agent, command);
    const search = agent.check('exec_command', {
      cmd: 'grep -rln "Volume 1" books/ember-road',
      workdir: '/home/yk/novels',
    });
    expect(search.verdict).not.toBe('block');
  });

  it('lets a listing through after four guesses, and starts over once a reader finds a file', () => {
    const agent = new Agent();
    for (const command of GUESSES.slice(0, 4)) guess(agent, command);
    const listing = agent.call(
      'exec_command',
      { cmd: 'ls books/ember-road/story', workdir: '/home/yk/novels' },
      'chapters\noutline.txt\n',
    );
    const read = agent.call(
      'exec_command',
      { cmd: 'cat books/ember-road/story/outline.txt', workdir: '/home/yk/novels' },
      'Volume 1: the road north\n',
    );
    expect(listing.check.verdict).not.toBe('block');
    expect(read.check.verdict).not.toBe('block');
    expect(guess(agent, GUESSES[5] as string).check.verdict).not.toBe('block');
  });

  it('keeps listings of folders that are not there out of the run: listing is what to do instead of guessing', () => {
    const agent = new Agent();
    for (const command of GUESSES.slice(0, 4)) guess(agent, command);
    const layers = ['4e39', 'a675', '4ec4', '928a'];
    const verdicts = layers.map((layer) => {
      const path = `/srv/image/${layer}/chal`;
      const text = `ls: cannot access '${path}': No such file or directory`;
      return agent.call(
        'exec_command',
        { cmd: `ls -l ${path}`, workdir: '/home/yk/novels' },
        { text, isError: true },
      ).check.verdict;
    });
    expect(verdicts).not.toContain('block');
  });

  it('keeps a reader’s other failures to its own program: a host refusing every command is no run of guesses', () => {
    const agent = new Agent();
    const refused = { text: 'Command rejected because it could not be parsed safely', isError: true };
    const commands = ['pwd', 'cat README.md', 'git status', 'ls -la', 'head -n 5 package.json'];
    const verdicts = commands.map(
      (command) =>
        agent.call('run_shell_command', { command, description: 'Look around.' }, refused).check.verdict,
    );
    expect(verdicts).not.toContain('block');
  });

  it('counts addresses guessed through curl and wget as one run: a guess through the other fetcher goes on counting', () => {
    const agent = new Agent();
    const fetch = (command: string, text: string) =>
      agent.call(
        'run_shell_command',
        { command, description: 'Download the release.' },
        { text, isError: true },
      );
    const curl404 = 'curl: (22) The requested URL returned error: 404';
    const wget404 =
      'HTTP request sent, awaiting response... 404 Not Found\n2026-01-31 10:42:17 ERROR 404: Not Found.';
    const base = 'https://github.com/acme/tool/releases/download';
    fetch(`curl -fsSLO ${base}/v1.4.0/tool-linux-x64.tar.gz`, curl404);
    fetch(`curl -fsSLO ${base}/1.4.0/tool-linux-x64.tar.gz`, curl404);
    fetch(`wget ${base}/v1.4/tool-linux-x64.tar.gz`, wget404);
    fetch(`wget ${base}/latest/tool-linux-x64.tar.gz`, wget404);
    const fifth = agent.check('run_shell_command', {
      command: `curl -fsSLO ${base}/v1.3.9/tool-linux-x64.tar.gz`,
      description: 'Download the release.',
    });
    expect(fifth.verdict).toBe('block');
  });
});
