import { type Command, Option } from 'commander';
import type { PresetName } from '../../core/policy.js';
import type { Judgement } from '../../replay/judge.js';
import type { ReplayStep } from '../../replay/replay.js';
import type { TraceEvent } from '../../trace/types.js';
import { type CommandIO, processIO, wantsColour } from './io.js';
import { readStoreState, storeOption } from './store-option.js';

/** Characters of `--json` output gathered before they are written. */
const JSON_CHUNK = 64 * 1024;

export interface ReplayCommandOptions {
  readonly policy?: string;
  readonly preset?: PresetName;
  readonly json?: boolean;
  readonly judge?: boolean;
  /** A journal whose disputes (`feedback --wrong`) label the trace's calls; implies `judge`. */
  readonly disputes?: string;
  readonly store?: string;
  readonly stateDir?: string;
}

const EXAMPLE = `
Feeds a recorded agent run through the guard and shows, call by call, what it would have
done: allow, warn (the call runs with a note for the model), block (refused) or halt (the
run is over). The trace's timestamps drive every time-based rule, so the output is the
same on every run. The guard starts empty and keeps what it learns in memory; with --store
(file, sqlite or a redis:// URL) it starts from the constraints learned in that store, and
still writes nothing back. Convert logs with \`narrowing-guard trace from-claude\` or \`from-journal\`.

Examples:
  $ narrowing-guard replay session.jsonl
  $ narrowing-guard replay session.jsonl --preset strict
  $ narrowing-guard replay session.jsonl --policy narrowing.yaml --json | jq 'select(.verdict=="block")'
  $ narrowing-guard replay session.jsonl --judge
  $ narrowing-guard trace from-journal .narrowing/journal.jsonl -o run.jsonl
  $ narrowing-guard replay run.jsonl --disputes .narrowing/journal.jsonl
  $ narrowing-guard replay session.jsonl --store sqlite

Exit status: 0 when the trace was read (whatever the verdicts), 2 when the trace or the
policy could not be read.`;

export function register(program: Command): void {
  program
    .command('replay')
    .description('replay a recorded agent trace and show what narrowing would have done')
    .argument('<trace>', 'trace file (JSON Lines, see docs/traces.md)')
    .option('--policy <file>', 'policy file, YAML or JSON')
    .addOption(
      new Option('--preset <name>', 'preset to start from (wins over the policy file)').choices([
        'precise',
        'strict',
        'off',
      ]),
    )
    .addOption(
      storeOption(
        'start from the constraints learned in this store: file, sqlite or a redis:// URL (read only)',
      ),
    )
    .option('--state-dir <dir>', 'the state directory of a file or sqlite store (default: ./.narrowing)')
    .option('--json', 'one JSON object per call, then a summary object')
    .option(
      '--judge',
      'say how many blocks stopped a call that then repeated a failure or result with nothing changed, and how many stopped new work',
    )
    .option(
      '--disputes <journal>',
      'judge (as --judge), reading the disputes of this journal (feedback --wrong) as labels: a block of a disputed call is false; the trace must be converted from it (trace from-journal)',
    )
    .addHelpText('after', EXAMPLE)
    .action(async (trace: string, options: ReplayCommandOptions) => {
      // The command's own process only: one that runs the replay among its other work keeps V8 as it is.
      const { holdOptimisingCompiler } = await import('./compiler-hold.js');
      const hold = holdOptimisingCompiler();
      try {
        process.exitCode = await runReplay(trace, options, processIO(), hold.step);
      } finally {
        hold.release();
      }
    });
}

