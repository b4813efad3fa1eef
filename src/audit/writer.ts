/**
 * A journal has one writer at a time: two processes appending to one hash chain would each link
 * to a receipt the other has already followed, and the chain would break for good. The writer's
 * pid is kept next to the journal; a file left by a process that died is taken over.
 */

import { linkSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { NarrowingError } from '../core/errors.js';
import { isAlive, withFileLockSync } from '../node/lock.js';
import { readTextNoFollowSync, refuseLink, writeTextNoFollowSync } from '../node/safe-fs.js';
import { prepareStateDir } from '../node/state-dir.js';

export class JournalInUseError extends NarrowingError {
  override readonly name = 'JournalInUseError';

  constructor(
    readonly path: string,
    readonly ownerPid: number,
  ) {
    const who =
      ownerPid === process.pid ? 'this process already has it open' : `process ${ownerPid} is writing it`;
    super(
      'JOURNAL_IN_USE',
      `The journal ${path} cannot be opened for writing: ${who}. A journal takes one writer at a time; ` +
        'close the other writer first, or give this one its own journal path.',
    );
  }
}

export function writerFilePath(journalPath: string): string {
  return `${journalPath}.writer`;
}

/**
 * The writer files of the journals this process writes: another claim of one is refused at once,
 * without a file lock (many guards of one process on one state folder try every slot in turn), and
 * even when the file was removed behind this process's back.
 */
const claimedHere = new Set<string>();

/** Claims the journal for this process; throws `JournalInUseError` when a live process has it. */
export function claimWriter(journalPath: string): () => void {
  const path = writerFilePath(journalPath);
  if (claimedHere.has(path)) throw new JournalInUseError(journalPath, process.pid);
  prepareStateDir(dirname(path));
  refuseLink(path);
  const claim = `${JSON.stringify({ pid: process.pid })}\n`;
  // Check-and-take under a lock, so two processes taking over from a dead writer cannot both win.
  if (!claimUnheld(path, claim)) {
    // A live writer is refused at once; the lock is for taking over from a dead one.
    const seen = ownerOf(path);
    if (seen !== undefined && isAlive(seen)) throw new JournalInUseError(journalPath, seen);
    withFileLockSync(path, () => {
      const owner = ownerOf(path);
      if (owner !== undefined && isAlive(owner)) throw new JournalInUseError(journalPath, owner);
      writeTextNoFollowSync(path, claim);
    });
  }
  claimedHere.add(path);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    claimedHere.delete(path);
    if (ownerOf(path) === process.pid) rmSync(path, { force: true });
  };
}

/**
 * Takes a journal no writer file names, without the file lock: the claim is written beside the
 * writer file and linked into its place, which fails when any file is there, so that another
 * process sees the whole claim or none (a writer file found, even one being written, sends it to
 * the locked check). False when a writer file was there or the link could not be made.
 */
function claimUnheld(path: string, claim: string): boolean {
  const aside = `${path}.${process.pid}.claim`;
  try {
    writeTextNoFollowSync(aside, claim);
    linkSync(aside, path);
    return true;
  } catch {
    return false;
  } finally {
    try {
      rmSync(aside, { force: true });
    } catch {}
  }
}

function ownerOf(path: string): number | undefined {
  try {
    const { pid } = JSON.parse(readTextNoFollowSync(path)) as { pid?: unknown };
    return typeof pid === 'number' && Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
