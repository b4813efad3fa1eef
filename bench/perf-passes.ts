/**
 * Each pass over a failing call's text timed on its own: the failures of `bench perf`'s typical
 * workload (its test run failing with about 20 KB of output, and its short failures), each read by
 * one pass at a time, block after block, and beside them a loop that reads each character and does
 * nothing else, the least any pass written in JavaScript costs. Figures are CPU time per text and per
 * character. A pass is timed on texts it has not read before (64 of each kind, in turn), so that what
 * the engine remembers of its last few texts never answers it.
 *
 *     npx tsx bench/perf-passes.ts [--new dist] [--base ../before/dist] [--rounds 12] [--json]
 *
 * With `--base`, each pass of both builds is timed in turn, block by block, and the median ratio of
 * the pairs of blocks is printed: a single pass's change is a few percent of a failing call, less
 * than what a busy machine moves a whole call by, and this is where it shows.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { createToolCallAdapter } from '../src/adapters/tool-call/index.js';
import type { Proposal } from '../src/core/types.js';
import { BUILD_OPTIONS, median } from './perf-ab.js';
import { realisticFailure } from './perf-workload.js';
import { scriptOptions } from './script.js';

/** The passes of one build, each a function of the failure's whole text. */
export interface BuildPasses {
  readonly folder: string;
  readonly passes: readonly { readonly name: string; readonly read: (text: string) => unknown }[];
}

/** How much of an error's head the engine shapes (`Observed`), and how much the adapter reads of a long one. */
const SHAPED_CHARS = 4_000;
const SCANNED_CHARS = 8_192;

/** The text the adapter reads of a failure: its head and its tail. */
function headAndTail(text: string): string {
  if (text.length <= SCANNED_CHARS) return text;
  const half = SCANNED_CHARS / 2;
  return `${text.slice(0, half)}\n${text.slice(-half)}`;
}

/** Reads each character of the text and nothing else: what a pass written in JavaScript costs at least. */
function readEachCharacter(text: string): number {
  let sum = 0;
  for (let index = 0; index < text.length; index++) sum = (sum + text.charCodeAt(index)) | 0;
  return sum;
}

/** Loads the passes from a build (`dist/`) or from the sources (`src/`). */
export async function loadPasses(folder: string): Promise<BuildPasses> {
  const root = resolve(folder);
  const extension = existsSync(join(root, 'core', 'loop.js')) ? 'js' : 'ts';
  if (!existsSync(join(root, 'core', `loop.${extension}`))) {
    throw new Error(`${root} holds no build of the engine (no core/loop.js): run \`npm run build\` there`);
  }
  const load = (path: string) => import(pathToFileURL(join(root, `${path}.${extension}`)).href);
  const [nativeHash, identity, shape, adapterModule, pointerLines] = await Promise.all([
    load('node/native-hash'),
    load('core/identity/call-identity'),
    load('adapters/tool-call/error-shape'),
    load('adapters/tool-call/adapter'),
    load('adapters/tool-call/pointer-lines'),
  ]);
  // As `openGuard` does: long texts hashed by Node's SHA-256.
  nativeHash.installNativeHash();
  const { candidateRules, candidateRulesOfLongText } = identity.CANDIDATE_SCANS;
  const matcher = adapterModule.matcherFor([]);
  const adapter = (adapterModule.createToolCallAdapter as typeof createToolCallAdapter)();
  const proposal: Proposal = { tool: 'bash', args: { command: 'npm test -- test/orders' } };
  const facts = adapter.describeCall(proposal);
  return {
    folder: root,
    passes: [
      { name: 'each character, nothing else', read: readEachCharacter },
      {
        name: 'digest: scan for the masks',
        read: (text) => (text.length >= 256 ? candidateRulesOfLongText(text) : candidateRules(text)),
      },
      { name: 'digest: scan and masks', read: (text) => identity.maskVolatile(text, 'result') },
      { name: 'digest: whole (masks and hash)', read: identity.digestResult },
      {
        name: 'shape (first 4,000 characters)',
        read: (text) => shape.errorShape(text.slice(0, SHAPED_CHARS)),
      },
      { name: 'signature (head and tail)', read: (text) => matcher.match(headAndTail(text)) },
      { name: 'pointer lines', read: pointerLines.withoutPointerLines },
      {
        name: "adapter's whole reading",
        read: (text) =>
          adapter.describeFailure({ proposal, success: false, content: text, exitCode: 1 }, facts),
      },
    ],
  };
}

