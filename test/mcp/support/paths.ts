import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundledScript } from '../../support/bundled-script.js';

const root = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));

export const REPO_ROOT = root('.');
export const CLI_ENTRY = root('test/mcp/support/cli-entry.ts');
export const BIN = root('bin/narrowing.js');
export const BUILT_CLI = root('dist/cli/main.js');
export const EVERYTHING_SERVER = root('node_modules/@modelcontextprotocol/server-everything/dist/index.js');
export const FILESYSTEM_SERVER = root('node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
export const MEMORY_SERVER = root('node_modules/@modelcontextprotocol/server-memory/dist/index.js');
/** test/mcp/fixtures/probe-server.mjs, bundled once per test run (see test/support/bundled-script.ts). */
export const PROBE_SERVER = bundledScript(root('test/mcp/fixtures/probe-server.mjs'));
export const PLAIN_SERVER = root('test/mcp/fixtures/plain-server.mjs');

/** The newest change to a file under `dir`, in ms since the epoch. */
function newestChangeUnder(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** Whether the build bin/narrowing.js runs (the compiled modules and the CLI's bundle) is newer than src/. */
function builtAfterSource(): boolean {
  const built = [BUILT_CLI, root('dist/cli/narrowing.cjs')];
  if (!built.every((path) => existsSync(path))) return false;
  return Math.min(...built.map((path) => statSync(path).mtimeMs)) >= newestChangeUnder(root('src'));
}

/**
 * How the tests start the command line: through bin/narrowing.js when the build is newer than every file
 * under src/ (its bundled script starts in about a fifth of the CPU tsx takes to load the sources), and
 * from source through tsx otherwise, so that a run after an edit of src/ tests the edit.
 */
export const CLI_COMMAND: readonly string[] = builtAfterSource()
  ? [process.execPath, BIN]
  : [process.execPath, '--import', 'tsx', CLI_ENTRY];
