/**
 * Finding where a journal ends, reading backwards from the end so that opening a large journal
 * costs the size of its last lines, not of the whole file. Also repairs the one kind of damage a
 * crash leaves: a last line cut off mid-write.
 */
import { closeSync, fstatSync, readSync } from 'node:fs';
import { asideName } from '../node/atomic-file.js';
import {
  APPEND_FLAGS,
  CREATE_NEW_FLAGS,
  openNoFollowSync,
  READ_FLAGS,
  truncateNoFollowSync,
  writeTextNoFollowSync,
} from '../node/safe-fs.js';
import { type JournalEntry, parseEntry } from './entry.js';

export interface JournalTail {
  /** Seq of the last entry that parses (0 when there is none). */
  readonly lastSeq: number;
  readonly lastHash?: string;
  /** Complete lines after that entry that are not entries. */
  readonly unreadable: number;
}

export interface TornLine {
  /** Where the cut-off bytes started. */
  readonly offset: number;
  readonly bytes: Buffer;
}

interface TailScan extends JournalTail {
  readonly torn?: TornLine;
}

const CHUNK = 64 * 1024;

/** Reads the end of a journal. A missing file is an empty journal. */
function scanTail(path: string): TailScan {
  let fd: number;
  try {
    fd = openNoFollowSync(path, READ_FLAGS);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { lastSeq: 0, unreadable: 0 };
    throw error;
  }
  try {
    const window = new BackwardWindow(fd, fstatSync(fd).size);
    const end = window.afterLastNewline(window.size);
    const torn = end < window.size ? { offset: end, bytes: window.slice(end, window.size) } : undefined;
    let unreadable = 0;
    let lineEnd = end - 1;
    while (lineEnd >= 0) {
      const lineStart = window.afterLastNewline(lineEnd);
      const entry = parseEntry(window.slice(lineStart, lineEnd).toString('utf8'));
      if (entry !== undefined) return { ...last(entry), unreadable, torn };
      unreadable += 1;
      lineEnd = lineStart - 1;
    }
    return { lastSeq: 0, unreadable, torn };
  } finally {
    closeSync(fd);
  }
}

function last(entry: JournalEntry): Pick<JournalTail, 'lastSeq' | 'lastHash'> {
  return typeof entry.hash === 'string'
    ? { lastSeq: entry.seq, lastHash: entry.hash }
    : { lastSeq: entry.seq };
}

/** The bytes `[start, size)` of a file, grown backwards a chunk at a time as needed. */
class BackwardWindow {
  private buffer = Buffer.alloc(0);
  private start: number;

  constructor(
    private readonly fd: number,
    readonly size: number,
  ) {
    this.start = size;
  }

  /** Offset just after the last newline before `before`, or 0. */
  afterLastNewline(before: number): number {
    for (;;) {
      if (before > this.start) {
        const index = this.buffer.lastIndexOf(10, before - this.start - 1);
        if (index !== -1) return this.start + index + 1;
      }
      if (!this.grow()) return 0;
    }
  }

  slice(from: number, to: number): Buffer {
    while (from < this.start) this.grow();
    return this.buffer.subarray(from - this.start, to - this.start);
  }

  private grow(): boolean {
    if (this.start === 0) return false;
    const length = Math.min(CHUNK, this.start);
    const chunk = Buffer.alloc(length);
    readSync(this.fd, chunk, 0, length, this.start - length);
    this.buffer = Buffer.concat([chunk, this.buffer]);
    this.start -= length;
    return true;
  }
}

export type TailRepair =
  | { readonly kind: 'torn-line'; readonly movedTo: string; readonly bytes: number }
  | { readonly kind: 'unreadable-entries'; readonly lines: number };

/**
 * Makes the journal end with a complete line. A cut-off last line is kept in
 * `<journal>.torn-<time>` and removed from the journal, unless it is in fact complete (only its
 * newline is missing), in which case the newline is added.
 */
export function repairTail(path: string): { tail: JournalTail; repairs: TailRepair[] } {
  const scan = scanTail(path);
  const repairs: TailRepair[] = [];
  let tail: JournalTail = { lastSeq: scan.lastSeq, lastHash: scan.lastHash, unreadable: scan.unreadable };
  if (scan.torn !== undefined) {
    const entry = parseEntry(scan.torn.bytes.toString('utf8'));
    if (entry !== undefined && entry.seq === scan.lastSeq + 1 && scan.unreadable === 0) {
      writeTextNoFollowSync(path, '\n', APPEND_FLAGS);
      tail = { ...last(entry), unreadable: 0 };
    } else {
      const movedTo = asideName(path, 'torn');
      writeTextNoFollowSync(movedTo, scan.torn.bytes, CREATE_NEW_FLAGS);
      truncateNoFollowSync(path, scan.torn.offset);
      repairs.push({ kind: 'torn-line', movedTo, bytes: scan.torn.bytes.length });
    }
  }
  if (tail.unreadable > 0) repairs.push({ kind: 'unreadable-entries', lines: tail.unreadable });
  return { tail, repairs };
}
