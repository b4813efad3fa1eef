/** Which files a report reads: a state directory's, or a journal named on its own. */
import { isAbsolute, relative, resolve } from 'node:path';
import { journalHeadPath } from '../audit/index.js';
import { defaultStateDir, otherJournalSlots, stateLayout } from '../node/index.js';

export interface JournalLocation {
  readonly journal: string;
  readonly head: string;
}

export interface LocationOptions {
  readonly stateDir?: string;
  readonly journal?: string;
}

/** Throws when both a state directory and a journal are given: they would disagree. */
export function locateJournal(options: LocationOptions, cwd: string): JournalLocation {
  if (options.stateDir !== undefined && options.journal !== undefined) {
    throw new Error('give either --state-dir or --journal, not both');
  }
  if (options.journal !== undefined) {
    const journal = resolve(cwd, options.journal);
    return { journal, head: journalHeadPath(journal) };
  }
  const layout = stateLayout(resolveStateDir(options.stateDir, cwd));
  return { journal: layout.journal, head: layout.journalHead };
}

export function resolveStateDir(stateDir: string | undefined, cwd: string): string {
  return stateDir === undefined ? defaultStateDir(cwd) : resolve(cwd, stateDir);
}

/** A path as the user would type it from `cwd`: relative inside it, absolute outside. */
export function displayPath(path: string, cwd: string): string {
  const inside = relative(cwd, path);
  return inside.length > 0 && !inside.startsWith('..') && !isAbsolute(inside) ? inside : path;
}

/**
 * A line saying which other journals sit beside one read from a state directory: proxies sharing
 * the directory each journal to a slot of their own, which a report of the first does not include.
 */
export function otherJournalsNote(journal: string, cwd: string): string | undefined {
  const others = otherJournalSlots(journal).map((path) => displayPath(path, cwd));
  if (others.length === 0) return undefined;
  const listed =
    others.length <= 3 ? others.join(', ') : `${others.slice(0, 3).join(', ')} and ${others.length - 3} more`;
  return (
    `Other proxies sharing this state directory wrote ${others.length === 1 ? 'a journal' : 'journals'} of their own: ` +
    `${listed}. Read one with --journal ${others[0]}.\n`
  );
}
