/**
 * Gives the whole test run a temporary folder of its own: everything the tests and the processes they
 * start put under the system's temporary folder (workspaces, state folders, V8 code caches of the CLI
 * and the hook) lands in one folder that is removed at the end, so a run neither reads what an earlier
 * run or the machine left there nor leaves anything behind.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  const folder = mkdtempSync(join(tmpdir(), 'narrowing-tests-'));
  process.env.TMPDIR = folder;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(folder, { recursive: true, force: true });
  };
}
