import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  parseTrace,
  readTraceEvents,
  readTraceFile,
  TraceError,
  type TraceEvent,
} from '../../src/trace/index.js';

const dir = mkdtempSync(join(tmpdir(), 'narrowing-trace-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function collect(path: string): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  for await (const event of readTraceFile(path)) events.push(event);
  return events;
}

describe('readTraceFile', () => {
  it('streams the same events as parseTrace', async () => {
    const lines: string[] = ['{"type":"meta","name":"big"}'];
    for (let i = 0; i < 5000; i++) {
      lines.push(
        JSON.stringify({
          type: 'call',
          tool: 'read_file',
          args: { path: `src/m${i}.ts` },
          result: { content: 'é'.repeat(i % 50) },
        }),
      );
      if (i % 100 === 0) lines.push('', '// checkpoint');
    }
    const text = `${lines.join('\r\n')}\n`;
    const path = join(dir, 'big.jsonl');
    writeFileSync(path, text);
    expect(await collect(path)).toEqual(parseTrace(text));
  });

  it('names the file and line of a bad line', async () => {
    const path = join(dir, 'bad.jsonl');
    writeFileSync(path, '{"type":"user"}\n\n{"type":"call","tool":"Edit"}\n');
    const error = await collect(path).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TraceError);
    expect((error as TraceError).message).toMatch(
      new RegExp(`^${path.replace(/[.\\]/g, '\\$&')}:3: call event`),
    );
  });

  it('reads a last line without a newline', async () => {
    const path = join(dir, 'tail.jsonl');
    writeFileSync(path, '{"type":"user"}\n{"type":"compact"}');
    expect(await collect(path)).toEqual([{ type: 'user' }, { type: 'compact' }]);
  });
});

describe('readTraceEvents', () => {
  it('reads the same events as parseTrace, across chunks and with lines longer than a chunk', async () => {
    const lines: string[] = ['{"type":"meta","name":"chunks"}'];
    for (let i = 0; i < 3000; i++) {
      const text = i % 500 === 7 ? 'x'.repeat(200_000) : 'é'.repeat(i % 50);
      lines.push(
        JSON.stringify({
          type: 'call',
          tool: 'bash',
          args: { command: `ls ${i}` },
          result: { content: text },
        }),
      );
      if (i % 100 === 0) lines.push('', '// checkpoint');
    }
    const text = `${lines.join('\r\n')}\n`;
    const path = join(dir, 'chunks.jsonl');
    writeFileSync(path, text);
    expect(await readTraceEvents(path)).toEqual(parseTrace(text));
  });

  it('names the file and line of a bad line, as readTraceFile does', async () => {
    const path = join(dir, 'bad-events.jsonl');
    writeFileSync(path, '{"type":"user"}\n\n{"type":"call","tool":"Edit"}\n');
    const error = await readTraceEvents(path).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TraceError);
    expect((error as TraceError).message).toMatch(
      new RegExp(`^${path.replace(/[.\\]/g, '\\$&')}:3: call event`),
    );
  });

  it('reads a last line without a newline', async () => {
    const path = join(dir, 'tail-events.jsonl');
    writeFileSync(path, '{"type":"user"}\n{"type":"compact"}');
    expect(await readTraceEvents(path)).toEqual([{ type: 'user' }, { type: 'compact' }]);
  });
});
