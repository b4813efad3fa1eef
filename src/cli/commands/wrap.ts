import { type Command, Option } from 'commander';
import type { PresetName } from '../../core/policy.js';
import type { ClientId, ConfigScope, LauncherChoice } from '../../install/index.js';
import { type CommandIO, processIO, wantsColour } from './io.js';
import { storeForConfig, storeOption } from './store-option.js';

export interface WrapCommandOptions {
  readonly client?: ClientId | 'all';
  readonly scope?: ConfigScope | 'auto';
  readonly cwd?: string;
  readonly dryRun?: boolean;
  readonly stateDir?: string;
  readonly preset?: PresetName;
  readonly policy?: string;
  readonly store?: string;
  readonly launcher?: LauncherChoice;
}

const HELP = `
Rewrites the server's entry in the client's MCP config (the project's, or your own in the
home directory) so that the client starts it
through \`narrowing-guard mcp\`. Only the entry's "command" and the start of its "args" change;
comments, other servers and other settings keep their exact bytes. The original entry is
saved in <state-dir>/wrapped/, and \`narrowing-guard unwrap <server>\` puts it back byte for byte.

Where servers are found (--scope; the project is --cwd, ~ is the home directory, HOME):
  client  project (--scope project)   user (--scope user)            local (--scope local)
  claude  .mcp.json  mcpServers       ~/.claude.json  mcpServers     ~/.claude.json
                                                                     projects["<project>"].mcpServers
  cursor  .cursor/mcp.json            ~/.cursor/mcp.json
  vscode  .vscode/mcp.json  servers   ~/.config/Code/User/mcp.json (macOS: ~/Library/Application
                                      Support/Code/User/mcp.json)
  gemini  .gemini/settings.json       ~/.gemini/settings.json
  codex   .codex/config.toml          ~/.codex/config.toml
          [mcp_servers.<name>]        [mcp_servers.<name>]
With --scope auto (the default), each client's server is wrapped where the client takes it
from: for Claude Code local first (where \`claude mcp add\` puts it), then project, then user.
With --client all (the default), every client that defines the server is wrapped. Every
message, and the --dry-run diff, names the file and the key the server was found under.
A file in the home directory is never edited through a symbolic link, and is written only if
it still holds what was read (clients rewrite it themselves); only the server's entry changes.
A user-scope server is started by this installation, as it runs in every project. In Codex's TOML only
the table's "command" and "args" values change, and the edited file is parsed again to check
that nothing else did.

How narrowing is started (--launcher auto): the project's own node_modules/.bin/narrowing
when it is installed there (as \${workspaceFolder}/node_modules/.bin/narrowing for Cursor and
VS Code), otherwise this installation (node <its bin/narrowing.js>). \`npx -y narrowing-guard\`
only with --launcher npx, since it runs whatever the registry holds under that name.

Examples:
  $ narrowing-guard wrap filesystem --dry-run
  $ narrowing-guard wrap filesystem
  $ narrowing-guard wrap github --client vscode --preset strict
  $ narrowing-guard wrap memory --cwd ~/code/web --policy narrowing.yaml
  $ narrowing-guard wrap github --client claude --scope user --dry-run
  $ narrowing-guard wrap filesystem --store sqlite

Only servers that run a command can be wrapped. For a remote (URL) server, run the proxy
in front of it: narrowing mcp --http 127.0.0.1:8808 --upstream-url <url>.
Exit status: 0 when every file was wrapped (or already was), 1 when a file was refused,
2 for bad options or unreadable files.`;

export function register(program: Command): void {
  program
    .command('wrap')
    .description("run an MCP server through narrowing (edits the client's MCP config)")
    .argument('<server>', 'the server name, as in the config file')
    .addOption(clientOption())
    .addOption(scopeOption())
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
    .choices(['claude', 'cursor', 'vscode', 'gemini', 'codex', 'all'])
    .default('all');
}

export function scopeOption(): Option {
  return new Option('--scope <scope>', "which of the client's configs: local, project, user, or auto")
    .choices(['auto', 'local', 'project', 'user'])
    .default('auto');
}

/** Runs `narrowing-guard wrap`; returns the exit code. */
export async function runWrap(server: string, options: WrapCommandOptions, io: CommandIO): Promise<number> {
  const { resolve } = await import('node:path');
  const files = await import('../../install/index.js');
  const { resolveStateDir } = await import('../../report/index.js');
  const projectDir = resolve(options.cwd ?? process.cwd());
  let narrowingOptions: string[];
  let userNarrowingOptions: string[];
  try {
    narrowingOptions = await mcpOptions(options, projectDir, 'relative');
    userNarrowingOptions = await mcpOptions(options, projectDir, 'absolute');
  } catch (error) {
    io.stderr.write(`narrowing-guard wrap: ${(error as Error).message}\n`);
    return 2;
  }
  const plan = () =>
    files.planWrap({
      projectDir,
      server,
      client: options.client ?? 'all',
      scope: options.scope ?? 'auto',
      stateDir: resolveStateDir(options.stateDir, projectDir),
      narrowingOptions,
      userNarrowingOptions,
      launcher: options.launcher ?? 'auto',
    });
  return runPlanned(plan, { action: 'wrap', server, projectDir, dryRun: options.dryRun ?? false }, io);
}

/**
 * The options `narrowing-guard mcp` gets. Paths are made relative to the project, where the client
 * runs it, or kept absolute for a user-scope server, which runs in every project.
 */
async function mcpOptions(
  options: WrapCommandOptions,
  projectDir: string,
  paths: 'relative' | 'absolute',
): Promise<string[]> {
  const { isAbsolute, relative, resolve } = await import('node:path');
  const fromProject = (path: string) => {
    const absolute = resolve(projectDir, path);
    if (paths === 'absolute') return absolute;
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

/**
 * Plans, and unless it is a dry run, plans again and applies while holding the lock of every config
 * file it changes, so that what it reports is what it wrote; then prints the outcome. A file that
 * could not be written (changed by another program meanwhile) is reported as such, and the others
 * as written.
 */
export async function runPlanned(
  plan: () => import('../../install/index.js').PlannedChange[],
  settings: { action: 'wrap' | 'unwrap'; server: string; projectDir: string; dryRun: boolean },
  io: CommandIO,
): Promise<number> {
  const { applyChange, withConfigLocks } = await import('../../install/index.js');
  const { summarise } = await import('../../install/summary.js');
  let changes: import('../../install/index.js').PlannedChange[];
  let failed = false;
  try {
    changes = plan();
    if (!settings.dryRun) {
      const paths = changes.filter((change) => change.status === 'change').map((change) => change.path);
      changes = await withConfigLocks(paths, () =>
        plan().map((change) => {
          try {
            applyChange(change);
            return change;
          } catch (error) {
            failed = true;
            return {
              ...change,
              status: 'refused' as const,
              after: change.before,
              message: `${change.label} could not be written, so it is unchanged: ${(error as Error).message}`,
            };
          }
        }),
      );
    }
  } catch (error) {
    io.stderr.write(`narrowing-guard ${settings.action}: ${(error as Error).message}\n`);
    return 2;
  }
  const { createColors } = (await import('picocolors')).default;
  const colours = createColors(wantsColour(io));
  const summary = summarise(changes, {
    ...settings,
    paint: { added: colours.green, removed: colours.red, header: colours.cyan },
  });
  io.stdout.write(summary.stdout);
  io.stderr.write(summary.stderr);
  return failed ? 2 : summary.exitCode;
}
