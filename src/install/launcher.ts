/**
 * How a client should start narrowing, and how to recognise a server that already runs through it.
 *
 * The rule: when the project has narrowing installed (`node_modules/.bin/narrowing` exists), the
 * installed copy is used directly: no download, the version the project pinned. Cursor and VS Code
 * get `${workspaceFolder}/node_modules/.bin/narrowing`, which they expand themselves; the other
 * clients get its absolute path, since they may start servers in whichever subfolder the session
 * began (a relative path would then not be found). Everywhere else (no local install, the user's
 * own config read in every project, Windows, where `.bin` holds `.cmd` shims a client cannot start
 * without a shell) it is this installation: `node <its bin/narrowing.js>`. `npx -y narrowing-guard`
 * only when asked for (`--launcher npx`): it runs whatever the registry holds under that name.
 */
import { basename, join } from 'node:path';
import type { McpClient } from './clients.js';
import { ownLauncherWords } from './self-command.js';

/** `auto` follows the rule above; `npx` and `local` force one form. */
export type LauncherChoice = 'auto' | 'npx' | 'local';

export interface Launcher {
  readonly command: string;
  /** Arguments before `mcp`. */
  readonly args: readonly string[];
}

export const NPX_LAUNCHER: Launcher = { command: 'npx', args: ['-y', 'narrowing-guard'] };

const LOCAL_BIN = 'node_modules/.bin/narrowing';

export interface LauncherContext {
  readonly client: McpClient;
  /** `node_modules/.bin/narrowing` exists in the project directory. */
  readonly installedLocally: boolean;
  /** The server entry sets its own working directory. */
  readonly entryHasCwd: boolean;
  readonly platform: NodeJS.Platform;
  /** The project (absolute), where the local install is. */
  readonly projectDir?: string;
}

/** This installation of narrowing, by its absolute path. */
export function ownLauncher(): Launcher {
  const [command, script] = ownLauncherWords();
  return { command, args: [script] };
}

export function chooseLauncher(choice: LauncherChoice, context: LauncherContext): Launcher {
  if (choice === 'npx') return NPX_LAUNCHER;
  const local = localLauncher(context);
  if (choice === 'local') {
    if (!context.installedLocally) {
      throw new Error(
        `narrowing-guard is not installed in this project (${LOCAL_BIN} does not exist). ` +
          'Install it first (see the README: `npm install --save-dev <path to narrowing-guard>`), or leave out --launcher.',
      );
    }
    return local ?? { command: LOCAL_BIN, args: [] };
  }
  return context.installedLocally && local ? local : ownLauncher();
}

function localLauncher(context: LauncherContext): Launcher | undefined {
  if (context.platform === 'win32') return undefined;
  if (context.client.expandsWorkspaceFolder) {
    return { command: `\${workspaceFolder}/${LOCAL_BIN}`, args: [] };
  }
  if (context.projectDir !== undefined) return { command: join(context.projectDir, LOCAL_BIN), args: [] };
  if (context.entryHasCwd || !context.client.startsServersInProject) return undefined;
  return { command: LOCAL_BIN, args: [] };
}

export interface StdioCommand {
  readonly command: string;
  readonly args: readonly string[];
}

/** `<launcher> mcp <options…> -- <command> <args…>` */
export function wrapCommand(
  launcher: Launcher,
  narrowingOptions: readonly string[],
  upstream: StdioCommand,
): StdioCommand {
  return {
    command: launcher.command,
    args: [...launcher.args, 'mcp', ...narrowingOptions, '--', upstream.command, ...upstream.args],
  };
}

export type WrappedReading =
  | { readonly wrapped: false }
  /** `upstream` is absent when the wrapped server is not a command (`--upstream-url`). */
  | { readonly wrapped: true; readonly upstream?: StdioCommand };

/**
 * Whether a command line starts narrowing's proxy: some word of it names narrowing (`narrowing-guard`, `narrowing`,
 * `narrowing-guard@0.3.1`, `node_modules/.bin/narrowing`, `bin/narrowing.js`) and the next is `mcp`.
 */
export function readWrapped(command: StdioCommand): WrappedReading {
  const words = [command.command, ...command.args];
  const at = words.findIndex((word, index) => namesNarrowing(word) && words[index + 1] === 'mcp');
  if (at === -1) return { wrapped: false };
  const separator = words.indexOf('--', at + 2);
  const rest = separator === -1 ? [] : words.slice(separator + 1);
  const [upstreamCommand, ...upstreamArgs] = rest;
  if (upstreamCommand === undefined) return { wrapped: true };
  return { wrapped: true, upstream: { command: upstreamCommand, args: upstreamArgs } };
}

function namesNarrowing(word: string): boolean {
  const name = basename(word.replace(/\\/g, '/'))
    .replace(/@[^@/]*$/, '')
    .replace(/\.(?:js|mjs|cmd|exe)$/i, '');
  return name === 'narrowing' || name === 'narrowing-guard';
}
