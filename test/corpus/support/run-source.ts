/** What every converter test hands the converter: a run's source at a fixed pin, and the calls it made. */
import type { RunSource } from '../../../scripts/corpus/events.js';
import type { CallEvent, TraceEvent } from '../../../src/trace/types.js';

/** A source pinned to a made-up commit of a made-up repository (without a path for converters that take many files). */
export function pinnedSource<SOURCE extends Omit<RunSource, 'pin' | 'path'> & { readonly path?: string }>(
  source: SOURCE,
): SOURCE & { readonly pin: string } {
  return { pin: 'owner/name@0123456789ab', ...source };
}

/** The call events of a converted run, in order. */
export const callsOf = (events: readonly TraceEvent[]): CallEvent[] =>
  events.filter((event): event is CallEvent => event.type === 'call');
