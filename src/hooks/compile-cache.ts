/**
 * Node 22.1 and later keep the code V8 compiled for the modules a hook process loads after this
 * (the helper's), so that the next process skips compiling them. Called only before those are
 * loaded: a hook process the helper answers, or one that handles its event without the helper (its
 * guard runs from a code cache of its own), never pays for `node:module`. Kept in a folder of this
 * user's only, never one another user could fill. Node 20 has no such cache: nothing is done there.
 */
export function keepCompiledCode(): void {
  const { enableCompileCache: enable } = process.getBuiltinModule('node:module') as {
    enableCompileCache?: (dir?: string) => unknown;
  };
  if (typeof enable !== 'function') return;
  try {
    const fs = process.getBuiltinModule('node:fs');
    const { join } = process.getBuiltinModule('node:path');
    const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
    if (uid === undefined) return;
    const dir = join(process.getBuiltinModule('node:os').tmpdir(), `narrowing-guard-${uid}`);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = fs.lstatSync(dir);
    if (!stat.isDirectory() || stat.isSymbolicLink() || stat.uid !== uid || (stat.mode & 0o077) !== 0) return;
    enable(join(dir, 'compile-cache'));
  } catch {
    // Without the cache the hook only compiles what it loads, as on Node 20.
  }
}
