import { deserializeMessage } from '@modelcontextprotocol/server';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseMessageLine } from '../../src/mcp/json-rpc-line.js';

/** What a reader makes of a line: the message, or the kind of error it raised. */
function readWith(read: (line: string) => unknown, line: string): { message: unknown } | { error: string } {
  try {
    return { message: read(line) };
  } catch (error) {
    return { error: error instanceof SyntaxError ? 'not JSON' : 'not a JSON-RPC message' };
  }
}

const validId = fc.oneof(fc.string({ maxLength: 12 }), fc.integer());
const oddId = fc.constantFrom(1.5, 2 ** 60, null, true, {});
const id = fc.oneof({ weight: 4, arbitrary: validId }, { weight: 1, arbitrary: oddId });
const token = fc.oneof(
  { weight: 4, arbitrary: validId },
  { weight: 1, arbitrary: fc.constantFrom(0.5, null, []) },
);
/** `_meta` as clients and servers send it, with the keys the schema treats specially. */
const meta = fc.record(
  {
    progressToken: token,
    'io.modelcontextprotocol/related-task': fc.oneof(
      fc.record({ taskId: fc.string() }),
      fc.record({ taskId: fc.string(), extra: fc.string() }),
    ),
    'io.modelcontextprotocol/serverInfo': fc.oneof(
      fc.record({ name: fc.string(), version: fc.string() }),
      fc.record({ name: fc.integer() }),
    ),
    'dev.example/trace': fc.string(),
    ['__proto__']: fc.record({ polluted: fc.boolean() }),
  },
  { requiredKeys: [] },
);
const members = fc.dictionary(
  fc.constantFrom('name', 'arguments', 'cursor', 'uri', 'content', 'isError', '__proto__'),
  fc.jsonValue({ maxDepth: 2 }),
  { maxKeys: 3 },
);
/** An object, sometimes with a `_meta`; now and then something that is not an object at all. */
const body = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.tuple(members, fc.option(meta)).map(([rest, m]) => (m ? { ...rest, _meta: m } : rest)),
  },
  { weight: 1, arbitrary: fc.constantFrom(null, [], 'text', 3) },
);
const errorBody = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record(
      {
        code: fc.oneof(
          { weight: 4, arbitrary: fc.integer() },
          { weight: 1, arbitrary: fc.constantFrom(1.5, '42') },
        ),
        message: fc.oneof({ weight: 4, arbitrary: fc.string() }, { weight: 1, arbitrary: fc.integer() }),
        data: fc.jsonValue({ maxDepth: 2 }),
        detail: fc.string(),
      },
      { requiredKeys: ['code', 'message'] },
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(null, 'boom') },
);
const method = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom('tools/call', 'notifications/progress', 'notifications/cancelled'),
  },
  { weight: 1, arbitrary: fc.integer() },
);
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
const withoutUndefined = (value: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(value).filter(([, member]) => member !== undefined));
/** Each kind of JSON-RPC message, mostly well formed, with the near misses the schema turns away. */
const messageLike = fc
  .tuple(
    fc.oneof(
      fc.record({ id, method, params: maybe(body) }),
      fc.record({ method, params: maybe(body) }),
      fc.record({ id, result: body }),
      fc.record({ id: maybe(id), error: errorBody }),
    ),
    fc.oneof(
      { weight: 8, arbitrary: fc.constant({}) },
      { weight: 1, arbitrary: fc.record({ jsonrpc: fc.constantFrom('1.0', 2) }) },
      { weight: 1, arbitrary: fc.record({ extra: fc.string() }) },
      { weight: 1, arbitrary: fc.record({ result: body, method }) },
    ),
  )
  .map(([message, deviation]) => withoutUndefined({ jsonrpc: '2.0', ...message, ...deviation }));

describe('parseMessageLine', () => {
  it('reads every line as the SDK’s deserializeMessage does', () => {
    fc.assert(
      fc.property(
        fc.oneof({ weight: 9, arbitrary: messageLike }, { weight: 1, arbitrary: fc.jsonValue() }),
        (value) => {
          const line = JSON.stringify(value);
          expect(readWith(parseMessageLine, line)).toStrictEqual(readWith(deserializeMessage, line));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('rejects a line that is not JSON as the SDK does', () => {
    for (const line of ['{"jsonrpc": "2.0", "method": ', 'Server started on port 3000', '']) {
      expect(readWith(parseMessageLine, line)).toEqual({ error: 'not JSON' });
    }
  });

  it('returns a tools/call request as it was sent', () => {
    const line =
      '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"read_text_file",' +
      '"arguments":{"path":"notes.md"},"_meta":{"progressToken":"p-1"}}}';
    expect(parseMessageLine(line)).toStrictEqual(JSON.parse(line));
  });
});
