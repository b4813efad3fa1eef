/**
 * Asking again for what does not exist. A call failed because something it named is missing or not
 * available (the adapter says which of its values: "flight HAT217 not available on date 2024-05-18").
 * The agent retries with everything it asked for before, only with more items in a list (one more
 * flight, one more payment): what was unavailable is still asked for, so the retry fails the same way.
 * Any retry that drops or changes something is a new attempt and is never judged; so is anything
 * after a success that may have changed the world.
 *
 * A command line whose output said one of its words names nothing that exists ("No matching version
 * found for pkg@6.4.2"), spelled again with other options (`--force`, `--legacy-peer-deps`, `--save`)
 * and failing the same way: once two spellings failed alike, each naming the same words, the options
 * are shown not to matter, and any further spelling with only other options is blocked. A spelling
 * with another plain word (an option's value: `--registry URL`, `-n prod`) is another attempt.
 *
 * Passing again an argument the tool rejected as one it does not take ("Unrecognized key(s) in
 * object: 'task_progress'"): the tool refuses the call for the argument's name, whatever its value
 * and the others', so a retry still passing it fails the same way. Only a success of that tool (it
 * may have been updated) or a new session lifts it.
 */
import { canonicalJson, describeCall, hashString } from '../identity/index.js';
import { redactText } from '../secrets.js';
import type { ActionKind, Violation } from '../types.js';
import { isHarnessFault, isWatched, kindOf } from './applicability.js';
import { LruMap } from './bounded.js';
import { isHash, isRecord, readEntries, readHash, readHashes, readSnapshot } from './restore.js';
import { MAX_RUN_FAILURES, MAX_RUN_SPELLINGS, runAfter, type SpellingRun } from './spelling-runs.js';
import type { CallContext, Detector, ObservedOutcome } from './types.js';
import { excerpt } from './wording.js';

const NAME = 'unavailable-value';
/** 1 saved nothing; 2 saves every refusal with its arguments, values and error by their hashes. */
const VERSION = 2;
/** Refusals remembered per tool and targets, and tools and targets remembered. */
const PER_KEY = 8;
const MAX_KEYS = 64;
/** Arguments deeper or wider than this are not compared (never judged). */
const MAX_DEPTH = 6;
const MAX_ITEMS = 64;
/** Argument values shorter than this stay in a saved error: "12", "on" name nothing of their own. */
const MIN_MASKED = 3;
/** The most argument values looked for in an error, or among a live call's to quote from. */
const MAX_VALUES = 256;
/** A saved error is at most this many parts, and this many characters of its own. */
const MAX_PARTS = 256;
const MAX_SAVED_CHARS = 1_000;
/** The most words a command refusal names. */
const MAX_NAMED_WORDS = 8;

/** Successes that cannot have made anything available. */
const ASKING: ReadonlySet<ActionKind> = new Set(['read', 'search', 'poll']);

/**
 * Arguments as the rule keeps them: every scalar, list item and key by its hash, so that what it
 * remembers, and saves with its state, holds no argument in clear. A scalar is its hash, a list the
 * hashes of its items, an object its fields by the hashes of their keys, in their order.
 */
type Shape =
  | string
  | { readonly items: readonly string[] }
  | { readonly fields: readonly (readonly [string, Shape])[] };

/**
 * A text (an error) with every argument value it quotes replaced by the value's hash: `[hash]`, or
 * `[hash, n]` for the first n characters of a value cut where the text was cut. Written out again
 * only with values of the live call (`filled`).
 */
type Part = string | readonly [string] | readonly [string, number];

interface Refusal {
  /** Undefined for arguments too deep or too wide to compare: kept, but never matched. */
  readonly shape: Shape | undefined;
  readonly argsHash: string;
  /** The hashes of the values the tool named as unavailable, in the order it named them. */
  readonly values: readonly string[];
  readonly error: readonly Part[];
  /** The error and the call as this process saw them; a refusal read from a snapshot has neither. */
  readonly seen?: Seen;
}

/**
 * Spellings of one command line, options aside (`CallFacts.optionlessKey`), that failed saying the
 * same words of it do not exist, each failure of the same shape as the last.
 */
