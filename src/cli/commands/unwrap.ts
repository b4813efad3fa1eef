import type { Command } from 'commander';
import type { ClientId } from '../../install/index.js';
import { type CommandIO, processIO } from './io.js';
import { clientOption, report } from './wrap.js';

export interface UnwrapCommandOptions {
  readonly client?: ClientId | 'all';
  readonly cwd?: string;
  readonly dryRun?: boolean;
  readonly stateDir?: string;
  readonly force?: boolean;
}

const HELP = `
Puts back the server entry that \`narrowing-guard wrap\` replaced, byte for byte, from the copy
saved in <state-dir>/wrapped/. If the wrapped entry was edited since, unwrap refuses and
shows the edits (restoring would undo them); --force restores the original anyway.
Without a saved copy (a config wrapped on another machine), the entry is rebuilt from the
wrapped command line: the server command after "--" becomes the command again.

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
    .option('--cwd <dir>', 'the project directory (default: the current directory)')
    .option('--dry-run', 'print the change as a diff and write nothing')
    .option('--state-dir <dir>', 'narrowing state directory the original was saved in (default: .narrowing)')
    .option('--force', 'restore the saved original even if the wrapped entry was edited since')
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
  const { summarise } = await import('../../install/summary.js');
  const { resolveStateDir } = await import('../../report/index.js');
  const projectDir = resolve(options.cwd ?? process.cwd());
  let changes: import('../../install/index.js').PlannedChange[];
  try {
    changes = files.planUnwrap({
      projectDir,
      server,
      client: options.client ?? 'all',
      stateDir: resolveStateDir(options.stateDir, projectDir),
      force: options.force ?? false,
    });
  } catch (error) {
    io.stderr.write(`narrowing-guard unwrap: ${(error as Error).message}\n`);
    return 2;
  }
  return report(
    changes,
    { action: 'unwrap', server, projectDir, dryRun: options.dryRun ?? false },
    io,
    summarise,
  );
}
