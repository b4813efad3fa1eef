import { describe, expect, it } from 'vitest';
import { Agent } from './support.js';

const refused = (text: string) => ({ text, isError: true });

/** A question about the whole state, asked between calls that fail, as several hosts name it. */
const CASES = [
  {
    host: 'a text game',
    query: { tool: 'inventory', args: {} },
    answer: 'Inventory: [terracotta] (8) [blue dye] (1)',
    failing: (item: string) => ({
      tool: 'get',
      args: { input: `1 ${item}` },
      error: `Could not find ${item}`,
    }),
    misses: ['cyan dye', 'blue dye'],
  },
  {
    host: 'an MCP game server',
    query: { tool: 'mcp__textworld__look', args: {} },
    answer: 'You are in the kitchen. There is a locked door to the north and a fridge.',
    failing: (item: string) => ({
      tool: 'mcp__textworld__take',
      args: { item },
      error: `You can't see any ${item} here.`,
    }),
    misses: ['brass key', 'lantern'],
  },
  {
    host: 'a shopping agent',
    query: { tool: 'view_cart', args: {} },
    answer: 'Cart: 1 x USB-C cable ($9.99). Total: $9.99',
    failing: (item: string) => ({
      tool: 'add_to_cart',
      args: { sku: item },
      error: `Error: product ${item} is out of stock`,
    }),
    misses: ['B09XJ4K2L1', 'B08N5WRWNW'],
  },
] as const;

describe('a state query asked again while every call in between failed', () => {
  for (const { host, query, answer, failing, misses } of CASES) {
    it(`blocks its third ask, answered alike each time (${host})`, () => {
      const agent = new Agent();
      const first = failing(misses[0]);
      const second = failing(misses[1]);
      expect(agent.call(query.tool, query.args, answer).check.verdict).toBe('allow');
      agent.call(first.tool, first.args, refused(first.error));
      expect(agent.call(query.tool, query.args, answer).check.verdict).toBe('allow');
      agent.call(second.tool, second.args, refused(second.error));
      expect(agent.check(query.tool, query.args).verdict).toBe('block');
    });
  }

  it('allows it again once a call in between succeeded', () => {
    const agent = new Agent();
    const answer = 'Inventory: [terracotta] (8) [blue dye] (1)';
    agent.call('inventory', {}, answer);
    agent.call('get', { input: '1 cyan dye' }, refused('Could not find cyan dye'));
    agent.call('inventory', {}, answer);
    agent.call('get', { input: '1 cornflower' }, 'Got 1 cornflower');
    agent.call('get', { input: '1 blue dye' }, refused('Could not find blue dye'));
    expect(agent.check('inventory', {}).verdict).toBe('allow');
  });
});