interface CommandRefusal extends SpellingRun {
  /** The hashes of the words named missing, in the order named. */
  readonly values: readonly string[];
  /** The hash of the error's shape. */
  readonly shape: string;
  /** The last error, the words named masked by their hashes. */
  readonly error: readonly Part[];
  readonly seen?: Seen;
}

/** A call refused for arguments its tool does not take. */
interface Rejection {
  readonly argsHash: string;
  /** The hashes of the names refused. */
  readonly names: readonly string[];
  readonly error: readonly Part[];
  readonly seen?: Seen;
}

interface Seen {
  readonly error: string;
  readonly description: string;
}

function keyOf(call: CallContext): string {
  return hashString(`${call.tool}\u0000${call.facts.targets.join('\u0000')}`);
}

function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const itemHash = (item: unknown): string => hashString(canonicalJson(item));
const scalarHash = (value: unknown): string =>
  hashString(typeof value === 'string' ? `s${value}` : `j${canonicalJson(value)}`);

/**
 * Whether `next` asks for everything `earlier` asked for and differs only by more items in lists:
 * the same keys, the same scalars, and every earlier list item still there. Compared as the rule
 * compares a call with a refusal it keeps: by hashes.
 */
export function extendsArguments(next: unknown, earlier: unknown): boolean {
  const shape = shapeOf(earlier);
  return shape !== undefined && extendsShape(next, shape);
}

/** `value` as the rule keeps it, or undefined when `extendsArguments` could never find it extended. */
function shapeOf(value: unknown, depth = 0): Shape | undefined {
  if (depth > MAX_DEPTH) return undefined;
  if (Array.isArray(value)) return value.length > MAX_ITEMS ? undefined : { items: value.map(itemHash) };
  if (!isPlainObject(value)) return scalarHash(value);
  const keys = Object.keys(value);
  if (keys.length > MAX_ITEMS) return undefined;
  const fields: [string, Shape][] = [];
  for (const key of keys) {
    const shape = shapeOf(value[key], depth + 1);
    if (shape === undefined) return undefined;
    fields.push([hashString(key), shape]);
  }
  return { fields };
}

/** `extendsArguments(next, earlier)` for `earlier` kept as `shape`. */
function extendsShape(next: unknown, shape: Shape, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  if (typeof shape === 'string')
    return !Array.isArray(next) && !isPlainObject(next) && scalarHash(next) === shape;
  if ('items' in shape) {
    if (!Array.isArray(next) || next.length > MAX_ITEMS || shape.items.length > next.length) return false;
    const present = new Set(next.map(itemHash));
    return shape.items.every((item) => present.has(item));
  }
  if (!isPlainObject(next)) return false;
  const keys = Object.keys(next);
  if (keys.length !== shape.fields.length) return false;
  const byHash = new Map(keys.map((key) => [hashString(key), key]));
  return shape.fields.every(([hash, field]) => {
    const key = byHash.get(hash);
    return key !== undefined && extendsShape(next[key], field, depth + 1);
  });
}

/** The earlier arguments `shape` keeps, taken from `next`, which extends them. */
function earlierIn(next: unknown, shape: Shape): unknown {
  if (typeof shape === 'string') return next;
  if ('items' in shape) {
    const items = new Map((next as readonly unknown[]).map((item) => [itemHash(item), item]));
    return shape.items.map((hash) => items.get(hash));
  }
  const record = next as Readonly<Record<string, unknown>>;
  const keys = new Map(Object.keys(record).map((key) => [hashString(key), key]));
  return Object.fromEntries(
    shape.fields.map(([hash, field]) => {
      const key = keys.get(hash) as string;
      return [key, earlierIn(record[key], field)];
    }),
  );
}

/**
 * The strings and numbers (as text) in arguments, as an adapter names them, and the keys they are
 * under, within bounds.
 */
