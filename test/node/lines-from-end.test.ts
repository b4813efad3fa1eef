import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { linesFromEnd } from '../../src/node/lines-from-end.js';

const folder = mkdtempSync(join(tmpdir(), 'lines-from-end-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let files = 0;
const fileWith = (bytes: Buffer | string) => {
  const path = join(folder, `file-${++files}.jsonl`);
  writeFileSync(path, bytes);
  return path;
};

/**
 * The plain reader the backwards one must agree with: the last `maxBytes` read whole, the line cut
 * short at their start left out, split at `\n`, the lines over `maxLineBytes` left out, last first.
 */
function plainLines(bytes: Buffer, maxBytes: number, maxLineBytes: number): string[] {
  const start = bytes.length - Math.min(bytes.length, maxBytes);
  let text = bytes.subarray(start).toString('utf8');
  if (start > 0) {
    const newline = text.indexOf('\n');
    if (newline === -1) return [];
    text = text.slice(newline + 1);
  }
  return text
    .split('\n')
    .filter((line) => Buffer.byteLength(line) <= maxLineBytes)
    .reverse();
}

async function collect(path: string, options: Parameters<typeof linesFromEnd>[1]): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of linesFromEnd(path, options)) lines.push(line);
  return lines;
}

/** Text as rollouts hold it: JSON lines with words in several scripts, CRLF now and then, empty lines. */
const lineText = fc.oneof(
  fc.string({ unit: fc.constantFrom('a', 'z', '{', '"', ':', ' ', 'é', 'ж', '中', '😀', '\r', '\\') }),
  fc.constant(''),
  fc.constant('{"type":"event_msg","payload":{"type":"item_completed"}}\r'),
);
const fileText = fc
  .record({ lines: fc.array(lineText, { maxLength: 40 }), finalNewline: fc.boolean() })
  .map(({ lines, finalNewline }) => lines.join('\n') + (finalNewline && lines.length > 0 ? '\n' : ''));

describe('reading a file’s lines from its end', () => {
  it('gives the lines a plain reader of the whole tail gives, wherever chunks and the tail start fall', async () => {
    await fc.assert(
      fc.asyncProperty(
        fileText,
        fc.integer({ min: 1, max: 64 }),
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 0, max: 80 }),
        async (text, chunkBytes, maxBytes, maxLineBytes) => {
          const bytes = Buffer.from(text, 'utf8');
          const path = fileWith(bytes);
          expect(await collect(path, { chunkBytes, maxBytes, maxLineBytes })).toEqual(
            plainLines(bytes, maxBytes, maxLineBytes),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps a character whose bytes two chunks share whole', async () => {
    // '中' is three bytes; a chunk of two bytes splits it, and every other character, in two.
    const path = fileWith('中文\n日本語\n');
    expect(await collect(path, { chunkBytes: 2, maxBytes: 1024, maxLineBytes: 1024 })).toEqual([
      '',
      '日本語',
      '中文',
    ]);
  });

  it('keeps the carriage return of a CRLF line in the line', async () => {
    const path = fileWith('{"a":1}\r\n{"b":2}\r\n');
    expect(await collect(path, { chunkBytes: 3, maxBytes: 1024, maxLineBytes: 1024 })).toEqual([
      '',
      '{"b":2}\r',
      '{"a":1}\r',
    ]);
  });

  it('reads a line longer than a chunk whole, and skips one longer than the cap without keeping it', async () => {
    const long = 'x'.repeat(300);
    const path = fileWith(`first\n${long}\n${'y'.repeat(2000)}\nlast`);
    expect(await collect(path, { chunkBytes: 16, maxBytes: 10_000, maxLineBytes: 1000 })).toEqual([
      'last',
      long,
      'first',
    ]);
  });

  it('gives one empty line for an empty file', async () => {
    expect(await collect(fileWith(''), { maxBytes: 1024, maxLineBytes: 1024 })).toEqual(['']);
  });

  it('reads no further back than the lines its reader took', async () => {
    const path = fileWith(`${'{"older":true}\n'.repeat(20_000)}{"newest":true}\n`);
    let read = 0;
    const lines = linesFromEnd(path, {
      chunkBytes: 4096,
      maxBytes: 512 * 1024,
      maxLineBytes: 1024,
      onChunk: (bytes) => {
        read += bytes;
      },
    });
    const taken: string[] = [];
    for await (const line of lines) {
      taken.push(line);
      if (line.includes('newest')) break;
    }
    expect(taken).toEqual(['', '{"newest":true}']);
    expect(read).toBe(4096);
  });

  it('reads nothing through a symbolic link', async () => {
    const target = fileWith('{"a":1}\n');
    const link = join(folder, 'link.jsonl');
    symlinkSync(target, link);
    await expect(collect(link, { maxBytes: 1024, maxLineBytes: 1024 })).rejects.toThrow();
  });
});
