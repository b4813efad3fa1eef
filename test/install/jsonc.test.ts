import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsoncSyntaxError, nodeValue, parseJsonc } from '../../src/install/index.js';

describe('parseJsonc', () => {
  it('reads any JSON document as JSON.parse does', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(undefined, 2, 4, '\t'), (value, space) => {
        const text = JSON.stringify(value, null, space);
        expect(nodeValue(parseJsonc(text).root)).toEqual(JSON.parse(text));
      }),
    );
  });

  it('gives each value the span of its own text', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (object) => {
        const text = JSON.stringify(object, null, 2);
        const root = parseJsonc(text).root;
        if (root.kind !== 'object') throw new Error('not an object');
        for (const member of root.members) {
          const expected = JSON.parse(JSON.stringify(object[member.key]));
          expect(JSON.parse(text.slice(member.value.start, member.value.end))).toEqual(expected);
          expect(JSON.parse(text.slice(member.keySpan.start, member.keySpan.end))).toBe(member.key);
        }
      }),
    );
  });

  it('skips line and block comments and notes that there were some', () => {
    const parsed = parseJsonc('{\n  // the servers\n  "servers": { /* none yet */ }\n}\n');
    expect(parsed.hasComments).toBe(true);
    expect(nodeValue(parsed.root)).toEqual({ servers: {} });
  });

  it('accepts trailing commas in objects and arrays', () => {
    expect(nodeValue(parseJsonc('{"args": ["-y", "server",], "env": {"A": "1",},}').root)).toEqual({
      args: ['-y', 'server'],
      env: { A: '1' },
    });
  });

  it('does not mistake a URL inside a string for a comment', () => {
    const parsed = parseJsonc('{"url": "https://mcp.linear.app/sse"}');
    expect(parsed.hasComments).toBe(false);
    expect(nodeValue(parsed.root)).toEqual({ url: 'https://mcp.linear.app/sse' });
  });

  it('ignores a byte order mark', () => {
    expect(nodeValue(parseJsonc('\uFEFF{"mcpServers": {}}').root)).toEqual({ mcpServers: {} });
  });

  it('keeps a __proto__ key as data', () => {
    const value = nodeValue(parseJsonc('{"__proto__": {"polluted": true}}').root) as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('names the line and column of a syntax error', () => {
    const error = (() => {
      try {
        parseJsonc('{\n  "mcpServers": {\n    "fs": {"command": "npx"}\n    "git": {}\n  }\n}');
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(JsoncSyntaxError);
    expect(error).toMatchObject({ line: 4, column: 5 });
  });

  it('rejects an unclosed block comment', () => {
    expect(() => parseJsonc('{"a": 1 /* open')).toThrow('a /* comment is never closed');
  });
});
