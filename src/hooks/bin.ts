/**
 * The hook as a program of its own, bundled into one file: `node hook.js <agent> [options]`, or
 * through the package's bin as `narrowing-guard hook <agent> [options]`.
 */
import { hookMain } from './main.js';

const words = process.argv.slice(2);
hookMain(words[0] === 'hook' ? words.slice(1) : words).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // hookMain never throws; should it ever, the agent still runs its call.
    process.stderr.write(`narrowing-guard: the hook failed: ${String(error)}; the call proceeds unchecked\n`);
  },
);
