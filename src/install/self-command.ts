/**
 * Commands that start this very installation of narrowing-guard, for settings written where the
 * project has no install of its own. Never `npx -y narrowing-guard`, which would fetch whatever the
 * registry holds under that name rather than what the user installed.
 */
import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package's bin script, found from this module (`src/install` or `dist/install`). */
export function ownBinScript(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'narrowing.js');
}

/** `node <this installation's bin>`: runs from any directory, as long as the installation stays. */
export function ownLauncherWords(): readonly [string, string] {
  return ['node', ownBinScript()];
}

/** The project's installed bin, if there is one. */
export function projectBin(projectDir: string, names: readonly string[]): string | undefined {
  return names.find((name) => {
    try {
      return statSync(join(projectDir, 'node_modules', '.bin', name)) !== undefined;
    } catch {
      return false;
    }
  });
}

/**
 * A POSIX shell command that runs `node_modules/.bin/<bin> <args>` of the nearest folder at or above
 * the one it runs in that has it, from that folder: it holds in whichever subfolder of the project
 * the agent runs hooks, in every clone, without git or an absolute path.
 */
export function nearestBinInShell(bin: string, args: string): string {
  const path = `node_modules/.bin/${bin}`;
  return (
    `d="$PWD"; until [ -x "$d/${path}" ] || [ "$d" = / ]; do d="$(dirname "$d")"; done; ` +
    `cd "$d" && exec ${path} ${args}`
  );
}
