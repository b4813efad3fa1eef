import { describe, expect, it } from 'vitest';
import { createAgent, defineTool } from '../../src/agent/index.js';
import { eventLog, modelOn, scriptedServer } from './support/agent.js';
import type { Reply } from './support/openai-server.js';

const lookup = defineTool({
  name: 'lookup',
  inputSchema: { type: 'object', properties: { word: { type: 'string' } } },
  execute: ({ word }) => `definition of ${String(word)}`,
});

/** A model that looks up a new word on every step. */
function lookups(count: number): Reply[] {
  return Array.from({ length: count }, (_, index) => ({
    toolCalls: [{ name: 'lookup', args: { word: `w${index}` } }],
  }));
}

describe('budgets', () => {
  it('warns once within the step reserve, then stops at the step limit', async () => {
    const server = await scriptedServer(lookups(5));
    const log = eventLog();
    const agent = await createAgent({
      model: modelOn(server),
      tools: [lookup],
      guard: { store: 'memory' },
      budget: { maxSteps: 3, reserveSteps: 1 },
      onEvent: log.onEvent,
    });
    const result = await agent.run('Look up words.');
    expect(result).toMatchObject({ state: 'max_steps', reason: 'This run has used all 3 of its steps.' });
    expect(log.states().at(-1)).toBe('running>max_steps');
    expect(log.ofType('budget-warning').map((event) => event.kind)).toEqual(['steps']);
    expect(JSON.stringify(server.requests[2]?.messages)).toContain('Only 1 of this run');
  });

  it('gives the model a last turn without tools once the tokens left are within the reserve', async () => {
    const server = await scriptedServer(lookups(5));
    const log = eventLog();
    const agent = await createAgent({
      model: modelOn(server),
      tools: [lookup],
      guard: { store: 'memory' },
      budget: { tokenBudget: 40, reserveTokens: 15 },
      onEvent: log.onEvent,
    });
    const result = await agent.run('Look up words.');
    expect(result.state).toBe('budget_exceeded');
    expect(result.totals.tokens).toBe(30);
    expect(log.ofType('budget-warning').map((event) => event.kind)).toEqual(['tokens']);
    // The second request offered no tools; the tool call the model made anyway is answered, not run.
    expect(server.requests[1]?.tools).toBeUndefined();
    expect(log.ofType('tool-result')).toHaveLength(1);
    expect(result.messages.at(-1)?.role).toBe('tool');
  });

  it('stops at the cost limit, priced by the cost function', async () => {
    const server = await scriptedServer(lookups(5));
    const log = eventLog();
    const agent = await createAgent({
      model: modelOn(server),
      tools: [lookup],
      guard: { store: 'memory' },
      budget: { costLimit: 0.02, reserveCostFraction: 0.3 },
      cost: ({ inputTokens, outputTokens }) => (inputTokens + outputTokens) * 0.0005,
      onEvent: log.onEvent,
    });
    const result = await agent.run('Look up words.');
    expect(result.state).toBe('budget_exceeded');
    expect(result.totals.costUsd).toBeCloseTo(0.0225);
    expect(log.ofType('budget-warning').map((event) => event.kind)).toEqual(['cost']);
  });

  it('times out before the next request once the wall time is spent', async () => {
    const server = await scriptedServer(lookups(5));
    let now = 0;
    const log = eventLog();
    const ticking = defineTool({
      ...lookup,
      execute: (input, context) => {
        now += 4_000;
        return lookup.execute(input, context);
      },
    });
    const timed = await createAgent({
      model: modelOn(server),
      tools: [ticking],
      guard: { store: 'memory' },
      budget: { timeoutMs: 10_000, reserveTimeFraction: 0.25 },
      clock: () => now,
      onEvent: log.onEvent,
    });
    const result = await timed.run('Look up words.');
    expect(result.state).toBe('timed_out');
    expect(log.states().at(-1)).toBe('running>timed_out');
    expect(log.ofType('budget-warning').map((event) => event.kind)).toEqual(['time']);
    expect(server.requests).toHaveLength(3);
  });

  it('times out while a tool runs past the time limit', async () => {
    const server = await scriptedServer([{ toolCalls: [{ name: 'hang', args: {} }] }]);
    const log = eventLog();
    const hang = defineTool({
      name: 'hang',
      inputSchema: { type: 'object' },
      execute: (_input, { signal }) =>
        new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
    });
    const agent = await createAgent({
      model: modelOn(server),
      tools: [hang],
      guard: { store: 'memory' },
      budget: { timeoutMs: 300 },
      onEvent: log.onEvent,
    });
    const result = await agent.run('Wait.');
    expect(result.state).toBe('timed_out');
    expect(log.states().at(-1)).toBe('waiting_for_tool>timed_out');
  });
});

describe('limits reached away from the model', () => {
  it('times out while it waits for input', async () => {
    const server = await scriptedServer([{ text: 'Anything else?' }]);
    const log = eventLog();
    const agent = await createAgent({
      model: modelOn(server),
      guard: { store: 'memory' },
      budget: { timeoutMs: 300 },
      input: ({ signal }) =>
        new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
      onEvent: log.onEvent,
    });
    const result = await agent.run('Hello.');
    expect(result.state).toBe('timed_out');
    expect(log.states().at(-1)).toBe('waiting_for_input>timed_out');
  });

  it('stops at the step limit of the guard policy while tools run', async () => {
    const server = await scriptedServer(lookups(3));
    const log = eventLog();
    const agent = await createAgent({
      model: modelOn(server),
      tools: [lookup],
      guard: { store: 'memory', policy: { budget: { maxSteps: 1 } } },
      budget: { maxSteps: 10 },
      onEvent: log.onEvent,
    });
    const result = await agent.run('Look up words.');
    expect(result).toMatchObject({ state: 'max_steps', reason: 'This run has used all 1 of its steps.' });
    expect(log.states().at(-1)).toBe('waiting_for_tool>max_steps');
  });
});

describe('the token reserve', () => {
  const sizes = [
    { request: 300, budget: 2_000 },
    { request: 3_000, budget: 20_000 },
    { request: 30_000, budget: 200_000 },
  ];
  for (const { request, budget } of sizes) {
    it(`ends a run of ${request}-token requests within a budget of ${budget} with an answer`, async () => {
      const steps: Reply[] = Array.from({ length: 20 }, (_, index) => ({
        toolCalls: [{ name: 'lookup', args: { word: `w${index}` } }],
        usage: { input: request - 100, output: 100 },
      }));
      const answer: Reply = {
        text: 'Here is what I found.',
        withoutTools: true,
        usage: { input: request, output: 100 },
      };
      const server = await scriptedServer([...steps, answer]);
      const agent = await createAgent({
        model: modelOn(server),
        tools: [lookup],
        guard: { store: 'memory' },
        budget: { tokenBudget: budget },
      });
      const result = await agent.run('Look up words.');
      await agent.close();

      expect(result).toMatchObject({ state: 'budget_exceeded', text: 'Here is what I found.' });
      expect(result.totals.tokens).toBeLessThanOrEqual(budget);
      expect(server.requests.at(-1)?.tools).toBeUndefined();
    });
  }
});
