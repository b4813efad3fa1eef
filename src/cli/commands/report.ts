import type { Command } from 'commander';
import { type CommandIO, processIO } from './io.js';

export interface ReportCommandOptions {
  readonly session?: string;
  readonly since?: string;
  readonly until?: string;
  readonly out?: string;
  readonly json?: boolean;
  readonly stateDir?: string;
  readonly journal?: string;
}

const HELP = `
Writes one session (the latest by default), or every session in a time range, as a single HTML
file that opens offline: calls, failures, warnings, blocks, compactions and new prompts on one
timeline; blocks and disputes by rule; the constraints learned with their evidence; and what was
saved (calls blocked, tokens and time spared, with the method of the estimate). For a pull request
or an incident review. --json prints the same figures instead.

Examples:
  $ narrowing-guard report                                  # the latest session → narrowing-report.html
  $ narrowing-guard report --session 4f1c --out review.html
  $ narrowing-guard report --since 2026-11-28T09:00 --until 2026-11-28T18:00 --json

Exit status: 0 when the report was written, 1 when nothing matched, 2 on a wrong command line.`;

export function register(program: Command): void {
  program
    .command('report')
    .description('a session (or a time range) as one self-contained HTML file, or --json')
    .option('--session <id>', 'the session (or a unique prefix of its id); default: the latest')
    .option('--since <time>', 'every session from this time (ISO 8601, local time unless it says)')
    .option('--until <time>', 'up to this time (with --since, or alone)')
    .option('--out <file>', 'where to write the HTML (default: narrowing-report.html)')
    .option('--json', 'print the figures as one JSON object instead')
    .option('--state-dir <dir>', 'state directory (default: .narrowing at the project root)')
    .option('--journal <file>', 'read this journal instead of the state directory’s')
    .addHelpText('after', HELP)
    .action(async (options: ReportCommandOptions) => {
      process.exitCode = await runReport(options, processIO(), process.cwd());
    });
}

/** Runs `narrowing-guard report`; returns the exit code. */
export async function runReport(options: ReportCommandOptions, io: CommandIO, cwd: string): Promise<number> {
  const fail = (message: string, code: number) => {
    io.stderr.write(`narrowing-guard report: ${message}\n`);
    return code;
  };
  const since = parseTime(options.since);
  const until = parseTime(options.until);
  if (since === null || until === null)
    return fail('--since and --until take an ISO 8601 time (2026-11-28T09:00)', 2);
  const range = since !== undefined || until !== undefined;
  if (range && options.session !== undefined)
    return fail('give either --session or --since/--until, not both', 2);
  const report = await import('../../report/index.js');
  const { journalsOf } = await import('../../report/feedback.js');
  const { readJournal } = await import('../../audit/index.js');
  const { ReportAccumulator } = await import('../../report/html/data.js');
  let location: ReturnType<typeof report.locateJournal>;
  try {
    location = report.locateJournal(options, cwd);
  } catch (error) {
    return fail((error as Error).message, 2);
  }
  const journals = options.journal !== undefined ? [location.journal] : journalsOf(location.journal);
  const { existsSync } = await import('node:fs');
  if (!journals.some((path) => existsSync(path))) {
    return fail(`no journal at ${report.displayPath(location.journal, cwd)} yet`, 1);
  }
  let session: string | undefined;
  if (!range) {
    const chosen = await chooseSession(journals, options.session, readJournal);
    if (!chosen.ok) return fail(chosen.problem, 1);
    session = chosen.session;
  }
  const accumulator = new ReportAccumulator();
  for (const path of journals) {
    if (!existsSync(path)) continue;
    for await (const entry of readJournal(path, { onBadLine: () => undefined })) {
      if (session !== undefined && entry.sessionId !== session) continue;
      if (since !== undefined && entry.at < since) continue;
      if (until !== undefined && entry.at > until) continue;
      accumulator.add(entry);
    }
  }
  const data = accumulator.result();
  if (data.from === undefined) return fail('no journal entries in that time range', 1);
  if (options.json) {
    io.stdout.write(`${JSON.stringify(data)}\n`);
    return 0;
  }
  const { renderReportHtml } = await import('../../report/html/render.js');
  const { resolve } = await import('node:path');
  const { writeFileSync } = await import('node:fs');
  const out = resolve(cwd, options.out ?? 'narrowing-report.html');
  const title = session !== undefined ? `narrowing report: session ${session}` : 'narrowing report';
  const html = renderReportHtml(data, { title, source: report.displayPath(location.journal, cwd) });
  writeFileSync(out, html, { mode: 0o600 });
  const { totals, saved } = data;
  io.stdout.write(
    `Wrote ${report.displayPath(out, cwd)} (${Math.ceil(Buffer.byteLength(html) / 1024)} KB, opens offline): ` +
      `${totals.calls} calls, ${totals.failures} failed, ${totals.blocks} blocked, ${totals.disputes} disputed; ` +
      `≈ ${saved.tokens} tokens and ${saved.seconds} s spared.\n`,
  );
  return 0;
}

/** Milliseconds for a time given on the command line; undefined when absent, null when unreadable. */
function parseTime(text: string | undefined): number | undefined | null {
  if (text === undefined) return undefined;
  const at = Date.parse(text);
  return Number.isFinite(at) ? at : null;
}

/** The session named (by id or unique prefix), or the one of the newest entry. */
async function chooseSession(
  journals: readonly string[],
  wanted: string | undefined,
  read: typeof import('../../audit/index.js').readJournal,
): Promise<{ ok: true; session: string } | { ok: false; problem: string }> {
  const { existsSync } = await import('node:fs');
  const sessions = new Set<string>();
  let latest: { at: number; session: string } | undefined;
  for (const path of journals) {
    if (!existsSync(path)) continue;
    for await (const entry of read(path, { onBadLine: () => undefined })) {
      if (entry.sessionId === undefined) continue;
      sessions.add(entry.sessionId);
      if (entry.type === 'dispute') continue;
      if (latest === undefined || entry.at >= latest.at) latest = { at: entry.at, session: entry.sessionId };
    }
  }
  if (wanted === undefined) {
    return latest === undefined
      ? { ok: false, problem: 'the journal names no session yet' }
      : { ok: true, session: latest.session };
  }
  if (sessions.has(wanted)) return { ok: true, session: wanted };
  const matches = [...sessions].filter((id) => id.startsWith(wanted));
  if (matches.length === 1) return { ok: true, session: matches[0]! };
  return {
    ok: false,
    problem:
      matches.length === 0
        ? `no session "${wanted.slice(0, 80)}" in the journal`
        : `"${wanted}" matches ${matches.length} sessions; give more of the id`,
  };
}
