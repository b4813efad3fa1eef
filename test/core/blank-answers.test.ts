import { describe, expect, it } from 'vitest';
import { createToolCallAdapter } from '../../src/adapters/tool-call/index.js';
import { Agent } from './support.js';

/** A text game whose `goal` and `look` are questions about the game, declared as reads. */
function player(): Agent {
  return new Agent({
    adapter: createToolCallAdapter({ toolKinds: { goal: 'read', look: 'read', go: 'mutate' } }),
  });
}

describe('blank answers', () => {
  it('blocks a question with no argument asked a third time while its tool answers nothing every time', () => {
    // An unpaced check of a queue that stays empty: asking again cannot answer otherwise.
    const agent = new Agent({ adapter: createToolCallAdapter() });
    expect(agent.repeat(3, 'list_pending_jobs', {}, '')).toEqual(['allow', 'allow', 'block']);
  });

  it('blocks a question asked again that found nothing where its tool has answered before', () => {
    const agent = player();
    agent.call('look', {}, '-= Kitchen =-\nYou are in a kitchen. There is an exit to the west.');
    const verdicts = agent.repeat(4, 'look', {}, '');
    expect(verdicts).toContain('block');
  });

  it('blocks a file read a third time when it came back empty twice', () => {
    const agent = player();
    expect(agent.repeat(3, 'read_file', { path: 'data.json' }, '')).toEqual(['allow', 'allow', 'block']);
  });
});
