/**
 * The head file records how many receipts the journal had after the last write, and the hash of
 * the last one. Without it, cutting receipts off the end of the journal would leave a valid chain.
 */

import { basename, dirname, join } from 'node:path';
import { readTextNoFollowSync } from '../node/safe-fs.js';

export interface JournalHead {
  readonly count: number;
  readonly lastHash?: string;
  /** With a journal key: HMAC of the count and last hash, so the head cannot be rewritten without it. */
  readonly mac?: string;
}

/** The text a keyed head's `mac` is computed over. */
export function headMacText(head: Pick<JournalHead, 'count' | 'lastHash'>): string {
  return `narrowing-journal-head:${head.count}:${head.lastHash ?? ''}`;
}

/** `journal.jsonl` → `journal.head.json`, next to it. */
export function journalHeadPath(journalPath: string): string {
  const name = basename(journalPath);
  const stem = name.endsWith('.jsonl') ? name.slice(0, -'.jsonl'.length) : name;
  return join(dirname(journalPath), `${stem}.head.json`);
}

export type HeadRead =
  | { readonly state: 'missing' }
  | { readonly state: 'ok'; readonly head: JournalHead }
  | { readonly state: 'unreadable'; readonly reason: string };

export function readHead(path: string): HeadRead {
  let text: string;
  try {
    text = readTextNoFollowSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'missing' };
    return { state: 'unreadable', reason: (error as Error).message };
  }
  try {
    const value = JSON.parse(text) as { count?: unknown; lastHash?: unknown; mac?: unknown };
    const { count, lastHash, mac } = value;
    if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0) {
      return { state: 'unreadable', reason: 'it has no valid count' };
    }
    if (lastHash !== undefined && typeof lastHash !== 'string') {
      return { state: 'unreadable', reason: 'its lastHash is not a string' };
    }
    if (mac !== undefined && typeof mac !== 'string') {
      return { state: 'unreadable', reason: 'its mac is not a string' };
    }
    return {
      state: 'ok',
      head: { count, ...(lastHash !== undefined && { lastHash }), ...(mac !== undefined && { mac }) },
    };
  } catch (error) {
    return { state: 'unreadable', reason: `it is not valid JSON (${(error as Error).message})` };
  }
}

export function headText(head: JournalHead): string {
  return `${JSON.stringify(head)}\n`;
}
