/**
 * Whole-file writes that leave either the old file or the new one, never a mix: the data goes to
 * a temporary file in the same directory, reaches the disk, and replaces the target by rename.
 */
import { closeSync, existsSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';

let temporaries = 0;

function temporaryPath(path: string): string {
  temporaries += 1;
  return `${path}.${process.pid}.${temporaries}.tmp`;
}

export async function writeFileAtomic(path: string, data: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = temporaryPath(path);
  try {
    const handle = await open(temporary, 'w');
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

export function writeFileAtomicSync(path: string, data: string): void {
  const temporary = temporaryPath(path);
  try {
    const fd = openSync(temporary, 'w');
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
  for (let attempt = 1; existsSync(candidate); attempt++) candidate = `${base}-${attempt}`;
  return candidate;
}

/** Moves a file aside and returns its new name. */
export function moveAside(path: string, label: string): string {
  const target = asideName(path, label);
  renameSync(path, target);
  return target;
}
