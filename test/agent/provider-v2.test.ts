/**
 * Models of the AI SDK 5 line (`LanguageModelV2`, from `@ai-sdk/openai-compatible` 1.x) against the
 * same scripted server as the AI SDK 6 ones: the loop and the runner read them alike.
 */
import { createGateway } from 'ai';
import { describe, expect, it } from 'vitest';
import {
  type AgentModel,
  createAgent,
  defineTool,
  type ProviderEvent,
  requestModel,
} from '../../src/agent/index.js';
import { isNarrowingError } from '../../src/core/errors.js';
import { eventLog, instantSleep, scriptedServer, v2ModelOn } from './support/agent.js';

const call = { prompt: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }] };

const lookup = defineTool({
  name: 'lookup',
  description: 'Looks a word up in the dictionary.',
  inputSchema: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
  execute: ({ word }) => `definition of ${String(word)}`,
});

describe('an AI SDK 5 model (LanguageModelV2)', () => {
  it('is one: the provider package implements version 2 of the interface', async () => {
    const server = await scriptedServer([]);
    expect(v2ModelOn(server).specificationVersion).toBe('v2');
  });

  it('runs the tool the model calls, streaming, and completes with the final answer', async () => {
    const server = await scriptedServer([
      { toolCalls: [{ name: 'lookup', args: { word: 'guard' } }] },
      { text: 'A guard protects.' },
    ]);
    const log = eventLog();
    const agent = await createAgent({
      model: v2ModelOn(server),
      tools: [lookup],
      guard: { store: 'memory' },
      onEvent: log.onEvent,
    });
    const result = await agent.run('What is a guard?');
    expect(result).toMatchObject({ state: 'completed', text: 'A guard protects.' });
    expect(log.states()).toEqual([
      'idle>running',
      'running>waiting_for_tool',
      'waiting_for_tool>running',
      'running>completed',
    ]);
    expect(server.requests.map((request) => request.stream)).toEqual([true, true]);
    expect(server.requests[0]?.tools?.map((tool) => tool.function.name)).toEqual(['lookup']);
    const answered = server.requests[1]?.messages.find((message) => message.role === 'tool');
    expect(answered).toMatchObject({ content: 'definition of guard', tool_call_id: 'call_1_0' });
    expect(result.totals).toMatchObject({ steps: 2, tokens: 30 });
  });

  it('continues a response cut off by the output limit', async () => {
    const server = await scriptedServer([
      { text: 'The first half, ', finish: 'length' },
      { text: 'and the second.' },
    ]);
    const log = eventLog();
    const agent = await createAgent({
      model: v2ModelOn(server),
      guard: { store: 'memory' },
      onEvent: log.onEvent,
    });
    const result = await agent.run('Write it all.');
    expect(result).toMatchObject({ state: 'completed', text: 'The first half, and the second.' });
    expect(log.ofType('recovery')).toEqual([{ type: 'recovery', count: 1, max: 3 }]);
    expect(JSON.stringify(server.requests[1]?.messages.at(-1))).toContain(
      'cut off by the output token limit',
    );
  });

  it('streams its text, finishes once, and reports the finish reason and usage', async () => {
    const server = await scriptedServer([{ text: 'Hello there, friend.', usage: { input: 12, output: 4 } }]);
    const events: ProviderEvent[] = [];
    const response = await requestModel(v2ModelOn(server), call, { onEvent: (event) => events.push(event) });
    expect(response).toMatchObject({
      text: 'Hello there, friend.',
      finishReason: 'stop',
      usage: { inputTokens: 12, outputTokens: 4 },
      incomplete: false,
    });
    const deltas = events.flatMap((event) => (event.type === 'text-delta' ? [event.delta] : []));
    expect(deltas.join('')).toBe('Hello there, friend.');
    expect(deltas.length).toBeGreaterThan(1);
    expect(events.filter((event) => event.type === 'stream-end')).toEqual([
      { type: 'stream-end', attempt: 1, status: 'finished' },
    ]);
  });

  it('reads tool calls, the finish reason and usage from a response that is not streamed', async () => {
    const server = await scriptedServer([
      { toolCalls: [{ name: 'lookup', args: { word: 'x' } }], usage: { input: 7, output: 3 } },
    ]);
    const response = await requestModel(v2ModelOn(server), call, { stream: false });
    expect(server.requests[0]?.stream).toBeFalsy();
    expect(response).toMatchObject({
      finishReason: 'tool-calls',
      toolCalls: [{ toolCallId: 'call_1_0', toolName: 'lookup', input: '{"word":"x"}' }],
      usage: { inputTokens: 7, outputTokens: 3 },
    });
  });

  it('reads a cut-off response that is not streamed as finished by length', async () => {
    const server = await scriptedServer([{ text: 'The first half', finish: 'length' }]);
    const response = await requestModel(v2ModelOn(server), call, { stream: false });
    expect(response).toMatchObject({ text: 'The first half', finishReason: 'length' });
  });

  it('reads a finish reason the provider does not know as other', async () => {
    const server = await scriptedServer([{ text: 'Done.', finish: 'eos_token' }]);
    const response = await requestModel(v2ModelOn(server), call);
    expect(response).toMatchObject({ text: 'Done.', finishReason: 'other', incomplete: false });
  });

  it('is sent a denied tool call as an error text, which version 2 has in place of a denial', async () => {
    const server = await scriptedServer([{ text: 'Understood.' }]);
    await requestModel(v2ModelOn(server), {
      prompt: [
        { role: 'user', content: [{ type: 'text', text: 'Delete the build folder.' }] },
        {
          role: 'assistant',
          content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'delete', input: { path: 'build' } }],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'c1',
              toolName: 'delete',
              output: { type: 'execution-denied', reason: 'The user declined: the build folder is shared.' },
            },
          ],
        },
      ],
    });
    expect(server.requests[0]?.messages.at(-1)).toMatchObject({
      role: 'tool',
      tool_call_id: 'c1',
      content: 'The user declined: the build folder is shared.',
    });
  });

  it('waits as long as Retry-After asks after a 429, then succeeds', async () => {
    const server = await scriptedServer([{ status: 429, retryAfter: '2' }, { text: 'ok' }]);
    const { delays, sleep } = instantSleep();
    const response = await requestModel(v2ModelOn(server), call, { sleep, random: () => 0 });
    expect(response).toMatchObject({ text: 'ok', attempts: 2 });
    expect(delays).toEqual([2000]);
  });
});

