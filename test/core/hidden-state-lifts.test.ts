import { describe, expect, it } from 'vitest';
import { createToolCallAdapter } from '../../src/adapters/tool-call/index.js';
import { Agent } from './support.js';

/** A crafting game's MCP server: getting and crafting change the inventory; neither names a target. */
const game = () =>
  new Agent({
    adapter: createToolCallAdapter({
      toolKinds: {
        mcp__crafting__get: 'mutate',
        mcp__crafting__craft: 'mutate',
        mcp__crafting__inventory: 'read',
      },
    }),
  });
const NO_RECIPE = {
  text: "Could not find a valid recipe for ItemTagWithCount(item_tag=ItemTag(tag=None, item_id='minecraft:oak_planks'), count=4)",
  isError: true,
};
const CRAFT = { input: '4 oak planks using 1 oak log' };
const GET = { input: '1 oak log' };

const SYNTAX_ERROR = {
  text: 'Your proposed edit has introduced new syntax error(s). Please read this error message carefully and then retry editing the file.\n\nERRORS:\n- E999 IndentationError: unexpected indent',
  isError: true,
};
const EDIT = {
  lines: '766:766',
  replacement: 'if isinstance(this_pred, pd.DataFrame):\n    this_pred = this_pred.to_numpy()',
};
const REPRODUCED =
  'Traceback (most recent call last):\n  File "/repo/reproduce.py", line 16, in <module>\nValueError: could not broadcast input array from shape (20,1) into shape (20,)';

describe('a call on state it does not name, banned, after a call that changed nothing', () => {
  it('stays blocked after a look at the state: a read changes nothing the call acts on', () => {
    const agent = game();
    agent.call('mcp__crafting__craft', CRAFT, NO_RECIPE);
    agent.call('mcp__crafting__craft', CRAFT, NO_RECIPE);
    agent.call('mcp__crafting__inventory', {}, 'Inventory: [yellow dye] (1) [oak log] (2)');
    expect(agent.check('mcp__crafting__craft', CRAFT)).toMatchObject({
      verdict: 'block',
      rule: 'identical-failure',
    });
  });

  it('stays blocked after the same change answered as it did before, with nothing changed since', () => {
    const agent = game();
    agent.call('mcp__crafting__get', GET, 'Got 1 oak log');
    agent.call('mcp__crafting__craft', CRAFT, NO_RECIPE);
    agent.call('mcp__crafting__craft', CRAFT, NO_RECIPE);
    agent.call('mcp__crafting__get', GET, 'Got 1 oak log');
    expect(agent.check('mcp__crafting__craft', CRAFT)).toMatchObject({
      verdict: 'block',
      rule: 'identical-failure',
    });
  });

  it('gets its retry after a change that answered something new', () => {
    const agent = game();
    agent.call('mcp__crafting__get', GET, 'Got 1 oak log');
    agent.call('mcp__crafting__craft', CRAFT, NO_RECIPE);
    agent.call('mcp__crafting__craft', CRAFT, NO_RECIPE);
    agent.call('mcp__crafting__get', { input: '2 oak planks' }, 'Got 2 oak planks');
    expect(agent.check('mcp__crafting__craft', CRAFT).verdict).toBe('allow');
  });

  it('keeps an edit of the open file blocked after a search and a re-run that answered as before', () => {
    const agent = new Agent();
    agent.call('bash', { command: 'python reproduce.py' }, { text: REPRODUCED, isError: true });
    agent.call('edit', EDIT, SYNTAX_ERROR);
    agent.call(
      'search_file',
      { search_term: 'this_pred' },
      'Found 2 matches for "this_pred" in /repo/sklearn/calibration.py:\nLine 763:            this_pred = est.predict(X)',
    );
    agent.call('bash', { command: 'python reproduce.py' }, { text: REPRODUCED, isError: true });
    expect(agent.check('edit', EDIT)).toMatchObject({ verdict: 'block' });
  });

  it('lets the call run again after a call of a tool whose effects nobody knows', () => {
    const agent = game();
    agent.call('mcp__crafting__craft', CRAFT, NO_RECIPE);
    agent.call('mcp__crafting__craft', CRAFT, NO_RECIPE);
    agent.call('mcp__crafting__use_furnace', { input: 'oak log' }, 'The furnace is lit.');
    expect(agent.check('mcp__crafting__craft', CRAFT).verdict).toBe('allow');
  });
});
