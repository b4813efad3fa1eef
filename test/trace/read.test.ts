import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  parseTrace,
  readTraceEvents,
  readTraceFile,
  TraceError,
  type TraceEvent,
} from '../../src/trace/index.js';
import { type LineBound, linesOfChunks, linesOfFile } from '../../src/trace/read.js';

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

describe('linesOfChunks', () => {
  async function* chunked(bytes: Uint8Array, cuts: readonly number[]): AsyncGenerator<Uint8Array> {
    let start = 0;
    for (const cut of [...cuts].sort((a, b) => a - b)) {
      const end = Math.min(cut, bytes.length);
      if (end < start) continue;
      yield bytes.subarray(start, end);
      start = end;
    }
    yield bytes.subarray(start);
  }

  async function linesOf(chunks: AsyncIterable<Uint8Array>, bound?: LineBound): Promise<string[]> {
    const lines: string[] = [];
    for await (const batch of linesOfChunks(chunks, bound)) for (const line of batch) lines.push(line);
    return lines;
  }

  it('gives the lines of the whole text decoded at once, wherever the chunks cut it', async () => {
    // Multi-byte characters, broken sequences and newlines, cut anywhere, even inside a character.
    const piece = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 8 }).map((text) => [...Buffer.from(text, 'utf8')]),
      fc.constantFrom(
        [0x0a],
        [0x0d, 0x0a],
        [0xc3],
        [0xe2, 0x82],
        [0xf0, 0x9f, 0x98],
        [0xff],
        [0xef, 0xbb, 0xbf],
      ),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(piece, { maxLength: 40 }),
        fc.array(fc.nat({ max: 200 }), { maxLength: 8 }),
        async (pieces, cuts) => {
          const bytes = Uint8Array.from(pieces.flat());
          const whole = Buffer.from(bytes).toString('utf8').split('\n');
          expect(await linesOf(chunked(bytes, cuts))).toEqual(whole);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('names the first line longer than the bound, or gives every line when none is', async () => {
    const line = fc.string({ unit: 'grapheme', maxLength: 12 });
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { maxLength: 12 }),
        fc.integer({ min: 1, max: 24 }),
        fc.array(fc.nat({ max: 150 }), { maxLength: 6 }),
        async (lines, maxLineBytes, cuts) => {
          const bytes = Buffer.from(lines.join('\n'), 'utf8');
          const whole = bytes.toString('utf8').split('\n');
          const first = whole.findIndex((text) => Buffer.byteLength(text, 'utf8') > maxLineBytes);
          const read = linesOf(chunked(bytes, cuts), { maxLineBytes });
          if (first === -1) await expect(read).resolves.toEqual(whole);
          else await expect(read).rejects.toMatchObject({ code: 'TRACE_INVALID', line: first + 1 });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('stops at the bound on a line that never ends, instead of reading on', async () => {
    let pulled = 0;
    async function* endless(): AsyncGenerator<Uint8Array> {
      yield Buffer.from('{"type":"meta"}\n{"type":"user"}\n', 'utf8');
      for (;;) {
        pulled++;
        yield Buffer.alloc(1024, 0x78);
      }
    }
    await expect(linesOf(endless(), { maxLineBytes: 64 * 1024, source: 'endless.jsonl' })).rejects.toThrow(
      /^endless\.jsonl:3: the line is longer than 65,536 bytes/,
    );
    expect(pulled).toBe(65);
  });

  it('reads a line longer than many chunks as one line', async () => {
    const line = 'é'.repeat(300_000);
    const bytes = Buffer.from(`${line}\n{"type":"user"}`, 'utf8');
    const cuts = Array.from({ length: 60 }, (_, index) => index * 10_001);
    expect(await linesOf(chunked(bytes, cuts))).toEqual([line, '{"type":"user"}']);
  });
});

describe('linesOfFile', () => {
  function linesOf(path: string, bound?: LineBound): string[] {
    const fd = openSync(path, 'r');
    try {
      const lines: string[] = [];
      for (const batch of linesOfFile(fd, bound)) for (const line of batch) lines.push(line);
      return lines;
    } finally {
      closeSync(fd);
    }
  }

  it('gives the lines of the whole file decoded at once, lines across its reads included', () => {
    // Over two megabytes: lines cross the reads of a megabyte, one of them several reads long.
    const long = 'é'.repeat(700_000);
    const lines = [
      '{"type":"meta"}',
      '',
      `{"type":"user","text":"${long}"}\r`,
      '✓ ok',
      'x'.repeat(1_100_000),
      '',
    ];
    const path = join(dir, 'long-lines.jsonl');
    writeFileSync(path, lines.join('\n'));
    expect(linesOf(path)).toEqual(lines);
  });

  it('names the first line longer than the bound, as linesOfChunks does', () => {
    const path = join(dir, 'too-long.jsonl');
    writeFileSync(path, `{"type":"user"}\n${'x'.repeat(100)}\n{"type":"user"}\n`);
    expect(() => linesOf(path, { maxLineBytes: 64, source: 'too-long.jsonl' })).toThrow(
      /^too-long\.jsonl:2: the line is longer than 64 bytes/,
    );
  });
});
