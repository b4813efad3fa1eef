/**
 * A JSON-RPC client over a pair of streams that writes its lines itself. No test runner is imported
 * here, so that scripts outside the tests can drive the proxy with it too.
 */
import type { PassThrough } from 'node:stream';

export type RawMessage = Record<string, unknown> & {
  readonly id?: string | number;
  readonly method?: string;
};

/**
 * A client that writes JSON-RPC lines itself, for what the SDK client would not send (colliding
 * ids, malformed calls) or would hide (whether an answer came at all).
 */
export class RawClient {
  readonly received: RawMessage[] = [];
  private readonly waiters = new Set<() => void>();
  private rest = '';

  constructor(
    private readonly toProxy: PassThrough,
    fromProxy: PassThrough,
  ) {
    fromProxy.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (this.rest + chunk).split('\n');
      this.rest = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) this.received.push(JSON.parse(line) as RawMessage);
      for (const waiter of this.waiters) waiter();
    });
  }

  /** Writes one line as it is, for what is not a well-formed message. */
  write(line: string): void {
    this.toProxy.write(`${line}\n`);
  }

  send(message: RawMessage): void {
    this.write(JSON.stringify({ jsonrpc: '2.0', ...message }));
  }

  /** Sends a request and resolves with the answer to its id. */
  async request(id: string | number, method: string, params?: unknown): Promise<RawMessage> {
    this.send({ id, method, ...(params !== undefined && { params }) });
    return this.answerTo(id);
  }

  answerTo(id: unknown, timeoutMs?: number): Promise<RawMessage> {
    return this.waitFor((message) => message.id === id && message.method === undefined, timeoutMs);
  }

  /** The answers to `id` received so far (there should never be more than one). */
  answersTo(id: string | number): RawMessage[] {
    return this.received.filter((message) => message.id === id && message.method === undefined);
  }

  waitFor(matches: (message: RawMessage) => boolean, timeoutMs = 10_000): Promise<RawMessage> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.received.find(matches);
        if (!found) return;
        this.waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(
          new Error(`no matching message within ${timeoutMs} ms; received ${JSON.stringify(this.received)}`),
        );
      }, timeoutMs);
      this.waiters.add(check);
      check();
    });
  }

  /** The 2025-era handshake, as a host does it. */
  async initialize(protocolVersion = '2025-11-25'): Promise<RawMessage> {
    const answer = await this.request('init', 'initialize', {
      protocolVersion,
      capabilities: {},
      clientInfo: { name: 'raw-host', version: '1.0.0' },
    });
    this.send({ method: 'notifications/initialized' });
    return answer;
  }

  /** Ends the proxy's input, as a host that exits does. */
  end(): void {
    this.toProxy.end();
  }
}