function argumentValues(value: unknown, out: string[] = [], depth = 0): string[] {
  if (out.length >= MAX_VALUES) return out;
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'number') out.push(String(value));
  else if (depth < MAX_DEPTH && typeof value === 'object' && value !== null) {
    if (Array.isArray(value)) {
      for (const item of value.slice(0, MAX_ITEMS)) argumentValues(item, out, depth + 1);
      return out;
    }
    for (const key of Object.keys(value).slice(0, MAX_ITEMS)) {
      if (out.length < MAX_VALUES) out.push(key);
      argumentValues((value as Readonly<Record<string, unknown>>)[key], out, depth + 1);
    }
  }
  return out;
}

/** The live call's values and keys by their hashes, to quote what a saved text or a hash stands for. */
function valuesByHash(args: Readonly<Record<string, unknown>>): Map<string, string> {
  return new Map(argumentValues(args).map((value) => [hashString(value), value]));
}

/** `text` with every one of `given` it holds (of `MIN_MASKED` characters or more) by its hash. */
function masked(text: string, given: readonly string[]): Part[] {
  const values = [...new Set(given)]
    .filter((value) => value.length >= MIN_MASKED && text.includes(value.slice(0, MIN_MASKED)))
    .sort((a, b) => b.length - a.length);
  let parts: Part[] = [text];
  for (const value of values) {
    if (!parts.some((part) => typeof part === 'string' && part.includes(value))) continue;
    const hash = hashString(value);
    parts = parts.flatMap((part): Part[] => {
      if (typeof part !== 'string' || !part.includes(value)) return [part];
      const out: Part[] = [];
      part.split(value).forEach((piece, index) => {
        if (index > 0) out.push([hash]);
        if (piece !== '') out.push(piece);
      });
      return out;
    });
  }
  // A value cut where the text was: "… on date 2024-0…".
  const last = parts[parts.length - 1];
  if (typeof last === 'string' && last.endsWith('…')) {
    const body = last.slice(0, -1);
    let best: { readonly value: string; readonly cut: number } | undefined;
    for (const value of values) {
      for (let cut = Math.min(value.length - 1, body.length); cut >= MIN_MASKED; cut -= 1) {
        if ((best === undefined || cut > best.cut) && body.endsWith(value.slice(0, cut))) {
          best = { value, cut };
          break;
        }
      }
    }
    if (best !== undefined) {
      const kept = body.slice(0, body.length - best.cut);
      parts.splice(
        parts.length - 1,
        1,
        ...(kept === '' ? [] : [kept]),
        [hashString(best.value), best.cut],
        '…',
      );
    }
  }
  return parts;
}

/** A masked text written out with the live call's values; one it does not hold reads "…". */
function filled(parts: readonly Part[], values: ReadonlyMap<string, string>): string {
  return parts
    .map((part) => {
      if (typeof part === 'string') return part;
      const value = values.get(part[0]);
      if (value === undefined) return '…';
      return part[1] === undefined ? value : value.slice(0, part[1]);
    })
    .join('');
}

/** The key a command's refusals are kept under: its spellings' shared key, by its hash. */
function commandKeyOf(optionless: string): string {
  return hashString(`optionless\u0000${optionless}`);
}

/** Whether two lists of hashes hold the same hashes in the same order. */
function sameHashes(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((hash, index) => hash === b[index]);
}

/** Failures under one key, each spelled otherwise, before the next spelling is blocked. */
const COMMAND_FAILURES = 2;

