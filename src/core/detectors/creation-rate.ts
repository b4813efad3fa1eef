/**
 * Runaway creation: new branches, worktrees or files whose names differ only by a timestamp or
 * an id, made faster than anyone could use them. Successful creations of one masked shape are
 * counted in a sliding time window.
 */
import type { Violation } from '../types.js';
import { isHarnessFault, isWatched, kindOf } from './applicability.js';
import { LruMap } from './bounded.js';
import { readEntries, readNumber, readSnapshot, readStrings } from './restore.js';
import type { CallContext, Detector, ObservedOutcome } from './types.js';
import { withAlternatives } from './wording.js';

const NAME = 'creation-rate';
const MAX_SHAPES = 1_000;
/** Creation times kept per shape; a `max` above this is treated as this. */
const MAX_TIMES = 64;
const MAX_EVIDENCE_CALLS = 5;
const VERSION = 1;

interface Creations {
  /** Milliseconds, oldest first. */
  times: number[];
  calls: string[];
}

export function createCreationRateDetector(): Detector {
  const shapes = new LruMap<Creations>(MAX_SHAPES);

  return {
    name: NAME,

    check(call: CallContext): Violation | undefined {
      const limits = call.toolPolicy.detectors.creationRate;
      if (!isWatched(call, limits) || kindOf(call) !== 'create') return undefined;
      const creations = shapes.peek(call.identity.shapeKey);
      if (!creations) return undefined;
      const windowMs = limits.windowSeconds * 1000;
      let recent = 0;
      for (const at of creations.times) if (call.now - at < windowMs) recent++;
      if (recent < Math.min(limits.max, MAX_TIMES)) return undefined;
      return describe(call, creations, recent, limits.windowSeconds);
    },

    observe(call: CallContext, outcome: ObservedOutcome): void {
      if (isHarnessFault(outcome) || !outcome.success) return;
      const limits = call.toolPolicy.detectors.creationRate;
      if (!isWatched(call, limits) || kindOf(call) !== 'create') return;
      const key = call.identity.shapeKey;
      const windowMs = limits.windowSeconds * 1000;
      const previous = shapes.peek(key) ?? { times: [], calls: [] };
      shapes.set(key, {
        times: [...previous.times.filter((at) => call.now - at < windowMs), call.now].slice(-MAX_TIMES),
        calls: [...previous.calls, call.description].slice(-MAX_EVIDENCE_CALLS),
      });
    },

    reset(): void {
      shapes.clear();
    },

    snapshot(): unknown {
      return { version: VERSION, shapes: shapes.entries() };
    },

    restore(state: unknown): void {
      shapes.clear();
      const snapshot = readSnapshot(state, VERSION);
      for (const [key, creations] of readEntries(snapshot?.shapes, MAX_SHAPES, readCreations)) {
        shapes.set(key, creations);
      }
    },
  };
}

function describe(call: CallContext, creations: Creations, recent: number, windowSeconds: number): Violation {
  const masked = call.identity.masked;
  const alike = masked.length > 0 ? `differing only in ${masked.join(', ')} values` : 'all of the same shape';
  const last = creations.calls[creations.calls.length - 1] ?? call.description;
  return {
    rule: NAME,
    severity: 'block',
    reason:
      `${call.tool} has already created ${recent} resources in the last ${windowSeconds} s, ${alike} ` +
      `(last: ${last}); creating another is blocked.`,
    suggestion: withAlternatives(
      'Use one of the resources already created, or find out why new ones keep being made.',
      call.toolPolicy.alternatives,
    ),
    evidence: { count: recent, calls: creations.calls, ...(masked.length > 0 ? { masked } : {}) },
  };
}

function readCreations(raw: Record<string, unknown>): Creations | undefined {
  if (!Array.isArray(raw.times)) return undefined;
  const times = raw.times
    .map(readNumber)
    .filter((at): at is number => at !== undefined)
    .slice(-MAX_TIMES);
  if (times.length === 0) return undefined;
  return { times, calls: readStrings(raw.calls, MAX_EVIDENCE_CALLS) };
}
