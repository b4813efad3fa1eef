/**
 * Asking again for what does not exist. A call failed because something it named is missing or not
 * available (the adapter says which of its values: "flight HAT217 not available on date 2024-05-18").
 * The agent retries with everything it asked for before, only with more items in a list (one more
 * flight, one more payment): what was unavailable is still asked for, so the retry fails the same way.
 * Any retry that drops or changes something is a new attempt and is never judged; so is anything
 * after a success that may have changed the world.
 *
 * Passing again an argument the tool rejected as one it does not take ("Unrecognized key(s) in
 * object: 'task_progress'"): the tool refuses the call for the argument's name, whatever its value
 * and the others', so a retry still passing it fails the same way. Only a success of that tool (it
 * may have been updated) or a new session lifts it.
 */
import { canonicalJson } from '../identity/index.js';
import type { ActionKind, Violation } from '../types.js';
import { isHarnessFault, isWatched, kindOf } from './applicability.js';
import { LruMap } from './bounded.js';
import type { CallContext, Detector, ObservedOutcome } from './types.js';
import { excerpt } from './wording.js';

const NAME = 'unavailable-value';
/** Refusals remembered per tool and targets, and tools and targets remembered. */
const PER_KEY = 8;
const MAX_KEYS = 64;
/** Arguments deeper or wider than this are not compared (never judged). */
const MAX_DEPTH = 6;
const MAX_ITEMS = 64;

/** Successes that cannot have made anything available. */
const ASKING: ReadonlySet<ActionKind> = new Set(['read', 'search', 'poll']);

interface Refusal {
  readonly args: Readonly<Record<string, unknown>>;
  readonly values: readonly string[];
  readonly error: string;
  readonly description: string;
}

/** A call refused for arguments its tool does not take. */
interface Rejection {
  readonly args: Readonly<Record<string, unknown>>;
  readonly names: readonly string[];
  readonly error: string;
  readonly description: string;
}

function keyOf(call: CallContext): string {
  return `${call.tool}\u0000${call.facts.targets.join('\u0000')}`;
}

function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Whether `next` asks for everything `earlier` asked for and differs only by more items in lists:
 * the same keys, the same scalars, and every earlier list item still there.
 */
export function extendsArguments(next: unknown, earlier: unknown, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  if (Array.isArray(earlier)) {
    if (!Array.isArray(next) || next.length > MAX_ITEMS || earlier.length > next.length) return false;
    const present = new Set(next.map((item) => canonicalJson(item)));
    return earlier.every((item) => present.has(canonicalJson(item)));
  }
  if (isPlainObject(earlier)) {
    if (!isPlainObject(next)) return false;
    const keys = Object.keys(earlier);
    if (keys.length > MAX_ITEMS || keys.length !== Object.keys(next).length) return false;
    return keys.every(
      (key) => Object.hasOwn(next, key) && extendsArguments(next[key], earlier[key], depth + 1),
    );
  }
  return Object.is(next, earlier);
}

export function createUnavailableValueDetector(): Detector {
  const refusals = new LruMap<Refusal[]>(MAX_KEYS);
  const rejections = new LruMap<Rejection>(MAX_KEYS);

  return {
    name: NAME,

    check(call: CallContext): Violation | undefined {
      // Most runs are never refused anything: no key is written for them.
      if (
        (refusals.size === 0 && rejections.size === 0) ||
        !isWatched(call, call.toolPolicy.detectors.unavailableValue)
      )
        return undefined;
      const rejection = rejections.peek(call.tool);
      if (
        rejection !== undefined &&
        canonicalJson(call.args) !== canonicalJson(rejection.args) &&
        rejection.names.every((name) => Object.hasOwn(call.args, name))
      )
        return describeRejection(call, rejection);
      if (refusals.size === 0) return undefined;
      const earlier = refusals.peek(keyOf(call));
      if (!earlier) return undefined;
      for (const refusal of earlier) {
        // The very same call is the identical-failure rule's to judge.
        if (canonicalJson(call.args) === canonicalJson(refusal.args)) continue;
        if (extendsArguments(call.args, refusal.args)) return describe(call, refusal);
      }
      return undefined;
    },

    observe(call: CallContext, outcome: ObservedOutcome): void {
      if (isHarnessFault(outcome)) return;
      if (outcome.success) {
        // A booking, a cancellation, an edit may have made something available again.
        if (!ASKING.has(kindOf(call))) refusals.clear();
        rejections.delete(call.tool);
        return;
      }
      const names = outcome.failure?.rejectedArguments;
      if (names && names.length > 0) {
        rejections.set(call.tool, {
          args: call.args,
          names,
          error: excerpt(outcome.text),
          description: call.description,
        });
        return;
      }
      const values = outcome.failure?.unavailable;
      if (!values || values.length === 0) return;
      const key = keyOf(call);
      const list = refusals.peek(key) ?? [];
      list.push({ args: call.args, values, error: excerpt(outcome.text), description: call.description });
      if (list.length > PER_KEY) list.shift();
      refusals.set(key, list);
    },

    reset(reason): void {
      // A reply from the user does not make a flight available; a new session starts afresh.
      if (reason === 'session') {
        refusals.clear();
        rejections.clear();
      }
    },

    snapshot(): unknown {
      return { version: 1 };
    },

    restore(): void {
      refusals.clear();
      rejections.clear();
    },
  };
}

function describe(call: CallContext, refusal: Refusal): Violation {
  const named = refusal.values.join(' and ');
  return {
    rule: NAME,
    severity: 'block',
    reason:
      `${call.description} still asks for ${named}, which ${call.tool} said is not available ` +
      `("${refusal.error}"), and only adds to what failed; nothing has changed since.`,
    suggestion: `Leave ${named} out of the request, or choose something else in its place.`,
    evidence: { count: 1, calls: [refusal.description], lastError: refusal.error },
  };
}

function describeRejection(call: CallContext, rejection: Rejection): Violation {
  const named = rejection.names.join(' and ');
  return {
    rule: NAME,
    severity: 'block',
    reason:
      `${call.description} still passes ${named}, which ${call.tool} refused as an argument it does ` +
      `not take ("${rejection.error}"); whatever its value, the call fails the same way.`,
    suggestion: `Call ${call.tool} without ${named}.`,
    evidence: { count: 1, calls: [rejection.description], lastError: rejection.error },
  };
}
