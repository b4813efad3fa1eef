import type { Command } from 'commander';
import type { ReportContext } from './inspect.js';
import { type CommandIO, processIO } from './io.js';
import { parseStoreOption, readStoreState, storeOption } from './store-option.js';

export interface ExplainCommandOptions {
  readonly stateDir?: string;
  readonly journal?: string;
  readonly session?: string;
  readonly store?: string;
  readonly json?: boolean;
  readonly secondsPerCall?: string;
  readonly costPerCall?: string;
}

const HELP = `
Tells one session from the journal in plain English: the calls the agent made (by tool,
with successes and failures), what was blocked and why (by rule, with an example reason),
which constraints were learned and lifted, and what the blocks saved.

Only blocked calls that would have repeated a known failure count as saved. Each is taken
to cost one tool run plus one model turn: by default 10 seconds and $0.003 (a short tool
call and a small turn); set your own figures with --seconds-per-call and --cost-per-call.

With --store, it ends with the constraints in force now in that store (file, sqlite or a
redis:// URL): what every process using the store enforces, whichever process learned it.
Without a journal (a Redis store journals nothing by default) it shows those alone.

Examples:
  $ narrowing-guard explain
  $ narrowing-guard explain --session 5ae9fd34
  $ narrowing-guard explain --seconds-per-call 30 --cost-per-call 0.02
  $ narrowing-guard explain --journal ci/journal.jsonl --json
  $ narrowing-guard explain --store sqlite

Exit status: 0 when the session was explained, 2 when the journal cannot be read or the
session is not in it.`;

export function register(program: Command): void {
  program
    .command('explain')
    .description('explain a session from the journal in plain English')
    .option('--state-dir <dir>', 'state directory whose journal to read (default: ./.narrowing)')
    .option('--journal <file>', 'a journal file')
    .option('--session <id>', 'the session (an id or the start of one); default: the latest')
    .addOption(
      storeOption('also show the constraints in force in this store: file, sqlite or a redis:// URL'),
    )
    .option('--seconds-per-call <seconds>', 'time one avoided call is taken to cost', '10')
    .option('--cost-per-call <dollars>', 'money one avoided call is taken to cost', '0.003')
    .option('--json', 'print one JSON object')
    .addHelpText('after', HELP)
    .action(async (options: ExplainCommandOptions) => {
      process.exitCode = await runExplain(options, processIO(), { cwd: process.cwd() });
    });
}

/** Runs `narrowing-guard explain`; returns the exit code. */
export async function runExplain(
  options: ExplainCommandOptions,
  io: CommandIO,
  context: Pick<ReportContext, 'cwd'> & { readonly timeZone?: string; readonly now?: number },
): Promise<number> {
  const report = await import('../../report/index.js');
  const { readJournal } = await import('../../audit/index.js');
  const fail = (message: string) => {
    io.stderr.write(`narrowing-guard explain: ${message}\n`);
    return 2;
  };
  const secondsPerCall = Number(options.secondsPerCall ?? report.DEFAULT_SAVINGS.secondsPerCall);
  const costPerCall = Number(options.costPerCall ?? report.DEFAULT_SAVINGS.costPerCall);
  if (!Number.isFinite(secondsPerCall) || secondsPerCall < 0) {
    return fail(`--seconds-per-call takes a number of seconds, 0 or more (got "${options.secondsPerCall}")`);
  }
  if (!Number.isFinite(costPerCall) || costPerCall < 0) {
    return fail(`--cost-per-call takes an amount in dollars, 0 or more (got "${options.costPerCall}")`);
  }
  let inForce: InForce | undefined;
  if (options.store !== undefined) {
    try {
      parseStoreOption(options.store);
      const state = await readStoreState(
        options.store,
        report.resolveStateDir(options.stateDir, context.cwd),
      );
      const now = context.now ?? Date.now();
      inForce = {
        store: (await import('../../stores/redis-url.js')).redactRedisUrl(options.store),
        constraints: (state?.constraints ?? []).filter((constraint) => constraint.expiresAt > now),
      };
    } catch (error) {
      return fail((error as Error).message);
    }
  }
  let location: import('../../report/index.js').JournalLocation;
  try {
    location = report.locateJournal(options, context.cwd);
  } catch (error) {
    if (inForce !== undefined && options.journal === undefined) return writeInForce(inForce, options, io);
    return fail((error as Error).message);
  }
  const label = report.displayPath(location.journal, context.cwd);
  let badLines = 0;
  let index: Awaited<ReturnType<typeof report.indexSessions>>;
  try {
    index = await report.indexSessions(readJournal(location.journal, { onBadLine: () => badLines++ }));
  } catch (error) {
    if (inForce !== undefined && options.journal === undefined) return writeInForce(inForce, options, io);
    return fail(
      `${(error as Error).message}${options.journal ? '' : ' Run an agent through `narrowing-guard mcp` first.'}`,
    );
  }
  const choice = report.chooseSession(index, options.session);
  if (!choice.ok) return fail(`${label}: ${choice.problem}`);
  const story = choice.session.story();
  const assumption = { secondsPerCall, costPerCall };
  if (options.json) {
    const json = report.explanationJson(story, assumption) as Record<string, unknown>;
    io.stdout.write(
      `${JSON.stringify(inForce ? { ...json, inForce: await inForceJson(inForce) } : json, null, 2)}\n`,
    );
    return 0;
  }
  const timeZone = context.timeZone;
  io.stdout.write(
    report.formatExplanation(story, {
      journalLabel: label,
      assumption,
      ...(timeZone !== undefined && { timeZone }),
    }),
  );
  if (inForce) io.stdout.write(`\n${await inForceText(inForce)}`);
  if (badLines > 0) {
    io.stderr.write(
      `narrowing-guard explain: ${badLines} damaged journal line${badLines === 1 ? ' was' : 's were'} skipped; ` +
        'run `narrowing-guard verify` to see what happened to it.\n',
    );
  }
  if (options.journal === undefined)
    io.stderr.write(report.otherJournalsNote(location.journal, context.cwd) ?? '');
  return 0;
}

/** The constraints a store enforces now, for `--store`. */
interface InForce {
  /** The store as it may be printed (a Redis password hidden). */
  readonly store: string;
  readonly constraints: readonly import('../../core/types.js').Constraint[];
}

async function inForceText(inForce: InForce): Promise<string> {
  const { describeConstraintEffect } = await import('../../report/index.js');
  const count = inForce.constraints.length;
  const lines = [
    `In force now in the ${inForce.store} store: ${count} constraint${count === 1 ? '' : 's'}${count > 0 ? ':' : '.'}`,
    ...inForce.constraints.map(
      (constraint) => `  ${constraint.id.slice(0, 10)}  ${describeConstraintEffect(constraint)}`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}

async function inForceJson(inForce: InForce) {
  const { describeConstraintEffect } = await import('../../report/index.js');
  return {
    store: inForce.store,
    constraints: inForce.constraints.map((constraint) => ({
      id: constraint.id,
      ...(constraint.target !== undefined && { target: constraint.target }),
      blocks: describeConstraintEffect(constraint),
      expiresAt: Number.isFinite(constraint.expiresAt) ? constraint.expiresAt : null,
    })),
  };
}

async function writeInForce(
  inForce: InForce,
  options: ExplainCommandOptions,
  io: CommandIO,
): Promise<number> {
  if (options.json) io.stdout.write(`${JSON.stringify({ inForce: await inForceJson(inForce) }, null, 2)}\n`);
  else io.stdout.write(`No journal to tell a session from.\n${await inForceText(inForce)}`);
  return 0;
}