describe('a model of another interface version', () => {
  /** The AI SDK 7 gateway's models implement version 4, which the loop does not speak. */
  const v4 = () => createGateway({ apiKey: 'unused' }).languageModel('openai/gpt-5') as unknown as AgentModel;

  it('is refused when the agent is created, with MODEL_UNSUPPORTED naming the versions accepted', async () => {
    const error = await createAgent({ model: v4(), guard: { store: 'memory' } }).catch(
      (caught: unknown) => caught,
    );
    expect(isNarrowingError(error) && error.code).toBe('MODEL_UNSUPPORTED');
    expect((error as Error).message).toBe(
      'the model gateway openai/gpt-5 implements the AI SDK language-model interface v4; the agent ' +
        'accepts v3 (AI SDK 6) and v2 (AI SDK 5): pass a model from a provider package of one of those lines',
    );
  });

  it('is refused by the runner too, before any request', async () => {
    const error = await requestModel(v4(), call).catch((caught: unknown) => caught);
    expect(isNarrowingError(error) && error.code).toBe('MODEL_UNSUPPORTED');
  });

  it('is refused when it is no language model at all', async () => {
    const error = await createAgent({
      model: { generate: () => 'hi' } as unknown as AgentModel,
      guard: { store: 'memory' },
    }).catch((caught: unknown) => caught);
    expect(isNarrowingError(error) && error.code).toBe('MODEL_UNSUPPORTED');
    expect((error as Error).message).toMatch(
      /^the model is not an AI SDK language model \(it has no specificationVersion\)/,
    );
  });
});
