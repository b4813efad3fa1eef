import {
  closeSync,
  fchmodSync,
  fstatSync,
  lstatSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { CREATE_NEW_FLAGS, openNoFollowSync, READ_FLAGS, UnsafeStateFileError } from '../node/safe-fs.js';
import { ConfigFileError } from './errors.js';

/** Larger than any MCP config a person or a client writes; a bigger file is not read at all. */
export const MAX_CONFIG_BYTES = 64 * 1024 * 1024;

export interface ReplaceOptions {
  /**
   * What the file must still hold: when someone else wrote it since it was read, nothing is
   * written and `ConfigFileError` says so.
   */
  readonly expected?: string;
  /**
   * Follow a symbolic link to the file it points to (a project's config kept elsewhere). When
   * false, a link is refused: narrowing did not create it.
   */
  readonly followLink?: boolean;
}

/**
 * Replaces a file's contents in one step (write aside, then rename), keeping its permissions and,
 * when links are followed and the path is one, replacing the file it points to rather than the link.
 */
export function replaceFileContents(path: string, text: string, options: ReplaceOptions = {}): void {
  const followLink = options.followLink ?? true;
  const target = followLink ? realpathSync(path) : path;
  const stats = lstatSync(target);
  if (!stats.isFile()) {
    throw new ConfigFileError(
      `${path} is ${stats.isSymbolicLink() ? 'a symbolic link' : 'not a regular file'}; narrowing only ` +
        'edits a regular file in place. Nothing was written.',
    );
  }
  if (options.expected !== undefined && readConfigText(target, true) !== options.expected) {
    throw new ConfigFileError(
      `${path} was changed by another program while narrowing was editing it, so nothing was written ` +
        'to it. Run the command again.',
    );
  }
  const mode = stats.mode & 0o7777;
  const temporary = `${target}.narrowing-${process.pid}.tmp`;
  try {
    const fd = openNoFollowSync(temporary, CREATE_NEW_FLAGS, mode);
    try {
      writeFileSync(fd, text);
      fchmodSync(fd, mode);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** A config file's text (see `readConfigBytes`). */
export function readConfigText(path: string, followLink = false): string {
  return readConfigBytes(path, followLink).toString('utf8');
}

/**
 * A config file's bytes, refused (`ConfigFileError`) beyond `MAX_CONFIG_BYTES` before anything is
 * read, and, unless `followLink`, when its name is a symbolic link or not a regular file.
 */
export function readConfigBytes(path: string, followLink = false): Buffer {
  let fd: number;
  try {
    fd = followLink ? openSync(path, 'r') : openNoFollowSync(path, READ_FLAGS);
  } catch (error) {
    if (error instanceof UnsafeStateFileError) {
      throw new ConfigFileError(
        `${path} is ${error.found}; narrowing does not edit a config through a link it did not create. ` +
          'Nothing was changed.',
      );
    }
    throw error;
  }
  try {
    const size = fstatSync(fd).size;
    if (size > MAX_CONFIG_BYTES) {
      throw new ConfigFileError(
        `${path} is ${size} bytes, more than an MCP config can be (${MAX_CONFIG_BYTES}); nothing was changed.`,
      );
    }
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}
