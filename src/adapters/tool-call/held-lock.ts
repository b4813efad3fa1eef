/**
 * A package manager refusing to start because another process holds its lock: an install is still
 * running, most often the agent's own that a time-out stopped waiting for but did not end. That
 * process goes on writing (packages unpacked, programs put on the path) while the agent works, so
 * the world is changing under the calls that failed for want of what it installs.
 */
import { endsOf } from './text-ends.js';

/** Characters of an answer read for the lock: the refusal is short and comes first or last. */
const READ_CHARS = 4_000;

/**
 * The words of package managers that wait for or refuse a lock another process holds: apt and
 * dpkg, yum, dnf, zypper, pacman, Homebrew, Cargo and snap.
 */
const LOCK_HELD: readonly RegExp[] = [
  /\bcould not get lock\b[^\n]{0,200}\bheld by process\b/i,
  /\bunable to acquire the dpkg frontend lock\b/i,
  /\block was locked by another process\b/i,
  /\banother app is currently holding the yum lock\b/i,
  /\bwaiting for process with pid \d+ to finish\b/i,
  /\bsystem management is locked by the application with pid\b/i,
  /\bunable to lock database\b/i,
  /\banother active homebrew\b[^\n]{0,60}\bprocess\b/i,
  /\bblocking waiting for file lock on (?:package cache|the registry index)\b/i,
  /\bhas "[\w-]+" change in progress\b/i,
];

/**
 * Words one of which every refusal above holds: a text without any cannot match one of them, and is
 * read once for these instead of once for each refusal.
 */
const ANY_LOCK_WORD = /lock|waiting for process|homebrew|change in progress/i;

/** Whether a failure says another process holds the package manager's lock (see above). */
export function heldByAnotherProcess(text: string): boolean {
  const read = endsOf(text, READ_CHARS);
  return ANY_LOCK_WORD.test(read) && LOCK_HELD.some((pattern) => pattern.test(read));
}
