/**
 * The entry of the bundled hook (`hook.cjs`): a hook process starts on every tool call, so it runs
 * the thin client (`hook-client.cjs`, which reads the payload, asks the helper and prints its
 * answer) from the code V8 compiled for it the last time, kept in a folder of this user's only
 * by the loader the command line uses too (src/node/code-cache.ts), which never loads `node:crypto`.
 * Node 20 has no compile cache of its own; `vm.Script` with `cachedData` is one that works on every
 * version. Node's modules are taken with `process.getBuiltinModule`, never `import`: an ESM import
 * of `node:fs` reads every export, and loads the streams the client never uses.
 *
 * It is bundled as CommonJS, and the package's bin loads it with `require`: a process that starts
 * from an ES module starts Node's ES module loader too, which costs a hook process several
 * milliseconds of CPU, and more of wall time, on every event. This module is only ever run from that
 * bundle, where `__filename` and `__dirname` are its own.
 *
 * The guard is loaded on demand, as one more script run from its code cache: without the helper
 * `hook-handle.cjs`, the helper `hook-daemon.cjs` (Node 20 keeps no compiled code of ES modules, and
 * compiling the guard's would cost such a process most of its time, and a helper starting most of its
 * start).
 */
import { compileCachedScript } from '../node/code-cache.js';

const { join } = process.getBuiltinModule('node:path');

runClient(join(__dirname, 'hook-client.cjs'));

function runClient(path: string): void {
  runCached(path, 'hook-client');
}

/**
 * Runs a script of the bundle from its code cache; returns what it exports. The launcher's own
 * `require` serves it: it needs Node's modules only.
 */
function runCached(path: string, name: string): unknown {
  const script = compileCachedScript({
    file: path,
    name,
    parameters: ['require', 'module', 'exports', '__filename', '__dirname', '__narrowingImport'],
  });
  const module = { exports: {} };
  script.run(require, module, module.exports, path, __dirname, importer);
  return module.exports;
}

/**
 * What the scripts import on demand (see scripts/bundle-hook.ts): a script beside this one
 * (`./hook-handle.cjs`, the guard without the helper; `./hook-daemon.cjs`, the helper) runs from its
 * code cache too; a package (a shared store's driver) is imported as from here.
 */
function importer(specifier: string): Promise<unknown> {
  if (!specifier.startsWith('./')) return import(specifier);
  const path = join(__dirname, specifier);
  if (specifier.endsWith('.cjs'))
    return Promise.resolve().then(() => runCached(path, specifier.slice(2, -4)));
  return import(process.getBuiltinModule('node:url').pathToFileURL(path).href);
}
