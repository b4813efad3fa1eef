import { describe, expect, it } from 'vitest';
import { createAgent, defineTool } from '../../src/agent/index.js';
import { isNarrowingError } from '../../src/core/errors.js';
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

describe('max-tokens recovery', () => {
  it('continues a response cut off by the output limit with a message the user never sees', async () => {
    const server = await scriptedServer([
      { text: 'The first half, ', finish: 'length' },
      { text: 'and the second.' },
    ]);
    const log = eventLog();
    const agent = await createAgent({
      model: modelOn(server),
      guard: { store: 'memory' },
      onEvent: log.onEvent,
    });
    const result = await agent.run('Write it all.');
    expect(result.text).toBe('The first half, and the second.');
    expect(log.ofType('recovery')).toEqual([{ type: 'recovery', count: 1, max: 3 }]);
    const sent = server.requests[1]?.messages.at(-1);
    expect(JSON.stringify(sent?.content)).toContain('cut off by the output token limit');
    expect(JSON.stringify(result.messages)).not.toContain('cut off by the output token limit');
  });

  it('stops continuing after its limit and completes with what came', async () => {
    const server = await scriptedServer([
      { text: 'one ', finish: 'length' },
      { text: 'two ', finish: 'length' },
    ]);
    const agent = await createAgent({
      model: modelOn(server),
      guard: { store: 'memory' },
      maxTokensRecoveries: 1,
    });
    const result = await agent.run('Go on.');
    expect(result).toMatchObject({ state: 'completed', text: 'one two ' });
    expect(server.requests).toHaveLength(2);
  });
});

describe('waiting for input', () => {
  it('waits for the next message when the model ends its turn, and completes when there is none', async () => {
    const server = await scriptedServer([{ text: 'Which file?' }, { text: 'Done with a.txt.' }]);
    const log = eventLog();
    const replies = ['a.txt'];
    const agent = await createAgent({
      model: modelOn(server),
      guard: { store: 'memory' },
      onEvent: log.onEvent,
      input: () => replies.shift(),
    });
    const result = await agent.run('Fix the file.');
    expect(result).toMatchObject({ state: 'completed', text: 'Done with a.txt.' });
    expect(log.states()).toEqual([
      'idle>running',
      'running>waiting_for_input',
      'waiting_for_input>running',
      'running>waiting_for_input',
      'waiting_for_input>completed',
    ]);
  });

  it('is cancelled while it waits when the signal aborts', async () => {
    const server = await scriptedServer([{ text: 'Anything else?' }]);
    const log = eventLog();
    const controller = new AbortController();
    const agent = await createAgent({
      model: modelOn(server),
      guard: { store: 'memory' },
      onEvent: log.onEvent,
      input: () => {
        controller.abort('the user left');
        return 'too late';
      },
    });
    const result = await agent.run('Hello.', { signal: controller.signal });
    expect(result).toMatchObject({ state: 'cancelled', reason: 'cancelled: the user left' });
    expect(log.states().at(-1)).toBe('waiting_for_input>cancelled');
  });
});

describe('cancellation', () => {
  it('does not start when the signal is already aborted', async () => {
    const server = await scriptedServer([]);
    const log = eventLog();
    const agent = await createAgent({
      model: modelOn(server),
      guard: { store: 'memory' },
      onEvent: log.onEvent,
    });
    const result = await agent.run('Hello.', { signal: AbortSignal.abort('no') });
    expect(result.state).toBe('cancelled');
    expect(log.states()).toEqual(['idle>running', 'running>cancelled']);
    expect(server.requests).toHaveLength(0);
  });

  it('stops while a tool runs, answering the call so the conversation stays valid', async () => {
    const server = await scriptedServer([{ toolCalls: [{ name: 'slow', args: {} }] }]);
    const log = eventLog();
    const controller = new AbortController();
    const slow = defineTool({
      name: 'slow',
      inputSchema: { type: 'object' },
      execute: (_input, { signal }) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(signal.reason));
          controller.abort();
        }),
    });
    const agent = await createAgent({
      model: modelOn(server),
      tools: [slow],
      guard: { store: 'memory' },
      onEvent: log.onEvent,
    });
    const result = await agent.run('Go.', { signal: controller.signal });
    expect(result.state).toBe('cancelled');
    expect(log.states().at(-1)).toBe('waiting_for_tool>cancelled');
    expect(result.messages.at(-1)?.role).toBe('tool');
  });
});

describe('errors', () => {
  it('ends in error with the provider error when the model cannot be reached', async () => {
    const server = await scriptedServer([{ status: 401, message: 'invalid api key' }]);
    const log = eventLog();
    const agent = await createAgent({
      model: modelOn(server),
      guard: { store: 'memory' },
      onEvent: log.onEvent,
    });
    const result = await agent.run('Hello.');
    expect(result.state).toBe('error');
    expect(result.reason).toContain('invalid api key');
    expect(isNarrowingError(result.error) && result.error.code).toBe('PROVIDER_ERROR');
    expect(log.states()).toEqual(['idle>running', 'running>error']);
  });

  it('ends the run with the reason of a halt, leaving the rest of the step unrun', async () => {
    const server = await scriptedServer([
      {
        toolCalls: [
          { name: 'stop_all', args: {} },
          { name: 'lookup', args: { word: 'never' } },
        ],
      },
    ]);
    const log = eventLog();
    const agent = await createAgent({
      model: modelOn(server),
      guard: { store: 'memory' },
      onEvent: log.onEvent,
      tools: [
        echo,
        defineTool({
          name: 'stop_all',
          inputSchema: { type: 'object' },
          execute: () => {
            agent.session.engine.stop('the operator stopped the agent');
            return 'stopping';
          },
        }),
      ],
    });
    const result = await agent.run('Go.');
    expect(result).toMatchObject({
      state: 'error',
      reason: 'The run was halted: the operator stopped the agent',
    });
    expect(log.states().at(-1)).toBe('waiting_for_tool>error');
    expect(log.ofType('tool-call').map((event) => event.verdict)).toEqual(['allow', 'halt']);
  });
});

describe('misuse', () => {
  it('refuses to resume a session that has no run, with a USAGE error', async () => {
    const server = await scriptedServer([]);
    const agent = await createAgent({ model: modelOn(server), guard: { store: 'memory' } });
    const error = await agent.resume().catch((caught: unknown) => caught);
    expect(isNarrowingError(error) && error.code).toBe('USAGE');
  });

  it('refuses a second run while the first is going, leaving the first undisturbed', async () => {
    const server = await scriptedServer([{ text: 'first' }]);
    const agent = await createAgent({ model: modelOn(server), guard: { store: 'memory' } });
    const first = agent.run('One.');
    const second = await agent.run('Two.').catch((caught: unknown) => caught);
    expect(isNarrowingError(second) && second.code).toBe('USAGE');
    expect(await first).toMatchObject({ state: 'completed', text: 'first' });
  });
});
