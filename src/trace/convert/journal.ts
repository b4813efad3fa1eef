/**
 * A narrowing journal back into a trace, so that a recorded run can be replayed under another
 * policy. The journal keeps digests, not content, by default; what the trace can say is limited
 * by what the journal kept:
 * - arguments stored as a digest become `{"$digest": "<sha256>"}`: identical calls still compare
 *   equal, but targets and volatile parts of the arguments are gone;
 * - a successful result is known only by its digest, so it becomes a stand-in text that is equal
 *   exactly when the results were equal (an empty result stays empty);
 * - a failure keeps the error text the journal stored; an empty answer (which the guard journals as
 *   an `empty_result` failure) becomes the successful, empty result it was;
 * - a call answered from an identical call issued with it (verdict `coalesced`) did not run: it
 *   becomes a call without a result, marked `coalesced`, right after its twin and in one `turn` with
 *   it, so that replay judges the pair as the parallel calls they were.
 */
import { digestResult } from '../../core/identity/index.js';
import type { CallEvent, TraceEvent, TraceResult } from '../types.js';
import { callEvent } from './call-event.js';
import type { ConversionResult } from './types.js';

type Entry = Record<string, unknown>;

type MutableCall = { -readonly [K in keyof CallEvent]: CallEvent[K] };

interface CallSlot {
  readonly call: MutableCall;
  readonly callKey: string;
  /** Calls answered from this one (journalled `coalesced`), in the order they were. */
  duplicates?: MutableCall[];
}

const EMPTY_DIGEST = digestResult('');

function isObject(value: unknown): value is Entry {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseEntry(line: string): Entry | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return isObject(value) && typeof value.type === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Arguments as the journal kept them: the redacted object, or a digest of it. */
function argsOf(stored: unknown, callKey: string): Record<string, unknown> {
  if (isObject(stored)) {
    const keys = Object.keys(stored);
    const isDigest =
      typeof stored.sha256 === 'string' && keys.every((key) => key === 'sha256' || key === 'bytes');
    return isDigest ? { $digest: stored.sha256 } : stored;
  }
  if (typeof stored === 'string') return { $digest: stored };
  return { $digest: callKey };
}

function resultOf(outcome: Entry): TraceResult {
  // The guard counts an empty answer as a failure, but the tool itself succeeded: replaying it as
  // an error would turn "nothing found" into some other failure.
  if (outcome.signature === 'empty_result') {
    return { content: typeof outcome.error === 'string' ? outcome.error : '' };
  }
  if (outcome.success === false) {
    const text = typeof outcome.error === 'string' ? outcome.error : String(outcome.signature ?? 'failed');
    return { isError: true, content: text };
  }
  const digest = typeof outcome.resultDigest === 'string' ? outcome.resultDigest : '';
  return { content: digest === EMPTY_DIGEST ? '' : `[result ${digest}]` };
}

export function journalToTrace(lines: Iterable<string>, name = 'journal'): ConversionResult {
  const events: (TraceEvent | CallSlot)[] = [];
  const waiting = new Map<string, CallSlot[]>();
  /** The last call of each key that was not itself coalesced: the twin of a duplicate that follows. */
  const lastOf = new Map<string, CallSlot>();
  let turns = 0;
  let skipped = 0;
  let startedAt: number | undefined;
  for (const line of lines) {
    if (line.trim() === '') continue;
    const entry = parseEntry(line);
    if (!entry) {
      skipped++;
      continue;
    }
    const at = typeof entry.at === 'number' ? entry.at : undefined;
    if (startedAt === undefined && at !== undefined) startedAt = at;
    // A duplicate is answered within its run: a twin from before a new run or session is not its.
    if (entry.type === 'session' || entry.type === 'run') lastOf.clear();
    switch (entry.type) {
      case 'session':
        events.push(
          typeof entry.sessionId === 'string'
            ? { type: 'session', id: entry.sessionId }
            : { type: 'session' },
        );
        break;
      case 'run':
        // `reset` restarts the run the way a new user message does.
        events.push(entry.reason === 'compact' ? { type: 'compact' } : { type: 'user' });
        break;
      case 'proposal': {
        if (typeof entry.tool !== 'string') {
          skipped++;
          break;
        }
        const callKey = typeof entry.callKey === 'string' ? entry.callKey : '';
        const call: MutableCall = { type: 'call', tool: entry.tool, args: argsOf(entry.args, callKey) };
        if (at !== undefined && startedAt !== undefined) call.t = Math.max(0, (at - startedAt) / 1000);
        if (entry.verdict === 'coalesced') {
          // It did not run: no outcome is its, and it belongs beside the call that answered it.
          call.coalesced = true;
          const twin = lastOf.get(callKey);
          if (twin) {
            twin.call.turn ??= `coalesced-${++turns}`;
            call.turn = twin.call.turn;
            if (twin.call.t !== undefined) call.t = twin.call.t;
            else delete call.t;
            twin.duplicates ??= [];
            twin.duplicates.push(call);
          } else events.push({ call, callKey });
          break;
        }
        const slot: CallSlot = { call, callKey };
        events.push(slot);
        lastOf.set(callKey, slot);
        if (entry.verdict !== 'block' && entry.verdict !== 'halt') {
          const queue = waiting.get(callKey) ?? [];
          queue.push(slot);
          waiting.set(callKey, queue);
        }
        break;
      }
      case 'outcome': {
        const callKey = typeof entry.callKey === 'string' ? entry.callKey : '';
        const slot = waiting.get(callKey)?.shift();
        if (slot) slot.call.result = resultOf(entry);
        else skipped++;
        break;
      }
      default:
        // Constraint changes are consequences of the calls, which the replay recomputes.
        break;
    }
  }
  const meta: TraceEvent = { type: 'meta', name, description: 'Converted from a narrowing journal.' };
  const converted: TraceEvent[] = [meta];
  for (const event of events) {
    if (!('callKey' in event)) {
      converted.push(event);
      continue;
    }
    converted.push(callEvent(event.call));
    for (const duplicate of event.duplicates ?? []) converted.push(callEvent(duplicate));
  }
  return { events: converted, skipped };
}
