import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTrace, TraceError } from '../../src/trace/index.js';

const validLine = fc.oneof(
  fc.constant('{"type":"user"}'),
  fc.constant('{"type":"compact"}'),
  fc.constant(''),
  fc.constant('// a comment'),
  fc
    .record({ tool: fc.string({ minLength: 1 }), path: fc.string(), content: fc.string(), t: fc.nat() })
    .map(({ tool, path, content, t }) =>
      JSON.stringify({ type: 'call', tool, args: { path }, result: { content }, t }),
    ),
);

const invalidLine = fc.oneof(
  fc.constant('{"type":"call","tool":"ls"}'),
  fc.constant('{"type":"unknown"}'),
  fc.constant('{"type":"call",'),
  fc.constant('42'),
  fc.constant('{"type":"meta"}'),
);

describe('parseTrace on arbitrary input', () => {
  it('throws nothing but TraceError on arbitrary text', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string({ unit: 'binary' }),
          fc.array(fc.json()).map((l) => l.join('\n')),
        ),
        (text) => {
          try {
            parseTrace(text);
          } catch (error) {
            return error instanceof TraceError;
          }
          return true;
        },
      ),
    );
  });

  it('throws nothing but TraceError on arbitrary JSON objects with a known type', () => {
    const event = fc
      .tuple(
        fc.constantFrom('meta', 'session', 'user', 'compact', 'call'),
        fc.dictionary(fc.string(), fc.jsonValue()),
      )
      .map(([type, fields]) => JSON.stringify({ ...fields, type }));
    fc.assert(
      fc.property(fc.array(event, { maxLength: 5 }), (lines) => {
        try {
          parseTrace(lines.join('\n'));
        } catch (error) {
          return error instanceof TraceError;
        }
        return true;
      }),
    );
  });

  it('names the line of the first bad line', () => {
    fc.assert(
      fc.property(fc.array(validLine), invalidLine, fc.array(validLine), (before, bad, after) => {
        // A session first, so that a late meta event is as wrong as the other bad lines.
        const lines = ['{"type":"session"}', ...before, bad, ...after];
        try {
          parseTrace(lines.join('\n'));
        } catch (error) {
          expect(error).toBeInstanceOf(TraceError);
          expect((error as TraceError).line).toBe(before.length + 2);
          return;
        }
        throw new Error('expected a TraceError');
      }),
    );
  });

  it('reads back every valid line it was given', () => {
    fc.assert(
      fc.property(fc.array(validLine), (lines) => {
        const events = parseTrace(lines.join('\n'));
        const expected = lines.filter((line) => line !== '' && !line.startsWith('//')).length;
        expect(events).toHaveLength(expected);
      }),
    );
  });
});
