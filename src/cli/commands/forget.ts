import type { Command } from 'commander';
import type { Constraint } from '../../core/types.js';
import { type CommandIO, processIO } from './io.js';
import { parseStoreOption, storeOption } from './store-option.js';

export interface ForgetCommandOptions {
  readonly stateDir?: string;
  readonly store?: string;
  readonly dryRun?: boolean;
  readonly json?: boolean;
}

const HELP = `
Lifts learned constraints that are wrong: the file exists now, the command works now, or the ban
was never right. Name a constraint by its id (or the first characters of it, as inspect shows
them) or by its target. What is forgotten is written to the journal, and another process's stale
copy of the state cannot bring it back.

With --store sqlite or a redis:// URL the constraint is lifted in that shared store: every process
using it stops enforcing it (a Redis store tells them at once; SQLite within a fraction of a
second). The journal entry goes to the state directory either way.

Examples:
  $ narrowing-guard inspect                     # find the id or the target
  $ narrowing-guard forget 3f9c2a71d0
  $ narrowing-guard forget src/config.ts --dry-run
  $ narrowing-guard forget 3f9c2a71d0 --store redis://redis.internal:6379

Exit status: 0 when something was forgotten (or would be, with --dry-run), 1 when nothing matched,
2 when the state could not be opened.`;

export function register(program: Command): void {
  program
    .command('forget')
    .description('lift learned constraints by id or target')
    .argument('<selector...>', 'constraint ids (or their first 6+ characters) or targets')
    .option('--state-dir <dir>', 'state directory (default: .narrowing at the project root)')
    .addOption(storeOption())
    .option('--dry-run', 'show what would be forgotten, change nothing')
    .option('--json', 'print one JSON object')
    .addHelpText('after', HELP)
    .action(async (selectors: string[], options: ForgetCommandOptions) => {
      process.exitCode = await runForget(selectors, options, processIO(), process.cwd());
    });
}

/** Runs `narrowing-guard forget`; returns the exit code. */
export async function runForget(
  selectors: readonly string[],
  options: ForgetCommandOptions,
  io: CommandIO,
  cwd: string,
): Promise<number> {
  const { openGuard } = await import('../../guard/index.js');
  const report = await import('../../report/index.js');
  const stateDir = report.resolveStateDir(options.stateDir, cwd);
  let guard: Awaited<ReturnType<typeof openGuard>>;
  try {
    guard = await openGuard({
      ...(options.store !== undefined && { store: parseStoreOption(options.store) }),
      stateDir,
      workspaceRoot: cwd,
      probe: false,
      journal: !options.dryRun,
      whenStateUnavailable: 'throw',
      onProblem: (message) => io.stderr.write(`narrowing-guard forget: ${message}\n`),
    });
  } catch (error) {
    io.stderr.write(`narrowing-guard forget: ${(error as Error).message}\n`);
    return 2;
  }
  const matches = report.constraintSelector(selectors);
  const chosen = options.dryRun
    ? guard.engine.getActiveConstraints().filter(matches)
    : guard.engine.forget(matches, `forgotten by hand (narrowing-guard forget ${selectors.join(' ')})`);
  await guard.close();
  // Said only of what a fresh look at the store no longer finds: a store may keep what was lifted.
  const kept = options.dryRun || chosen.length === 0 ? [] : await stillHeld(chosen);
  const forgotten = chosen.filter((constraint) => !kept.includes(constraint));
  const label = report.displayPath(stateDir, cwd);
  if (options.json) {
    io.stdout.write(
      `${JSON.stringify({
        stateDir: label,
        dryRun: options.dryRun === true,
        forgotten: forgotten.map(({ id, target }) => ({ id, target })),
        ...(kept.length > 0 && { stillInForce: kept.map(({ id, target }) => ({ id, target })) }),
      })}\n`,
    );
  } else if (chosen.length === 0) {
    io.stderr.write(
      `Nothing in ${label} matches ${selectors.join(', ')}. Run narrowing-guard inspect to see ids and targets.\n`,
    );
  } else {
    const verb = options.dryRun ? 'Would forget' : 'Forgot';
    if (forgotten.length > 0) {
      io.stdout.write(
        `${verb} ${forgotten.length} constraint${forgotten.length === 1 ? '' : 's'} in ${label}:\n`,
      );
      for (const constraint of forgotten) {
        io.stdout.write(`  ${constraint.id.slice(0, 10)}  ${report.describeConstraintEffect(constraint)}\n`);
      }
    }
    if (kept.length > 0) {
      io.stderr.write(
        `Still in force after forgetting (the store kept ${kept.length === 1 ? 'it' : 'them'}; ` +
          'a process that holds it may have written it back):\n',
      );
      for (const constraint of kept) {
        io.stderr.write(`  ${constraint.id.slice(0, 10)}  ${report.describeConstraintEffect(constraint)}\n`);
      }
    }
  }
  return chosen.length === 0 || kept.length > 0 ? 1 : 0;

  /** The forgotten constraints a guard opened afresh on the same store still enforces. */
  async function stillHeld(forgottenNow: readonly Constraint[]): Promise<Constraint[]> {
    try {
      const fresh = await openGuard({
        ...(options.store !== undefined && { store: parseStoreOption(options.store) }),
        stateDir,
        workspaceRoot: cwd,
        probe: false,
        journal: false,
        whenStateUnavailable: 'throw',
        onProblem: () => undefined,
      });
      try {
        return report.stillInForce(forgottenNow, fresh.engine.getActiveConstraints());
      } finally {
        await fresh.close();
      }
    } catch {
      return [];
    }
  }
}
