/**
 * What one guarded call costs when its text is shaped against the guard's reading: a command or a
 * result that makes an expression which backtracks try a long run again from each of its positions
 * (blank lines under a test summary, a temporary folder followed by a long name, a failing test's
 * cross redrawn again and again, a run of JWT openings), beside a plain text of the same length in the same process. Each figure is the median
 * CPU time of one check and one record, over calls whose texts the guard has not seen before (what
 * it remembers of its last few texts never answers them). A reading in time linear in the text costs
 * a hostile text about what it costs a plain one; one that backtracks, hundreds of times more.
 *
 *     npx tsx bench/perf-hostile.ts [--sizes 16000,64000] [--calls 5]
 */
import {
  createToolCallAdapter,
  toolCallToOutcome,
  toolCallToProposal,
} from '../src/adapters/tool-call/index.js';
import { NarrowingEngine } from '../src/core/loop.js';
import { installNativeHash } from '../src/node/native-hash.js';
import { median } from './perf-ab.js';
import { scriptOptions } from './script.js';

interface Shape {
  readonly name: string;
  /** What the shaped text is: the call's output or its command. */
  readonly kind: 'output' | 'command';
  /** The plain text of its kind, which the others are set beside. */
  readonly plain?: true;
  /** The call's command and its failing output, for a text of about `size` characters; `round` makes it new. */
  readonly call: (size: number, round: number) => { readonly command: string; readonly output: string };
}

const repeated = (unit: string, size: number) => unit.repeat(Math.max(1, Math.floor(size / unit.length)));

export const HOSTILE_SHAPES: readonly Shape[] = [
  {
    name: 'plain output',
    kind: 'output',
    plain: true,
    call: (size, round) => ({ command: 'npm test', output: `${round} ${repeated('a test passed ', size)}` }),
  },
  {
    name: 'output: blank lines under a test summary',
    kind: 'output',
    call: (size, round) => ({
      command: 'npm test',
      output: `${round}${repeated('\n', size)}Tests: 3 passed, failed`,
    }),
  },
  {
    name: 'output: a temporary folder and a long name',
    kind: 'output',
    call: (size, round) => ({
      command: 'npm test',
      output: `${round} wrote /tmp/${repeated('a_b.c-', size)} x`,
    }),
  },
  {
    name: 'output: a failing test’s cross redrawn again and again',
    kind: 'output',
    call: (size, round) => ({
      command: 'npm test',
      // The crosses and the digits both within the head the failure kinds are read from (8 KB).
      output: `${round} test failed\n${repeated('✖ \r', 3_000)}✗${repeated('0', 1_000)}\n${repeated('a test passed ', size - 4_000)}`,
    }),
  },
  {
    name: 'plain command',
    kind: 'command',
    plain: true,
    call: (size, round) => ({ command: `echo ${round} ${repeated('x', size)}`, output: 'failed' }),
  },
  {
    name: 'command: blank lines before a wait',
    kind: 'command',
    call: (size, round) => ({ command: `echo ${round}${repeated('\n', size)}x sleep`, output: 'failed' }),
  },
  {
    name: 'command: a run of JWT openings',
    kind: 'command',
    call: (size, round) => ({ command: `echo ${round} ${repeated('eyJ-', size)}x`, output: 'failed' }),
  },
];

function cpuMs(run: () => void): number {
  const started = process.cpuUsage();
  run();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

/** Median CPU milliseconds of one failing call of `shape` at `size`, over `calls` new texts. */
function timeShape(shape: Shape, size: number, calls: number): number {
  const adapter = createToolCallAdapter();
  const engine = new NarrowingEngine({ adapter });
  const figures: number[] = [];
  // One call first, untimed: what compiles on first use is not the shape's cost.
  for (let round = 0; round <= calls; round++) {
    const { command, output } = shape.call(size, round);
    const args = { command };
    const proposal = toolCallToProposal('bash', args);
    const outcome = toolCallToOutcome('bash', args, {
      content: [{ type: 'text', text: output }],
      isError: true,
    });
    const ms = cpuMs(() => {
      engine.checkProposal(proposal);
      engine.recordOutcome({ ...outcome, proposal });
    });
    if (round > 0) figures.push(ms);
  }
  return median(figures);
}

export interface HostileFigure {
  readonly shape: string;
  readonly size: number;
  /** Median CPU milliseconds of one check and one record. */
  readonly ms: number;
  /** Over the plain text of its kind (an output, a command); undefined for the plain texts. */
  readonly ratio?: number;
}

/** Every shape at every size, each beside the plain text of its kind timed just before it. */
export function timeHostile(sizes: readonly number[], calls: number): HostileFigure[] {
  const figures: HostileFigure[] = [];
  for (const size of sizes) {
    const plain = new Map<string, number>();
    for (const shape of HOSTILE_SHAPES) {
      const ms = timeShape(shape, size, calls);
      if (shape.plain) plain.set(shape.kind, ms);
      const base = plain.get(shape.kind);
      figures.push({
        shape: shape.name,
        size,
        ms,
        ...(!shape.plain && base !== undefined && { ratio: ms / Math.max(base, 0.01) }),
      });
    }
  }
  return figures;
}

export function formatHostile(figures: readonly HostileFigure[]): string {
  return [
    'shape\tcharacters\tms a call (CPU, median)\tover the plain text of its kind',
    ...figures.map(
      (figure) =>
        `${figure.shape}\t${figure.size.toLocaleString('en-US')}\t${figure.ms.toFixed(2)}\t${
          figure.ratio === undefined ? '' : `${figure.ratio.toFixed(1)}×`
        }`,
    ),
  ].join('\n');
}

const values = scriptOptions(import.meta.url, {
  sizes: { type: 'string', default: '16000,64000' },
  calls: { type: 'string', default: '5' },
});
if (values !== undefined) {
  const sizes = values.sizes.split(',').map(Number);
  const calls = Number(values.calls);
  if (
    sizes.some((size) => !Number.isSafeInteger(size) || size < 1) ||
    !Number.isSafeInteger(calls) ||
    calls < 1
  ) {
    process.stderr.write(
      '--sizes takes whole numbers of characters above 0, --calls a whole number above 0\n',
    );
    process.exit(2);
  }
  installNativeHash();
  console.log(formatHostile(timeHostile(sizes, calls)));
}
