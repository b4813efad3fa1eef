/**
 * A journal takes one writer (see `writer.ts`), and several processes share a state folder (a proxy
 * per MCP server, one process per hook event): each takes the first free slot (`journal.jsonl`,
 * `journal.2.jsonl`…). A burst larger than the usual slots waits briefly for one to free, then
 * takes an overflow slot, so that a process never loses its outcomes for want of a journal.
 */
import { NarrowingError } from '../core/errors.js';
import { journalSlotPath } from '../node/state-dir.js';
import { createJournal, type Journal, type JournalOptions } from './journal.js';
import { JournalInUseError } from './writer.js';

export interface JournalSlotOptions extends JournalOptions {
  /** Slots tried first, and waited for. Default 16. */
  readonly slots?: number;
  /** How long to wait for one of `slots` to free before taking an overflow slot. Default 500 ms. */
  readonly waitMs?: number;
  /** Slots in all, overflow included. Default 64. */
  readonly maxSlots?: number;
  /** Told which slot was taken when it is not the first. */
  readonly onSlot?: (path: string, slot: number) => void;
}

export const JOURNAL_SLOTS = 16;
const MAX_JOURNAL_SLOTS = 64;
const SLOT_WAIT_MS = 500;

/**
 * Opens the journal at `options.path` or the first free slot beside it. Throws `JOURNAL_IN_USE`
 * only when every slot, overflow included, is held by a live process.
 */
export function openJournalSlot(options: JournalSlotOptions): Journal {
  const {
    slots = JOURNAL_SLOTS,
    waitMs = SLOT_WAIT_MS,
    maxSlots = MAX_JOURNAL_SLOTS,
    onSlot,
    ...rest
  } = options;
  const deadline = Date.now() + waitMs;
  for (let pause = 5; ; pause = Math.min(pause * 2, 50)) {
    const journal = firstFree(rest, 1, slots, onSlot);
    if (journal !== undefined) return journal;
    if (Date.now() >= deadline) break;
    sleepSync(Math.min(pause, Math.max(1, deadline - Date.now())));
  }
  const overflow = firstFree(rest, slots + 1, maxSlots, onSlot);
  if (overflow !== undefined) return overflow;
  throw new NarrowingError(
    'JOURNAL_IN_USE',
    `every journal slot beside ${options.path} is in use (${maxSlots} processes): ` +
      'stop some of them, or give this one its own state directory',
  );
}

function firstFree(
  options: JournalOptions,
  from: number,
  to: number,
  onSlot: ((path: string, slot: number) => void) | undefined,
): Journal | undefined {
  for (let slot = from; slot <= to; slot += 1) {
    const path = journalSlotPath(options.path, slot);
    try {
      const journal = createJournal({ ...options, path });
      if (slot > 1) onSlot?.(path, slot);
      return journal;
    } catch (error) {
      if (!(error instanceof JournalInUseError)) throw error;
    }
  }
  return undefined;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}
