/**
 * Timing guards side by side: every contender gets the same calls, block by block, in an order that
 * rotates from one block to the next, so that whatever else the machine does lands on all of them
 * alike. Means are the process's CPU time over whole blocks (a busy machine takes the core away now
 * and then, which a wall clock would count); the median and the 99th percentile are wall-clock
 * latencies of single calls (check, then record), which do include such pauses.
 */
import type { Contender } from './perf-baselines.js';
import type { RawCall } from './perf-workload.js';

export interface CallStats {
  readonly calls: number;
  /** CPU nanoseconds per call, check and record together. */
  readonly meanNs: number;
  /** Wall-clock latency of single calls. */
  readonly p50Ns: number;
  readonly p99Ns: number;
}

export function percentile(sorted: Float64Array | readonly number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  const at = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[at] as number;
}

class Samples {
  readonly latencies: number[] = [];
  cpuNs = 0;

  stats(): CallStats {
    const sorted = Float64Array.from(this.latencies).sort();
    return {
      calls: this.latencies.length,
      meanNs: this.latencies.length === 0 ? 0 : this.cpuNs / this.latencies.length,
      p50Ns: percentile(sorted, 0.5),
      p99Ns: percentile(sorted, 0.99),
    };
  }
}

function cpuNs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) * 1000;
}

/** Runs a block of calls through a contender, adding their latencies and CPU time to `into`. */
function runBlock(contender: Contender, calls: readonly RawCall[], into: Samples): void {
  const started = process.cpuUsage();
  for (const call of calls) into.latencies.push(timeCall(contender, call));
  into.cpuNs += cpuNs(started);
}

/** One call through a contender, as an agent loop makes it: check, and record what ran. */
function timeCall(contender: Contender, call: RawCall): number {
  const started = process.hrtime.bigint();
  contender.check(call);
  contender.record(call);
  return Number(process.hrtime.bigint() - started);
}

export interface InterleavedOptions {
  /** Calls in every block each contender runs before the next takes its turn. */
  readonly block: number;
  readonly blocks: number;
  /** Calls each contender makes before anything is timed. */
  readonly warmup: number;
  /** The call at a position of the sequence; every contender sees the same sequence. */
  readonly call: (index: number) => RawCall;
}

/** Stats per contender, in the order given. */
export function timeInterleaved(contenders: readonly Contender[], options: InterleavedOptions): CallStats[] {
  const samples = contenders.map(() => new Samples());
  for (let start = 0; start < options.warmup; start += options.block) {
    const calls = Array.from({ length: Math.min(options.block, options.warmup - start) }, (_, offset) =>
      options.call(start + offset),
    );
    for (const contender of contenders) for (const call of calls) timeCall(contender, call);
  }
  for (let block = 0; block < options.blocks; block++) {
    const from = options.warmup + block * options.block;
    const calls = Array.from({ length: options.block }, (_, offset) => options.call(from + offset));
    for (let turn = 0; turn < contenders.length; turn++) {
      const which = (block + turn) % contenders.length;
      runBlock(contenders[which] as Contender, calls, samples[which] as Samples);
    }
  }
  return samples.map((entry) => entry.stats());
}

/** A class of calls timed apart (succeeding, failing with short output, failing with 20 KB…). */
export interface CallClass {
  readonly name: string;
  readonly includes: (call: RawCall) => boolean;
}

/** `CallStats` of one class of calls, with the mean length of their output. */
export interface ClassStats extends CallStats {
  readonly meanOutputChars: number;
}

/**
 * One contender's calls of each class apart: blocks of each, taking turns, drawn from the same
 * sequence of calls (a class that matches no call in 100 blocks' worth is left empty).
 */
export function timeByClass(
  contender: Contender,
  options: InterleavedOptions,
  classes: readonly CallClass[],
): Record<string, ClassStats> {
  const samples = classes.map(() => new Samples());
  const chars = classes.map(() => 0);
  const cursors = classes.map(() => options.warmup);
  const next = (which: number): RawCall[] => {
    const calls: RawCall[] = [];
    const wanted = classes[which] as CallClass;
    const limit = (cursors[which] as number) + options.block * 100;
    while (calls.length < options.block && (cursors[which] as number) < limit) {
      const call = options.call(cursors[which] as number);
      cursors[which] = (cursors[which] as number) + 1;
      if (wanted.includes(call)) calls.push(call);
    }
    return calls;
  };
  for (let block = 0; block < options.blocks; block++) {
    for (let which = 0; which < classes.length; which++) {
      const calls = next(which);
      for (const call of calls) chars[which] = (chars[which] as number) + outputChars(call);
      runBlock(contender, calls, samples[which] as Samples);
    }
  }
  const out: Record<string, ClassStats> = {};
  classes.forEach((entry, which) => {
    const stats = (samples[which] as Samples).stats();
    out[entry.name] = {
      ...stats,
      meanOutputChars: stats.calls === 0 ? 0 : (chars[which] as number) / stats.calls,
    };
  });
  return out;
}

export function outputChars(call: RawCall): number {
  let total = 0;
  for (const part of call.result.content) total += part.text.length;
  return total;
}
