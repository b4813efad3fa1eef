import { describe, expect, it } from 'vitest';
import { parseTrace, TraceError } from '../../src/trace/index.js';

function errorOf(text: string, source?: string): TraceError {
  try {
    parseTrace(text, source);
  } catch (error) {
    if (error instanceof TraceError) return error;
    throw error;
  }
  throw new Error('expected the trace to be rejected');
}

const readCall =
  '{"type":"call","tool":"read_file","args":{"path":"src/app.ts"},"result":{"content":"x"},"t":1}';

describe('parseTrace', () => {
  it('reads every event type', () => {
    const text = [
      '{"type":"meta","name":"demo","tools":[{"name":"read_file","annotations":{"readOnlyHint":true}}]}',
      '{"type":"session","id":"s1"}',
      '{"type":"user","text":"fix the build"}',
      readCall,
      '{"type":"compact"}',
    ].join('\n');
    expect(parseTrace(text)).toEqual([
      { type: 'meta', name: 'demo', tools: [{ name: 'read_file', annotations: { readOnlyHint: true } }] },
      { type: 'session', id: 's1' },
      { type: 'user', text: 'fix the build' },
      { type: 'call', tool: 'read_file', args: { path: 'src/app.ts' }, result: { content: 'x' }, t: 1 },
      { type: 'compact' },
    ]);
  });

  it('skips blank lines and // comments', () => {
    const text = `// recorded from a Cline session\n\n   \n  // indented comment\n${readCall}\n`;
    expect(parseTrace(text)).toHaveLength(1);
  });

  it('ignores unknown fields', () => {
    const [event] = parseTrace(
      '{"type":"call","tool":"grep","args":{"pattern":"TODO"},"result":{"content":"","latency":3},"model":"x"}',
    );
    expect(event).toEqual({ type: 'call', tool: 'grep', args: { pattern: 'TODO' }, result: { content: '' } });
  });

  it('keeps meta.expect exactly as written', () => {
    const [meta] = parseTrace('{"type":"meta","expect":{"block_at":[3,4]}}');
    expect(meta).toEqual({ type: 'meta', expect: { block_at: [3, 4] } });
  });

  it('keeps MCP content items and the result meta', () => {
    const [call] = parseTrace(
      JSON.stringify({
        type: 'call',
        tool: 'search',
        args: { q: 'x' },
        result: {
          content: [{ type: 'text', text: 'no results' }],
          meta: { 'dev.narrowing/non-advancing': true },
        },
      }),
    );
    expect(call).toMatchObject({
      result: {
        content: [{ type: 'text', text: 'no results' }],
        meta: { 'dev.narrowing/non-advancing': true },
      },
    });
  });

  it('keeps numeric ids and turns as strings', () => {
    const [call] = parseTrace('{"type":"call","tool":"ls","args":{},"id":7,"turn":2}');
    expect(call).toMatchObject({ id: '7', turn: '2' });
  });

  it('keeps the ids of the calls whose answers a compaction took away, as strings', () => {
    const [event] = parseTrace('{"type":"compact","calls":["read_file-1772326319541",7]}');
    expect(event).toEqual({ type: 'compact', calls: ['read_file-1772326319541', '7'] });
  });

  it('accepts CRLF line endings and a byte-order mark', () => {
    expect(parseTrace(`\uFEFF{"type":"user"}\r\n${readCall}\r\n`)).toHaveLength(2);
  });

  it('accepts a call without a result, as one that never ran', () => {
    const [call] = parseTrace('{"type":"call","tool":"rm","args":{"path":"dist"}}');
    expect(call).toEqual({ type: 'call', tool: 'rm', args: { path: 'dist' } });
  });
});

describe('parseTrace errors', () => {
  it('names the file and line of invalid JSON', () => {
    const error = errorOf(`${readCall}\n\n{"type":"call",`, 'runs/a.jsonl');
    expect(error.line).toBe(3);
    expect(error.message).toMatch(/^runs\/a\.jsonl:3: not valid JSON/);
  });

  it('names the line without a file', () => {
    expect(errorOf('nope').message).toMatch(/^line 1: not valid JSON/);
  });

  it('rejects an unknown event type and lists the known ones', () => {
    expect(errorOf(`${readCall}\n{"type":"tool_call"}`).message).toBe(
      'line 2: unknown event type "tool_call" (known types: "meta", "session", "user", "compact", "call")',
    );
  });

  it('rejects an event without a type', () => {
    expect(errorOf('{"tool":"ls","args":{}}').message).toMatch(/^line 1: every event needs a "type"/);
  });

  it('rejects a call without a tool', () => {
    expect(errorOf('{"type":"call","args":{}}').message).toBe(
      `line 1: call event: a call needs "tool", the tool's name (got nothing)`,
    );
  });

  it('rejects a call without args', () => {
    expect(errorOf('{"type":"call","tool":"ls"}').message).toBe(
      'line 1: call event: a call needs "args", an object of arguments (got nothing)',
    );
  });

  it('rejects args that are not an object', () => {
    expect(errorOf('{"type":"call","tool":"ls","args":["-la"]}').message).toMatch(/args.*\(got a list\)/);
  });

  it('rejects a compaction whose calls are not a list of call ids', () => {
    expect(errorOf('{"type":"compact","calls":"read_file-1"}').message).toBe(
      'line 1: compact event: calls must be a list of call ids (got "read_file-1")',
    );
    expect(errorOf('{"type":"compact","calls":[""]}').message).toMatch(
      /^line 1: compact event: calls\[0\] must be the id of an earlier call/,
    );
  });

  it('rejects a line that is JSON but not an object', () => {
    expect(errorOf('[1,2]').message).toBe('line 1: an event must be a JSON object (got a list)');
  });

  it('rejects a negative time', () => {
    expect(errorOf('{"type":"call","tool":"ls","args":{},"t":-1}').message).toMatch(/t must be a number/);
  });

  it('rejects an unknown action kind in the tool annotations', () => {
    const text = '{"type":"meta","tools":[{"name":"status","annotations":{"narrowing":{"kind":"wait"}}}]}';
    expect(errorOf(text).message).toMatch(
      /^line 1: meta event: tools\[0\]\.annotations\.narrowing\.kind must be/,
    );
  });

  it('rejects content that is neither a string nor MCP items', () => {
    expect(errorOf('{"type":"call","tool":"ls","args":{},"result":{"content":42}}').message).toMatch(
      /result\.content must be a string or a list/,
    );
  });

  it('rejects a meta event after other events', () => {
    expect(errorOf(`${readCall}\n{"type":"meta"}`).message).toBe(
      'line 2: a meta event must come before every other event',
    );
  });
});
