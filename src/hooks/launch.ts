/**
 * The entry of the bundled hook (`hook.js`): a hook process starts on every tool call, so it runs
 * the thin client (`hook-client.cjs`, which reads the payload, asks the helper and prints its
 * answer) from the code V8 compiled for it the last time, kept in a folder of this user's only.
 * Node 20 has no compile cache of its own; `vm.Script` with `cachedData` is one that works on every
 * version. Node's modules are taken with `process.getBuiltinModule`, never `import`: an ESM import
 * of `node:fs` reads every export, and loads the streams the client never uses.
 *
 * The guard itself (handling an event without the helper, the helper) stays in ES modules the
 * client imports on demand (`hook-handle.js`, `hook-daemon.js`).
 */
import { textKey } from './text-key.js';

const fs = process.getBuiltinModule('node:fs');
const vm = process.getBuiltinModule('node:vm');
const { createRequire } = process.getBuiltinModule('node:module');
const { dirname, join } = process.getBuiltinModule('node:path');
const { fileURLToPath } = process.getBuiltinModule('node:url');

const clientUrl = new URL('./hook-client.cjs', import.meta.url);
runClient(fileURLToPath(clientUrl));

function runClient(path: string): void {
  const source = fs.readFileSync(path, 'utf8');
  const cache = cachePath(path);
  let cachedData: Buffer | undefined;
  if (cache !== undefined) {
    try {
      cachedData = fs.readFileSync(cache);
    } catch {
      // None yet: this run compiles the client and keeps what it compiled.
    }
  }
  const script = new vm.Script(
    `(function (require, module, exports, __filename, __dirname, __narrowingImport) {${source}\n})`,
    { filename: path, ...(cachedData !== undefined && { cachedData }) },
  );
  if (cache !== undefined && (cachedData === undefined || script.cachedDataRejected === true)) {
    // Kept at exit, once the functions this run called are compiled too.
    process.once('exit', () => keepCache(cache, script));
  }
  const run = script.runInThisContext() as (
    require: NodeJS.Require,
    module: { exports: unknown },
    exports: unknown,
    filename: string,
    dirname: string,
    importer: (specifier: string) => Promise<unknown>,
  ) => void;
  const module = { exports: {} };
  // The guard's modules beside the client, as ES modules (see scripts/bundle-hook.ts).
  const importer = (specifier: string) => import(new URL(specifier, import.meta.url).href);
  run(createRequire(path), module, module.exports, path, dirname(path), importer);
}

/**
 * Where the code compiled for this client (this file, this Node) is kept: a folder of this user's
 * only, never one another user could fill. Undefined when there is no such folder.
 */
function cachePath(path: string): string | undefined {
  try {
    const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
    if (uid === undefined) return undefined;
    const os = process.getBuiltinModule('node:os');
    const dir = join(os.tmpdir(), `narrowing-guard-${uid}`);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = fs.lstatSync(dir);
    if (!stat.isDirectory() || stat.isSymbolicLink() || stat.uid !== uid || (stat.mode & 0o077) !== 0)
      return undefined;
    // The file as built (a new build is another file), and the V8 that compiled it.
    const file = fs.statSync(path);
    const key = textKey(
      [path, file.ino, file.size, file.mtimeMs, process.version, process.arch].join('\u0000'),
    );
    return join(dir, `hook-client-${key}.v8cache`);
  } catch {
    return undefined;
  }
}

function keepCache(path: string, script: import('node:vm').Script): void {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(temporary, script.createCachedData(), { mode: 0o600, flag: 'wx' });
    fs.renameSync(temporary, path);
  } catch {
    // Without it the next hook compiles the client again, as this one did.
    try {
      fs.rmSync(temporary, { force: true });
    } catch {}
  }
}
