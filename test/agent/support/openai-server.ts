/**
 * An OpenAI-compatible chat-completions server on loopback, for tests: real HTTP, real server-sent
 * events, and a script of replies (text, tool calls, a `length` cut-off, error statuses with
 * Retry-After, a stream that breaks off). It closes itself after a minute at the latest.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedToolCall {
  readonly name: string;
  readonly args: Record<string, unknown> | string;
}

export type Reply =
  | {
      readonly text?: string;
      readonly toolCalls?: readonly ScriptedToolCall[];
      /** `eos_token` is one of the finish reasons some servers send beyond OpenAI's. */
      readonly finish?: 'stop' | 'length' | 'tool_calls' | 'eos_token';
      readonly usage?: { readonly input: number; readonly output: number };
      /**
       * Kept for the first request that offers no tools (a model given no tools answers in text),
       * and skipped by requests that do.
       */
      readonly withoutTools?: boolean;
    }
  | { readonly status: number; readonly retryAfter?: string; readonly message?: string }
  /** Streams this text, then drops the connection without finishing. */
  | { readonly breakAfter: string };

export interface ChatRequest {
  readonly stream: boolean;
  readonly messages: readonly {
    role: string;
    content?: unknown;
    tool_calls?: unknown;
    tool_call_id?: string;
  }[];
  readonly tools?: readonly { function: { name: string } }[];
  readonly max_tokens?: number;
}

export interface ScriptedServer {
  readonly baseURL: string;
  /** Every request received, in order. */
  readonly requests: ChatRequest[];
  /** Replies not yet given. */
  readonly remaining: () => number;
  close(): Promise<void>;
}

const LIFETIME_MS = 60_000;

export async function startScriptedServer(script: readonly Reply[]): Promise<ScriptedServer> {
  const queue = [...script];
  const requests: ChatRequest[] = [];
  let calls = 0;
  const server: Server = createServer((request, response) => {
    void handle(request, response);
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest;
    requests.push(body);
    calls++;
    const offersTools = (body.tools?.length ?? 0) > 0;
    const keptForNoTools = (next: Reply) => 'withoutTools' in next && next.withoutTools === true;
    const kept = offersTools ? -1 : queue.findIndex(keptForNoTools);
    const index = kept >= 0 ? kept : queue.findIndex((next) => !keptForNoTools(next));
    const reply = index < 0 ? undefined : queue.splice(index, 1)[0];
    if (!reply) return sendError(response, 500, 'the test script has no more replies');
    if ('status' in reply) {
      const headers: Record<string, string> =
        reply.retryAfter === undefined ? {} : { 'retry-after': reply.retryAfter };
      return sendError(response, reply.status, reply.message ?? `scripted ${reply.status}`, headers);
    }
    const id = `chatcmpl-${calls}`;
    if ('breakAfter' in reply) {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(sse(chunk(id, { role: 'assistant', content: reply.breakAfter }, null)));
      setTimeout(() => response.socket?.destroy(), 5);
      return;
    }
    const toolCalls = (reply.toolCalls ?? []).map((call, index) => ({
      index,
      id: `call_${calls}_${index}`,
      type: 'function',
      function: {
        name: call.name,
        arguments: typeof call.args === 'string' ? call.args : JSON.stringify(call.args),
      },
    }));
    const finish = reply.finish ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop');
    const usage = {
      prompt_tokens: reply.usage?.input ?? 10,
      completion_tokens: reply.usage?.output ?? 5,
      total_tokens: (reply.usage?.input ?? 10) + (reply.usage?.output ?? 5),
    };
    if (!body.stream) {
      response.writeHead(200, { 'content-type': 'application/json' });
      const message = {
        role: 'assistant',
        content: reply.text ?? null,
        ...(toolCalls.length > 0 && { tool_calls: toolCalls.map(({ index: _index, ...call }) => call) }),
      };
      response.end(
        JSON.stringify({
          id,
          object: 'chat.completion',
          created: 0,
          model: 'scripted',
          choices: [{ index: 0, message, finish_reason: finish }],
          usage,
        }),
      );
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    response.write(sse(chunk(id, { role: 'assistant', content: '' }, null)));
    // Text in a few pieces, as a model streams it.
    for (const piece of (reply.text ?? '').match(/.{1,8}/gs) ?? []) {
      response.write(sse(chunk(id, { content: piece }, null)));
    }
    for (const call of toolCalls) response.write(sse(chunk(id, { tool_calls: [call] }, null)));
    response.write(sse({ ...chunk(id, {}, finish), usage }));
    response.end('data: [DONE]\n\n');
  }

  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const lifetime = setTimeout(() => void close(), LIFETIME_MS);
  lifetime.unref();
  let closing: Promise<void> | undefined;
  function close(): Promise<void> {
    clearTimeout(lifetime);
    closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closing;
  }
  const { port } = server.address() as AddressInfo;
  return { baseURL: `http://127.0.0.1:${port}/v1`, requests, remaining: () => queue.length, close };
}

function chunk(id: string, delta: Record<string, unknown>, finish: string | null) {
  return {
    id,
    object: 'chat.completion.chunk',
    created: 0,
    model: 'scripted',
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
}

function sse(data: unknown): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}

function sendError(
  response: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify({ error: { message, type: 'scripted', code: status } }));
}
