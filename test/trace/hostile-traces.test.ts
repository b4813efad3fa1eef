import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  parseTrace,
  readTraceFile,
  type TraceError,
  type TraceEvent,
  type TraceReadOptions,
} from '../../src/trace/index.js';
import { growth } from '../growth.js';

const dir = mkdtempSync(join(tmpdir(), 'narrowing-trace-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function collectWith(path: string, options: TraceReadOptions): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  for await (const event of readTraceFile(path, options)) events.push(event);
  return events;
}

async function collect(path: string, onWarning?: (warning: TraceError) => void): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  for await (const event of readTraceFile(path, onWarning ? { onWarning } : {})) events.push(event);
  return events;
}

describe('traces from elsewhere', () => {
  it('reads a 16 MB line in linear time', async () => {
    const pathOf = (megabytes: number) => {
      const path = join(dir, `long-line-${megabytes}.jsonl`);
      const call = {
        type: 'call',
        tool: 'bash',
        args: { command: 'cat big.log' },
        result: { content: 'x'.repeat(megabytes * 1024 * 1024) },
      };
      writeFileSync(path, `${JSON.stringify(call)}\n{"type":"call","tool":"ls","args":{}}\n`);
      return path;
    };
    const paths = new Map([1, 16].map((scale) => [scale, pathOf(scale)]));
    let events: TraceEvent[] = [];
    // Sixteen times the line takes about sixteen times as long; reading it chunk by chunk again would
    // take 256 times. The bound sits a factor of four from each, so a busy machine does not decide it.
    const ratio = await growth(
      async (scale) => {
        events = await collect(paths.get(scale) ?? '');
      },
      16,
      5,
    );
    expect(ratio).toBeLessThan(64);
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({ tool: 'bash' });
  });

  it('names the file and the line of a line longer than the bound asked for', async () => {
    const path = join(dir, 'over-bound.jsonl');
    const call = {
      type: 'call',
      tool: 'bash',
      args: { command: 'cat big.log' },
      result: { content: 'x'.repeat(2048) },
    };
    writeFileSync(path, `{"type":"meta","name":"over"}\n${JSON.stringify(call)}\n`);
    await expect(collectWith(path, { maxLineBytes: 1024 })).rejects.toThrow(
      /over-bound\.jsonl:2: the line is longer than 1,024 bytes/,
    );
    await expect(collectWith(path, { maxLineBytes: 4096 })).resolves.toHaveLength(2);
  });

  it('refuses a line bound that is not a whole number of bytes above 0', async () => {
    const path = join(dir, 'any.jsonl');
    writeFileSync(path, '{"type":"user"}\n');
    for (const maxLineBytes of [0, -1, 1.5, Number.NaN])
      await expect(collectWith(path, { maxLineBytes })).rejects.toMatchObject({ code: 'USAGE' });
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
