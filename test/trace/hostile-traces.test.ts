import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { parseTrace, readTraceFile, type TraceError, type TraceEvent } from '../../src/trace/index.js';

const dir = mkdtempSync(join(tmpdir(), 'narrowing-trace-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function collect(path: string, onWarning?: (warning: TraceError) => void): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  for await (const event of readTraceFile(path, onWarning ? { onWarning } : {})) events.push(event);
  return events;
}

describe('traces from elsewhere', () => {
  it('reads a 16 MB line in linear time', async () => {
    const path = join(dir, 'long-line.jsonl');
    const output = 'x'.repeat(16 * 1024 * 1024);
    const call = {
      type: 'call',
      tool: 'bash',
      args: { command: 'cat big.log' },
      result: { content: output },
    };
    writeFileSync(path, `${JSON.stringify(call)}\n{"type":"call","tool":"ls","args":{}}\n`);
    const started = performance.now();
    const events = await collect(path);
    expect(performance.now() - started).toBeLessThan(2_500);
    expect(events).toHaveLength(2);
  });

  it('warns, naming the line, when t goes backwards', async () => {
    const path = join(dir, 'backwards.jsonl');
    writeFileSync(
      path,
      [
        '{"type":"call","tool":"read_file","args":{"path":"a.ts"},"t":10}',
        '{"type":"call","tool":"read_file","args":{"path":"b.ts"},"t":12}',
        '{"type":"call","tool":"read_file","args":{"path":"c.ts"},"t":3}',
      ].join('\n'),
    );
    const warnings: TraceError[] = [];
    await collect(path, (warning) => warnings.push(warning));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.line).toBe(3);
    expect(warnings[0]?.message).toMatch(/backwards.jsonl:3: t goes backwards \(3 after 12\)/);
  });

  it('streams what parseTrace parses, wherever the chunks split the lines', async () => {
    const line = fc.record({
      tool: fc.stringMatching(/^[a-z_]{1,12}$/),
      text: fc.string({ maxLength: 200 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 30 }), async (calls) => {
        const text = calls
          .map(({ tool, text }) =>
            JSON.stringify({ type: 'call', tool, args: {}, result: { content: text } }),
          )
          .join('\n');
        const path = join(dir, 'property.jsonl');
        writeFileSync(path, text);
        expect(await collect(path)).toEqual(parseTrace(text));
      }),
      { numRuns: 50 },
    );
  });
});
