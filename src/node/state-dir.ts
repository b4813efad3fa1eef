import { closeSync, lstatSync, mkdirSync, readdirSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { NarrowingError } from '../core/errors.js';
import { CREATE_NEW_FLAGS, openNoFollowSync, PRIVATE_DIR_MODE } from './safe-fs.js';
import { homeDir } from './user-dirs.js';

/** Where narrowing keeps its files in a project unless told otherwise. */
export const STATE_DIR_NAME = '.narrowing';
export const STATE_FILE = 'state.json';
export const JOURNAL_FILE = 'journal.jsonl';
export const JOURNAL_HEAD_FILE = 'journal.head.json';

/** How far up from a working directory the project root is looked for. */
const MAX_ROOT_DEPTH = 64;

export interface ProjectRootOptions {
  /**
   * The project's folder when the host names it (`CLAUDE_PROJECT_DIR`, `GEMINI_PROJECT_DIR`): the
   * search never goes above it, and it is the project when the working directory is not inside it
   * (a payload whose `cwd` is `/` or relative).
   */
  readonly projectDir?: string;
}

/** The project folder an agent host gives its hooks, if any (see `ProjectRootOptions.projectDir`). */
export function hostProjectDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const name of ['CLAUDE_PROJECT_DIR', 'GEMINI_PROJECT_DIR', 'CURSOR_PROJECT_DIR']) {
    const value = env[name];
    if (value !== undefined && isAbsolute(value) && usableRoot(resolve(value))) return resolve(value);
  }
  return undefined;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false;
  }
}

/** The current user's id, or undefined where the platform has none (Windows). */
function currentUid(): number | undefined {
  return typeof process.getuid === 'function' ? process.getuid() : undefined;
}

/**
 * A `.git` that counts as a project's root: present and, as git itself requires, owned by the
 * current user (a `.git` another user planted in a shared parent folder makes no project).
 */
function isOwnGitRoot(dir: string): boolean {
  try {
    // Looked for in every folder up to the project's root on every hook event: its absence makes no error.
    const stats = lstatSync(join(dir, '.git'), { throwIfNoEntry: false });
    if (stats === undefined) return false;
    const uid = currentUid();
    return uid === undefined || stats.uid === uid;
  } catch {
    return false;
  }
}

function homeDirs(): Set<string> {
  const homes = new Set<string>();
  try {
    homes.add(resolve(homeDir()));
  } catch {
    // No home directory known.
  }
  if (process.env.HOME) homes.add(resolve(process.env.HOME));
  return homes;
}

/**
 * A folder that can hold a project's state: not the file system's root and not a home directory's
 * root, where every project on the machine (or of the user) without a state of its own would share one.
 */
function usableRoot(dir: string): boolean {
  return dirname(dir) !== dir && !homeDirs().has(dir);
}

