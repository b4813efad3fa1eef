/**
 * How far a half's figures could move on other sources like its own: a bootstrap over sources.
 * Runs of one source share an agent, a developer and a task set, so they do not vary independently;
 * the source is the unit that is drawn. Each resample draws as many sources as the half holds, with
 * replacement, and computes the four figures the report gives (loops caught, pooled and averaged per
 * source; false blocks per 1,000 calls, pooled and averaged per source). The range is the middle 95%
 * of the resamples' figures. The generator is seeded, so one corpus always prints the same ranges.
 */
import { mulberry32 } from './long-horizon.js';
import { percentile } from './perf-timing.js';

/** What a source's figures are computed from (a `SourceScore` of `corpus.ts` holds them). */
export interface SourceCounts {
  readonly loops: number;
  readonly caught: number;
  readonly calls: number;
  readonly falseBlocks: number;
}

export interface Interval {
  readonly low: number;
  readonly high: number;
}

export interface HalfIntervals {
  /** Share of loops caught, all sources' loops pooled (0 to 1); undefined when no source has loops. */
  readonly caught: Interval | undefined;
  /** Share of loops caught, averaged over the sources that have loops. */
  readonly caughtPerSource: Interval | undefined;
  /** False blocks per 1,000 calls, all calls pooled. */
  readonly falsePerThousand: Interval | undefined;
  /** False blocks per 1,000 calls, averaged over the sources. */
  readonly falsePerThousandPerSource: Interval | undefined;
}

/** Resamples drawn: enough that the ends of a range move by about a point between seeds, far less than its width. */
export const RESAMPLES = 10_000;
/** The generator's seed: fixed, so that a corpus prints the same ranges on every run. */
export const SEED = 1;
/** The share of resamples left out at each end. */
const TAIL = 0.025;

/** The figures of one draw of sources; a figure no drawn source can give is undefined. */
function figures(drawn: readonly SourceCounts[]): (number | undefined)[] {
  let loops = 0;
  let caught = 0;
  let calls = 0;
  let falseBlocks = 0;
  let caughtShares = 0;
  let withLoops = 0;
  let ratePerSource = 0;
  let withCalls = 0;
  for (const source of drawn) {
    loops += source.loops;
    caught += source.caught;
    calls += source.calls;
    falseBlocks += source.falseBlocks;
    if (source.loops > 0) {
      caughtShares += source.caught / source.loops;
      withLoops++;
    }
    if (source.calls > 0) {
      ratePerSource += (source.falseBlocks * 1000) / source.calls;
      withCalls++;
    }
  }
  return [
    loops === 0 ? undefined : caught / loops,
    withLoops === 0 ? undefined : caughtShares / withLoops,
    calls === 0 ? undefined : (falseBlocks * 1000) / calls,
    withCalls === 0 ? undefined : ratePerSource / withCalls,
  ];
}

/** The middle `1 - 2 × TAIL` of `values` (sorted here), or undefined when there are none. */
export function middleRange(values: number[]): Interval | undefined {
  if (values.length === 0) return undefined;
  values.sort((a, b) => a - b);
  return { low: percentile(values, TAIL), high: percentile(values, 1 - TAIL) };
}

/** The 95% ranges of a half's figures, its sources resampled (see the module's comment). */
export function sourceIntervals(
  sources: readonly SourceCounts[],
  resamples: number = RESAMPLES,
  seed: number = SEED,
): HalfIntervals {
  const random = mulberry32(seed);
  const drawn: number[][] = [[], [], [], []];
  const sample: SourceCounts[] = new Array<SourceCounts>(sources.length);
  for (let round = 0; sources.length > 0 && round < resamples; round++) {
    for (let index = 0; index < sources.length; index++) {
      sample[index] = sources[Math.floor(random() * sources.length)] as SourceCounts;
    }
    figures(sample).forEach((value, figure) => {
      if (value !== undefined) drawn[figure]?.push(value);
    });
  }
  const range = (figure: number) => middleRange(drawn[figure] ?? []);
  return {
    caught: range(0),
    caughtPerSource: range(1),
    falsePerThousand: range(2),
    falsePerThousandPerSource: range(3),
  };
}
