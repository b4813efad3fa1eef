/**
 * The entry of the bundled hook (`hook.js`): a hook process starts on every tool call, so it runs
 * the thin client (`hook-client.cjs`, which reads the payload, asks the helper and prints its
 * answer) from the code V8 compiled for it the last time, kept in a folder of this user's only
 * by the loader the command line uses too (src/node/code-cache.ts), which never loads `node:crypto`.
 * Node 20 has no compile cache of its own; `vm.Script` with `cachedData` is one that works on every
 * version. Node's modules are taken with `process.getBuiltinModule`, never `import`: an ESM import
 * of `node:fs` reads every export, and loads the streams the client never uses.
 *
 * The guard itself (handling an event without the helper, the helper) stays in ES modules the
 * client imports on demand (`hook-handle.js`, `hook-daemon.js`).
 */
import { compileCachedScript } from '../node/code-cache.js';

const { createRequire } = process.getBuiltinModule('node:module');
const { dirname } = process.getBuiltinModule('node:path');
const { fileURLToPath } = process.getBuiltinModule('node:url');

const clientUrl = new URL('./hook-client.cjs', import.meta.url);
runClient(fileURLToPath(clientUrl));

function runClient(path: string): void {
  const client = compileCachedScript({
    file: path,
    name: 'hook-client',
    parameters: ['require', 'module', 'exports', '__filename', '__dirname', '__narrowingImport'],
  });
  const module = { exports: {} };
  // The guard's modules beside the client, as ES modules (see scripts/bundle-hook.ts).
  const importer = (specifier: string) => import(new URL(specifier, import.meta.url).href);
  client.run(createRequire(path), module, module.exports, path, dirname(path), importer);
}
