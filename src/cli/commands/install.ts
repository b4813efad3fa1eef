import type { Command } from 'commander';
import type { HookChange, HookScope } from '../../install/agent-hooks.js';
import { type CommandIO, processIO } from './io.js';
import { storeForConfig, storeOption } from './store-option.js';

export interface InstallCommandOptions {
  readonly scope?: HookScope;
  readonly dryRun?: boolean;
  readonly cwd?: string;
  /** The user's home, for `--scope user` (tests set it). */
  readonly home?: string;
  /** The command the agent runs, before the agent's name (default: the project's install, else npx). */
  readonly command?: string;
  /** The store the hook uses, written into its command line. */
  readonly store?: string;
  readonly force?: boolean;
}

const AGENTS = 'claude-code, gemini-cli, codex or cursor';

const INSTALL_HELP = `
Writes narrowing-guard's hook entries into the agent's settings, after showing the diff:
  claude-code  .claude/settings.json   (--scope user: ~/.claude/settings.json)
  gemini-cli   .gemini/settings.json   (~/.gemini/settings.json)
  codex        .codex/hooks.json       (~/.codex/hooks.json)
  cursor       .cursor/hooks.json      (~/.cursor/hooks.json)
The settings as they were are saved in .narrowing/hooks/; \`narrowing-guard uninstall <agent>\`
puts them back byte for byte.

Examples:
  $ narrowing-guard install claude-code --dry-run
  $ narrowing-guard install codex --scope user
  $ narrowing-guard install claude-code --store sqlite

--store is written into the hook's command line (narrowing-guard hook <agent> --store …). To
change it later, uninstall and install again.`;

export function register(program: Command): void {
  program
    .command('install')
    .description("add narrowing-guard's hooks to a coding agent's settings")
    .argument('<agent>', AGENTS)
    .option('--scope <scope>', 'project or user', 'project')
    .option('--dry-run', 'print the change as a diff and write nothing')
    .option('--cwd <dir>', 'the project directory (default: the current directory)')
    .option('--command <command>', 'the command the agent runs, before the agent name')
    .addOption(storeOption('store for the hook: file (default), sqlite or a redis:// URL without a password'))
    .addHelpText('after', INSTALL_HELP)
    .action(async (agent: string, options: InstallCommandOptions) => {
      process.exitCode = await runInstall('install', agent, options, processIO());
    });
  program
    .command('uninstall')
    .description('undo `narrowing-guard install`: restore the agent settings byte for byte')
    .argument('<agent>', AGENTS)
    .option('--scope <scope>', 'project or user', 'project')
    .option('--dry-run', 'print the change as a diff and write nothing')
    .option('--cwd <dir>', 'the project directory (default: the current directory)')
    .option('--force', 'restore the saved original even if the settings were edited since')
    .action(async (agent: string, options: InstallCommandOptions) => {
      process.exitCode = await runInstall('uninstall', agent, options, processIO());
    });
}

/** Runs `install` or `uninstall`; returns the exit code (0 done, 1 refused, 2 bad arguments). */
export async function runInstall(
  action: 'install' | 'uninstall',
  agent: string,
  options: InstallCommandOptions,
  io: CommandIO,
): Promise<number> {
  const { homedir } = await import('node:os');
  const { join, resolve } = await import('node:path');
  const { isHostAgent } = await import('../../adapters/tool-call/host-tools.js');
  const hooks = await import('../../install/agent-hooks.js');
  const { defaultStateDir, STATE_DIR_NAME } = await import('../../node/state-dir.js');
  if (!isHostAgent(agent)) {
    io.stderr.write(`narrowing-guard: unknown agent "${agent}": use ${AGENTS}\n`);
    return 2;
  }
  const scope = options.scope ?? 'project';
  if (scope !== 'project' && scope !== 'user') {
    io.stderr.write(`narrowing-guard: --scope must be project or user (got "${scope}")\n`);
    return 2;
  }
  const projectDir = resolve(options.cwd ?? process.cwd());
  const homeDir = options.home ?? homedir();
  const stateDir = scope === 'user' ? join(homeDir, STATE_DIR_NAME) : defaultStateDir(projectDir);
  const target = { agent, scope, projectDir, homeDir, stateDir } as const;
  let change: HookChange;
  try {
    const store =
      options.store === undefined ? undefined : storeForConfig(options.store, `the ${agent} hook settings`);
    change =
      action === 'install'
        ? hooks.planHookInstall({
            ...target,
            ...(options.command !== undefined && { command: options.command }),
            ...(store !== undefined && { hookOptions: ['--store', store] }),
          })
        : hooks.planHookUninstall({ ...target, ...(options.force && { force: true }) });
  } catch (error) {
    io.stderr.write(`narrowing-guard: ${(error as Error).message}\n`);
    return 2;
  }
  if (change.status === 'refused') {
    io.stderr.write(`${change.message}\n`);
    return 1;
  }
  const diff = hooks.hookChangeDiff(change);
  if (diff !== '') io.stdout.write(diff);
  if (options.dryRun) {
    io.stdout.write('Dry run: nothing was written.\n');
    return 0;
  }
  hooks.applyHookChange(change);
  io.stdout.write(`${change.message}\n`);
  return 0;
}
