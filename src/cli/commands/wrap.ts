import { type Command, Option } from 'commander';
import type { PresetName } from '../../core/policy.js';
import type { ClientId, LauncherChoice } from '../../install/index.js';
import { type CommandIO, processIO, wantsColour } from './io.js';
import { storeForConfig, storeOption } from './store-option.js';

export interface WrapCommandOptions {
  readonly client?: ClientId | 'all';
  readonly cwd?: string;
  readonly dryRun?: boolean;
  readonly stateDir?: string;
  readonly preset?: PresetName;
  readonly policy?: string;
  readonly store?: string;
  readonly launcher?: LauncherChoice;
}

const HELP = `
Rewrites the server's entry in the project's MCP config so that the client starts it
through \`narrowing-guard mcp\`. Only the entry's "command" and the start of its "args" change;
comments, other servers and other settings keep their exact bytes. The original entry is
saved in <state-dir>/wrapped/, and \`narrowing-guard unwrap <server>\` puts it back byte for byte.

Config files, in the project directory (--cwd):
  claude  .mcp.json               cursor  .cursor/mcp.json
  vscode  .vscode/mcp.json        gemini  .gemini/settings.json
With --client all (the default), every one of them that defines the server is wrapped.

How narrowing is started (--launcher auto): the project's own node_modules/.bin/narrowing
when it is installed there (as \${workspaceFolder}/node_modules/.bin/narrowing for Cursor and
VS Code), otherwise \`npx -y narrowing-guard\`. Use --launcher npx or local to choose.

Examples:
  $ narrowing-guard wrap filesystem --dry-run
  $ narrowing-guard wrap filesystem
  $ narrowing-guard wrap github --client vscode --preset strict
  $ narrowing-guard wrap memory --cwd ~/code/web --policy narrowing.yaml
  $ narrowing-guard wrap filesystem --store sqlite

Only servers that run a command can be wrapped. For a remote (URL) server, run the proxy
in front of it: narrowing mcp --http 127.0.0.1:8808 --upstream-url <url>.
Exit status: 0 when every file was wrapped (or already was), 1 when a file was refused,
2 for bad options or unreadable files.`;

export function register(program: Command): void {
  program
    .command('wrap')
    .description("run a project's MCP server through narrowing (edits the client's MCP config)")
    .argument('<server>', 'the server name, as in the config file')
    .addOption(clientOption())
    .option('--cwd <dir>', 'the project directory (default: the current directory)')
    .option('--dry-run', 'print the change as a diff and write nothing')
    .option(
      '--state-dir <dir>',
      'narrowing state directory, also passed to narrowing mcp (default: .narrowing)',
    )
    .addOption(
      new Option('--preset <name>', 'preset for narrowing mcp').choices(['precise', 'strict', 'off']),
    )
    .option('--policy <file>', 'policy file for narrowing mcp, YAML or JSON')
    .addOption(
      storeOption('store for narrowing mcp: file (default), sqlite or a redis:// URL without a password'),
    )
    .addOption(
      new Option('--launcher <how>', 'how the client starts narrowing')
        .choices(['auto', 'npx', 'local'])
        .default('auto'),
    )
    .addHelpText('after', HELP)
    .action(async (server: string, options: WrapCommandOptions) => {
      process.exitCode = await runWrap(server, options, processIO());
    });
}

export function clientOption(): Option {
  return new Option('--client <name>', 'which client config to edit')
    .choices(['claude', 'cursor', 'vscode', 'gemini', 'all'])
    .default('all');
}

/** Runs `narrowing-guard wrap`; returns the exit code. */
export async function runWrap(server: string, options: WrapCommandOptions, io: CommandIO): Promise<number> {
  const { resolve } = await import('node:path');
  const files = await import('../../install/index.js');
  const { summarise } = await import('../../install/summary.js');
  const { resolveStateDir } = await import('../../report/index.js');
  const projectDir = resolve(options.cwd ?? process.cwd());
  let changes: import('../../install/index.js').PlannedChange[];
  try {
    const narrowingOptions = await mcpOptions(options, projectDir);
    changes = files.planWrap({
      projectDir,
      server,
      client: options.client ?? 'all',
      stateDir: resolveStateDir(options.stateDir, projectDir),
      narrowingOptions,
      launcher: options.launcher ?? 'auto',
    });
  } catch (error) {
    io.stderr.write(`narrowing-guard wrap: ${(error as Error).message}\n`);
    return 2;
  }
  return report(
    changes,
    { action: 'wrap', server, projectDir, dryRun: options.dryRun ?? false },
    io,
    summarise,
  );
}

/** The options `narrowing-guard mcp` gets; paths are made relative to the project, where the client runs it. */
async function mcpOptions(options: WrapCommandOptions, projectDir: string): Promise<string[]> {
  const { isAbsolute, relative, resolve } = await import('node:path');
  const fromProject = (path: string) => {
    const absolute = resolve(projectDir, path);
    const inside = relative(projectDir, absolute);
    return inside.length > 0 && !inside.startsWith('..') && !isAbsolute(inside) ? inside : absolute;
  };
  const args: string[] = [];
  if (options.stateDir !== undefined) args.push('--state-dir', fromProject(options.stateDir));
  if (options.store !== undefined)
    args.push('--store', storeForConfig(options.store, "the client's MCP config"));
  if (options.preset !== undefined) args.push('--preset', options.preset);
  if (options.policy !== undefined) {
    const { loadPolicyFile } = await import('../../policy-file/index.js');
    // A policy that does not load would stop the server from starting: better to say so now.
    loadPolicyFile(resolve(projectDir, options.policy));
    args.push('--policy', fromProject(options.policy));
  }
  return args;
}

export async function report(
  changes: readonly import('../../install/index.js').PlannedChange[],
  settings: { action: 'wrap' | 'unwrap'; server: string; projectDir: string; dryRun: boolean },
  io: CommandIO,
  summarise: typeof import('../../install/summary.js').summarise,
): Promise<number> {
  const { applyChange } = await import('../../install/index.js');
  if (!settings.dryRun) {
    for (const change of changes) {
      try {
        applyChange(change);
      } catch (error) {
        io.stderr.write(
          `narrowing ${settings.action}: ${change.label} could not be written: ${(error as Error).message}\n`,
        );
        return 2;
      }
    }
  }
  const { createColors } = (await import('picocolors')).default;
  const colours = createColors(wantsColour(io));
  const summary = summarise(changes, {
    ...settings,
    paint: { added: colours.green, removed: colours.red, header: colours.cyan },
  });
  io.stdout.write(summary.stdout);
  io.stderr.write(summary.stderr);
  return summary.exitCode;
}
