import type { Command } from 'commander';
import type { ReportContext } from './inspect.js';
import { type CommandIO, processIO } from './io.js';

export interface VerifyCommandOptions {
  readonly stateDir?: string;
  readonly journal?: string;
  readonly json?: boolean;
}

const HELP = `
Checks the journal's receipt chain: every receipt must hash to its own hash, link to the
one before it and carry the next number, and the head file must agree with the last one
(so that receipts cut off the end are noticed too). The first broken receipt is named.

Examples:
  $ narrowing-guard verify
  $ narrowing-guard verify --journal /var/log/agents/journal.jsonl
  $ narrowing-guard verify --json

Exit status: 0 when every receipt verifies, 1 when one does not (or the journal has no
receipts), 2 when the journal cannot be read.`;

export function register(program: Command): void {
  program
    .command('verify')
    .description("verify the journal's receipt chain")
    .option('--state-dir <dir>', 'state directory whose journal to verify (default: ./.narrowing)')
    .option('--journal <file>', 'a journal file (its head file is the .head.json next to it)')
    .option('--json', 'print one JSON object')
    .addHelpText('after', HELP)
    .action(async (options: VerifyCommandOptions) => {
      process.exitCode = await runVerify(options, processIO(), { cwd: process.cwd() });
    });
}

/** Runs `narrowing-guard verify`; returns the exit code. */
export async function runVerify(
  options: VerifyCommandOptions,
  io: CommandIO,
  context: Pick<ReportContext, 'cwd'> & { readonly timeZone?: string },
): Promise<number> {
  const report = await import('../../report/index.js');
  let location: import('../../report/index.js').JournalLocation;
  try {
    location = report.locateJournal(options, context.cwd);
  } catch (error) {
    io.stderr.write(`narrowing-guard verify: ${(error as Error).message}\n`);
    return 2;
  }
  const result = report.verifyLocation(location);
  const label = report.displayPath(location.journal, context.cwd);
  if (options.json) io.stdout.write(`${JSON.stringify(report.verifyJson(result, label))}\n`);
  else {
    const text = report.formatVerifyReport(result, label, context.timeZone);
    (report.verifyExitCode(result) === 0 ? io.stdout : io.stderr).write(text);
    if (options.journal === undefined)
      io.stderr.write(report.otherJournalsNote(location.journal, context.cwd) ?? '');
  }
  return report.verifyExitCode(result);
}
