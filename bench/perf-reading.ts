/**
 * The adapter's reading of a call at its check (`describeCall`), timed on its own for a few kinds of
 * call: a file read, an edit, a command, a command fetching a URL, and a tool fetching a page by its
 * URL. Each call is one the adapter has not read before (the reading of the last few command lines is
 * kept), each kind in blocks of `--block` calls. Figures are CPU time per call.
 *
 *     npx tsx bench/perf-reading.ts [--new dist] [--base ../before/dist] [--rounds 200] [--block 500]
 *
 * With `--base`, both builds read the same calls block by block, taking turns in an order that
 * alternates, and the median ratio of the pairs of blocks is printed: the reading is a part of a
 * call, and a change to it moves a whole call by less than a busy machine does.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { createToolCallAdapter } from '../src/adapters/tool-call/index.js';
import type { Proposal } from '../src/core/types.js';
import { BUILD_OPTIONS, median } from './perf-ab.js';
import { scriptOptions } from './script.js';

type Reader = (proposal: Proposal) => unknown;

/** The kinds of call timed, each a call made new by its index. */
export const READING_KINDS: readonly { readonly name: string; readonly call: (index: number) => Proposal }[] =
  [
    {
      name: 'read a file',
      call: (index) => ({ tool: 'read_file', args: { path: `docs/notes-${index}.md` } }),
    },
    {
      name: 'edit a file',
      call: (index) => ({
        tool: 'edit_file',
        args: {
          path: `src/orders/module-${index}.ts`,
          old_string: 'const retries = 2;',
          new_string: 'const retries = 3;',
        },
      }),
    },
    {
      name: 'run a command',
      call: (index) => ({ tool: 'bash', args: { command: `npx tsc --noEmit -p packages/orders-${index}` } }),
    },
    {
      name: 'curl a URL',
      call: (index) => ({
        tool: 'bash',
        args: { command: `curl -s https://api.example.com/orders/${index}` },
      }),
    },
    {
      name: 'fetch a page',
      call: (index) => ({
        tool: 'web_fetch',
        args: { url: `https://docs.example.com/guide/page-${index}?lang=en` },
      }),
    },
  ];

/** The adapter's reading of a call, from a build (`dist/`) or from the sources (`src/`). */
export async function loadReader(folder: string): Promise<Reader> {
  const root = resolve(folder);
  const extension = existsSync(join(root, 'core', 'loop.js')) ? 'js' : 'ts';
  if (!existsSync(join(root, 'core', `loop.${extension}`))) {
    throw new Error(`${root} holds no build of the engine (no core/loop.js): run \`npm run build\` there`);
  }
  const module = await import(
    pathToFileURL(join(root, 'adapters', 'tool-call', `adapter.${extension}`)).href
  );
  const adapter = (module.createToolCallAdapter as typeof createToolCallAdapter)();
  return (proposal) => adapter.describeCall(proposal);
}

export interface ReadingFigure {
  readonly kind: string;
  /** CPU microseconds per call. */
  readonly us: number;
  /** With a base build: its figure, and the median ratio of pairs of blocks (new over base). */
  readonly baseUs?: number;
  readonly medianRatio?: number;
}

/** CPU microseconds `read` took over the calls `first` to `first + block - 1` of a kind. */
function timeBlock(read: Reader, call: (index: number) => Proposal, first: number, block: number): number {
  const started = process.cpuUsage();
  for (let index = first; index < first + block; index++) read(call(index));
  const used = process.cpuUsage(started);
  return used.user + used.system;
}

/** Each kind of call read by `next` (and by `base`, in turn with it, on the same calls). */
export function timeReadings(
  next: Reader,
  base: Reader | undefined,
  options: { rounds: number; block: number },
): ReadingFigure[] {
  const figures: ReadingFigure[] = [];
  for (const kind of READING_KINDS) {
    // Every block reads calls of its own: the adapter keeps the reading of the last few command lines.
    let first = 0;
    const nextTimes: number[] = [];
    const baseTimes: number[] = [];
    const ratios: number[] = [];
    // The first rounds compile and warm both builds up, and are not counted.
    const warmup = Math.min(20, Math.ceil(options.rounds / 10));
    for (let round = 0; round < warmup + options.rounds; round++) {
      const nextFirst = round % 2 === 0 || base === undefined;
      const ran: number[] = [];
      for (const reader of base === undefined ? [next] : nextFirst ? [next, base] : [base, next]) {
        ran.push(timeBlock(reader, kind.call, first, options.block));
        first += options.block;
      }
      if (round < warmup) continue;
      const nextTime = (nextFirst ? ran[0] : ran[1]) as number;
      nextTimes.push(nextTime);
      if (base !== undefined) {
        const baseTime = (nextFirst ? ran[1] : ran[0]) as number;
        baseTimes.push(baseTime);
        ratios.push(nextTime / Math.max(1, baseTime));
      }
    }
    const perCall = (times: number[]) => median(times) / options.block;
    figures.push({
      kind: kind.name,
      us: perCall(nextTimes),
      ...(base !== undefined && { baseUs: perCall(baseTimes), medianRatio: median(ratios) }),
    });
  }
  return figures;
}

export function formatReadings(figures: readonly ReadingFigure[]): string {
  const withBase = figures.some((figure) => figure.baseUs !== undefined);
  const lines = [['call', 'µs a call', ...(withBase ? ['base µs', 'median pair new/base'] : [])].join('\t')];
  for (const figure of figures) {
    lines.push(
      [
        figure.kind,
        figure.us.toFixed(2),
        ...(figure.baseUs !== undefined
          ? [figure.baseUs.toFixed(2), (figure.medianRatio ?? 1).toFixed(3)]
          : []),
      ].join('\t'),
    );
  }
  return lines.join('\n');
}

const values = scriptOptions(import.meta.url, {
  ...BUILD_OPTIONS,
  rounds: { type: 'string', default: '200' },
  block: { type: 'string', default: '500' },
});
if (values) {
  const next = await loadReader(values.new);
  const base = values.base === undefined ? undefined : await loadReader(values.base);
  const figures = timeReadings(next, base, { rounds: Number(values.rounds), block: Number(values.block) });
  process.stdout.write(`${formatReadings(figures)}\n`);
}