/** Runs `narrowing replay`; returns the exit code. `onStep` is told of each call replayed. */
export async function runReplay(
  tracePath: string,
  options: ReplayCommandOptions,
  io: CommandIO,
  onStep?: () => void,
): Promise<number> {
  const { PolicyError } = await import('../../policy-file/index.js');
  const { resolvedForReuse } = await import('../../guard/open.js');
  const { createReplayer } = await import('../../replay/replay.js');
  const format = await import('../../replay/format.js');

  const judge = options.judge === true || options.disputes !== undefined;
  let policy: ReturnType<typeof resolvedForReuse>;
  try {
    // Validated here, once: the replayer and every subagent's guard take it as it is.
    policy = resolvedForReuse(options.policy || undefined, options.preset || undefined);
  } catch (error) {
    if (error instanceof PolicyError) {
      io.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }

  let meta: { name?: string; description?: string } | undefined;
  // The judgement reads the whole trace again; a store's constraints are read once the trace has
  // been, so that a bad line is reported first. Otherwise each event is replayed as it is read, and
  // none is kept.
  const kept: TraceEvent[] | undefined = judge || options.store !== undefined ? [] : undefined;
  let replayer: ReturnType<typeof createReplayer> | undefined =
    kept === undefined ? createReplayer({ policy }) : undefined;
  // With --json, steps become lines as they come, gathered in chunks of about 64 KB (one write per
  // step would cost a system call per step, on a pipe or a terminal as much as on a file), and held
  // until the whole trace is read, so that a bad line is reported with nothing half-printed before
  // it. The table and the judgement need the steps themselves.
  const keep = !options.json || judge;
  const steps: ReplayStep[] = [];
  const chunks: string[] = [];
  let pendingJson = '';
  const take = (step: ReplayStep) => {
    onStep?.();
    if (options.json) {
      pendingJson += `${format.stepJson(step)}\n`;
      if (pendingJson.length >= JSON_CHUNK) {
        chunks.push(pendingJson);
        pendingJson = '';
      }
    }
    // One step at a time, never spread: a trace can hold more steps than a call takes arguments.
    if (keep) steps.push(step);
  };
  const replay = (event: TraceEvent) => {
    for (const step of (replayer as NonNullable<typeof replayer>).feed(event)) take(step);
  };

  let events: Iterator<TraceEvent> | undefined;
  try {
    events = await traceEvents(tracePath, io);
    for (;;) {
      const next = events.next();
      if (next.done) break;
      const event = next.value;
      if (event.type === 'meta') meta = event;
      if (kept) kept.push(event);
      else replay(event);
    }
    if (options.store !== undefined) {
      const { resolveStateDir } = await import('../../report/index.js');
      const learned = await readStoreState(options.store, resolveStateDir(options.stateDir, process.cwd()));
      replayer = createReplayer({ policy, ...(learned && { learned }) });
    }
  } catch (error) {
    return cannotRead(error, tracePath, io);
  } finally {
    events?.return?.();
  }
  if (kept) {
    replayer ??= createReplayer({ policy });
    for (const event of kept) replay(event);
  }
  const replayed = replayer as NonNullable<typeof replayer>;
  for (const step of replayed.finish()) take(step);
  for (const chunk of chunks) io.stdout.write(chunk);

  let judgement: Judgement | undefined;
  if (judge) {
    const { judgeBlocks, wastedSteps } = await import('../../replay/judge.js');
    let labels: Set<number> | undefined;
    if (options.disputes !== undefined) {
      const read = await readDisputes(options.disputes, steps, io);
      if (read === undefined) return 2;
      labels = read;
    }
    judgement = judgeBlocks(steps, wastedSteps(kept ?? []), labels);
  }
  if (options.json) {
    io.stdout.write(`${pendingJson}${format.summaryJson(replayed.summary)}\n`);
    if (judgement) io.stdout.write(`${format.judgementJson(judgement)}\n`);
    return 0;
  }

  const style = await tableStyle(io);
  const title = meta?.name ? `${meta.name}${meta.description ? ` — ${meta.description}` : ''}` : tracePath;
  const lines = [
    style.dim(`${title} (policy: ${policy.preset}${options.policy ? `, ${options.policy}` : ''})`),
    ...format.stepTable(steps, style),
    format.summaryLine(replayed.summary, style),
    ...(judgement ? [format.judgementLine(judgement)] : []),
  ];
  io.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

/** Exit status 2, the reason said, for what kept the trace (or the store) from being read; anything else is thrown. */
async function cannotRead(error: unknown, tracePath: string, io: CommandIO): Promise<number> {
  const { TraceError } = await import('../../trace/errors.js');
  const { PolicyError } = await import('../../policy-file/index.js');
  const { isNarrowingError } = await import('../../core/errors.js');
  if (error instanceof PolicyError || error instanceof TraceError || isNarrowingError(error)) {
    io.stderr.write(`${error.message}\n`);
    return 2;
  }
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'EISDIR' || code === 'EACCES') {
    const why =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : 'permission denied';
    io.stderr.write(`${tracePath}: cannot read the trace (${why})\n`);
    return 2;
  }
  throw error;
}

/**
 * The steps a journal's disputes name, checked against the trace: a disputed entry whose tool is
 * not the step's says the trace is not that journal's conversion, and is left out with a warning.
 * Undefined (and said why) when the journal cannot be read.
 */
async function readDisputes(
  journal: string,
  steps: readonly ReplayStep[],
  io: CommandIO,
): Promise<Set<number> | undefined> {
  const { disputedSteps } = await import('../../report/disputes.js');
  let disputed: Awaited<ReturnType<typeof disputedSteps>>;
  try {
    disputed = await disputedSteps(journal);
  } catch (error) {
    io.stderr.write(`cannot read the disputes: ${(error as Error).message}\n`);
    return undefined;
  }
  const labels = new Set<number>();
  const byStep = new Map(steps.map((step) => [step.step, step]));
  for (const dispute of disputed) {
    const step = byStep.get(dispute.step);
    if (step?.tool !== dispute.tool) {
      io.stderr.write(
        `warning: the dispute of ${dispute.entry} (${dispute.tool}) does not match step ${dispute.step} of the ` +
          `trace (${step?.tool ?? 'none'}): is the trace converted from this journal? Left out.\n`,
      );
      continue;
    }
    labels.add(dispute.step);
  }
  return labels;
}

/**
 * The trace's events, read as they are asked for (errors of reading thrown by `next`): the file is
 * opened once and read synchronously, a megabyte at a time. Its first line tells a Claude Code
 * transcript given where a trace is expected, converted first (and said so), from a trace. A link
 * is read as a trace: transcripts are never read through links.
 */
async function traceEvents(path: string, io: CommandIO): Promise<Iterator<TraceEvent>> {
  const { closeSync, constants, openSync } = await import('node:fs');
  const { linesOfFile, MAX_TRACE_LINE_BYTES } = await import('../../trace/read.js');
  const { TraceLineParser } = await import('../../trace/parse.js');
  const { isClaudeTranscriptLine, MAX_TRANSCRIPT_LINE } = await import('../../trace/convert/claude.js');
  let fd: number;
  let link = false;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOOP') throw error;
    fd = openSync(path, constants.O_RDONLY);
    link = true;
  }
  const read: string[][] = [];
  let lines: Iterator<string[]>;
  try {
    lines = linesOfFile(fd, { maxLineBytes: MAX_TRACE_LINE_BYTES, source: path });
    let raw = false;
    sniff: while (!link) {
      const next = lines.next();
      if (next.done) break;
      read.push(next.value);
      for (const line of next.value) {
        if (line.length > MAX_TRANSCRIPT_LINE) break sniff;
        const trimmed = line.trim();
        if (trimmed === '' || trimmed.startsWith('//')) continue;
        raw = isClaudeTranscriptLine(trimmed);
        break sniff;
      }
    }
    if (raw) {
      closeSync(fd);
      return (await convertTranscript(path, io))[Symbol.iterator]();
    }
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  const onWarning = (warning: Error) => io.stderr.write(`warning: ${warning.message}\n`);
  const parser = new TraceLineParser(path, { onWarning });
  function* parsed(): Generator<TraceEvent, void, undefined> {
    try {
      for (const batch of read)
        for (const line of batch) {
          const event = parser.next(line);
          if (event) yield event;
        }
      for (let next = lines.next(); !next.done; next = lines.next())
        for (const line of next.value) {
          const event = parser.next(line);
          if (event) yield event;
        }
    } finally {
      closeSync(fd);
    }
  }
  return parsed();
}

/** A Claude Code transcript's calls as a trace, said so on standard error. */
async function convertTranscript(path: string, io: CommandIO): Promise<TraceEvent[]> {
  const { basename } = await import('node:path');
  const { convertClaudeSessions } = await import('../../trace/convert/claude-files.js');
  const { events, report } = await convertClaudeSessions({ sessions: [path] }, basename(path, '.jsonl'));
  const left =
    report.notJson + report.tooLong + Object.values(report.unknownTypes).reduce((a, b) => a + b, 0);
  io.stderr.write(
    `${path} is a Claude Code transcript: replaying its ${report.calls} ${report.calls === 1 ? 'call' : 'calls'}` +
      `${left > 0 ? ` (${left} unreadable ${left === 1 ? 'line' : 'lines'} left out)` : ''}; ` +
      '`narrowing-guard trace from-claude` saves the conversion\n',
  );
  return events;
}

async function tableStyle(io: CommandIO) {
  const { createColors } = (await import('picocolors')).default;
  const colours = createColors(wantsColour(io));
  const paint = {
    allow: colours.green,
    warn: colours.yellow,
    block: colours.red,
    halt: colours.magenta,
    coalesced: colours.cyan,
  };
  return {
    verdict: (verdict: keyof typeof paint, text: string) => paint[verdict](text),
    dim: colours.dim,
    width: tableWidth(io),
  };
}

/** Width of a table nothing says the width of (a pipe, a file, an agent's captured output). */
const DEFAULT_TABLE_WIDTH = 100;

/** The terminal's width; else `COLUMNS` (what a shell exports); else 100 columns. */
function tableWidth(io: CommandIO): number {
  if (io.stdout.isTTY && io.stdout.columns !== undefined && io.stdout.columns > 0) return io.stdout.columns;
  const columns = Number(io.env.COLUMNS);
  return Number.isInteger(columns) && columns > 0 ? columns : DEFAULT_TABLE_WIDTH;
}
