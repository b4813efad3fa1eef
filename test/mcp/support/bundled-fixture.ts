/**
 * A fixture server bundled into one script, once per test run: a server started from its source loads
 * the SDK's modules one by one, which costs about twice the CPU of starting the bundle, and the proxy's
 * tests start such a server dozens of times. The bundle is made by the first test file of the run that
 * asks, in the run's own temporary folder (see test/global-setup.ts), so it is always the source of this
 * checkout; files in other workers wait for it.
 */
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { buildSync } from 'esbuild';

/** How long a test file waits for another one that is bundling the same fixture. */
const WAIT_MS = 120_000;

/**
 * The path of `source` (an ES module) bundled with its dependencies; the file keeps the source's name,
 * which the proxy shows in its messages.
 */
export function bundledFixture(source: string): string {
  const name = basename(source);
  const folder = join(tmpdir(), `narrowing-fixture-${name}`);
  const lock = `${folder}.lock`;
  const deadline = Date.now() + WAIT_MS;
  while (!existsSync(folder)) {
    try {
      mkdirSync(lock);
    } catch {
      // Another test file is bundling it: wait for its bundle, or take over if it gave up.
      if (Date.now() > deadline) throw new Error(`no bundle of ${name} after ${WAIT_MS} ms in ${folder}`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
      continue;
    }
    try {
      if (!existsSync(folder)) {
        const staging = mkdtempSync(join(tmpdir(), 'narrowing-fixture-bundling-'));
        buildSync({
          entryPoints: [source],
          outfile: join(staging, name),
          bundle: true,
          platform: 'node',
          format: 'esm',
          target: 'node20',
          logLevel: 'warning',
          // CommonJS dependencies call require() for Node's own modules.
          banner: {
            js: "import { createRequire as __fixtureRequire } from 'node:module'; const require = __fixtureRequire(import.meta.url);",
          },
        });
        renameSync(staging, folder);
      }
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return join(folder, name);
}
