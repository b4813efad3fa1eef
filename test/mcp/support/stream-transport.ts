import type { Readable, Writable } from 'node:stream';
import {
  type JSONRPCMessage,
  ReadBuffer,
  serializeMessage,
  type Transport,
} from '@modelcontextprotocol/client';

/** A client transport over any pair of streams: a child's stdio, or an in-process pipe. */
export class StreamTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly buffer = new ReadBuffer();
  private closed = false;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (;;) {
        try {
          const message = this.buffer.readMessage();
          if (message === null) break;
          this.onmessage?.(message);
        } catch (error) {
          this.onerror?.(error as Error);
        }
      }
    });
    this.input.on('end', () => void this.close());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!this.closed) this.output.write(serializeMessage(message));
  }

  /** Writes raw bytes, for tests that feed the other side something that is not a message. */
  writeRaw(text: string): void {
    this.output.write(text);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.output.end();
    this.onclose?.();
  }
}
