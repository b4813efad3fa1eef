import { PassThrough } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonLineTransport } from '../../src/mcp/line-transport.js';

function open() {
  const input = new PassThrough();
  const output = new PassThrough();
  const transport = new JsonLineTransport(input, output, 'the client');
  const messages: JSONRPCMessage[] = [];
  const errors: string[] = [];
  let closed = false;
  transport.onmessage = (message) => messages.push(message);
  transport.onerror = (error) => errors.push(error.message);
  transport.onclose = () => {
    closed = true;
  };
  void transport.start();
  return { input, output, transport, messages, errors, closed: () => closed };
}

const ping = (id: number): JSONRPCMessage => ({ jsonrpc: '2.0', id, method: 'ping' });

describe('JsonLineTransport', () => {
  it('delivers messages however the bytes are split into chunks', () => {
    const batch = fc.array(fc.integer({ min: 0, max: 1e6 }), { minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(batch, fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1 }), (ids, cuts) => {
        const side = open();
        const bytes = Buffer.from(ids.map((id) => `${JSON.stringify(ping(id))}\n`).join(''));
        let at = 0;
        for (let index = 0; at < bytes.length; index += 1) {
          const size = cuts[index % cuts.length]!;
          side.input.write(bytes.subarray(at, at + size));
          at += size;
        }
        expect(side.messages).toEqual(ids.map(ping));
        expect(side.errors).toEqual([]);
      }),
    );
  });

  it('reports a line that is not JSON, and goes on', () => {
    const side = open();
    side.input.write('Server started on port 3000\n');
    side.input.write(`${JSON.stringify(ping(1))}\n`);
    expect(side.errors).toEqual([
      'the client sent a line that is not JSON (ignored): Server started on port 3000',
    ]);
    expect(side.messages).toEqual([ping(1)]);
  });

  it('reports JSON that is not a JSON-RPC message', () => {
    const side = open();
    side.input.write('{"hello":"world"}\n');
    expect(side.errors).toEqual([
      'the client sent a line that is not a JSON-RPC message (ignored): {"hello":"world"}',
    ]);
    expect(side.messages).toEqual([]);
  });

  it('accepts CRLF line endings and skips blank lines', () => {
    const side = open();
    side.input.write(`\r\n${JSON.stringify(ping(7))}\r\n\n`);
    expect(side.messages).toEqual([ping(7)]);
    expect(side.errors).toEqual([]);
  });

  it('skips the lines that are blank once trimmed, Unicode spaces and a byte order mark included', () => {
    const side = open();
    side.input.write(`\uFEFF\n\u00A0 \u2028\r\n\t\n${JSON.stringify(ping(8))}\n`);
    expect(side.messages).toEqual([ping(8)]);
    expect(side.errors).toEqual([]);
  });

  it('takes each line for its text without one trailing CR, and skips it when that is blank', () => {
    // What each line is taken to be: the text before the newline, without one CR at its end, skipped
    // when nothing is left once trimmed, and otherwise parsed (or reported) as it is.
    const expected = (line: string): ({ message: unknown } | { error: string })[] => {
      const text = line.replace(/\r$/, '');
      if (text.trim() === '') return [];
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        return [{ error: text }];
      }
      // Only the pings below are messages; anything else that parses is reported as not JSON-RPC.
      return (value as { jsonrpc?: unknown } | null)?.jsonrpc === '2.0'
        ? [{ message: value }]
        : [{ error: text }];
    };
    const piece = fc.constantFrom(
      '{',
      '}',
      '"',
      ' ',
      '\t',
      '\r',
      '\u00A0',
      '\uFEFF',
      '\u2028',
      'é',
      '1',
      'x',
    );
    const line = fc.oneof(
      fc.array(piece, { maxLength: 8 }).map((pieces) => pieces.join('')),
      fc.integer({ min: 0, max: 99 }).map((id) => JSON.stringify(ping(id))),
      fc.integer({ min: 0, max: 99 }).map((id) => ` ${JSON.stringify(ping(id))}\r\r`),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 6 }), fc.integer({ min: 1, max: 7 }), (lines, cut) => {
        const side = open();
        const bytes = Buffer.from(lines.map((text) => `${text}\n`).join(''));
        for (let at = 0; at < bytes.length; at += cut) side.input.write(bytes.subarray(at, at + cut));
        const seen = [
          ...side.messages.map((message) => ({ message })),
          ...side.errors.map((error) => ({ error: error.slice(error.indexOf('(ignored): ') + 11) })),
        ];
        const wanted = lines.flatMap(expected);
        expect(seen).toEqual([
          ...wanted.filter((entry) => 'message' in entry),
          ...wanted.filter((entry) => 'error' in entry),
        ]);
      }),
    );
  });

  it('writes each message as one line', async () => {
    const side = open();
    await side.transport.send(ping(3));
    expect(side.output.read()?.toString()).toBe(`${JSON.stringify(ping(3))}\n`);
  });

  it('closes when its input ends', async () => {
    const side = open();
    side.input.end();
    await new Promise((resolve) => setImmediate(resolve));
    expect(side.closed()).toBe(true);
    await expect(side.transport.send(ping(4))).rejects.toThrow('the connection to the client is closed');
  });
});
