/**
 * A file's lines read from its end, newest first, a chunk at a time: a reader that wants the last
 * lines up to some line it recognises stops there, and reads no more of the file than that (at most
 * `maxBytes` from the end in any case).
 *
 * Lines are split at the byte `\n`, which never occurs inside a UTF-8 character, and each line is
 * decoded whole, so a chunk may end anywhere (inside a line, inside a character). A `\r` before the
 * `\n` stays in the line. A line longer than `maxLineBytes` is skipped unread: its bytes are not
 * kept. When the file is longer than `maxBytes`, the bytes before the first `\n` of the part read
 * belong to a line cut short, and are left out. The file is opened without following a symbolic
 * link, and only a regular file is read.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

export interface LinesFromEndOptions {
  /** The most read from the file's end. */
  readonly maxBytes: number;
  /** Lines longer than this (in bytes, without their `\n`) are skipped. */
  readonly maxLineBytes: number;
  /** How much is read at a time (default 32 KiB). */
  readonly chunkBytes?: number;
  /** Told the size of each chunk read. */
  readonly onChunk?: (bytes: number) => void;
}

const DEFAULT_CHUNK_BYTES = 32 * 1024;
const NEWLINE = 0x0a;

/**
 * The lines of the file at `path`, last first (after a final `\n`, an empty line comes first).
 * Nothing when the path is a symbolic link or not a regular file. Throws when the file cannot be
 * opened or read.
 */
export async function* linesFromEnd(path: string, options: LinesFromEndOptions): AsyncGenerator<string> {
  const chunkBytes = Math.max(1, Math.floor(options.chunkBytes ?? DEFAULT_CHUNK_BYTES));
  const handle = await open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return;
    const size = stat.size;
    const floor = size - Math.min(size, Math.max(0, options.maxBytes));
    /** The line being gathered: its parts read so far, last part first. */
    let parts: Buffer[] = [];
    let partsBytes = 0;
    let tooLong = false;
    const gather = (part: Buffer) => {
      if (part.length === 0 || tooLong) return;
      partsBytes += part.length;
      if (partsBytes > options.maxLineBytes) {
        tooLong = true;
        parts = [];
        return;
      }
      parts.push(part);
    };
    /** The gathered line, decoded, or undefined when it was too long; the next line starts empty. */
    const finish = (): string | undefined => {
      const line = tooLong
        ? undefined
        : parts.length === 1
          ? (parts[0] as Buffer).toString('utf8')
          : Buffer.concat(parts.reverse()).toString('utf8');
      parts = [];
      partsBytes = 0;
      tooLong = false;
      return line;
    };
    let position = size;
    while (position > floor) {
      const length = Math.min(chunkBytes, position - floor);
      const chunk = Buffer.allocUnsafe(length);
      let read = 0;
      while (read < length) {
        const { bytesRead } = await handle.read(chunk, read, length - read, position - length + read);
        if (bytesRead === 0) break;
        read += bytesRead;
      }
      // The file shrank under the reader: what is left is not what was there.
      if (read < length) return;
      options.onChunk?.(length);
      position -= length;
      let end = length;
      for (
        let at = chunk.lastIndexOf(NEWLINE, end - 1);
        at !== -1;
        at = chunk.lastIndexOf(NEWLINE, end - 1)
      ) {
        // Copied: a line kept across chunks must not hold a whole chunk alive, nor share its memory.
        gather(Buffer.from(chunk.subarray(at + 1, end)));
        const line = finish();
        if (line !== undefined) yield line;
        end = at;
        if (end === 0) break;
      }
      gather(Buffer.from(chunk.subarray(0, end)));
    }
    // The file's first line, unless the part read started inside a line.
    if (floor === 0) {
      const line = finish();
      if (line !== undefined) yield line;
    }
  } finally {
    await handle.close();
  }
}
