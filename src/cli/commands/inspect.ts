import type { Command } from 'commander';
import { type CommandIO, processIO } from './io.js';
import { parseStoreOption, readSharedState, storeOption } from './store-option.js';

export interface InspectCommandOptions {
  readonly stateDir?: string;
  readonly store?: string;
  readonly json?: boolean;
  readonly all?: boolean;
  readonly recent?: string;
}

/** Where the command runs and what time it is; tests pass their own. */
export interface ReportContext {
  readonly cwd: string;
  readonly now: number;
  /** The user's home, where hooks installed for the user are recorded (default: the real one). */
  readonly homeDir?: string;
}

const HELP = `
Shows what narrowing has learned in a state directory: each constraint with its scope, what
it blocks, the failures behind it and when it expires (an expired ban goes on probation: one
retry is let through). Then the most recent blocks from the journal: tool, rule, reason.

Examples:
  $ narrowing-guard inspect
  $ narrowing-guard inspect --state-dir ~/agents/web/.narrowing --all
  $ narrowing-guard inspect --json | jq '.constraints[] | {blocks, expiresAt}'

Exit status: 0 when the state could be read (even if empty), 2 when it could not.`;

export function register(program: Command): void {
  program
    .command('inspect')
    .description('show learned constraints and recent blocks')
    .option('--state-dir <dir>', 'state directory (default: ./.narrowing)')
    .addOption(storeOption())
    .option('--all', 'include expired constraints and every block in the journal')
    .option('--recent <count>', 'how many recent blocks to show', '10')
    .option('--json', 'print one JSON object')
    .addHelpText('after', HELP)
    .action(async (options: InspectCommandOptions) => {
      process.exitCode = await runInspect(options, processIO(), { cwd: process.cwd(), now: Date.now() });
    });
}

/** Runs `narrowing-guard inspect`; returns the exit code. */
export async function runInspect(
  options: InspectCommandOptions,
  io: CommandIO,
  context: ReportContext,
): Promise<number> {
  const { existsSync, readFileSync } = await import('node:fs');
  const { parseStateText } = await import('../../stores/index.js');
  const { stateLayout } = await import('../../node/index.js');
  const report = await import('../../report/index.js');
  const limit = options.all ? Number.POSITIVE_INFINITY : Number(options.recent ?? '10');
  if (limit !== Number.POSITIVE_INFINITY && !(Number.isInteger(limit) && limit >= 0)) {
    io.stderr.write(`narrowing-guard inspect: --recent takes a whole number (got "${options.recent}")\n`);
    return 2;
  }
  const layout = stateLayout(report.resolveStateDir(options.stateDir, context.cwd));
  const label = `${report.displayPath(layout.dir, context.cwd)}/`;
  const shared = options.store !== undefined && options.store !== 'file' && options.store !== 'memory';
  if (shared) {
    try {
      parseStoreOption(options.store as string);
    } catch (error) {
      io.stderr.write(`narrowing-guard inspect: ${(error as Error).message}\n`);
      return 2;
    }
  }
  const hasState = shared || existsSync(layout.state);
  const hasJournal = existsSync(layout.journal);
  if (!hasState && !hasJournal) {
    if (options.json) {
      io.stdout.write(
        `${JSON.stringify({ constraints: [], hiddenExpired: 0, blocks: [], totalBlocks: 0 })}\n`,
      );
    } else {
      const { homedir } = await import('node:os');
      const { join } = await import('node:path');
      const { emptyStateMessage, guardedFaces } = await import('./inspect-guarded.js');
      const userStateDir = join(context.homeDir ?? homedir(), '.narrowing');
      io.stdout.write(emptyStateMessage(label, guardedFaces(layout.dir, userStateDir)));
    }
    return 0;
  }
  let state: import('../../core/types.js').PersistedState | undefined;
  let recent: import('../../report/index.js').RecentBlocks | undefined;
  try {
    if (shared) {
      state = await readSharedState(options.store as string, layout.dir);
    } else if (hasState) {
      const parsed = parseStateText(readFileSync(layout.state, 'utf8'));
      if (!parsed.ok) {
        io.stderr.write(
          `narrowing-guard inspect: ${layout.state} cannot be read: ${parsed.reason}. ` +
            'narrowing moves a damaged state file aside (and reports it) the next time it starts.\n',
        );
        return 2;
      }
      state = parsed.state;
    }
    if (hasJournal) recent = await report.recentBlocks(layout.journal, limit);
  } catch (error) {
    io.stderr.write(`narrowing-guard inspect: ${(error as Error).message}\n`);
    return 2;
  }
  const inspection = report.buildInspection({ state, recent, now: context.now, all: options.all ?? false });
  if (options.json) io.stdout.write(`${JSON.stringify(report.inspectionJson(inspection), null, 2)}\n`);
  else {
    io.stdout.write(report.formatInspection(inspection, { stateDirLabel: label }));
    io.stderr.write(report.otherJournalsNote(layout.journal, context.cwd) ?? '');
  }
  return 0;
}
