import { describe, expect, it } from 'vitest';
import { createAgent, defineTool } from '../../src/agent/index.js';
import { eventLog, modelOn, scriptedServer } from './support/agent.js';

const echo = defineTool({
  name: 'lookup',
  description: 'Looks a word up.',
  inputSchema: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
  execute: ({ word }) => `definition of ${String(word)}`,
});

describe('the agent loop', () => {
  it('runs the tool the model calls, gives it the result, and completes with the final answer', async () => {
    const server = await scriptedServer([
      { toolCalls: [{ name: 'lookup', args: { word: 'guard' } }] },
      { text: 'A guard protects.' },
    ]);
    const log = eventLog();
    const agent = await createAgent({
      model: modelOn(server),
      tools: [echo],
      guard: { store: 'memory' },
      onEvent: log.onEvent,
    });
    const result = await agent.run('What is a guard?');
    await agent.close();
    expect(result.state).toBe('completed');
    expect(result.text).toBe('A guard protects.');
    expect(log.states()).toEqual([
      'idle>running',
      'running>waiting_for_tool',
      'waiting_for_tool>running',
      'running>completed',
    ]);
    const toolMessage = server.requests[1]?.messages.find((message) => message.role === 'tool');
    expect(toolMessage?.content).toBe('definition of guard');
    expect(result.totals).toMatchObject({ steps: 2, tokens: 30 });
  });
});
