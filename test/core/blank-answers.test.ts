import { describe, expect, it } from 'vitest';
import { createToolCallAdapter } from '../../src/adapters/tool-call/index.js';
import { Agent } from './support.js';

/** A text game whose `goal` and `look` are questions about the game, declared as reads. */
function player(): Agent {
  return new Agent({
    adapter: createToolCallAdapter({ toolKinds: { goal: 'read', look: 'read', go: 'mutate' } }),
  });
}

describe('a tool that answers nothing', () => {
  it('lets a question asked again through when its tool has answered every call with nothing', () => {
    const agent = player();
    // The game keeps no answer to `goal`: every ask of it comes back blank.
    expect(agent.repeat(5, 'goal', {}, '')).toEqual(['allow', 'allow', 'allow', 'allow', 'allow']);
  });

  it('still blocks a question asked again that found nothing where its tool has answered before', () => {
    const agent = player();
    agent.call('look', {}, '-= Kitchen =-\nYou are in a kitchen. There is an exit to the west.');
    const verdicts = agent.repeat(4, 'look', {}, '');
    expect(verdicts).toContain('block');
  });

  it('still blocks a file read a third time when it came back empty twice', () => {
    const agent = player();
    expect(agent.repeat(3, 'read_file', { path: 'data.json' }, '')).toEqual(['allow', 'allow', 'block']);
  });

  it('remembers which tools have answered through a snapshot of the session', () => {
    const agent = player();
    agent.call('look', {}, '-= Kitchen =-\nYou are in a kitchen. There is an exit to the west.');
    const resumed = player();
    resumed.loop.restore(JSON.parse(JSON.stringify(agent.loop.snapshot())));
    expect(resumed.repeat(4, 'look', {}, '')).toContain('block');
  });
});
