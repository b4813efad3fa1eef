import type { LanguageModelV3, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { backoff, DEFAULT_RETRY, type ProviderEvent, requestModel } from '../../src/agent/index.js';
import { isNarrowingError } from '../../src/core/errors.js';
import { instantSleep, modelOn, scriptedServer } from './support/agent.js';

const call = { prompt: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }] };

function recorder() {
  const events: ProviderEvent[] = [];
  return { events, onEvent: (event: ProviderEvent) => events.push(event) };
}

function streamEnds(events: ProviderEvent[]) {
  return events.flatMap((event) => (event.type === 'stream-end' ? [event.status] : []));
}

describe('the provider runner', () => {
  it('waits as long as Retry-After asks after a 429, then succeeds', async () => {
    const server = await scriptedServer([{ status: 429, retryAfter: '2' }, { text: 'ok' }]);
    const { delays, sleep } = instantSleep();
    const response = await requestModel(modelOn(server), call, { sleep, random: () => 0 });
    expect(response.text).toBe('ok');
    expect(response.attempts).toBe(2);
    expect(delays).toEqual([2000]);
  });

  it('backs off exponentially with jitter on 500s', async () => {
    const server = await scriptedServer([{ status: 500 }, { status: 503 }, { text: 'ok' }]);
    const { delays, sleep } = instantSleep();
    const log = recorder();
    await requestModel(modelOn(server), call, { sleep, random: () => 0.5, onEvent: log.onEvent });
    expect(delays).toEqual([375, 750]);
    expect(log.events.filter((event) => event.type === 'retry').map((event) => event.status)).toEqual([
      500, 503,
    ]);
  });

  it('keeps every delay between half and all of its exponential step', () => {
    for (const random of [0, 0.999]) {
      const delay = backoff(3, DEFAULT_RETRY, () => random);
      expect(delay).toBeGreaterThanOrEqual(1000);
      expect(delay).toBeLessThanOrEqual(2000);
    }
  });

  it('fails at once with PROVIDER_ERROR on a 400', async () => {
    const server = await scriptedServer([{ status: 400, message: 'bad tool schema' }]);
    const error = await requestModel(modelOn(server), call, instantSleep()).catch(
      (caught: unknown) => caught,
    );
    expect(isNarrowingError(error) && error.code).toBe('PROVIDER_ERROR');
    expect(String((error as Error).message)).toContain('bad tool schema');
    expect(server.requests).toHaveLength(1);
  });

  it('gives up with PROVIDER_ERROR when the retries run out', async () => {
    const server = await scriptedServer([{ status: 500 }, { status: 500 }, { status: 500 }]);
    const error = await requestModel(modelOn(server), call, {
      ...instantSleep(),
      retry: { maxRetries: 2 },
    }).catch((caught: unknown) => caught);
    expect(isNarrowingError(error) && error.code).toBe('PROVIDER_ERROR');
    expect((error as Error).message).toMatch(/failed 3 times/);
  });

  it('does not wait for a Retry-After longer than its longest delay', async () => {
    const server = await scriptedServer([{ status: 429, retryAfter: '3600' }]);
    const error = await requestModel(modelOn(server), call, instantSleep()).catch(
      (caught: unknown) => caught,
    );
    expect((error as Error).message).toMatch(/asks to wait 3600 s/);
    expect(server.requests).toHaveLength(1);
  });

  it('retries a stream that breaks mid-way, ending each stream with exactly one event', async () => {
    const server = await scriptedServer([{ breakAfter: 'Hal' }, { text: 'Hello' }]);
    const log = recorder();
    const response = await requestModel(modelOn(server), call, { ...instantSleep(), onEvent: log.onEvent });
    expect(response.text).toBe('Hello');
    expect(streamEnds(log.events)).toEqual(['error', 'finished']);
  });

  it('ends a stream with one event also when the request fails before it opens', async () => {
    const server = await scriptedServer([{ status: 500 }, { text: 'ok' }]);
    const log = recorder();
    await requestModel(modelOn(server), call, { ...instantSleep(), onEvent: log.onEvent });
    expect(streamEnds(log.events)).toEqual(['error', 'finished']);
  });

  it('ends a stream that closes without a finish part as incomplete, inferring how it finished', async () => {
    const parts: LanguageModelV3StreamPart[] = [
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'partial' },
    ];
    const model: LanguageModelV3 = {
      specificationVersion: 'v3',
      provider: 'in-test',
      modelId: 'closes-early',
      supportedUrls: {},
      doGenerate: () => Promise.reject(new Error('streaming only')),
      doStream: async () => ({
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      }),
    };
    const log = recorder();
    const response = await requestModel(model, call, { onEvent: log.onEvent });
    expect(response).toMatchObject({ text: 'partial', finishReason: 'stop', incomplete: true });
    expect(streamEnds(log.events)).toEqual(['incomplete']);
  });

  it('reads tool calls and usage from a response that is not streamed', async () => {
    const server = await scriptedServer([
      { toolCalls: [{ name: 'lookup', args: { word: 'x' } }], usage: { input: 7, output: 3 } },
    ]);
    const response = await requestModel(modelOn(server), call, { stream: false });
    expect(server.requests[0]?.stream).toBeFalsy();
    expect(response.finishReason).toBe('tool-calls');
    expect(response.toolCalls).toEqual([
      { toolCallId: 'call_1_0', toolName: 'lookup', input: '{"word":"x"}' },
    ]);
    expect(response.usage).toEqual({ inputTokens: 7, outputTokens: 3 });
  });

  it('stops retrying when the signal aborts, throwing its reason', async () => {
    const server = await scriptedServer([{ status: 500 }, { text: 'never' }]);
    const controller = new AbortController();
    const reason = new Error('user pressed stop');
    const sleep = async () => controller.abort(reason);
    const error = await requestModel(modelOn(server), call, { sleep, signal: controller.signal }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBe(reason);
    expect(server.requests).toHaveLength(1);
  });
});
