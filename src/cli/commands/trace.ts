import type { Command } from 'commander';
import { type CommandIO, processIO } from './io.js';

interface ConvertOptions {
  readonly output?: string;
  readonly name?: string;
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
Claude Code keeps one transcript per session under ~/.claude/projects/<project>/.
Tool calls pair with their results by tool-use id; user messages become "user"
events, compactions "compact" events, and parallel calls share a "turn".

Example:
  $ narrowing-guard trace from-claude ~/.claude/projects/-home-me-web/3f1c….jsonl -o session.jsonl
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
    .description('convert a Claude Code transcript into a trace')
    .argument('<transcript>', 'Claude Code session transcript (JSON Lines)')
    .option('-o, --output <file>', 'write the trace here instead of standard output')
    .option('--name <name>', 'trace name for the meta line')
    .addHelpText('after', CLAUDE_HELP)
    .action(async (path: string, options: ConvertOptions) => {
      process.exitCode = await runConvert('claude', path, options, processIO());
    });
}

/** Runs a conversion; returns the exit code. */
export async function runConvert(
  converter: Converter,
  path: string,
  options: ConvertOptions,
  io: CommandIO,
): Promise<number> {
  const { readFileSync, writeFileSync } = await import('node:fs');
  const { basename } = await import('node:path');
  const { claudeTranscriptToTrace, journalToTrace } = await import('../../trace/convert/index.js');
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
  const { events, skipped } =
    converter === 'journal' ? journalToTrace(lines, name) : claudeTranscriptToTrace(lines, name);
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
