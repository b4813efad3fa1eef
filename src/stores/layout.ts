import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Where narrowing keeps its files in a project unless told otherwise. */
export const STATE_DIR_NAME = '.narrowing';
export const STATE_FILE = 'state.json';
export const JOURNAL_FILE = 'journal.jsonl';
export const JOURNAL_HEAD_FILE = 'journal.head.json';

export function defaultStateDir(cwd: string): string {
  return join(cwd, STATE_DIR_NAME);
}

export interface StateLayout {
  readonly dir: string;
  readonly state: string;
  readonly journal: string;
  readonly journalHead: string;
}

export function stateLayout(dir: string): StateLayout {
  return {
    dir,
    state: join(dir, STATE_FILE),
    journal: join(dir, JOURNAL_FILE),
    journalHead: join(dir, JOURNAL_HEAD_FILE),
  };
}

/**
 * The journal of the `slot`-th process writing to one state directory: each proxy needs a journal of
 * its own, so the second gets `journal.2.jsonl`, the third `journal.3.jsonl`, and so on.
 */
export function journalSlotPath(journal: string, slot: number): string {
  return slot === 1 ? journal : journal.replace(/\.jsonl$/, `.${slot}.jsonl`);
}

/** The journals of other processes beside `journal` (`journal.2.jsonl`…), in slot order. */
export function otherJournalSlots(journal: string): string[] {
  const stem = basename(journal).replace(/\.jsonl$/, '');
  let names: string[];
  try {
    names = readdirSync(dirname(journal));
  } catch {
    return [];
  }
  const slots: number[] = [];
  for (const name of names) {
    if (!name.startsWith(`${stem}.`) || !name.endsWith('.jsonl')) continue;
    const slot = name.slice(stem.length + 1, -'.jsonl'.length);
    if (/^[1-9][0-9]*$/.test(slot) && Number(slot) >= 2) slots.push(Number(slot));
  }
  return slots.sort((a, b) => a - b).map((slot) => journalSlotPath(journal, slot));
}
