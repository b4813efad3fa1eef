/**
 * A script a test starts as a process of its own, bundled into one file once per test run: started from
 * its sources (through tsx, or a server loading the SDK's modules one by one), such a process costs two
 * to three times the CPU of starting the bundle, and the tests start some of them dozens of times. The
 * bundle is made by the first test file of the run that asks, in the run's own temporary folder (see
 * test/global-setup.ts), so it is always the sources of this checkout; files in other workers wait for it.
 */
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, extname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** How long a test file waits for another one that is bundling the same script. */
const WAIT_MS = 120_000;

export interface BundleOptions {
  /**
   * `bundle` puts the packages the script imports into the bundle; `external` leaves them to be loaded
   * from the repository's node_modules as the source would load them (native ones, such as
   * better-sqlite3, cannot be bundled).
   */
  readonly packages?: 'bundle' | 'external';
}

/**
 * The path of `source` (an ES module, TypeScript or JavaScript, absolute or relative to the repository)
 * bundled once per run. The bundle keeps the source's name, `.mjs` for a `.ts`: a server's name shows in
 * the proxy's messages.
 */
export function bundledScript(source: string, { packages = 'bundle' }: BundleOptions = {}): string {
  const entry = resolve(root, source);
  const name = extname(entry) === '.ts' ? `${basename(entry, '.ts')}.mjs` : basename(entry);
  const folder = join(
    tmpdir(),
    `narrowing-script-${packages}-${relative(root, entry).replace(/[^\w.-]/g, '_')}`,
  );
  const lock = `${folder}.lock`;
  const deadline = Date.now() + WAIT_MS;
  while (!existsSync(folder)) {
    try {
      mkdirSync(lock);
    } catch {
      // Another test file is bundling it: wait for its bundle, or take over if it gave up.
      if (Date.now() > deadline) throw new Error(`no bundle of ${entry} after ${WAIT_MS} ms in ${folder}`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
      continue;
    }
    try {
      if (!existsSync(folder)) {
        const staging = mkdtempSync(join(tmpdir(), 'narrowing-script-bundling-'));
        buildSync({
          entryPoints: [entry],
          outfile: join(staging, name),
          bundle: true,
          packages,
          platform: 'node',
          format: 'esm',
          target: 'node20',
          logLevel: 'warning',
          // CommonJS dependencies call require() for Node's own modules.
          banner: {
            js: "import { createRequire as __scriptRequire } from 'node:module'; const require = __scriptRequire(import.meta.url);",
          },
        });
        // The packages left out are found where Node looks for them from the bundle's folder.
        if (packages === 'external')
          symlinkSync(join(root, 'node_modules'), join(staging, 'node_modules'), 'dir');
        renameSync(staging, folder);
      }
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return join(folder, name);
}
