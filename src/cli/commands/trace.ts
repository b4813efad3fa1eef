import type { Command } from 'commander';
import { type CommandIO, processIO } from './io.js';

interface ConvertOptions {
  readonly output?: string;
  readonly name?: string;
}

export interface ClaudeConvertOptions extends ConvertOptions {
  /** Only the newest session of the folder (of the current project without a path). */
  readonly latest?: boolean;
  /** The folder whose project `--latest` looks for. Default: the current directory. */
  readonly cwd?: string;
  /** Standard input, for `-`. */
  readonly stdin?: AsyncIterable<string | Uint8Array>;
}

type Converter = 'journal' | 'claude';

const JOURNAL_HELP = `
Arguments are stored as digests by default, so a converted call may carry
{"$digest": "<sha256>"} instead of its arguments: identical calls still compare equal,
but rules that read arguments (targets, volatile parts) cannot see them. Results are
known by digest only; failures keep their error text.

Example:
  $ narrowing-guard trace from-journal .narrowing/journal.jsonl -o last-week.jsonl
  $ narrowing-guard replay last-week.jsonl --preset strict`;

const CLAUDE_HELP = `
Claude Code keeps one transcript per session under ~/.claude/projects/<project>/, the
project being its folder with every character but letters and digits turned into "-".
Give a transcript, a project's folder (every session in it, oldest first), "-" for
standard input, or --latest alone for the newest session of the current directory's
project. Tool calls pair with their results by tool-use id; user messages become "user"
events, compactions "compact" events, and parallel calls share a "turn". Subagents'
calls are kept with the subagent's id in "agent"; a call the user interrupted or
rejected has no result. What was left out is counted on standard error.

Examples:
  $ narrowing-guard trace from-claude --latest -o session.jsonl
  $ narrowing-guard trace from-claude ~/.claude/projects/-home-me-web/3f1c….jsonl -o session.jsonl
  $ narrowing-guard trace from-claude ~/.claude/projects/-home-me-web/ -o all-sessions.jsonl
  $ narrowing-guard replay session.jsonl`;

export function register(program: Command): void {
  const trace = program.command('trace').description('convert agent logs into replayable traces');
  trace
    .command('from-journal')
    .description('convert a narrowing journal into a trace')
    .argument('<journal>', 'journal file (JSON Lines written by narrowing)')
    .option('-o, --output <file>', 'write the trace here instead of standard output')
    .option('--name <name>', 'trace name for the meta line')
    .addHelpText('after', JOURNAL_HELP)
    .action(async (path: string, options: ConvertOptions) => {
      process.exitCode = await runConvert('journal', path, options, processIO());
    });
  trace
    .command('from-claude')
    .description('convert Claude Code transcripts into a trace')
    .argument('[transcript]', 'a session transcript, a project folder of them, or - for standard input')
    .option('--latest', "only the newest session (of the current directory's project without a path)")
    .option('-o, --output <file>', 'write the trace here instead of standard output')
    .option('--name <name>', 'trace name for the meta line')
    .addHelpText('after', CLAUDE_HELP)
    .action(async (path: string | undefined, options: ClaudeConvertOptions) => {
      process.exitCode = await runClaudeConvert(path, options, processIO());
    });
}

/** `trace from-claude`: finds the sessions, converts them, and says what was left out. */
export async function runClaudeConvert(
  path: string | undefined,
  options: ClaudeConvertOptions,
  io: CommandIO,
): Promise<number> {
  const { isNarrowingError } = await import('../../core/errors.js');
  const { convertClaudeSessions } = await import('../../trace/convert/claude-files.js');
  let sessions: string[];
  let name: string;
  try {
    ({ sessions, name } = await claudeSessionsToConvert(path, options, io));
  } catch (error) {
    if (!isNarrowingError(error)) throw error;
    io.stderr.write(`${error.message}\n`);
    return 2;
  }
  let converted: Awaited<ReturnType<typeof convertClaudeSessions>>;
  try {
    converted = await convertClaudeSessions(
      { sessions, ...(options.stdin ? { stdin: options.stdin } : {}) },
      options.name ?? name,
    );
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code !== 'string') throw error;
    io.stderr.write(
      `${describeSource(sessions)}: cannot read the transcript (${code === 'ELOOP' ? 'a link, not followed' : code})\n`,
    );
    return 2;
  }
  if (!(await writeTrace(converted.events, options.output, io))) return 2;
  const { describeClaudeConversion } = await import('../../trace/convert/claude-report.js');
  for (const line of describeClaudeConversion(converted.report)) io.stderr.write(`${line}\n`);
  return 0;
}

