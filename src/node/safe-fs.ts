/**
 * Opening files inside a state directory without following links. A `.narrowing/` directory can
 * come with a cloned repository; a `journal.jsonl` in it that is a symbolic link to `~/.bashrc`
 * must not make narrowing append to, truncate or overwrite that file. Every open here refuses a
 * link as the last path component (`O_NOFOLLOW`), and files are created exclusively where they
 * must be new.
 */
import {
  closeSync,
  constants,
  fstatSync,
  ftruncateSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { NarrowingError } from '../core/errors.js';

/** Files narrowing creates are for this user only: they may hold what tools printed. */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/** Zero where the platform has no such flag (Windows), where links need privileges to create. */
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

export const READ_FLAGS = constants.O_RDONLY | NOFOLLOW;
export const APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | NOFOLLOW;
export const REPLACE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | NOFOLLOW;
export const CREATE_NEW_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW;

/**
 * A file narrowing keeps its state in is a symbolic link (or not a regular file). Nothing was
 * written through it.
 */
export class UnsafeStateFileError extends NarrowingError {
  override readonly name = 'UnsafeStateFileError';

  constructor(
    readonly path: string,
    readonly found: string,
  ) {
    super(
      'UNSAFE_STATE_FILE',
      `${path} is ${found}, so narrowing refuses to use it: writing through it could overwrite a file ` +
        'outside the state directory (a state directory committed to a repository can carry such links). ' +
        'Delete it (or the whole state directory, if you did not create it) and run again.',
    );
  }
}

function describeKind(path: string): string | undefined {
  let stats: ReturnType<typeof lstatSync>;
  try {
    stats = lstatSync(path);
  } catch {
    return undefined;
  }
  if (stats.isSymbolicLink()) return 'a symbolic link';
  if (stats.isFile()) return undefined;
  return stats.isDirectory() ? 'a directory' : 'not a regular file';
}

/** Throws `UnsafeStateFileError` when `path` exists and is not a plain file. */
export function refuseLink(path: string): void {
  const found = describeKind(path);
  if (found !== undefined) throw new UnsafeStateFileError(path, found);
}

/** Turns the errors a refused link gives into `UnsafeStateFileError`. */
function unsafe(path: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ELOOP' || code === 'EMLINK') return new UnsafeStateFileError(path, 'a symbolic link');
  return error;
}

export function openNoFollowSync(path: string, flags: number, mode = PRIVATE_FILE_MODE): number {
  let fd: number;
  try {
    fd = openSync(path, flags, mode);
  } catch (error) {
    throw unsafe(path, error);
  }
  // A FIFO or a device in the file's place would block or misbehave: regular files only.
  if (!fstatSync(fd).isFile()) {
    closeSync(fd);
    throw new UnsafeStateFileError(path, 'not a regular file');
  }
  return fd;
}

export async function openNoFollow(
  path: string,
  flags: number,
  mode = PRIVATE_FILE_MODE,
): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(path, flags, mode);
  } catch (error) {
    throw unsafe(path, error);
  }
  if (!(await handle.stat()).isFile()) {
    await handle.close();
    throw new UnsafeStateFileError(path, 'not a regular file');
  }
  return handle;
}

/** `readFileSync(path, 'utf8')` that refuses a link. Throws ENOENT as it does. */
export function readTextNoFollowSync(path: string): string {
  const fd = openNoFollowSync(path, READ_FLAGS);
  try {
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

export async function readTextNoFollow(path: string): Promise<string> {
  const handle = await openNoFollow(path, READ_FLAGS);
  try {
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/** Writes a whole file, replacing what is there, without following a link. */
export function writeTextNoFollowSync(path: string, text: string | Uint8Array, flags = REPLACE_FLAGS): void {
  const fd = openNoFollowSync(path, flags);
  try {
    writeFileSync(fd, text);
  } finally {
    closeSync(fd);
  }
}

/** Writes all of `bytes` to an open file, from this thread (a file opened to append: at its end). */
export function writeAllSync(fd: number, bytes: Uint8Array): void {
  for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written);
}

/** Cuts a file to `length` bytes without following a link. */
export function truncateNoFollowSync(path: string, length: number): void {
  const fd = openNoFollowSync(path, constants.O_WRONLY | NOFOLLOW);
  try {
    ftruncateSync(fd, length);
  } finally {
    closeSync(fd);
  }
}

/** Creates `path` empty (mode 0600) unless it is there; refuses a link in its place or as its folder. */
export function ensurePrivateFile(path: string): void {
  const folder = dirname(path);
  mkdirSync(folder, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (lstatSync(folder).isSymbolicLink()) throw new UnsafeStateFileError(folder, 'a symbolic link');
  try {
    closeSync(openNoFollowSync(path, CREATE_NEW_FLAGS));
  } catch (error) {
    // There already, perhaps made by another process in the meantime: fine if it is a plain file.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    refuseLink(path);
  }
}
