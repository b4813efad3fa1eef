import { closeSync, lstatSync, mkdirSync, readdirSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { NarrowingError } from '../core/errors.js';
import { CREATE_NEW_FLAGS, openNoFollowSync, PRIVATE_DIR_MODE } from './safe-fs.js';

/** Where narrowing keeps its files in a project unless told otherwise. */
export const STATE_DIR_NAME = '.narrowing';
export const STATE_FILE = 'state.json';
export const JOURNAL_FILE = 'journal.jsonl';
export const JOURNAL_HEAD_FILE = 'journal.head.json';

/** How far up from a working directory the project root is looked for. */
const MAX_ROOT_DEPTH = 64;

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function hasEntry(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The project a working directory belongs to: the nearest folder above it (itself included) that
 * already holds a state directory, else the root of its git checkout (`.git` as a folder, or as the
 * file a worktree or submodule has), else the directory itself. A server started in `./src`, or a
 * hook run from a subfolder, then shares the project's state instead of starting its own.
 */
export function findProjectRoot(cwd: string): string {
  const start = resolve(cwd);
  let gitRoot: string | undefined;
  let dir = start;
  for (let depth = 0; depth < MAX_ROOT_DEPTH; depth += 1) {
    if (isDirectory(join(dir, STATE_DIR_NAME))) return dir;
    if (gitRoot === undefined && hasEntry(join(dir, '.git'))) gitRoot = dir;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return gitRoot ?? start;
}

/**
 * A state directory found in a project is a symbolic link. Only a directory given explicitly
 * (`--state-dir`, `stateDir`) may be one: a link that came with a cloned repository could point
 * anywhere the user can write.
 */
export class UnsafeStateDirError extends NarrowingError {
  override readonly name = 'UnsafeStateDirError';

  constructor(readonly path: string) {
    super(
      'UNSAFE_STATE_DIR',
      `${path} is a symbolic link, and narrowing does not follow a state directory it found by itself ` +
        '(one committed to a repository could point anywhere). Remove the link, or pass the directory ' +
        'explicitly with --state-dir if you made it and trust it.',
    );
  }
}

/**
 * The state directory of the project `cwd` belongs to (see `findProjectRoot`). Throws
 * `UnsafeStateDirError` when it is a symbolic link.
 */
export function defaultStateDir(cwd: string): string {
  const dir = join(findProjectRoot(cwd), STATE_DIR_NAME);
  let isLink = false;
  try {
    isLink = lstatSync(dir).isSymbolicLink();
  } catch {
    // Not there yet: it will be created as a plain directory.
  }
  if (isLink) throw new UnsafeStateDirError(dir);
  return dir;
}

/** Keeps a state directory out of version control: it holds what tools printed. */
const GITIGNORE = '# Created by narrowing: learned state and journals stay on this machine.\n*\n';
const prepared = new Set<string>();

/**
 * Creates a state directory (private to the user) if needed. A directory narrowing creates, or any
 * named `.narrowing`, gets a `.gitignore` that ignores everything in it; one already there is never
 * replaced (nor written through, if it is a link). Cheap after the first call for a directory.
 */
export function prepareStateDir(dir: string): void {
  const key = resolve(dir);
  const created = mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE }) !== undefined;
  if (prepared.has(key) && !created) return;
  if (created || basename(key) === STATE_DIR_NAME) {
    try {
      const fd = openNoFollowSync(join(dir, '.gitignore'), CREATE_NEW_FLAGS, 0o644);
      try {
        writeSync(fd, GITIGNORE);
      } finally {
        closeSync(fd);
      }
    } catch {
      // There is one already (kept as it is), or the directory is read-only: nothing to add.
    }
  }
  prepared.add(key);
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
