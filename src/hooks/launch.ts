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
 * The guard itself (handling an event without the helper, the helper) stays in ES modules the
 * client imports on demand (`hook-handle.js`, `hook-daemon.js`).
 */
import { compileCachedScript } from '../node/code-cache.js';

const { join } = process.getBuiltinModule('node:path');
const { pathToFileURL } = process.getBuiltinModule('node:url');

runClient(join(__dirname, 'hook-client.cjs'));

function runClient(path: string): void {
  const client = compileCachedScript({
    file: path,
    name: 'hook-client',
    parameters: ['require', 'module', 'exports', '__filename', '__dirname', '__narrowingImport'],
  });
  const module = { exports: {} };
  // The guard's modules beside the client, as ES modules (see scripts/bundle-hook.ts).
  const importer = (specifier: string) => import(pathToFileURL(join(__dirname, specifier)).href);
  // The launcher's own `require` serves the client beside it: it needs Node's modules only.
  client.run(require, module, module.exports, path, __dirname, importer);
}