function describeSource(sessions: readonly string[]): string {
  return sessions.length === 1 ? (sessions[0] as string) : `${sessions.length} transcripts`;
}

async function claudeSessionsToConvert(
  path: string | undefined,
  options: ClaudeConvertOptions,
  io: CommandIO,
): Promise<{ sessions: string[]; name: string }> {
  const { lstatSync } = await import('node:fs');
  const { basename } = await import('node:path');
  const { NarrowingError } = await import('../../core/errors.js');
  const { findClaudeProjectDir, listClaudeSessions } = await import('../../trace/convert/claude-files.js');
  if (path === '-') return { sessions: ['-'], name: 'claude-code' };
  let dir: string;
  if (path === undefined) {
    if (!options.latest) {
      throw new NarrowingError(
        'USAGE',
        'give a transcript, a project folder or - for standard input, or --latest for the newest session of this project',
      );
    }
    dir = findClaudeProjectDir(options.cwd ?? process.cwd(), io.env);
  } else {
    let stat: ReturnType<typeof lstatSync>;
    try {
      stat = lstatSync(path);
    } catch (error) {
      throw new NarrowingError(
        'USAGE',
        `${path}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? error})`,
      );
    }
    if (stat.isSymbolicLink())
      throw new NarrowingError('USAGE', `${path}: a link, not followed: give the file it points to`);
    if (!stat.isDirectory()) return { sessions: [path], name: basename(path).replace(/\.jsonl?$/i, '') };
    dir = path;
  }
  const { sessions, links } = listClaudeSessions(dir);
  if (links > 0) io.stderr.write(`${links} ${links === 1 ? 'link' : 'links'} in ${dir} left alone\n`);
  const newest = sessions.at(-1);
  if (!newest) throw new NarrowingError('USAGE', `${dir}: no session transcripts (*.jsonl) in this folder`);
  if (options.latest) return { sessions: [newest.path], name: basename(newest.path, '.jsonl') };
  return { sessions: sessions.map((session) => session.path), name: basename(dir.replace(/[\\/]+$/, '')) };
}

async function writeTrace(
  events: Parameters<typeof import('../../trace/write.js').formatTrace>[0],
  output: string | undefined,
  io: CommandIO,
): Promise<boolean> {
  const { writeFileSync } = await import('node:fs');
  const { formatTrace } = await import('../../trace/write.js');
  const text = formatTrace(events);
  if (!output) {
    io.stdout.write(text);
    return true;
  }
  try {
    writeFileSync(output, text);
    return true;
  } catch (error) {
    io.stderr.write(
      `${output}: cannot write the trace (${(error as NodeJS.ErrnoException).code ?? error})\n`,
    );
    return false;
  }
}

/** Runs a conversion; returns the exit code. */
export async function runConvert(
  converter: Converter,
  path: string,
  options: ConvertOptions,
  io: CommandIO,
): Promise<number> {
  if (converter === 'claude') return runClaudeConvert(path, options, io);
  const { readFileSync, writeFileSync } = await import('node:fs');
  const { basename } = await import('node:path');
  const { journalToTrace } = await import('../../trace/convert/index.js');
  const { formatTrace } = await import('../../trace/write.js');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    io.stderr.write(`${path}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? error})\n`);
    return 2;
  }
  const name = options.name ?? basename(path).replace(/\.jsonl?$/i, '');
  const lines = text.split('\n');
  const { events, skipped } = journalToTrace(lines, name);
  const calls = events.filter((event) => event.type === 'call').length;
  const output = formatTrace(events);
  if (options.output) {
    try {
      writeFileSync(options.output, output);
    } catch (error) {
      io.stderr.write(
        `${options.output}: cannot write the trace (${(error as NodeJS.ErrnoException).code ?? error})\n`,
      );
      return 2;
    }
  } else {
    io.stdout.write(output);
  }
  const skippedNote = skipped > 0 ? `; ${skipped} unusable ${skipped === 1 ? 'line' : 'lines'} skipped` : '';
  io.stderr.write(`${calls} ${calls === 1 ? 'call' : 'calls'} converted${skippedNote}\n`);
  return 0;
}
