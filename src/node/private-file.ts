/**
 * A file only its owner may read, created where a symlink cannot redirect it: the state directory
 * and the file are checked with `lstat`, and the file is created with `O_NOFOLLOW | O_EXCL`.
 */
import { closeSync, constants, lstatSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { NarrowingError } from '../core/errors.js';

/** Creates `path` (mode 0600) unless it exists; refuses a symlink in its place or as its folder. */
export function ensurePrivateFile(path: string): void {
  const folder = dirname(path);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  refuseSymlink(folder);
  if (refuseSymlink(path)) return;
  try {
    const flags = constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW;
    closeSync(openSync(path, flags, 0o600));
  } catch (error) {
    // Created by another process in the meantime: theirs is as good as ours.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    refuseSymlink(path);
  }
}

/** True when `path` exists (and is not a symlink). */
function refuseSymlink(path: string): boolean {
  try {
    if (lstatSync(path).isSymbolicLink()) {
      throw new NarrowingError(
        'UNSAFE_STATE_FILE',
        `${path} is a symbolic link; narrowing does not follow links in its state directory. ` +
          'Replace it with a real folder or file.',
      );
    }
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}
