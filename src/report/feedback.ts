/**
 * "This block was wrong": finding the verdict a person disputes in the journals of a state
 * directory, by its journal entry number, by its call key, or as the last one.
 */
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { type JournalEntry, readJournal } from '../audit/index.js';
import { otherJournalSlots } from '../node/index.js';

/** A disputed verdict as the journal recorded it. */
export type DisputedEntry = Extract<JournalEntry, { type: 'proposal' }> & {
  /** The journal file it is in. */
  readonly journalPath: string;
};

/** Longest reason kept with a dispute; the journal cuts longer strings anyway. */
export const MAX_DISPUTE_REASON = 2_000;

/**
 * What a selector names: `last` (the newest refused call), an entry number (`42`, or `journal.2.jsonl:42`
 * for another process's journal), or a call key (its first 8+ hexadecimal characters, as the journal
 * shows it): the newest refused call with that key.
 */
export type DisputeSelector =
  | { readonly kind: 'last' }
  | { readonly kind: 'entry'; readonly seq: number; readonly journal?: string }
  | { readonly kind: 'call'; readonly callKey: string };

export function parseDisputeSelector(text: string): DisputeSelector | undefined {
  const trimmed = text.trim();
  if (trimmed === 'last') return { kind: 'last' };
  const entry = /^(?:(journal(?:\.\d{1,2})?\.jsonl):)?#?(\d{1,15})$/.exec(trimmed);
  if (entry) {
    const seq = Number(entry[2]);
    if (!Number.isSafeInteger(seq) || seq < 1) return undefined;
    return { kind: 'entry', seq, ...(entry[1] !== undefined && { journal: entry[1] }) };
  }
  if (/^[0-9a-f]{8,128}$/i.test(trimmed)) return { kind: 'call', callKey: trimmed.toLowerCase() };
  return undefined;
}

/** The journals of a state directory: its own, then other processes' (`journal.2.jsonl`…). */
export function journalsOf(journal: string): string[] {
  return [...(existsSync(journal) ? [journal] : []), ...otherJournalSlots(journal)];
}

/**
 * The proposal entry `selector` names among `journals`, or undefined. For `last` and call keys, the
 * newest refused or warned call (by time) across all journals.
 */
export async function findDisputed(
  journals: readonly string[],
  selector: DisputeSelector,
): Promise<DisputedEntry | undefined> {
  let found: DisputedEntry | undefined;
  for (const path of journals) {
    if (selector.kind === 'entry' && basename(path) !== (selector.journal ?? basename(journals[0] ?? '')))
      continue;
    for await (const entry of readJournal(path, { onBadLine: () => undefined })) {
      if (entry.type !== 'proposal') continue;
      if (selector.kind === 'entry') {
        if (entry.seq === selector.seq) return { ...entry, journalPath: path };
        continue;
      }
      if (entry.verdict === 'allow') continue;
      if (selector.kind === 'call' && !entry.callKey.startsWith(selector.callKey)) continue;
      if (found === undefined || entry.at >= found.at) found = { ...entry, journalPath: path };
    }
  }
  return found;
}
