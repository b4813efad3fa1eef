/**
 * The hook as a program of its own, bundled into one file: `node hook.js <agent> [options]`, or
 * through the package's bin as `narrowing-guard hook <agent> [options]`.
 */
import { hookMain } from './main.js';

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
