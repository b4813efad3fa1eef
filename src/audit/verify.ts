/**
 * Checking a journal's receipt chain. Every receipt must hash to its own hash, link to the one
 * before it, and carry the next sequence number; the head file must agree with the end. The first
 * receipt that fails is named, with what is wrong in plain words.
 */
import type { ReceiptVerification } from '../core/types.js';
import { GENESIS_HASH, type JournalEntry, parseEntry, receiptHolds } from './entry.js';
import { type JournalHead, journalHeadPath, readHead } from './head.js';
import { type JournalLine, readLinesSync } from './lines.js';

export interface JournalVerification extends ReceiptVerification {
  /** Lines in the journal, whether or not they verified. */
  readonly entries: number;
}

export interface VerifyOptions {
  /** Defaults to the head file next to the journal. */
  readonly headPath?: string;
  /** The journal is open for writing: its last line may still be on its way to disk. */
  readonly live?: boolean;
}

interface Broken {
  readonly brokenAt: number;
  readonly problem: string;
}

export function verifyJournal(path: string, options: VerifyOptions = {}): JournalVerification {
  const headRead = readHead(options.headPath ?? journalHeadPath(path));
  const lines = readLinesSync(path);
  let current: IteratorResult<JournalLine>;
  try {
    current = lines.next();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    if (headRead.state === 'ok' && headRead.head.count > 0) {
      const problem = `the journal ${path} is gone, but its head records ${receipts(headRead.head.count)}`;
      return broken(0, 0, { brokenAt: 1, problem });
    }
    return { ok: false, count: 0, entries: 0, problem: `there is no journal at ${path}` };
  }

  const chain = new ChainCheck(headRead.state === 'ok' ? headRead.head.count : 0);
  let entries = 0;
  let failure: Broken | undefined;
  while (!current.done) {
    const line = current.value;
    // One line of lookahead tells a swap from a removal.
    const following = lines.next();
    current = following;
    if (line.text.length === 0 && line.terminated) continue;
    entries += 1;
    if (failure !== undefined || (!line.terminated && options.live)) continue;
    failure = chain.check(line, () => (following.done ? undefined : parseEntry(following.value.text)));
  }
  if (failure !== undefined) return broken(chain.count, entries, failure);
  if (!chain.receipted && entries > 0) {
    return {
      ok: false,
      count: 0,
      entries,
      problem: 'no receipts: the journal was written with receipts off, so there is nothing to verify',
    };
  }
  return headAgrees(chain, headRead, entries);
}

function headAgrees(
  chain: ChainCheck,
  headRead: ReturnType<typeof readHead>,
  entries: number,
): JournalVerification {
  const count = chain.count;
  if (headRead.state === 'missing') {
    if (chain.lastSeq === 0) return { ok: true, count, entries };
    return {
      ok: false,
      count,
      entries,
      problem: 'the head file is missing, so receipts removed from the end of the journal would go unnoticed',
    };
  }
  if (headRead.state === 'unreadable') {
    return { ok: false, count, entries, problem: `the head file cannot be read: ${headRead.reason}` };
  }
  const head: JournalHead = headRead.head;
  if (head.count > chain.lastSeq) {
    const first = chain.lastSeq + 1;
    const missing = first === head.count ? `receipt ${first} is` : `receipts ${first}–${head.count} are`;
    return broken(count, entries, {
      brokenAt: first,
      problem:
        `the journal ends at receipt ${chain.lastSeq}, but its head records ${receipts(head.count)}: ` +
        `${missing} missing from the end`,
    });
  }
  if (head.lastHash !== undefined && head.count > 0 && chain.headHash !== head.lastHash) {
    return broken(count, entries, {
      brokenAt: head.count,
      problem:
        `receipt ${head.count} is not the one the head file recorded: ` +
        'the journal was rewritten up to it',
    });
  }
  return { ok: true, count, entries };
}

/** Walks the chain one line at a time, remembering only what the next line and the head need. */
class ChainCheck {
  count = 0;
  lastSeq = 0;
  receipted = false;
  private expectedPrev = GENESIS_HASH;
  /** The hash of the receipt the head file names, once seen. */
  headHash: string | undefined;

  constructor(private readonly headCount: number) {}

  check(line: JournalLine, peek: () => JournalEntry | undefined): Broken | undefined {
    const expected = this.lastSeq + 1;
    const entry = parseEntry(line.text);
    if (entry === undefined) {
      const what = line.terminated
        ? `line ${line.number} is not a journal entry`
        : `line ${line.number}, the last, is incomplete: the writer stopped mid-write ` +
          '(opening the journal for writing moves it aside)';
      return { brokenAt: expected, problem: what };
    }
    if (typeof entry.hash !== 'string') {
      if (this.receipted) {
        return {
          brokenAt: expected,
          problem: `receipt ${expected} has no hash, though the receipts before it do`,
        };
      }
      this.lastSeq = entry.seq;
      return undefined;
    }
    this.receipted = true;
    if (!receiptHolds(line.text, entry)) {
      const claims = entry.seq === expected ? '' : ` (line ${line.number} claims to be receipt ${entry.seq})`;
      return {
        brokenAt: expected,
        problem: `receipt ${expected} was modified: its content does not match its hash${claims}`,
      };
    }
    if (entry.seq !== expected || entry.prev !== this.expectedPrev)
      return this.linkProblem(entry, expected, peek);
    this.remember(entry);
    return undefined;
  }

  private linkProblem(entry: JournalEntry, expected: number, peek: () => JournalEntry | undefined): Broken {
    const before = expected === 1 ? 'the start of the journal' : `receipt ${expected - 1}`;
    if (entry.seq > expected) {
      if (peek()?.seq === expected) {
        return { brokenAt: expected, problem: `receipts ${expected} and ${entry.seq} are out of order` };
      }
      const missing =
        entry.seq === expected + 1 ? `receipt ${expected} is` : `receipts ${expected}–${entry.seq - 1} are`;
      return { brokenAt: expected, problem: `${missing} missing: receipt ${entry.seq} follows ${before}` };
    }
    if (entry.seq === expected - 1 && entry.hash !== this.expectedPrev) {
      // Two different receipts with one number: the chain cannot tell which is genuine.
      return {
        brokenAt: entry.seq,
        problem: `there are two different receipts ${entry.seq}: one was inserted`,
      };
    }
    if (entry.seq < expected) {
      return {
        brokenAt: expected,
        problem: `receipt ${entry.seq} appears again after receipt ${expected - 1}: an entry was copied`,
      };
    }
    return {
      brokenAt: expected,
      problem:
        `receipt ${expected} does not link to ${before}: ` +
        'an entry was inserted, removed or replaced there',
    };
  }

  private remember(entry: JournalEntry): void {
    this.count += 1;
    this.lastSeq = entry.seq;
    this.expectedPrev = entry.hash as string;
    if (entry.seq === this.headCount) this.headHash = entry.hash;
  }
}

function broken(count: number, entries: number, failure: Broken): JournalVerification {
  return { ok: false, count, entries, brokenAt: failure.brokenAt, problem: failure.problem };
}

function receipts(count: number): string {
  return count === 1 ? '1 receipt' : `${count} receipts`;
}
