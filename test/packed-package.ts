/**
 * The package as a user gets it: `npm pack` of this checkout installed into an empty project. Packing and
 * installing cost more than most test files, so they happen once per test run (in the run's own temporary
 * folder, see test/global-setup.ts) and each test file that asks gets a copy of its own to change as it likes.
 *
 * The tarball is packed without npm's scripts: the suite runs against the build in dist/ (CI's clean install
 * makes it through `prepare`; locally `npm run build` does), and a build during the run would rewrite dist/
 * under the test files running beside it. test/package.test.ts checks that `prepare` builds.
 */
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

/** How long a test file waits for another one that is packing and installing. */
const WAIT_MS = 300_000;

/**
 * How long a test may take to remove a folder holding a packed project: its installed dependencies are
 * thousands of files, which a loaded machine takes well over a default hook's 30 seconds to delete.
 */
export const PACKED_PROJECT_REMOVAL_MS = 300_000;

/**
 * Copies the packed package, installed in an empty ES-module project, into `folder` (which must exist):
 * returns the project's path, `folder/project`; the tarball it was installed from sits beside it, where the
 * project's lock file expects it, so that further `npm install`s in the project work.
 */
export function copyOfPackedProject(folder: string): string {
  const shared = packedOnce();
  for (const entry of readdirSync(shared)) {
    cpSync(join(shared, entry), join(folder, entry), { recursive: true, verbatimSymlinks: true });
  }
  return join(folder, 'project');
}

/** The folder holding the tarball and `project/`, made by the first test file of the run that asks. */
function packedOnce(): string {
  const shared = join(tmpdir(), 'narrowing-packed-package');
  const lock = `${shared}.lock`;
  const deadline = Date.now() + WAIT_MS;
  while (!existsSync(shared)) {
    try {
      mkdirSync(lock);
    } catch {
      // Another test file is packing: wait for its result, or take over if it gave up.
      if (Date.now() > deadline) throw new Error(`no packed package after ${WAIT_MS} ms in ${shared}`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
      continue;
    }
    try {
      if (!existsSync(shared)) renameSync(packAndInstall(), shared);
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return shared;
}

function packAndInstall(): string {
  const staging = mkdtempSync(join(tmpdir(), 'narrowing-packing-'));
  execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', staging], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    timeout: 180_000,
  });
  const tarball = readdirSync(staging).find((name) => name.endsWith('.tgz'));
  if (tarball === undefined) throw new Error('npm pack made no tarball');
  const project = join(staging, 'project');
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'user-project', private: true, type: 'module' }),
  );
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join('..', tarball)], {
    cwd: project,
    stdio: ['ignore', 'ignore', 'inherit'],
    timeout: 180_000,
  });
  return staging;
}
