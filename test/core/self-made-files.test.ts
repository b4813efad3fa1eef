import { describe, expect, it } from 'vitest';
import { Agent } from './support.js';

const MARK_DONE = {
  command:
    'cat docs/prd-billing.json | jq \'(.userStories[] | select(.id == "US-004") | .passes) = true\' > prd.tmp && mv prd.tmp docs/prd-billing.json',
  description: 'Mark US-004 as complete',
};

describe('a command line that wrote the file its failure found missing', () => {
  it('lets a line that failed to read a file and then moved a new one into its place run again', () => {
    for (const missing of [
      'cat: docs/prd-billing.json: No such file or directory',
      { text: 'Exit code 1\ncat: docs/prd-billing.json: No such file or directory', isError: true },
    ]) {
      const agent = new Agent();
      agent.call('Bash', MARK_DONE, missing);
      expect(agent.check('Bash', MARK_DONE).verdict).not.toBe('block');
    }
  });

  it('lets a line that redirects into the file it failed to read run again', () => {
    const agent = new Agent();
    const append = { command: 'grep -c TODO notes/todo.md >> notes/todo.md' };
    agent.call('Bash', append, {
      text: 'Exit code 2\ngrep: notes/todo.md: No such file or directory',
      isError: true,
    });
    expect(agent.check('Bash', append).verdict).not.toBe('block');
  });

  it('keeps a move of a missing file blocked: the file it misses is the one it moves away', () => {
    const agent = new Agent();
    const move = { command: 'mv prd.tmp docs/prd-billing.json' };
    const missing = {
      text: "Exit code 1\nmv: cannot stat 'prd.tmp': No such file or directory",
      isError: true,
    };
    agent.call('Bash', move, missing);
    agent.call('Bash', move, missing);
    expect(agent.check('Bash', move).verdict).toBe('block');
  });

  it('keeps a read that removes what it read blocked when the file is missing', () => {
    const agent = new Agent();
    const consume = { command: 'cat build/queue.json && rm build/queue.json' };
    const missing = { text: 'Exit code 1\ncat: build/queue.json: No such file or directory', isError: true };
    agent.call('Bash', consume, missing);
    agent.call('Bash', consume, missing);
    expect(agent.check('Bash', consume).verdict).toBe('block');
  });
});
