import type { Command } from 'commander';
import { storeOption } from './store-option.js';

const HELP = `
Run by a coding agent (Claude Code, Gemini CLI, Codex, Cursor) before and after each of its tool
calls, with the event as JSON on stdin. Answers on stdout in that agent's protocol: a call that
would fail again, or repeat again, is denied with the reason the model reads. Install it with
\`narrowing-guard install <agent>\` rather than by hand.

A fault of the guard itself never blocks the agent: the reason goes to stderr and the call runs.
--fail-closed refuses calls the guard could not check instead.

Examples:
  $ echo '{"session_id":"s1","cwd":".","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"a.ts"}}' | narrowing-guard hook claude-code`;

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
    .addHelpText('after', HELP)
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
