import { Client } from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkToolResult, MAX_CONTENT_BLOCKS } from '../../src/mcp/tool-result.js';

/** The SDK client, to reach its own check of a 2025-era `tools/call` result: the schema walk the relay skips. */
class SchemaClient extends Client {
  accepts(raw: unknown): boolean {
    const codec = this._wireCodec();
    const decoded = codec.decodeResult('tools/call', raw);
    return decoded.kind === 'complete' && codec.validateResult('tools/call', decoded.result).ok;
  }
}
const schema = new SchemaClient({ name: 'schema', version: '0.0.0' });

const base64 = fc.uint8Array({ maxLength: 24 }).map((bytes) => Buffer.from(bytes).toString('base64'));
const annotations = fc.record(
  {
    audience: fc.array(fc.constantFrom('user', 'assistant')),
    priority: fc.double({ min: 0, max: 1, noNaN: true }),
  },
  { requiredKeys: [] },
);
const meta = fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
const block = fc.oneof(
  fc.record(
    { type: fc.constant('text'), text: fc.string(), annotations, _meta: meta },
    { requiredKeys: ['type', 'text'] },
  ),
  fc.record({ type: fc.constantFrom('image', 'audio'), data: base64, mimeType: fc.string() }),
  fc.record({ type: fc.constant('resource_link'), uri: fc.webUrl(), name: fc.string() }),
  fc.record({
    type: fc.constant('resource'),
    resource: fc.oneof(
      fc.record({ uri: fc.webUrl(), text: fc.string() }),
      fc.record({ uri: fc.webUrl(), blob: base64, mimeType: fc.string() }, { requiredKeys: ['uri', 'blob'] }),
    ),
  }),
);
const validResult = fc.record(
  {
    content: fc.array(block, { maxLength: 5 }),
    structuredContent: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 })),
    isError: fc.boolean(),
    _meta: meta,
    resultType: fc.constant('complete'),
  },
  { requiredKeys: [] },
);
/** What a hostile server could send instead: anything JSON can carry, and near misses of a result. */
const hostile = fc.oneof(
  fc.jsonValue({ maxDepth: 6 }),
  fc.anything({ maxDepth: 4, withObjectString: true, withNullPrototype: true }),
  fc.record(
    {
      content: fc.oneof(
        fc.array(fc.anything({ maxDepth: 3 }), { maxLength: 4 }),
        fc.anything({ maxDepth: 2 }),
      ),
      structuredContent: fc.anything({ maxDepth: 2 }),
      isError: fc.anything({ maxDepth: 1 }),
      _meta: fc.anything({ maxDepth: 2 }),
      ['__proto__']: fc.anything({ maxDepth: 1 }),
    },
    { requiredKeys: [] },
  ),
);

describe('checkToolResult', () => {
  it('accepts every result the SDK’s schema accepts', () => {
    fc.assert(
      fc.property(validResult, (raw) => {
        expect(schema.accepts(raw)).toBe(true);
        expect(checkToolResult(raw).ok).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('accepts whatever the SDK’s schema accepts among hostile inputs, and never throws on any of them', () => {
    fc.assert(
      fc.property(hostile, (raw) => {
        const checked = checkToolResult(raw);
        if (schema.accepts(raw)) expect(checked.ok).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('passes a result on as the server sent it, reading no further than its text', () => {
    const raw = {
      content: [{ type: 'text', text: 'Echo: hi', annotations: { priority: 1 } }],
      isError: false,
      extra: 1,
    };
    expect(checkToolResult(raw)).toEqual({ ok: true, result: raw });
  });

  it('gives a result without content the empty list the SDK gives it, and drops the 2026 era’s resultType', () => {
    expect(checkToolResult({ structuredContent: { count: 2 }, resultType: 'complete' })).toEqual({
      ok: true,
      result: { content: [], structuredContent: { count: 2 } },
    });
  });

  it('refuses the fields the guard reads when they have the wrong shape', () => {
    const refused = [
      { content: 'Echo: hi' },
      { content: [{ type: 'text' }] },
      { content: [{ type: 'html', text: '<b>' }] },
      { content: [], isError: 'true' },
      { content: [], structuredContent: [1, 2] },
      { content: [], _meta: 'x' },
      [],
      null,
    ];
    for (const raw of refused) {
      expect(checkToolResult(raw).ok).toBe(false);
      expect(schema.accepts(raw)).toBe(false);
    }
  });

  it('refuses a result with more content blocks than any client reads, without walking them', () => {
    const content = Array.from({ length: MAX_CONTENT_BLOCKS + 1 }, () => ({ type: 'text', text: '' }));
    expect(checkToolResult({ content })).toEqual({
      ok: false,
      message: `content has more than ${MAX_CONTENT_BLOCKS} blocks`,
    });
  });
});
