/**
 * How a client should start narrowing, and how to recognise a server that already runs through it.
 *
 * The rule: when the project has narrowing installed (`node_modules/.bin/narrowing` exists) and
 * the client starts servers where that path resolves, the installed copy is used directly: no
 * download, no npx start-up cost, the version the project pinned. Cursor and VS Code get
 * `${workspaceFolder}/node_modules/.bin/narrowing`, which they expand themselves; Claude Code and
 * Gemini CLI start servers in the project directory, so the relative path works — unless the server
 * sets its own `cwd`. Codex is not documented to start servers there, so it always gets npx. Everywhere else (no local install, a server with its own `cwd`, Windows,
 * where `.bin` holds `.cmd` shims a client cannot start without a shell) it is
 * `npx -y narrowing-guard`, which also prefers a locally installed copy when there is one.
 */
import { basename } from 'node:path';
import type { McpClient } from './clients.js';

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
}

export function chooseLauncher(choice: LauncherChoice, context: LauncherContext): Launcher {
  if (choice === 'npx') return NPX_LAUNCHER;
  const local = localLauncher(context);
  if (choice === 'local') {
    if (!context.installedLocally) {
      throw new Error(
        `narrowing is not installed in this project (${LOCAL_BIN} does not exist). ` +
          'Run `npm install --save-dev narrowing` first, or use --launcher npx.',
      );
    }
    return local ?? { command: LOCAL_BIN, args: [] };
  }
  return context.installedLocally && local ? local : NPX_LAUNCHER;
}

function localLauncher(context: LauncherContext): Launcher | undefined {
  if (context.platform === 'win32') return undefined;
  if (context.client.expandsWorkspaceFolder) {
    return { command: `\${workspaceFolder}/${LOCAL_BIN}`, args: [] };
  }
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