export function createUnavailableValueDetector(): Detector {
  const refusals = new LruMap<Refusal[]>(MAX_KEYS);
  const rejections = new LruMap<Rejection>(MAX_KEYS);
  const commands = new LruMap<CommandRefusal>(MAX_KEYS);

  /** A failure of a command line with options left out (`CallFacts.optionlessKey`). */
  function observeCommand(call: CallContext, outcome: ObservedOutcome, optionless: string): void {
    const key = commandKeyOf(optionless);
    const named = outcome.failure?.unavailable;
    if (!named || named.length === 0) {
      // Another failure under the key: the run of failures alike ends.
      commands.delete(key);
      return;
    }
    const values = named.map((value) => hashString(value));
    const shape = hashString(outcome.errorShape ?? outcome.text);
    // By the key a ban on it is filed under: words about the call (a description) make no spelling.
    const spelling = hashString(call.banKey);
    const earlier = commands.peek(key);
    const alike = earlier !== undefined && earlier.shape === shape && sameHashes(earlier.values, values);
    const error = excerpt(outcome.text);
    commands.set(key, {
      values,
      shape,
      ...runAfter(earlier, alike, spelling),
      error: masked(error, [...argumentValues(call.args), ...named]),
      seen: { error, description: call.description },
    });
  }

  return {
    name: NAME,

    check(call: CallContext): Violation | undefined {
      // Most runs are never refused anything: no key is written for them.
      if (
        (refusals.size === 0 && rejections.size === 0 && commands.size === 0) ||
        !isWatched(call, call.toolPolicy.detectors.unavailableValue)
      )
        return undefined;
      const optionless = call.facts.optionlessKey;
      if (optionless !== undefined && commands.size > 0) {
        const refusal = commands.peek(commandKeyOf(optionless));
        if (
          refusal !== undefined &&
          refusal.failures >= COMMAND_FAILURES &&
          refusal.spellings.length >= COMMAND_FAILURES
        )
          return describeCommand(call, refusal);
      }
      const rejection = rejections.peek(call.tool);
      let argsHash: string | undefined;
      if (rejection !== undefined) {
        argsHash = hashString(canonicalJson(call.args));
        const names = namesIn(call.args, rejection.names);
        if (argsHash !== rejection.argsHash && names !== undefined)
          return describeRejection(call, rejection, names);
      }
      if (refusals.size === 0) return undefined;
      const earlier = refusals.peek(keyOf(call));
      if (!earlier) return undefined;
      argsHash ??= hashString(canonicalJson(call.args));
      for (const refusal of earlier) {
        // The very same call is the identical-failure rule's to judge.
        if (refusal.shape === undefined || argsHash === refusal.argsHash) continue;
        if (extendsShape(call.args, refusal.shape)) return describe(call, refusal, refusal.shape);
      }
      return undefined;
    },

    observe(call: CallContext, outcome: ObservedOutcome): void {
      if (isHarnessFault(outcome)) return;
      if (outcome.success) {
        // A booking, a cancellation, an edit may have made something available again.
        if (!ASKING.has(kindOf(call))) {
          refusals.clear();
          commands.clear();
        }
        rejections.delete(call.tool);
        return;
      }
      const optionless = call.facts.optionlessKey;
      if (optionless !== undefined && (commands.size > 0 || outcome.failure?.unavailable !== undefined)) {
        observeCommand(call, outcome, optionless);
        // A command line's words are not its arguments' structure: compared as spellings instead.
        if (outcome.failure?.unavailable !== undefined) return;
      }
      const names = outcome.failure?.rejectedArguments;
      if (names && names.length > 0) {
        const error = excerpt(outcome.text);
        rejections.set(call.tool, {
          argsHash: hashString(canonicalJson(call.args)),
          names: names.map((name) => hashString(name)),
          error: masked(error, argumentValues(call.args)),
          seen: { error, description: call.description },
        });
        return;
      }
      const values = outcome.failure?.unavailable;
      if (!values || values.length === 0) return;
      const key = keyOf(call);
      const list = refusals.peek(key) ?? [];
      const error = excerpt(outcome.text);
      list.push({
        shape: shapeOf(call.args),
        argsHash: hashString(canonicalJson(call.args)),
        values: values.map((value) => hashString(value)),
        error: masked(error, argumentValues(call.args)),
        seen: { error, description: call.description },
      });
      if (list.length > PER_KEY) list.shift();
      refusals.set(key, list);
    },

    reset(reason): void {
      // A reply from the user does not make a flight available; a new session starts afresh. A
      // command's options were judged by its own failures only: the user may have published, or
      // pointed the command elsewhere, since.
      commands.clear();
      if (reason === 'session') {
        refusals.clear();
        rejections.clear();
      }
    },

    snapshot(): unknown {
      // Only hashes and masked texts: arguments may hold anything, a secret included.
      const saved = (refusal: Refusal) => ({
        shape: refusal.shape ?? null,
        args: refusal.argsHash,
        values: refusal.values,
        error: refusal.error,
      });
      return {
        version: VERSION,
        refusals: refusals.entries().map(([key, list]) => [key, { list: list.map(saved) }]),
        rejections: rejections
          .entries()
          .map(([tool, { argsHash, names, error }]) => [tool, { args: argsHash, names, error }]),
        commands: commands
          .entries()
          .map(([key, { values, shape, spellings, failures, error }]) => [
            key,
            { values, shape, spellings, failures, error },
          ]),
      };
    },

    restore(state: unknown): void {
      refusals.clear();
      rejections.clear();
      const snapshot = readSnapshot(state, VERSION);
      for (const [key, list] of readEntries(snapshot?.refusals, MAX_KEYS, readRefusals)) {
        if (isHash(key)) refusals.set(key, list);
      }
      for (const [tool, rejection] of readEntries(snapshot?.rejections, MAX_KEYS, readRejection)) {
        rejections.set(tool, rejection);
      }
      for (const [key, refusal] of readEntries(snapshot?.commands, MAX_KEYS, readCommandRefusal)) {
        if (isHash(key)) commands.set(key, refusal);
      }
    },
  };
}

