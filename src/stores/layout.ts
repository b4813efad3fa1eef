import { join } from 'node:path';

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
