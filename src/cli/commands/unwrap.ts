import type { Command } from 'commander';
import type { ClientId, ConfigScope } from '../../install/index.js';
import { type CommandIO, processIO } from './io.js';
import { clientOption, runPlanned, scopeOption } from './wrap.js';

export interface UnwrapCommandOptions {
  readonly client?: ClientId | 'all';
  readonly scope?: ConfigScope | 'auto';
  readonly cwd?: string;
  readonly dryRun?: boolean;
  readonly stateDir?: string;
  readonly force?: boolean;
}

const HELP = `
Puts back the server entry that \`narrowing-guard wrap\` replaced, byte for byte, from the copy
saved in <state-dir>/wrapped/. If the entry was edited since but its command line is still the
one wrap wrote, only the command and its arguments are put back and the other edits (an added
"env" variable, a "cwd") stay; the message names the keys that were edited. If the command
line itself was edited, the entry is left alone and named, with the edits shown; --force
restores the saved original anyway. Without a saved copy (a config wrapped on another machine),
the entry is rebuilt from the wrapped command line: the server command after "--" becomes the
command again. --client and --scope choose the configs as for wrap; with --scope auto, every
config where the server runs through narrowing is restored.

Examples:
  $ narrowing-guard unwrap filesystem --dry-run
  $ narrowing-guard unwrap filesystem
  $ narrowing-guard unwrap github --client vscode --force

Exit status: 0 when every file was restored (or was not wrapped), 1 when a file was
refused, 2 for bad options or unreadable files.`;

export function register(program: Command): void {
  program
    .command('unwrap')
    .description('undo `narrowing-guard wrap`: restore the original MCP server entry')
    .argument('<server>', 'the server name, as in the config file')
    .addOption(clientOption())
    .addOption(scopeOption())
    .option('--cwd <dir>', 'the project directory (default: the current directory)')
    .option('--dry-run', 'print the change as a diff and write nothing')
    .option('--state-dir <dir>', 'narrowing state directory the original was saved in (default: .narrowing)')
    .option('--force', 'restore the saved original even if the wrapped command line was edited since')
    .addHelpText('after', HELP)
    .action(async (server: string, options: UnwrapCommandOptions) => {
      process.exitCode = await runUnwrap(server, options, processIO());
    });
}

/** Runs `narrowing-guard unwrap`; returns the exit code. */
export async function runUnwrap(
  server: string,
  options: UnwrapCommandOptions,
  io: CommandIO,
): Promise<number> {
  const { resolve } = await import('node:path');
  const files = await import('../../install/index.js');
  const { resolveStateDir } = await import('../../report/index.js');
  const projectDir = resolve(options.cwd ?? process.cwd());
  const plan = () =>
    files.planUnwrap({
      projectDir,
      server,
      client: options.client ?? 'all',
      scope: options.scope ?? 'auto',
      stateDir: resolveStateDir(options.stateDir, projectDir),
      force: options.force ?? false,
    });
  return runPlanned(plan, { action: 'unwrap', server, projectDir, dryRun: options.dryRun ?? false }, io);
}