/** The live call's top-level names whose hashes are `hashes`, in that order, or undefined when one is missing. */
function namesIn(args: Readonly<Record<string, unknown>>, hashes: readonly string[]): string[] | undefined {
  const keys = new Map(Object.keys(args).map((key) => [hashString(key), key]));
  const names: string[] = [];
  for (const hash of hashes) {
    const name = keys.get(hash);
    if (name === undefined) return undefined;
    names.push(name);
  }
  return names;
}

function readShape(value: unknown, depth = 0): Shape | undefined {
  if (depth > MAX_DEPTH) return undefined;
  if (typeof value === 'string') return readHash(value);
  if (!isRecord(value)) return undefined;
  if (Array.isArray(value.items)) {
    const items = readHashes(value.items, MAX_ITEMS);
    return items === undefined ? undefined : { items };
  }
  if (!Array.isArray(value.fields) || value.fields.length > MAX_ITEMS) return undefined;
  const fields: [string, Shape][] = [];
  for (const field of value.fields) {
    if (!Array.isArray(field) || field.length !== 2) return undefined;
    const key = readHash(field[0]);
    const shape = readShape(field[1], depth + 1);
    if (key === undefined || shape === undefined) return undefined;
    fields.push([key, shape]);
  }
  return { fields };
}

function readParts(value: unknown): Part[] | undefined {
  if (!Array.isArray(value) || value.length > MAX_PARTS) return undefined;
  const parts: Part[] = [];
  let chars = 0;
  for (const part of value) {
    if (typeof part === 'string') {
      chars += part.length;
      if (chars > MAX_SAVED_CHARS) return undefined;
      parts.push(part);
      continue;
    }
    if (!Array.isArray(part) || part.length < 1 || part.length > 2) return undefined;
    const hash = readHash(part[0]);
    if (hash === undefined) return undefined;
    if (part.length === 1) parts.push([hash]);
    else if (Number.isInteger(part[1]) && part[1] >= 1 && part[1] <= MAX_SAVED_CHARS)
      parts.push([hash, part[1]]);
    else return undefined;
  }
  return parts;
}

function readRefusal(value: unknown): Refusal | undefined {
  if (!isRecord(value)) return undefined;
  const shape = value.shape === null ? undefined : readShape(value.shape);
  const argsHash = readHash(value.args);
  const values = readHashes(value.values, MAX_VALUES);
  const error = readParts(value.error);
  if ((value.shape !== null && shape === undefined) || argsHash === undefined) return undefined;
  if (values === undefined || values.length === 0 || error === undefined) return undefined;
  return { shape, argsHash, values, error };
}

function readRefusals(value: Record<string, unknown>): Refusal[] | undefined {
  if (!Array.isArray(value.list)) return undefined;
  const list = value.list.slice(-PER_KEY).map(readRefusal);
  const kept = list.filter((refusal): refusal is Refusal => refusal !== undefined);
  return kept.length > 0 ? kept : undefined;
}

function readRejection(value: Record<string, unknown>): Rejection | undefined {
  const argsHash = readHash(value.args);
  const names = readHashes(value.names, MAX_ITEMS);
  const error = readParts(value.error);
  if (argsHash === undefined || names === undefined || names.length === 0 || error === undefined)
    return undefined;
  return { argsHash, names, error };
}

