/**
 * Whole-file writes that leave either the old file or the new one, never a mix: the data goes to
 * a temporary file in the same directory, reaches the disk, and replaces the target by rename.
 * The temporary file is created exclusively and never through a link, and the result is private
 * to the user (0600); a target that is a link is refused (`UnsafeStateFileError`).
 */
import {
  closeSync,
  fsyncSync,
  lstatSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { CREATE_NEW_FLAGS, openNoFollow, openNoFollowSync, refuseLink } from './safe-fs.js';
import { prepareFolderFor } from './state-dir.js';

let temporaries = 0;

function temporaryPath(path: string): string {
  temporaries += 1;
  return `${path}.${process.pid}.${temporaries}.tmp`;
}

/** A writer killed between creating its temporary file and the rename has surely stopped by then. */
const ABANDONED_AFTER_MS = 60_000;
const TEMPORARY_SUFFIX = /^\.[0-9]+\.[0-9]+\.tmp$/;

/**
 * Removes the temporary files of writers of `path` that were killed mid-write: those older than a
 * minute, and any that is a link (never one of ours). Returns how many were removed.
 */
export function removeAbandonedTemporaries(path: string, now: number = Date.now()): number {
  const dir = dirname(path);
  const stem = basename(path);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!name.startsWith(stem) || !TEMPORARY_SUFFIX.test(name.slice(stem.length))) continue;
    const candidate = join(dir, name);
    try {
      const stats = lstatSync(candidate);
      const age = now - stats.mtimeMs;
      // A file just written can be stamped a moment ahead of this clock; one stamped far in the
      // future is no sign of life either: a clock set back, or a planted file.
      if (!stats.isSymbolicLink() && age > -ABANDONED_AFTER_MS && age < ABANDONED_AFTER_MS) continue;
      rmSync(candidate, { force: true });
      removed += 1;
    } catch {
      // Gone already, or not ours to remove.
    }
  }
  return removed;
}

export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  prepareFolderFor(path);
  refuseLink(path);
  const temporary = temporaryPath(path);
  try {
    const handle = await openNoFollow(temporary, CREATE_NEW_FLAGS);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  await syncDirectoryAsync(dirname(path));
}

export function writeFileAtomicSync(path: string, data: string | Uint8Array): void {
  prepareFolderFor(path);
  refuseLink(path);
  const temporary = temporaryPath(path);
  try {
    const fd = openNoFollowSync(temporary, CREATE_NEW_FLAGS);
    try {
      writeFileSync(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  syncDirectory(dirname(path));
}

/** `syncDirectory` off the main thread: an fsync can take milliseconds. */
async function syncDirectoryAsync(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Best effort only, as below.
  }
}

/** Makes the rename itself durable. Not every platform can open a directory; that is not an error. */
function syncDirectory(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Best effort only.
  }
}

/**
 * A name next to `path` for a file that must be kept but no longer used, such as
 * `state.json.corrupt-2026-02-18T09-00-07.123Z`. Colons are replaced so the name is valid everywhere.
 */
export function asideName(path: string, label: string, at: Date = new Date()): string {
  const base = `${path}.${label}-${at.toISOString().replace(/:/g, '-')}`;
  let candidate = base;
  for (let attempt = 1; exists(candidate); attempt++) candidate = `${base}-${attempt}`;
  return candidate;
}

/** Whether anything, a dangling link included, has this name. */
function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Moves a file aside and returns its new name. A link is moved as a link, never followed. */
export function moveAside(path: string, label: string): string {
  const target = asideName(path, label);
  renameSync(path, target);
  return target;
}
