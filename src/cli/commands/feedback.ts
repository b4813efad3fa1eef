import type { Command } from 'commander';
import { type CommandIO, processIO } from './io.js';
import { parseStoreOption, storeOption } from './store-option.js';

export interface FeedbackCommandOptions {
  readonly wrong?: string;
  readonly stateDir?: string;
  readonly store?: string;
  readonly json?: boolean;
}

const HELP = `
Tells narrowing that one of its verdicts was wrong: the call it blocked (or warned about) was real
work. The dispute is written to the journal with your reason, the learned constraints the verdict
rested on are lifted (the next identical call is allowed), and inspect, report and replay --judge
count it: every dispute is a false block measured in the field.

Name the verdict as:
  last                 the newest blocked or warned call
  42                   journal entry 42 (the number inspect and report show); journal.2.jsonl:42
                       for the journal of another process sharing the state directory
  3f9c2a71             the newest blocked or warned call with this call key (8+ characters)

Examples:
  $ narrowing-guard feedback last --wrong "the script exists now, I added it"
  $ narrowing-guard feedback 42 --wrong "this test is flaky, retrying is right" --json

From a Claude Code prompt: !npx narrowing-guard feedback last --wrong "…"

Exit status: 0 when the dispute was recorded, 1 when no verdict matches, 2 when the state could not
be opened or the command line is wrong.`;

export function register(program: Command): void {
  program
    .command('feedback')
    .description('mark a verdict as wrong: record the dispute and lift the constraint it came from')
    .argument('<verdict>', 'last, a journal entry number, or a call key')
    .requiredOption('--wrong <why>', 'why the verdict was wrong (kept in the journal)')
    .option('--state-dir <dir>', 'state directory (default: .narrowing at the project root)')
    .addOption(storeOption())
    .option('--json', 'print one JSON object')
    .addHelpText('after', HELP)
    .action(async (selector: string, options: FeedbackCommandOptions) => {
      process.exitCode = await runFeedback(selector, options, processIO(), process.cwd());
    });
}

/** Runs `narrowing-guard feedback`; returns the exit code. */
export async function runFeedback(
  selectorText: string,
  options: FeedbackCommandOptions,
  io: CommandIO,
  cwd: string,
): Promise<number> {
  const fail = (message: string, code: number) => {
    io.stderr.write(`narrowing-guard feedback: ${message}\n`);
    return code;
  };
  const why = (options.wrong ?? '').trim();
  if (why.length === 0) return fail('--wrong needs the reason the verdict was wrong', 2);
  const report = await import('../../report/index.js');
  const feedback = await import('../../report/feedback.js');
  const selector = feedback.parseDisputeSelector(selectorText);
  if (selector === undefined) {
    return fail(
      `"${selectorText.slice(0, 80)}" names no verdict: give last, a journal entry number (42) or a call key`,
      2,
    );
  }
  const stateDir = report.resolveStateDir(options.stateDir, cwd);
  const { stateLayout } = await import('../../node/index.js');
  const journals = feedback.journalsOf(stateLayout(stateDir).journal);
  const disputed = await feedback.findDisputed(journals, selector);
  const label = report.displayPath(stateDir, cwd);
  if (disputed === undefined) {
    return fail(
      `no blocked or warned call in ${label} matches ${selectorText}; run narrowing-guard inspect`,
      1,
    );
  }
  if (disputed.verdict === 'allow') {
    return fail(`entry ${disputed.seq} was allowed: only a block, halt or warning can be wrong`, 1);
  }
  const result = await liftAndRecord(
    disputed,
    why.slice(0, feedback.MAX_DISPUTE_REASON),
    options,
    stateDir,
    cwd,
  );
  if (typeof result === 'string') return fail(result, 2);
  const { basename } = await import('node:path');
  const where = `${basename(disputed.journalPath)}:${disputed.seq}`;
  if (options.json) {
    io.stdout.write(
      `${JSON.stringify({
        stateDir: label,
        disputed: {
          entry: where,
          tool: disputed.tool,
          verdict: disputed.verdict,
          rule: disputed.rule ?? null,
        },
        constraintIds: disputed.constraintIds ?? [],
        lifted: result.lifted.map(({ id, target }) => ({ id, target: target ?? null })),
        dispute: result.seq,
      })}\n`,
    );
    return 0;
  }
  const verb =
    disputed.verdict === 'warn' ? 'warned about' : disputed.verdict === 'halt' ? 'halted' : 'blocked';
  io.stdout.write(
    `Recorded: entry ${where} (${disputed.tool}, ${verb} by ${disputed.rule ?? 'no rule'}) was wrong.\n`,
  );
  if (result.lifted.length > 0) {
    io.stdout.write(`Lifted ${result.lifted.length} constraint${result.lifted.length === 1 ? '' : 's'}:\n`);
    for (const constraint of result.lifted) {
      io.stdout.write(`  ${constraint.id.slice(0, 10)}  ${report.describeConstraintEffect(constraint)}\n`);
    }
    io.stdout.write('The next identical call is allowed.\n');
  } else if ((disputed.constraintIds ?? []).length > 0) {
    io.stdout.write('The constraints it rested on are no longer in force: nothing to lift.\n');
  } else {
    io.stdout.write(
      `Nothing learned to lift: ${disputed.rule ?? 'this rule'} counts within a run, and a new prompt starts a new one.\n`,
    );
  }
  return 0;
}

/** Lifts what the verdict rested on and journals the dispute; a message when the state cannot be opened. */
async function liftAndRecord(
  disputed: import('../../report/feedback.js').DisputedEntry,
  why: string,
  options: FeedbackCommandOptions,
  stateDir: string,
  cwd: string,
): Promise<{ readonly lifted: import('../../core/types.js').Constraint[]; readonly seq: number } | string> {
  const { basename } = await import('node:path');
  const { openGuard } = await import('../../guard/index.js');
  const { openFreeJournal } = await import('./feedback-journal.js');
  const problems: string[] = [];
  const onProblem = (message: string) => problems.push(message);
  let journal: Awaited<ReturnType<typeof openFreeJournal>>;
  let guard: Awaited<ReturnType<typeof openGuard>>;
  try {
    journal = openFreeJournal(stateDir, disputed.sessionId, onProblem);
    guard = await openGuard({
      ...(options.store !== undefined && { store: parseStoreOption(options.store) }),
      stateDir,
      workspaceRoot: cwd,
      probe: false,
      journal,
      ...(disputed.sessionId !== undefined && { sessionId: disputed.sessionId }),
      whenStateUnavailable: 'throw',
      onProblem,
    });
  } catch (error) {
    return [(error as Error).message, ...problems].join('; ');
  }
  const ids = new Set(disputed.constraintIds ?? []);
  const lifted =
    ids.size === 0 ? [] : guard.engine.forget((constraint) => ids.has(constraint.id), `disputed: ${why}`);
  const seq = journal.record({
    type: 'dispute',
    at: Date.now(),
    journal: basename(disputed.journalPath),
    entry: disputed.seq,
    tool: disputed.tool,
    callKey: disputed.callKey,
    verdict: disputed.verdict,
    ...(disputed.rule !== undefined && { rule: disputed.rule }),
    constraintIds: [...ids],
    lifted: lifted.map((constraint) => constraint.id),
    why,
  });
  await guard.close();
  return { lifted, seq };
}
