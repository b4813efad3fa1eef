/**
 * Checking a journal's receipt chain. Every receipt must hash to its own hash, link to the one
 * before it, and carry the next sequence number; the head file must agree with the end. The first
 * receipt that fails is named, with what is wrong in plain words.
 */
import type { ReceiptVerification } from '../core/types.js';
import { GENESIS_HASH, hmacSha256Hex, type JournalEntry, parseEntry, receiptHolds } from './entry.js';
import { headMacText, type JournalHead, journalHeadPath, readHead } from './head.js';
import { JOURNAL_KEY_VARIABLE, journalKeyPath, resolveJournalKey } from './key.js';
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
  /** The journal key keyed receipts are checked with; defaults to the user's key. `false`: none. */
  readonly key?: string | false;
}

const KEY_HINT = `set ${JOURNAL_KEY_VARIABLE} or put the key in ${journalKeyPath()}`;

interface Broken {
  readonly brokenAt: number;
  readonly problem: string;
}

export function verifyJournal(path: string, options: VerifyOptions = {}): JournalVerification {
  const headRead = readHead(options.headPath ?? journalHeadPath(path));
  const key = options.key === false ? undefined : (options.key ?? resolveJournalKey());
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

  const chain = new ChainCheck(headRead.state === 'ok' ? headRead.head.count : 0, key);
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
  if (entries === 0 && headRead.state === 'missing') {
    return {
      ok: false,
      count: 0,
      entries,
      problem:
        'the journal is empty and has no head file: narrowing never leaves a journal empty, so it was ' +
        'emptied and its head deleted',
    };
  }
  if (!chain.receipted && entries > 0) {
    return {
      ok: false,
      count: 0,
      entries,
      problem: 'no receipts: the journal was written with receipts off, so there is nothing to verify',
    };
  }
  return headAgrees(chain, headRead, entries, key);
}

function headAgrees(
  chain: ChainCheck,
  headRead: ReturnType<typeof readHead>,
  entries: number,
  key: string | undefined,
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
  if (chain.receipted && head.count > 0 && head.lastHash === undefined) {
    return {
      ok: false,
      count,
      entries,
      problem:
        'the head file does not record the hash of the last receipt, so it cannot tell a cut journal ' +
        'from a whole one: it was edited',
    };
  }
  if (key !== undefined && chain.keyed && head.mac !== hmacSha256Hex(key, headMacText(head))) {
    return {
      ok: false,
      count,
      entries,
      problem:
        head.mac === undefined
          ? 'the head file has no MAC though the journal is keyed: it was rewritten without the key'
          : 'the head file was not written with this journal key: it was rewritten, or the key changed',
    };
  }
  if (key !== undefined && !chain.keyed && chain.receipted) {
    return {
      ok: false,
      count,
      entries,
      problem:
        'a journal key is configured but no receipt is keyed: the journal was rewritten without the ' +
        'key, or written before the key existed (writing to it once continues it keyed)',
    };
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
  /** A receipt chained with the journal key was seen: every later one must be too. */
  keyed = false;
  private expectedPrev = GENESIS_HASH;
  /** The hash of the receipt the head file names, once seen. */
  headHash: string | undefined;

  constructor(
    private readonly headCount: number,
    private readonly key: string | undefined,
  ) {}

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
    if (entry.keyed === true && this.key === undefined) {
      return {
        brokenAt: expected,
        problem: `receipt ${expected} is keyed, and no journal key is at hand to check it: ${KEY_HINT}`,
      };
    }
    if (this.keyed && entry.keyed !== true) {
      return {
        brokenAt: expected,
        problem:
          `receipt ${expected} is not keyed though the receipts before it are: ` +
          'it was written without the journal key',
      };
    }
    if (!receiptHolds(line.text, entry, this.key)) {
      const claims = entry.seq === expected ? '' : ` (line ${line.number} claims to be receipt ${entry.seq})`;
      return {
        brokenAt: expected,
        problem:
          entry.keyed === true
            ? `receipt ${expected} does not match its HMAC${claims}: it was modified, or written with another key`
            : `receipt ${expected} was modified: its content does not match its hash${claims}`,
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
    if (entry.keyed === true) this.keyed = true;
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
