/**
 * How `bin/narrowing.js` starts the command line: from the bundle in the build, compiled with V8's
 * code cache (see src/node/code-cache.ts), or from the modules when the build has no bundle (`tsc` alone).
 * The build bundles this module too, as CommonJS (`dist/cli/start.cjs`), which the bin requires: a
 * process that starts from an ES module starts Node's ES module loader, which costs a command line's
 * start about a tenth of its CPU.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { compileCachedScript } from '../node/code-cache.js';

type Main = (argv: readonly string[]) => Promise<void>;

/** The commands whose processes keep a cache of their own; any other shares one. */
const CACHED_COMMANDS = new Set(['replay', 'trace', 'mcp', 'report', 'inspect', 'explain', 'verify']);

/**
 * What the bundle's code sees (see scripts/bundle-cli.ts): CommonJS's `exports`, `require` and
 * `module`, the loader's own `import()` for what the bundle imports from outside itself, and the
 * address of the build's folder, from which the bundled modules' own addresses are made.
 */
const BUNDLE_PARAMETERS = ['exports', 'require', 'module', '__narrowingImport', '__narrowingDist'];

export async function startCli(argv: readonly string[]): Promise<void> {
  const main = loadBundle(argv[0]) ?? ((await import('./main.js')) as { main: Main }).main;
  await main(argv);
}

function loadBundle(command: string | undefined): Main | undefined {
  const file = fileURLToPath(new URL('./narrowing.cjs', import.meta.url));
  let script: ReturnType<typeof compileCachedScript>;
  try {
    script = compileCachedScript({
      file,
      name: `cli-${command !== undefined && CACHED_COMMANDS.has(command) ? command : 'other'}`,
      parameters: BUNDLE_PARAMETERS,
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const module = { exports: {} as Record<string, unknown> };
  const importModule = (specifier: string) => {
    const builtin = specifier.startsWith('node:') ? builtinNamespace(specifier) : undefined;
    return builtin === undefined ? import(specifier) : Promise.resolve(builtin);
  };
  script.run(module.exports, createRequire(file), module, importModule, new URL('../', import.meta.url).href);
  return module.exports.main as Main;
}

const builtinNamespaces = new Map<string, Record<string, unknown>>();

/**
 * One of Node's own modules as `import()` would give it (its exports, and itself as `default`), taken
 * with `process.getBuiltinModule`: an `import()` starts Node's ES module loader, which a command that
 * imports nothing else from outside its bundle (`replay` reading a trace) then never pays for.
 */
function builtinNamespace(specifier: string): Record<string, unknown> | undefined {
  let namespace = builtinNamespaces.get(specifier);
  if (namespace === undefined) {
    const builtin = process.getBuiltinModule(specifier) as Record<string, unknown> | undefined;
    if (builtin === undefined) return undefined;
    namespace = { ...builtin, default: builtin };
    builtinNamespaces.set(specifier, namespace);
  }
  return namespace;
}
