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

  it('blocks its third ask even when it comes back to back, answered alike each time', () => {
    const agent = new Agent();
    const answer =
      "-= Cubicle =-\nYou've entered a cubicle.\n\nThere is a closed hatch leading north. There is a closed hatch leading south.";
    agent.call('look', {}, answer);
    agent.call('go', { input: 'north' }, refused('You have to open the hatch first.'));
    agent.call('look', {}, answer);
    expect(agent.check('look', {}).verdict).toBe('block');
  });

  it('leaves asks that only came back to back to the back-to-back count', () => {
    const agent = new Agent();
    const answer = 'You are carrying: a key.';
    agent.call('inventory', {}, answer);
    agent.call('inventory', {}, answer);
    expect(agent.check('inventory', {}).verdict).not.toBe('block');
  });

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

/** A question asked again while the calls between its asks learned nothing new, as several hosts name them. */
const REREAD_CASES = [
  {
    host: 'a ReAct agent on a web search and an encyclopedia',
    query: { tool: 'Search', args: { input: 'Washington D.C. neighborhood' } },
    answer: 'Neighborhoods in Washington, D.C. The eight wards of Washington, D.C. (2023–present)',
    failing: { tool: 'Lookup', args: { input: 'Embassy of Nicaragua' }, error: 'No results found.' },
    reread: { tool: 'Retrieve', args: { input: 'Embassy of Nicaragua' } },
    rereadAnswer: 'This is a list of diplomatic missions of Nicaragua, excluding honorary consulates.',
  },
  {
    host: 'an MCP search server and a page reader',
    query: {
      tool: 'mcp__brave-search__brave_web_search',
      args: { query: 'vitest isolate false module state' },
    },
    answer: '1. Configuring Vitest | isolate: Run every test file in isolation (default true).',
    failing: {
      tool: 'mcp__fetch__fetch',
      args: { url: 'https://vitest.dev/config/isolate-missing' },
      error: 'Failed to fetch https://vitest.dev/config/isolate-missing - status code 404',
    },
    reread: { tool: 'mcp__fetch__fetch', args: { url: 'https://vitest.dev/config/' } },
    rereadAnswer:
      'Configuring Vitest. isolate: Type boolean. Default: true. Run every test file in isolation.',
  },
] as const;

describe('a state query asked again while the successes in between only repeated what they answered before', () => {
  for (const { host, query, answer, failing, reread, rereadAnswer } of REREAD_CASES) {
    it(`blocks its third ask since the last new answer (${host})`, () => {
      const agent = new Agent();
      agent.call(query.tool, query.args, answer);
      agent.call(reread.tool, reread.args, rereadAnswer);
      agent.call(query.tool, query.args, answer);
      agent.call(failing.tool, failing.args, refused(failing.error));
      agent.call(query.tool, query.args, answer);
      expect(agent.call(reread.tool, reread.args, rereadAnswer).check.verdict).toBe('allow');
      expect(agent.check(query.tool, query.args).verdict).toBe('block');
    });

    it(`allows it again after a success that answered something new (${host})`, () => {
      const agent = new Agent();
      agent.call(query.tool, query.args, answer);
      agent.call(failing.tool, failing.args, refused(failing.error));
      agent.call(query.tool, query.args, answer);
      agent.call(reread.tool, reread.args, rereadAnswer);
      expect(agent.check(query.tool, query.args).verdict).toBe('allow');
    });
  }
});

describe('a state query that carries a prose description', () => {
  const STATE = { text: 'Inventory: [terracotta] (8) [blue dye] (1)', isError: false };
  const DESCRIPTIONS = [
    'Check what is in the inventory before crafting the next item.',
    'Look at the inventory again to see which dyes are left.',
    'See once more what the inventory holds after the failed pick up.',
  ];
  const inventory = (description: string) => ({ input: 'inventory', description });

  it('blocks its third ask under reworded descriptions, as it does without them', () => {
    const plain = new Agent();
    const described = new Agent();
    for (const [at, item] of ['cyan dye', 'blue dye'].entries()) {
      plain.call('act', { input: 'inventory' }, STATE);
      described.call('act', inventory(DESCRIPTIONS[at] as string), STATE);
      plain.call('get', { input: `1 ${item}` }, refused(`Could not find ${item}`));
      described.call('get', { input: `1 ${item}` }, refused(`Could not find ${item}`));
    }
    const without = plain.check('act', { input: 'inventory' });
    expect(without.verdict).toBe('block');
    expect(described.check('act', inventory(DESCRIPTIONS[2] as string))).toMatchObject({
      verdict: without.verdict,
      rule: without.rule,
    });
  });
});
