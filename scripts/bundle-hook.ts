// Bundles the hook: a hook process starts on every tool call, so what it loads is kept to the thin
// client (read the payload, ask the helper, print its answer) in one script run from V8's code
// cache (see src/hooks/launch.ts). The guard itself is loaded on demand, as one more script run from
// the code cache: for a hook without the helper, and for the helper.
//
//   hook.cjs          the entry (`node hook.cjs <agent>`, the bin's `hook`): runs hook-client.cjs from
//                     the code cache; CommonJS, so a hook process never starts the ES module loader
//   hook.js           the same entry for whoever runs `node hook.js <agent>` (an ES module, slower)
//   hook-client.cjs   the client as one script (never loaded by Node's module loader)
//   hook-handle.cjs   an event handled in the hook process (no helper): one script, run from V8's
//                     code cache as the client is, so that such a process compiles nothing again
//   hook-daemon.cjs   the helper (`hook serve`): one script, run from V8's code cache as the others
//                     are, so that a helper starting compiles nothing its predecessor ran
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { asciiOnly } from './ascii-only.js';
import { builtTables } from './bundle-tables.js';
import { lazyPackages } from './lazy-packages.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The guard's modules the client imports on demand, by the file they are bundled into. */
const ON_DEMAND: Readonly<Record<string, string>> = {
  './handle.js': './hook-handle.cjs',
  './daemon.js': './hook-daemon.cjs',
};

/**
 * Bundles the hook beside `outfile` (`<dir>/hook.js`); returns the entry to run, `<dir>/hook.cjs`.
 */
