/**
 * The hook as a program of its own, bundled into one file: `node hook.js <agent> [options]`, or
 * through the package's bin as `narrowing-guard hook <agent> [options]`.
 */
import { lstatSync, mkdirSync } from 'node:fs';
import module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hookMain } from './main.js';

keepCompiledCode();

const words = process.argv.slice(2);
hookMain(words[0] === 'hook' ? words.slice(1) : words).then(
  (code) => exitAfterWriting(code),
  (error: unknown) => {
    // hookMain never throws; should it ever, the agent still runs its call.
    process.stderr.write(`narrowing-guard: the hook failed: ${String(error)}; the call proceeds unchecked\n`);
    exitAfterWriting(0);
  },
);

/**
 * Ends the process once its answer is written, whatever is still running: the agent waits for the
 * process, not for its answer, so work left after a late answer (an event handled here, a lock being
 * waited for) must not keep it. Locks held are released by their exit handlers.
 */
function exitAfterWriting(code: number): void {
  let pending = 2;
  const done = () => {
    pending -= 1;
    if (pending === 0) process.exit(code);
  };
  process.stdout.write('', done);
  process.stderr.write('', done);
}

/**
 * Node 22.1 and later keep the code V8 compiled for the modules a hook process loads after this
 * (the guard, when the helper does not answer), so that the next process skips compiling them.
 * Kept in a folder of this user's only, never one another user could fill. Node 20 has no such
 * cache: nothing is done there.
 */
function keepCompiledCode(): void {
  const enable = (module as { enableCompileCache?: (dir?: string) => unknown }).enableCompileCache;
  if (typeof enable !== 'function') return;
  try {
    const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
    if (uid === undefined) return;
    const dir = join(tmpdir(), `narrowing-guard-${uid}`);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = lstatSync(dir);
    if (!stat.isDirectory() || stat.isSymbolicLink() || stat.uid !== uid || (stat.mode & 0o077) !== 0) return;
    enable(join(dir, 'compile-cache'));
  } catch {
    // Without the cache the hook only compiles what it loads, as on Node 20.
  }
}
