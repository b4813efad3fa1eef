import type { Command } from 'commander';
import { HOOK_HELP } from '../../hooks/help.js';
import { storeOption } from './store-option.js';

export function register(program: Command): void {
  program
    .command('hook')
    .description("answer one of an agent's hook events (run by the agent, on every tool call)")
    .argument('<agent>', 'claude-code, gemini-cli, codex or cursor')
    .option('--policy <file>', 'policy file (JSON or YAML)')
    .option('--preset <name>', 'precise, strict or advisory')
    .option(
      '--state-dir <dir>',
      'state directory (default: .narrowing at the root of the project in the payload)',
    )
    .addOption(
      storeOption(
        "where learned state is kept: file (default), sqlite (the sessions' run state too) or a redis:// URL",
      ),
    )
    .option('--fail-closed', 'refuse calls the guard could not check (default: let them run)')
    .option('--deadline-ms <n>', 'answer without the guard after this long (default 5000)')
    .option('--otel', 'emit OpenTelemetry spans for each verdict (see docs/visibility.md)')
    // The hook's own help: the bin hands `hook …` to the hook directly, and `help hook` says the same.
    .configureHelp({ formatHelp: () => `${HOOK_HELP}\n` })
    .action(async (agent: string, options: HookCommandOptions) => {
      const { hookMain } = await import('../../hooks/main.js');
      process.exitCode = await hookMain([agent, ...optionWords(options)]);
    });
}

interface HookCommandOptions {
  readonly policy?: string;
  readonly preset?: string;
  readonly stateDir?: string;
  readonly store?: string;
  readonly failClosed?: boolean;
  readonly deadlineMs?: string;
  readonly otel?: boolean;
}

/** The options as the words the hook's own entry reads (the bin hands `hook …` to it directly). */
function optionWords(options: HookCommandOptions): string[] {
  return [
    ...(options.policy !== undefined ? ['--policy', options.policy] : []),
    ...(options.preset !== undefined ? ['--preset', options.preset] : []),
    ...(options.stateDir !== undefined ? ['--state-dir', options.stateDir] : []),
    ...(options.store !== undefined ? ['--store', options.store] : []),
    ...(options.failClosed ? ['--fail-closed'] : []),
    ...(options.deadlineMs !== undefined ? ['--deadline-ms', options.deadlineMs] : []),
    ...(options.otel ? ['--otel'] : []),
  ];
}