export interface PassFigure {
  readonly texts: string;
  readonly pass: string;
  /** Characters in a text, on average. */
  readonly chars: number;
  /** CPU microseconds per text. */
  readonly us: number;
  readonly nsPerChar: number;
  /** With a base build: its figure, and the median ratio of pairs of blocks (new over base). */
  readonly baseUs?: number;
  readonly medianRatio?: number;
}

function cpuUs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return used.user + used.system;
}

/** CPU microseconds `read` took over a block of texts. */
function timeBlock(read: (text: string) => unknown, texts: readonly string[], repeat: number): number {
  const started = process.cpuUsage();
  for (let turn = 0; turn < repeat; turn++) for (const text of texts) read(text);
  return cpuUs(started);
}

/** The texts timed: the workload's failing test runs (about 20 KB each) and its short failures. */
export function failureTexts(count: number): { readonly name: string; readonly texts: string[] }[] {
  const long: string[] = [];
  const short: string[] = [];
  for (let index = 0; long.length < count || short.length < count; index++) {
    const call = realisticFailure(index);
    const text = call.result.content.map((part) => part.text).join('\n');
    if (text.length >= 10_000) {
      if (long.length < count) long.push(text);
    } else if (short.length < count) short.push(text);
  }
  return [
    { name: 'about 20 KB', texts: long },
    { name: 'short', texts: short },
  ];
}

/** Every pass of `next` (and of `base`, in turn with it) on each kind of text. */
export function timePasses(
  next: BuildPasses,
  base: BuildPasses | undefined,
  options: { rounds: number; texts: number },
): PassFigure[] {
  const figures: PassFigure[] = [];
  for (const kind of failureTexts(options.texts)) {
    const chars = kind.texts.reduce((sum, text) => sum + text.length, 0) / kind.texts.length;
    // Short texts are read many times a block, so that a block lasts long enough to time.
    const repeat = Math.max(1, Math.round(20_000 / chars));
    next.passes.forEach((pass, at) => {
      const other = base?.passes[at];
      // Both compile and warm up on blocks that are not timed.
      for (let turn = 0; turn < 3; turn++) {
        timeBlock(pass.read, kind.texts, repeat);
        if (other) timeBlock(other.read, kind.texts, repeat);
      }
      const nextTimes: number[] = [];
      const baseTimes: number[] = [];
      const ratios: number[] = [];
      for (let round = 0; round < options.rounds; round++) {
        if (other && round % 2 === 1) baseTimes.push(timeBlock(other.read, kind.texts, repeat));
        nextTimes.push(timeBlock(pass.read, kind.texts, repeat));
        if (other && round % 2 === 0) baseTimes.push(timeBlock(other.read, kind.texts, repeat));
        if (other) ratios.push((nextTimes[round] as number) / Math.max(1, baseTimes[round] as number));
      }
      const perText = (times: number[]) => median(times) / (kind.texts.length * repeat);
      const us = perText(nextTimes);
      figures.push({
        texts: kind.name,
        pass: pass.name,
        chars: Math.round(chars),
        us,
        nsPerChar: (us * 1000) / chars,
        ...(other && { baseUs: perText(baseTimes), medianRatio: median(ratios) }),
      });
    });
  }
  return figures;
}

export function formatPasses(figures: readonly PassFigure[]): string {
  const withBase = figures.some((figure) => figure.baseUs !== undefined);
  const lines = [
    [
      'texts',
      'chars',
      'pass',
      'µs a text',
      'ns a char',
      ...(withBase ? ['base µs', 'median pair new/base'] : []),
    ].join('\t'),
  ];
  for (const figure of figures) {
    lines.push(
      [
        figure.texts,
        String(figure.chars),
        figure.pass,
        figure.us.toFixed(1),
        figure.nsPerChar.toFixed(2),
        ...(figure.baseUs !== undefined
          ? [figure.baseUs.toFixed(1), (figure.medianRatio ?? 1).toFixed(3)]
          : []),
      ].join('\t'),
    );
  }
  return lines.join('\n');
}

const values = scriptOptions(import.meta.url, {
  ...BUILD_OPTIONS,
  rounds: { type: 'string', default: '12' },
  texts: { type: 'string', default: '64' },
  json: { type: 'boolean', default: false },
});
if (values) {
  const next = await loadPasses(values.new);
  const base = values.base === undefined ? undefined : await loadPasses(values.base);
  const figures = timePasses(next, base, { rounds: Number(values.rounds), texts: Number(values.texts) });
  process.stdout.write(values.json ? `${JSON.stringify(figures, null, 2)}\n` : `${formatPasses(figures)}\n`);
}
