import { type Command, Option } from 'commander';
import type { PresetName } from '../../core/policy.js';
import type { TraceEvent } from '../../trace/index.js';
import { type CommandIO, processIO, wantsColour } from './io.js';

export interface ReplayCommandOptions {
  readonly policy?: string;
  readonly preset?: PresetName;
  readonly json?: boolean;
}

const EXAMPLE = `
Feeds a recorded agent run through the guard and shows, call by call, what it would have
done: allow, warn (the call runs with a note for the model), block (refused) or halt (the
run is over). The trace's timestamps drive every time-based rule, so the output is the
same on every run. Convert logs with \`narrowing-guard trace from-claude\` or \`from-journal\`.

Examples:
  $ narrowing-guard replay session.jsonl
  $ narrowing-guard replay session.jsonl --preset strict
  $ narrowing-guard replay session.jsonl --policy narrowing.yaml --json | jq 'select(.verdict=="block")'

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
    .option('--json', 'one JSON object per call, then a summary object')
    .addHelpText('after', EXAMPLE)
    .action(async (trace: string, options: ReplayCommandOptions) => {
      process.exitCode = await runReplay(trace, options, processIO());
    });
}

/** Runs `narrowing-guard replay`; returns the exit code. */
export async function runReplay(
  tracePath: string,
  options: ReplayCommandOptions,
  io: CommandIO,
): Promise<number> {
  const { PolicyError, loadPolicyFile, parsePolicy } = await import('../../policy-file/index.js');
  const { TraceError, readTraceFile } = await import('../../trace/index.js');
  const { createReplayer } = await import('../../replay/replay.js');
  const format = await import('../../replay/format.js');
  const loadOptions = options.preset ? { preset: options.preset } : {};

  let policy: ReturnType<typeof parsePolicy>;
  let meta: { name?: string; description?: string } | undefined;
  const events: TraceEvent[] = [];
  try {
    policy = options.policy
      ? loadPolicyFile(options.policy, loadOptions)
      : parsePolicy({}, undefined, loadOptions);
    // Read the whole trace, once, before replaying, so that a bad line is reported with nothing
    // half-printed before it.
    const onWarning = (warning: Error) => io.stderr.write(`warning: ${warning.message}\n`);
    for await (const event of readTraceFile(tracePath, { onWarning })) {
      if (event.type === 'meta') meta = event;
      events.push(event);
    }
  } catch (error) {
    if (error instanceof PolicyError || error instanceof TraceError) {
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

  const replayer = createReplayer({ policy });
  if (options.json) {
    for (const event of events) {
      for (const step of replayer.feed(event)) io.stdout.write(`${format.stepJson(step)}\n`);
    }
    for (const step of replayer.finish()) io.stdout.write(`${format.stepJson(step)}\n`);
    io.stdout.write(`${format.summaryJson(replayer.summary)}\n`);
    return 0;
  }

  const steps = [];
  // One step at a time, never spread: a trace can hold more steps than a call takes arguments.
  for (const event of events) for (const step of replayer.feed(event)) steps.push(step);
  for (const step of replayer.finish()) steps.push(step);
  const style = await tableStyle(io);
  const title = meta?.name ? `${meta.name}${meta.description ? ` — ${meta.description}` : ''}` : tracePath;
  const lines = [
    style.dim(`${title} (policy: ${policy.preset}${options.policy ? `, ${options.policy}` : ''})`),
    ...format.stepTable(steps, style),
    format.summaryLine(replayer.summary, style),
  ];
  io.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

async function tableStyle(io: CommandIO) {
  const { createColors } = (await import('picocolors')).default;
  const colours = createColors(wantsColour(io));
  const paint = { allow: colours.green, warn: colours.yellow, block: colours.red, halt: colours.magenta };
  return {
    verdict: (verdict: keyof typeof paint, text: string) => paint[verdict](text),
    dim: colours.dim,
    ...(io.stdout.isTTY && io.stdout.columns ? { width: io.stdout.columns } : {}),
  };
}
