import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { bundledScript } from '../support/bundled-script.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
}

/**
 * Runs a TypeScript script (a path relative to the repository) in a separate Node process, as a user's agent
 * process would run: the script bundled once per test run (see test/support/bundled-script.ts), with the
 * packages it imports loaded from node_modules.
 */
export function runScript(
  script: string,
  args: readonly string[],
  { killAfterMs }: { killAfterMs?: number } = {},
) {
  const child = spawn(process.execPath, [bundledScript(script, { packages: 'external' }), ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  child.stdout.resume();
  const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  const exited = new Promise<Exit>((resolve) => {
    child.on('close', (code, signal) => {
      if (timer !== undefined) clearTimeout(timer);
      resolve({ code, signal, stderr });
    });
  });
  return { child, exited };
}
