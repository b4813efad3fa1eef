import type { Command } from 'commander';
import type { ReportContext } from './inspect.js';
import { type CommandIO, processIO } from './io.js';

export interface VerifyCommandOptions {
  readonly stateDir?: string;
  readonly journal?: string;
  readonly json?: boolean;
  readonly createKey?: boolean;
}

const HELP = `
Checks the journal's receipt chain: every receipt must hash to its own hash, link to the
one before it and carry the next number, and the head file must agree with the last one
(so that receipts cut off the end are noticed too). The first broken receipt is named.

Anyone who can write the journal can also rewrite the whole chain consistently. To make
that fail too, create a journal key outside the project (--create-key writes a random one
to ~/.config/narrowing/journal.key, mode 0600; NARROWING_JOURNAL_KEY overrides it): journals
then chain receipts and their head with HMAC-SHA256, and verify checks them with the key.

Examples:
  $ narrowing-guard verify
  $ narrowing-guard verify --journal /var/log/agents/journal.jsonl
  $ narrowing-guard verify --json
  $ narrowing-guard verify --create-key

Exit status: 0 when every receipt verifies, 1 when one does not (or the journal has no
receipts), 2 when the journal cannot be read.`;

export function register(program: Command): void {
  program
    .command('verify')
    .description("verify the journal's receipt chain")
    .option('--state-dir <dir>', 'state directory whose journal to verify (default: ./.narrowing)')
    .option('--journal <file>', 'a journal file (its head file is the .head.json next to it)')
    .option('--json', 'print one JSON object')
    .option('--create-key', 'create a journal key for this user (if none exists) and exit')
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
  if (options.createKey) {
    const { createJournalKey } = await import('../../audit/key.js');
    try {
      const { path, created } = createJournalKey();
      io.stdout.write(
        created
          ? `Created the journal key ${path} (0600). Journals opened from now on are keyed.\n`
          : `A journal key already exists at ${path}; it was left as it is.\n`,
      );
      return 0;
    } catch (error) {
      io.stderr.write(`narrowing-guard verify: ${(error as Error).message}\n`);
      return 2;
    }
  }
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
