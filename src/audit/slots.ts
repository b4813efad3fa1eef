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
  /**
   * Told which slot was taken when it is not the first, and which process holds the first (this
   * one's pid when another journal of this process has it).
   */
  readonly onSlot?: (path: string, slot: number, firstHeldBy: number) => void;
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
  let holders: readonly number[] = [];
  for (let pause = 5; ; pause = Math.min(pause * 2, 50)) {
    const found = firstFree(rest, 1, slots, onSlot, holders);
    if (!Array.isArray(found)) return found as Journal;
    holders = found;
    // Slots this process holds free only when it closes them: waiting here would only block it.
    if (holders.every((pid) => pid === process.pid)) break;
    if (Date.now() >= deadline) break;
    sleepSync(Math.min(pause, Math.max(1, deadline - Date.now())));
  }
  const overflow = firstFree(rest, slots + 1, maxSlots, onSlot, holders);
  if (!Array.isArray(overflow)) return overflow as Journal;
  throw new NarrowingError(
    'JOURNAL_IN_USE',
    `every journal slot beside ${options.path} is in use (${describeHolders([...holders, ...overflow])}): ` +
      'guards of one process can share one journal (pass the same open journal as `journal`) or keep ' +
      'none (`journal: false`); otherwise close some, or give this one its own state directory',
  );
}

/** Who holds the slots: guards of this process, other processes, or both. */
function describeHolders(holders: readonly number[]): string {
  const own = holders.filter((pid) => pid === process.pid).length;
  const others = new Set(holders.filter((pid) => pid !== process.pid)).size;
  const parts = [
    ...(own > 0 ? [`${own} by other journals of this process`] : []),
    ...(others > 0 ? [`the rest by ${others} other ${others === 1 ? 'process' : 'processes'}`] : []),
  ];
  return `${holders.length} slots: ${parts.join(', ')}`;
}

/** The first free slot from `from` to `to`, opened; or the pids holding each of them. */
function firstFree(
  options: JournalOptions,
  from: number,
  to: number,
  onSlot: JournalSlotOptions['onSlot'],
  earlier: readonly number[],
): Journal | number[] {
  const holders: number[] = [];
  for (let slot = from; slot <= to; slot += 1) {
    const path = journalSlotPath(options.path, slot);
    try {
      const journal = createJournal({ ...options, path });
      if (slot > 1) onSlot?.(path, slot, holders[0] ?? earlier[0] ?? process.pid);
      return journal;
    } catch (error) {
      if (!(error instanceof JournalInUseError)) throw error;
      holders.push(error.ownerPid);
    }
  }
  return holders;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}
