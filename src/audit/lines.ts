/**
 * Reading a journal line by line without holding it in memory. A line is "terminated" when its
 * newline made it to disk; an unterminated last line is what a crash mid-write leaves behind.
 */
import { closeSync, readSync } from 'node:fs';
import { openNoFollow, openNoFollowSync, READ_FLAGS } from '../node/safe-fs.js';

export interface JournalLine {
  readonly text: string;
  /** 1-based line number. */
  readonly number: number;
  readonly terminated: boolean;
}

const CHUNK = 1 << 20;

class LineSplitter {
  private partial: Buffer[] = [];
  private count = 0;

  split(chunk: Buffer): JournalLine[] {
    const lines: JournalLine[] = [];
    let from = 0;
    for (let newline = chunk.indexOf(10, from); newline !== -1; newline = chunk.indexOf(10, from)) {
      const piece = chunk.subarray(from, newline);
      const bytes = this.partial.length > 0 ? Buffer.concat([...this.partial, piece]) : piece;
      this.partial = [];
      this.count += 1;
      lines.push({ text: bytes.toString('utf8'), number: this.count, terminated: true });
      from = newline + 1;
    }
    // Copied: the reader reuses its buffer.
    if (from < chunk.length) this.partial.push(Buffer.from(chunk.subarray(from)));
    return lines;
  }

  end(): JournalLine | undefined {
    if (this.partial.length === 0) return undefined;
    const text = Buffer.concat(this.partial).toString('utf8');
    this.partial = [];
    this.count += 1;
    return { text, number: this.count, terminated: false };
  }
}

/** Throws ENOENT like `readFileSync` when the file does not exist. */
export function* readLinesSync(path: string): Generator<JournalLine> {
  const fd = openNoFollowSync(path, READ_FLAGS);
  try {
    const buffer = Buffer.allocUnsafe(CHUNK);
    const splitter = new LineSplitter();
    for (;;) {
      const read = readSync(fd, buffer, 0, CHUNK, null);
      if (read === 0) break;
      yield* splitter.split(buffer.subarray(0, read));
    }
    const last = splitter.end();
    if (last !== undefined) yield last;
  } finally {
    closeSync(fd);
  }
}

export async function* readLines(path: string): AsyncGenerator<JournalLine> {
  const splitter = new LineSplitter();
  const handle = await openNoFollow(path, READ_FLAGS);
  for await (const chunk of handle.createReadStream({ highWaterMark: CHUNK })) {
    yield* splitter.split(chunk as Buffer);
  }
  const last = splitter.end();
  if (last !== undefined) yield last;
}
