/**
 * How `bin/narrowing.js` starts the command line: from the bundle in the build, compiled with V8's
 * code cache (see code-cache.ts), or from the modules when the build has no bundle (`tsc` alone).
 */
import { fileURLToPath } from 'node:url';
import { runCachedScript } from './code-cache.js';

type Main = (argv: readonly string[]) => Promise<void>;

/** The commands whose processes keep a cache of their own; any other shares one. */
const CACHED_COMMANDS = new Set(['replay', 'trace', 'mcp', 'report', 'inspect', 'explain', 'verify']);

export async function startCli(argv: readonly string[]): Promise<void> {
  const main = loadBundle(argv[0]) ?? ((await import('./main.js')) as { main: Main }).main;
  await main(argv);
}

function loadBundle(command: string | undefined): Main | undefined {
  let script: ReturnType<typeof runCachedScript>;
  try {
    script = runCachedScript({
      file: fileURLToPath(new URL('./narrowing.cjs', import.meta.url)),
      name: `cli-${command !== undefined && CACHED_COMMANDS.has(command) ? command : 'other'}`,
      buildUrl: new URL('../', import.meta.url).href,
      importModule: (specifier) => import(specifier),
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return script.exports.main as Main;
}