function readCommandRefusal(value: Record<string, unknown>): CommandRefusal | undefined {
  const values = readHashes(value.values, MAX_NAMED_WORDS);
  const shape = readHash(value.shape);
  const spellings = readHashes(value.spellings, MAX_RUN_SPELLINGS);
  const error = readParts(value.error);
  const failures = value.failures;
  if (values === undefined || values.length === 0 || shape === undefined || error === undefined)
    return undefined;
  if (spellings === undefined || spellings.length === 0) return undefined;
  if (typeof failures !== 'number' || !Number.isInteger(failures) || failures < 1) return undefined;
  return { values, shape, spellings, failures: Math.min(failures, MAX_RUN_FAILURES), error };
}

/**
 * The values the tool named, quoted from the live call (which asks for every one of them again): a
 * refusal keeps only their hashes.
 */
function namedValues(call: CallContext, hashes: readonly string[]): string {
  const values = valuesByHash(call.args);
  return hashes.map((hash) => values.get(hash) ?? 'a value it named').join(' and ');
}

function describe(call: CallContext, refusal: Refusal, shape: Shape): Violation {
  const named = namedValues(call, refusal.values);
  const error = refusal.seen?.error ?? filled(refusal.error, valuesByHash(call.args));
  // Read from a snapshot, the refused call is written out again from the live one, which holds it.
  const earlier =
    refusal.seen?.description ?? redactText(describeCall(call.tool, earlierIn(call.args, shape)));
  return {
    rule: NAME,
    severity: 'block',
    reason:
      `${call.description} still asks for ${named}, which ${call.tool} said is not available ` +
      `("${error}"), and only adds to what failed; nothing has changed since.`,
    suggestion: `Leave ${named} out of the request, or choose something else in its place.`,
    evidence: { count: 1, calls: [earlier], lastError: error },
  };
}

/** The words of the live call's texts by their hashes: a command refusal keeps only those. */
function wordsByHash(args: Readonly<Record<string, unknown>>): Map<string, string> {
  const words = new Map<string, string>();
  for (const value of argumentValues(args)) {
    words.set(hashString(value), value);
    for (const raw of value.split(/\s+/, MAX_VALUES)) {
      const word = raw.replace(/^(['"])(.*)\1$/, '$2');
      if (word !== '') words.set(hashString(word), word);
    }
  }
  return words;
}

function describeCommand(call: CallContext, refusal: CommandRefusal): Violation {
  const words = wordsByHash(call.args);
  const named = refusal.values.map((hash) => words.get(hash) ?? 'a word it named').join(' and ');
  const error = refusal.seen?.error ?? filled(refusal.error, words);
  return {
    rule: NAME,
    severity: 'block',
    reason:
      `${call.description} runs again a command that failed ${refusal.failures} times, spelled ` +
      `${refusal.spellings.length} ways with other options, each time saying ${named} does not exist ` +
      `("${error}"); no option makes it exist, and nothing has changed since.`,
    suggestion: `Look up what exists instead of ${named} (list the available versions or names), then ask for one of those.`,
    evidence: {
      count: refusal.failures,
      calls: refusal.seen === undefined ? [] : [refusal.seen.description],
      lastError: error,
    },
  };
}

function describeRejection(call: CallContext, rejection: Rejection, names: readonly string[]): Violation {
  const named = names.join(' and ');
  const error = rejection.seen?.error ?? filled(rejection.error, valuesByHash(call.args));
  // Read from a snapshot, the refused call's values are not known: only the names it passed.
  const earlier =
    rejection.seen?.description ?? `${call.tool} {${names.map((name) => `${name}: …`).join(', ')}}`;
  return {
    rule: NAME,
    severity: 'block',
    reason:
      `${call.description} still passes ${named}, which ${call.tool} refused as an argument it does ` +
      `not take ("${error}"); whatever its value, the call fails the same way.`,
    suggestion: `Call ${call.tool} without ${named}.`,
    evidence: { count: 1, calls: [earlier], lastError: error },
  };
}