function isInside(dir: string, parent: string): boolean {
  const rel = relative(parent, dir);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * The project a working directory belongs to. The search goes up from the directory to the
 * project's boundary (the root of its git checkout, `.git` as a folder or as the file a worktree or
 * submodule has, or the host's project folder, whichever comes first) and takes the nearest folder
 * on the way that already holds a state directory, else the boundary itself. It never looks above
 * the boundary, so a `.narrowing` in a shared parent folder (`/tmp`, a home directory) never
 * captures a project. Outside any project, it is the directory itself. A server started in `./src`,
 * or a hook run from a subfolder, then shares the project's state instead of starting its own.
 */
export function findProjectRoot(cwd: string, options: ProjectRootOptions = {}): string {
  const projectDir = options.projectDir === undefined ? undefined : resolve(options.projectDir);
  let start = resolve(cwd);
  if (projectDir !== undefined && !isInside(start, projectDir)) start = projectDir;
  const path: string[] = [];
  let boundary: string | undefined;
  let dir = start;
  for (let depth = 0; depth < MAX_ROOT_DEPTH; depth += 1) {
    if (!usableRoot(dir)) break;
    path.push(dir);
    if (dir === projectDir || isOwnGitRoot(dir)) {
      boundary = dir;
      break;
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  if (boundary === undefined) return start;
  return path.find((folder) => isDirectory(join(folder, STATE_DIR_NAME))) ?? boundary;
}

/**
 * A state directory found in a project is a symbolic link, or is not private to the user (another
 * user owns it, or others may write in it). Only a directory given explicitly (`--state-dir`,
 * `stateDir`) may be one: a link that came with a cloned repository could point anywhere the user
 * can write, and a folder others can write lets them read what the agent's tools do and answer for
 * the guard.
 */
export class UnsafeStateDirError extends NarrowingError {
  override readonly name = 'UnsafeStateDirError';

  constructor(
    readonly path: string,
    readonly found: 'a symbolic link' | 'owned by another user' | 'writable by others' = 'a symbolic link',
  ) {
    super(
      'UNSAFE_STATE_DIR',
      found === 'a symbolic link'
        ? `${path} is a symbolic link, and narrowing does not follow a state directory it found by itself ` +
            '(one committed to a repository could point anywhere). Remove the link, or pass the directory ' +
            'explicitly with --state-dir if you made it and trust it.'
        : `${path} is ${found}, so narrowing refuses to keep this project's state in it: whoever can ` +
            "write there could read what the agent does and answer in the guard's place. " +
            (found === 'owned by another user'
              ? 'Remove it (or ask its owner to), or pass a state directory of your own with --state-dir.'
              : `Make it private (chmod 700 ${path}), or pass another one with --state-dir.`),
    );
  }
}

/**
 * The working directory is the file system's root or a home directory's root, with no project
 * around it: a state directory there would be shared by every project without one of its own.
 */
export class NoProjectRootError extends NarrowingError {
  override readonly name = 'NoProjectRootError';

  constructor(readonly path: string) {
    super(
      'NO_PROJECT_ROOT',
      `${path} is not inside a project (it is the file system's root or a home directory), and narrowing ` +
        'does not keep state there, where every project would share it. Run from the project folder, ' +
        'or pass a state directory with --state-dir.',
    );
  }
}

/** Throws `UnsafeStateDirError` when a found state directory is a link or not private to the user. */
export function refuseUnsafeStateDir(dir: string): void {
  let stats: ReturnType<typeof lstatSync>;
  try {
    stats = lstatSync(dir);
  } catch {
    return; // Not there yet: it will be created as a plain, private directory.
  }
  if (stats.isSymbolicLink()) throw new UnsafeStateDirError(dir);
  const uid = currentUid();
  if (uid === undefined) return;
  if (stats.uid !== uid) throw new UnsafeStateDirError(dir, 'owned by another user');
  if ((stats.mode & 0o022) !== 0) throw new UnsafeStateDirError(dir, 'writable by others');
}

/**
 * The state directory of the project `cwd` belongs to (see `findProjectRoot`). Throws
 * `UnsafeStateDirError` when it is a symbolic link or not private to the user, and
 * `NoProjectRootError` when the project would be the file system's root or a home directory.
 */
export function defaultStateDir(cwd: string, options: ProjectRootOptions = {}): string {
  const root = findProjectRoot(cwd, options);
  if (!usableRoot(root)) throw new NoProjectRootError(root);
  const dir = join(root, STATE_DIR_NAME);
  refuseUnsafeStateDir(dir);
  return dir;
}

/**
 * The folder a `.narrowing` state folder belongs to is gone: removed after this process used the
 * state folder, while a store or journal of it was still open. A write that comes late (at a
 * process's exit, say) must not bring back a folder someone removed.
 */
export class ProjectFolderGoneError extends NarrowingError {
  override readonly name = 'ProjectFolderGoneError';

  constructor(readonly path: string) {
    super(
      'PROJECT_FOLDER_GONE',
      `${path} was removed while narrowing kept state in it, so narrowing wrote nothing there and did ` +
        'not make the folder again. Make the folder again to keep the state there, or pass another ' +
        'state directory with --state-dir.',
    );
  }
}

/** Keeps a state directory out of version control: it holds what tools printed. */
const GITIGNORE = '# Created by narrowing: learned state and journals stay on this machine.\n*\n';
const prepared = new Set<string>();

/**
 * Creates a state directory (private to the user) if needed. A directory narrowing creates, or any
 * named `.narrowing`, gets a `.gitignore` that ignores everything in it; one already there is never
 * replaced (nor written through, if it is a link). Cheap after the first call for a directory.
 * A `.narrowing` this process used before is not made again once the folder around it is gone
 * (`ProjectFolderGoneError`): a late write must not bring back a project someone removed.
 */
export function prepareStateDir(dir: string): void {
  const key = resolve(dir);
  const isProjectState = basename(key) === STATE_DIR_NAME;
  if (prepared.has(key)) {
    // One look, as the `mkdir` below would take: the folder is there, as on almost every write.
    if (isDirectory(key)) return;
    if (isProjectState && !isDirectory(dirname(key))) throw new ProjectFolderGoneError(dirname(key));
  }
  const created = mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE }) !== undefined;
  if (prepared.has(key) && !created) return;
  if (created || isProjectState) {
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

/** Makes the folder that will hold the file at `path`: see `prepareFolder`. */
export function prepareFolderFor(path: string): void {
  prepareFolder(dirname(resolve(path)));
}

/**
 * Makes `folder` and those above it. Inside a `.narrowing`, that folder is made first and the one
 * way every writer makes it (private, with its `.gitignore`: see `prepareStateDir`), and the folders
 * below it private too; elsewhere, as `mkdir -p` would.
 */
export function prepareFolder(folder: string): void {
  const target = resolve(folder);
  const stateDir = stateDirAbove(target);
  if (stateDir === undefined) {
    mkdirSync(target, { recursive: true });
    return;
  }
  prepareStateDir(stateDir);
  if (target !== stateDir) mkdirSync(target, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/** The nearest folder named `.narrowing` among `folder` and those above it. */
function stateDirAbove(folder: string): string | undefined {
  for (let dir = folder; ; dir = dirname(dir)) {
    if (basename(dir) === STATE_DIR_NAME) return dir;
    if (dirname(dir) === dir) return undefined;
  }
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