export async function bundleHook(outfile = `${root}dist/hooks/hook.js`): Promise<string> {
  const outdir = dirname(outfile);
  const entry = join(outdir, `${basename(outfile, extname(outfile))}.cjs`);
  const common = {
    bundle: true,
    platform: 'node',
    target: 'node20',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  } as const;
  // The guard's scripts: the event handled in the hook process, and the helper. Each is one
  // CommonJS script that the entry runs from its code cache; neither is loaded by Node's module loader.
  const guardScript = (entry: string, name: string) =>
    build({
      ...common,
      entryPoints: [`${root}src/hooks/${entry}`],
      outfile: join(outdir, name),
      format: 'cjs',
      plugins: [builtTables, lazyPackages, assertOnFailure],
      // The script has no `import.meta`: the URL of its own file stands for it.
      define: { 'import.meta.url': '__narrowingModuleUrl' },
      banner: { js: "var __narrowingModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
      write: false,
    });
  const handle = await guardScript('handle.ts', 'hook-handle.cjs');
  const daemon = await guardScript('daemon.ts', 'hook-daemon.cjs');
  const client = await build({
    ...common,
    entryPoints: [`${root}src/hooks/bin.ts`],
    outfile: join(outdir, 'hook-client.cjs'),
    format: 'cjs',
    plugins: [onDemand, builtinsAsLoaded],
    write: false,
  });
  mkdirSync(outdir, { recursive: true });
  // Every script in ASCII, so that a process reads a string of one byte a character (see ascii-only.ts).
  writeFileSync(join(outdir, 'hook-client.cjs'), asciiOnly(withImporter(client.outputFiles[0]?.text ?? '')));
  writeFileSync(join(outdir, 'hook-handle.cjs'), asciiOnly(withPeerImporter(handle.outputFiles[0]?.text ?? '')));
  writeFileSync(join(outdir, 'hook-daemon.cjs'), asciiOnly(withPeerImporter(daemon.outputFiles[0]?.text ?? '')));
  await build({
    ...common,
    entryPoints: [`${root}src/hooks/launch.ts`],
    outfile: entry,
    format: 'cjs',
  });
  writeFileSync(
    outfile,
    `import { createRequire } from 'node:module';\ncreateRequire(import.meta.url)(${JSON.stringify(`./${basename(entry)}`)});\n`,
  );
  return entry;
}

/**
 * A script run by `vm.Script` has no `import()` of its own (Node's loader for it is experimental and
 * warns on stderr): the client imports the guard's modules through the function the entry passes it.
 */
function withImporter(text: string): string {
  let found = 0;
  const replaced = text.replace(/\bimport\((?="\.\/hook-(?:handle|daemon)\.cjs"\))/g, () => {
    found += 1;
    return '__narrowingImport(';
  });
  if (found !== Object.keys(ON_DEMAND).length || /\bimport\(/.test(replaced))
    throw new Error(`the hook client imports what the entry cannot give it (${found} imports replaced)`);
  return replaced;
}

/**
 * The event handled without the helper, and the helper, import one module at run time, a shared
 * store's driver (an optional peer, by its package name): through the entry's function too. Texts of the failure
 * rules hold `import(?:…` as words of a pattern, never as a call, and stay as they are.
 */
function withPeerImporter(text: string): string {
  let found = 0;
  const replaced = text.replace(/\bawait import\(/g, () => {
    found += 1;
    return 'await __narrowingImport(';
  });
  if (found !== 1 || /\bimport\((?!\?)/.test(replaced))
    throw new Error(`a script of the hook's guard imports what the entry cannot give it (${found} imports replaced)`);
  return replaced;
}

/**
 * What signal-exit (proper-lockfile's) asks of Node's `assert`: one `equal` that holds whenever it
 * is called right. Loading `assert` makes the process's stderr stream (for its colours), which a
 * hook process that prints nothing there never needs: the real `assert` is loaded only to report
 * a check that fails, with the error it would have thrown.
 */
const ASSERT_FOR_SIGNAL_EXIT =
  "exports.equal = (actual, expected, message) => { if (actual != expected) require('node:assert').equal(actual, expected, message); };\n";

const assertOnFailure: Plugin = {
  name: 'narrowing-assert-on-failure',
  setup(build) {
    build.onResolve({ filter: /^assert$/ }, (args) =>
      /[\\/]node_modules[\\/]signal-exit[\\/]/.test(args.importer)
        ? { path: 'assert', namespace: 'assert-on-failure' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'assert-on-failure' }, () => ({
      contents: ASSERT_FOR_SIGNAL_EXIT,
      loader: 'js',
    }));
  },
};

/**
 * Node's modules the client imports, taken with `process.getBuiltinModule` rather than `require`:
 * `require` goes through the module loader (its resolution, its debug log set up on first use),
 * which a process that starts on every tool call pays for each module. Each is given as an ES module
 * whose exports are the module's own, each read only where the client uses it: a CommonJS stand-in
 * would be wrapped for every file that imports it, its exports copied one by one onto a new object
 * (a hundred for `node:fs`) on every event.
 */
export const builtinsAsLoaded: Plugin = {
  name: 'narrowing-builtins-as-loaded',
  setup(build) {
    build.onResolve({ filter: /^node:/ }, (args) => ({
      path: args.path,
      namespace: 'node-builtin',
      // An import of a module the client never uses is dropped, as one of Node's own would be.
      sideEffects: false,
    }));
    build.onLoad({ filter: /.*/, namespace: 'node-builtin' }, (args) => ({
      contents: builtinAsModule(args.path),
      loader: 'js',
    }));
  },
};

/**
 * `node:<name>` as an ES module: its default export the module itself, and one named export for each
 * of its exports, marked pure so that the bundle keeps (and reads) only the ones it imports. A name
 * the client imports that this Node does not export fails the build.
 */
export function builtinAsModule(specifier: string): string {
  const names = Object.keys(process.getBuiltinModule(specifier) as object).filter(
    (name) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default',
  );
  return [
    `const builtin = process.getBuiltinModule(${JSON.stringify(specifier)});`,
    'export default builtin;',
    ...names.map((name) => `export const ${name} = /* @__PURE__ */ (() => builtin.${name})();`),
    '',
  ].join('\n');
}

/** The client's `import('./handle.js')` and `import('./daemon.js')` load the scripts built beside it. */
const onDemand: Plugin = {
  name: 'narrowing-on-demand',
  setup(build) {
    build.onResolve({ filter: /^\.\/(handle|daemon)\.js$/ }, (args) => {
      const target = ON_DEMAND[args.path];
      if (target === undefined || args.kind !== 'dynamic-import' || !args.importer.includes('hooks'))
        return undefined;
      return { path: target, external: true };
    });
  },
};

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleHook(process.argv[2]);
