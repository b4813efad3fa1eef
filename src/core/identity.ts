/**
 * Identity of calls and results: canonical JSON, volatile-value masking and hashing. Everything
 * here must take hostile input (cycles, huge strings, deep nesting, odd types) in bounded time and
 * memory, because arguments come straight from a model.
 */

const MAX_DEPTH = 64;
const MAX_KEYS = 1_000;
const MAX_ITEMS = 10_000;

/** What a value that cannot be read (a getter or a proxy that throws) is written as. */
export const UNREADABLE = '[unreadable]';

/**
 * Set by `canonicalJson` when it cut something (keys, items, depth) or could not read a value:
 * the arguments are then hostile or huge, and the engine works on a bounded copy of them.
 */
let cut = false;

export interface CanonicalOptions {
  /** Strings longer than this are replaced by their length and hash, keeping keys small. */
  readonly maxString?: number;
  /** Applied to every string before it is written. */
  readonly mapString?: (value: string) => string;
}

/** A string as canonical JSON writes it: quoted, or replaced by its length and hash when too long. */
function stringForm(text: string, limit: number | undefined): string {
  if (limit !== undefined && text.length > limit) {
    return JSON.stringify(`${text.slice(0, 32)}…[${text.length} chars #${hashString(text)}]`);
  }
  return JSON.stringify(text);
}

/**
 * Deterministic JSON: object keys sorted, `-0` as `0`, non-JSON values given stable stand-ins
 * (`NaN`, BigInt, Dates, functions), cycles and excessive depth cut with markers.
 */
export function canonicalJson(value: unknown, options: CanonicalOptions = {}): string {
  const parts: string[] = [];
  const seen = new Set<object>();
  write(value, 0);
  return parts.join('');

  function writeString(text: string): void {
    parts.push(stringForm(options.mapString ? options.mapString(text) : text, options.maxString));
  }

  function write(item: unknown, depth: number): void {
    switch (typeof item) {
      case 'string':
        writeString(item);
        return;
      case 'number':
        parts.push(Number.isFinite(item) ? JSON.stringify(item === 0 ? 0 : item) : `"[${String(item)}]"`);
        return;
      case 'boolean':
        parts.push(item ? 'true' : 'false');
        return;
      case 'bigint':
        parts.push(`"[bigint ${item.toString()}]"`);
        return;
      case 'undefined':
        parts.push('null');
        return;
      case 'function':
        parts.push('"[function]"');
        return;
      case 'symbol':
        parts.push('"[symbol]"');
        return;
    }
    if (item === null) {
      parts.push('null');
      return;
    }
    const object = item as object;
    if (depth >= MAX_DEPTH) {
      cut = true;
      parts.push('"[too deep]"');
      return;
    }
    if (seen.has(object)) {
      parts.push('"[circular]"');
      return;
    }
    if (object instanceof Date) {
      parts.push(JSON.stringify(Number.isNaN(object.getTime()) ? '[invalid date]' : object.toISOString()));
      return;
    }
    seen.add(object);
    const mark = parts.length;
    try {
      writeObject(object, depth);
    } catch {
      // A getter or a proxy trap that throws: the value becomes a marker, the rest is kept.
      cut = true;
      parts.length = mark;
      parts.push(`"${UNREADABLE}"`);
    }
    seen.delete(object);
  }

  function writeObject(object: object, depth: number): void {
    if (Array.isArray(object) || ArrayBuffer.isView(object)) {
      const list = object as ArrayLike<unknown>;
      const length = Math.min(list.length, MAX_ITEMS);
      parts.push('[');
      for (let index = 0; index < length; index++) {
        if (index > 0) parts.push(',');
        write(list[index], depth + 1);
      }
      if (list.length > length) {
        cut = true;
        parts.push(`,"[+${list.length - length} items]"`);
      }
      parts.push(']');
    } else if (object instanceof Map) {
      write(Object.fromEntries([...object.entries()].map(([k, v]) => [String(k), v])), depth);
    } else if (object instanceof Set) {
      write([...object.values()], depth);
    } else {
      // Beyond the bound, the first keys in insertion order are kept: sorting 200,000 keys to keep
      // 1,000 of them would cost more than the call.
      const keys = Object.keys(object);
      const shown = sortKeys(keys.length > MAX_KEYS ? keys.slice(0, MAX_KEYS) : keys);
      parts.push('{');
      let first = true;
      for (const key of shown) {
        const entry = (object as Record<string, unknown>)[key];
        if (entry === undefined || typeof entry === 'function' || typeof entry === 'symbol') continue;
        if (!first) parts.push(',');
        first = false;
        parts.push(quotedKey(key));
        write(entry, depth + 1);
      }
      if (keys.length > shown.length) {
        cut = true;
        parts.push(`${first ? '' : ','}"[+keys]":${keys.length - shown.length}`);
      }
      parts.push('}');
    }
  }
}

/**
 * A plain copy of arguments within the bounds `canonicalJson` keeps: at most 1,000 keys per object
 * (the rest counted under `[+keys]`), 10,000 items per list, 64 levels; a value that cannot be read
 * becomes `[unreadable]`, a cycle `[circular]`. What the engine looks at when the arguments are
 * hostile or huge, so that no later step (targets, descriptions, the journal) pays for them again.
 */
export function boundedArguments(
  args: unknown,
  topKeys?: readonly string[],
): Readonly<Record<string, unknown>> {
  const seen = new Set<object>();
  let given = topKeys;
  const copy = copyValue(args, 0);
  return typeof copy === 'object' && copy !== null && !Array.isArray(copy)
    ? (copy as Record<string, unknown>)
    : { value: copy };

  function copyValue(value: unknown, depth: number): unknown {
    if (typeof value !== 'object' || value === null) return value;
    if (depth >= MAX_DEPTH) return '[too deep]';
    if (seen.has(value)) return '[circular]';
    if (value instanceof Date) return value;
    seen.add(value);
    try {
      if (Array.isArray(value) || ArrayBuffer.isView(value)) {
        const list = value as ArrayLike<unknown>;
        const length = Math.min(list.length, MAX_ITEMS);
        const out: unknown[] = new Array(length);
        for (let index = 0; index < length; index++) out[index] = readCopied(list, index, depth);
        if (list.length > length) out.push(`[+${list.length - length} items]`);
        return out;
      }
      const keys = given ?? Object.keys(value);
      given = undefined;
      const out: Record<string, unknown> = {};
      const shown = Math.min(keys.length, MAX_KEYS);
      for (let index = 0; index < shown; index++) {
        const key = keys[index] as string;
        // defineProperty keeps a `__proto__` key as data.
        Object.defineProperty(out, key, {
          value: readCopied(value as Record<string, unknown>, key, depth),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      if (keys.length > shown) out['[+keys]'] = keys.length - shown;
      return out;
    } catch {
      return UNREADABLE;
    } finally {
      seen.delete(value);
    }
  }

  function readCopied(container: object, key: string | number, depth: number): unknown {
    try {
      return copyValue((container as Record<string | number, unknown>)[key], depth + 1);
    } catch {
      return UNREADABLE;
    }
  }
}

/** Keys as canonical JSON writes them, `"key":`. The same few keys come back in every record. */
const quotedKeys = new Map<string, string>();
const MAX_QUOTED_KEYS = 4096;

function quotedKey(key: string): string {
  let quoted = quotedKeys.get(key);
  if (quoted === undefined) {
    quoted = `${JSON.stringify(key)}:`;
    if (key.length <= 64) {
      if (quotedKeys.size >= MAX_QUOTED_KEYS) quotedKeys.clear();
      quotedKeys.set(key, quoted);
    }
  }
  return quoted;
}

/**
 * A 64-bit non-cryptographic hash (two independent 32-bit lanes), as 16 hex characters. Used for
 * call keys and result digests, where speed matters and nobody is attacking the hash; receipts use
 * SHA-256 in the audit layer.
 */
export function hashString(text: string): string {
  return wholeTextHash.reset().add(text).finish();
}

/**
 * `hashString` as its two 32-bit lanes, with no string built. The object is shared: read both lanes
 * before hashing anything else.
 */
export function hashLanes(text: string): { readonly high: number; readonly low: number } {
  return wholeTextHash.reset().add(text).mix();
}

const LANE1_SEED = 0xdeadbeef;
const LANE2_SEED = 0x41c6ce57;
const LANE1_MULTIPLIER = 2654435761;
const LANE2_MULTIPLIER = 1597334677;
const FINGERPRINT_MASK = 0x3fffffff;

/**
 * `hashString` over a text given in pieces: `new TextHash().add(a).add(b).finish()` equals
 * `hashString(a + b)`, without the concatenation ever being built.
 */
class TextHash {
  private lane1 = LANE1_SEED;
  private lane2 = LANE2_SEED;
  private length = 0;
  /** The low 30 bits of the last hash finished: a small integer, which costs a map nothing to keep. */
  fingerprint = 0;
  /** The finished hash's lanes, `hashString`'s first and last eight hex digits. */
  high = 0;
  low = 0;

  reset(): this {
    this.lane1 = LANE1_SEED;
    this.lane2 = LANE2_SEED;
    this.length = 0;
    return this;
  }

  add(text: string): this {
    let h1 = this.lane1;
    let h2 = this.lane2;
    for (let index = 0; index < text.length; index++) {
      const code = text.charCodeAt(index);
      h1 = Math.imul(h1 ^ code, LANE1_MULTIPLIER);
      h2 = Math.imul(h2 ^ code, LANE2_MULTIPLIER);
    }
    this.lane1 = h1;
    this.lane2 = h2;
    this.length += text.length;
    return this;
  }

  /** Starts again from lanes a scan computed over `length` characters, as if they had been added. */
  resume(lane1: number, lane2: number, length: number): this {
    this.lane1 = lane1;
    this.lane2 = lane2;
    this.length = length;
    return this;
  }

  /** One character, by its code. */
  addCode(code: number): this {
    this.lane1 = Math.imul(this.lane1 ^ code, LANE1_MULTIPLIER);
    this.lane2 = Math.imul(this.lane2 ^ code, LANE2_MULTIPLIER);
    this.length += 1;
    return this;
  }

  mix(): this {
    let h1 = this.lane1 ^ this.length;
    let h2 = this.lane2 ^ this.length;
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    this.high = h1;
    this.low = h2;
    this.fingerprint = h2 & FINGERPRINT_MASK;
    return this;
  }

  finish(): string {
    this.mix();
    return hex64(this.high, this.low);
  }
}

/** `hashString` never calls itself, so one hasher serves every call. */
const wholeTextHash = new TextHash();

/** The character codes of the hex digits, looked up by value. */
const HEX_DIGIT = Array.from('0123456789abcdef', (digit) => digit.charCodeAt(0));

function digit(value: number, shift: number): number {
  return HEX_DIGIT[(value >>> shift) & 15] as number;
}

/** Two 32-bit lanes as 16 hex digits, in one string built once: no intermediate pieces. */
function hex64(high: number, low: number): string {
  return String.fromCharCode(
    digit(high, 28),
    digit(high, 24),
    digit(high, 20),
    digit(high, 16),
    digit(high, 12),
    digit(high, 8),
    digit(high, 4),
    digit(high, 0),
    digit(low, 28),
    digit(low, 24),
    digit(low, 20),
    digit(low, 16),
    digit(low, 12),
    digit(low, 8),
    digit(low, 4),
    digit(low, 0),
  );
}

export type MaskKind = 'timestamp' | 'uuid' | 'epoch' | 'temp-path' | 'hex-id' | 'duration' | 'pid';

interface MaskRule {
  readonly kind: MaskKind;
  readonly pattern: RegExp;
  readonly replacement: string;
  /** The rule's bit in what `candidateRules` returns. */
  readonly bit: number;
}

const TIMESTAMP_BIT = 1;
const COMPACT_TIMESTAMP_BIT = 2;
const UUID_BIT = 4;
const EPOCH_BIT = 8;
const TEMP_PATH_BIT = 16;
const HEX_ID_BIT = 32;
const DURATION_BIT = 64;
const PID_BIT = 128;
/** Not a rule: the text has a character JSON escapes (or a surrogate, which it may). */
const ESCAPE_BIT = 256;
const RULE_BITS = ESCAPE_BIT - 1;

const TIMESTAMP: MaskRule = {
  kind: 'timestamp',
  pattern: /\b\d{4}-\d{2}-\d{2}[T_ ]\d{2}[:-]\d{2}(?:[:-]\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g,
  replacement: '<time>',
  bit: TIMESTAMP_BIT,
};
const COMPACT_TIMESTAMP: MaskRule = {
  kind: 'timestamp',
  pattern: /\b20\d{2}[01]\d[0-3]\d[T_-]?[0-2]\d[0-5]\d[0-5]\d\b/g,
  replacement: '<time>',
  bit: COMPACT_TIMESTAMP_BIT,
};
const UUID: MaskRule = {
  kind: 'uuid',
  pattern: /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi,
  replacement: '<uuid>',
  bit: UUID_BIT,
};
const EPOCH: MaskRule = {
  kind: 'epoch',
  pattern: /\b1[6-9]\d{8}(?:\d{3})?\b/g,
  replacement: '<epoch>',
  bit: EPOCH_BIT,
};
/** Only the random part of a temporary path: `/tmp/output.txt` stays what it is. */
const TEMP_PATH: MaskRule = {
  kind: 'temp-path',
  pattern:
    /(\/(?:private\/)?(?:tmp|var\/tmp|var\/folders\/[^/\s]+\/[^/\s]+\/T)\/)([A-Za-z_.-]*(?=[A-Za-z_.-]*\d)[A-Za-z0-9_.-]{6,})/g,
  replacement: '$1<tmp>',
  bit: TEMP_PATH_BIT,
};
const HEX_ID: MaskRule = {
  kind: 'hex-id',
  pattern: /\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{16,}\b/gi,
  replacement: '<hex>',
  bit: HEX_ID_BIT,
};
const DURATION: MaskRule = {
  kind: 'duration',
  pattern: /\b\d+(?:\.\d+)?\s?(?:ms|µs|us|ns|s|sec|secs|seconds|m|min|mins|minutes|h|hrs|hours)\b/g,
  replacement: '<duration>',
  bit: DURATION_BIT,
};
const PID: MaskRule = { kind: 'pid', pattern: /\b(pid[:= ]\s*)\d+/gi, replacement: '$1<pid>', bit: PID_BIT };

/**
 * Which values count as volatile depends on what is compared. Arguments keep hex ids and
 * durations (two commits, or two timeouts, are different calls); shapes and results mask them.
 */
const ARGUMENT_RULES: readonly MaskRule[] = [TIMESTAMP, COMPACT_TIMESTAMP, UUID, EPOCH, TEMP_PATH];
const SHAPE_RULES: readonly MaskRule[] = [...ARGUMENT_RULES, HEX_ID];
const RESULT_RULES: readonly MaskRule[] = [...SHAPE_RULES, DURATION, PID];
const HEX_ONLY: readonly MaskRule[] = [HEX_ID];

/** What each ASCII character can start or continue, for `candidateRules`: anything else is 0. */
const DIGIT = 1;
const HEX_LETTER = 2;
/** `-`, `/` and `p`, where a rule may need a closer look, and what JSON escapes. */
const MARK = 3;
const CHARACTER_CLASS = new Uint8Array(128);
for (let code = 0; code < 32; code++) CHARACTER_CLASS[code] = MARK;
for (let code = 48; code <= 57; code++) CHARACTER_CLASS[code] = DIGIT;
for (const letter of 'abcdefABCDEF') CHARACTER_CLASS[letter.charCodeAt(0)] = HEX_LETTER;
for (const mark of '-/pP"\\') CHARACTER_CLASS[mark.charCodeAt(0)] = MARK;

/**
 * The first letters of the duration units (m, µ, u, n, s, h). A duration's last digit is followed
 * by one of them, or by a space and then one of them.
 */
const AFTER_NUMBER = new Uint8Array(256);
for (const start of 'mµunsh') AFTER_NUMBER[start.charCodeAt(0)] = 1;

/** A superset of what `\s` matches, which is all a necessary condition needs. */
function mayBeSpace(code: number): boolean {
  return code <= 32 || code === 160 || code >= 0x1680;
}

/**
 * The rules that might match `text`, as bits, from one pass over it: a necessary condition for
 * each rule, so that most texts are never scanned by a regular expression at all. Every condition
 * is implied by a match of its rule; replacing a masked value only shortens runs, so conditions
 * read on the original text hold for every later rule.
 */
function candidateRules(text: string, hashInto?: TextHash): number {
  let digits = 0;
  let hex = 0;
  let bits = 0;
  let sawDigit = false;
  // The text's hash, as `hashString` would compute it, in the same pass: a result is usually hashed
  // just as it was scanned.
  let lane1 = LANE1_SEED;
  let lane2 = LANE2_SEED;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    lane1 = Math.imul(lane1 ^ code, LANE1_MULTIPLIER);
    lane2 = Math.imul(lane2 ^ code, LANE2_MULTIPLIER);
    const kind = code < 128 ? CHARACTER_CLASS[code] : code >= 0xd800 && code <= 0xdfff ? MARK : 0;
    if (kind === 0) {
      digits = 0;
      hex = 0;
    } else if (kind === HEX_LETTER) {
      digits = 0;
      if (++hex === 16) bits |= HEX_ID_BIT;
    } else if (kind === DIGIT) {
      sawDigit = true;
      if (++hex === 16) bits |= HEX_ID_BIT;
      if (++digits === 8) bits |= COMPACT_TIMESTAMP_BIT;
      else if (digits === 10) bits |= EPOCH_BIT;
      const next = text.charCodeAt(index + 1);
      if (AFTER_NUMBER[next & 255] === 1 && next < 256) bits |= DURATION_BIT;
      else if (mayBeSpace(next) && AFTER_NUMBER[text.charCodeAt(index + 2) & 255] === 1) bits |= DURATION_BIT;
    } else {
      if (code === 45) {
        if (digits >= 4) bits |= TIMESTAMP_BIT;
        if (hex >= 8) bits |= UUID_BIT;
      } else if (code === 47) {
        if (text.startsWith('tmp/', index + 1) || text.startsWith('var/folders/', index + 1)) {
          bits |= TEMP_PATH_BIT;
        }
      } else if ((code | 32) === 112) {
        if ((text.charCodeAt(index + 1) | 32) === 105 && (text.charCodeAt(index + 2) | 32) === 100) {
          bits |= PID_BIT;
        }
      } else {
        bits |= ESCAPE_BIT;
      }
      digits = 0;
      hex = 0;
    }
  }
  hashInto?.resume(lane1, lane2, text.length);
  // Every rule needs a digit except a UUID's, which can be all letters.
  return sawDigit ? bits : bits & (ESCAPE_BIT | UUID_BIT);
}

/** Longer texts are left as they are: masking them would cost more than it could match. */
const MASK_SCAN_LIMIT = 1_000_000;

function maskWith(rules: readonly MaskRule[], text: string, found?: Set<MaskKind>): string {
  if (text.length > MASK_SCAN_LIMIT) return text;
  return applyRules(rules, text, candidateRules(text), found);
}

function applyRules(
  rules: readonly MaskRule[],
  text: string,
  candidates: number,
  found?: Set<MaskKind>,
): string {
  if ((candidates & RULE_BITS) === 0) return text;
  let out = text;
  for (const rule of rules) {
    if ((candidates & rule.bit) === 0) continue;
    rule.pattern.lastIndex = 0;
    if (!rule.pattern.test(out)) continue;
    rule.pattern.lastIndex = 0;
    out = out.replace(rule.pattern, rule.replacement);
    found?.add(rule.kind);
  }
  return out;
}

export type MaskScope = 'argument' | 'shape' | 'result';

function rulesFor(scope: MaskScope): readonly MaskRule[] {
  return scope === 'argument' ? ARGUMENT_RULES : scope === 'shape' ? SHAPE_RULES : RESULT_RULES;
}

export function maskVolatile(text: string, scope: MaskScope = 'argument'): string {
  return maskWith(rulesFor(scope), text);
}

/**
 * `maskVolatile` trying every rule's expression, without the scan that skips most of them: what
 * the scan must always agree with.
 */
export function maskVolatileExhaustively(text: string, scope: MaskScope = 'argument'): string {
  return applyRules(rulesFor(scope), text, RULE_BITS);
}

export interface CallIdentity {
  /** Same key = the same call after masking timestamps, UUIDs, epochs and temp-path noise. */
  readonly callKey: string;
  /** Coarser: also masks hex ids; used to see runaway creation of same-shaped resources. */
  readonly shapeKey: string;
  /** What was masked, so an explanation can say so. */
  readonly masked: readonly MaskKind[];
  /**
   * 30 bits of the call key's hash: enough to count distinct calls in a window of thousands
   * without keeping their keys alive.
   */
  readonly fingerprint: number;
}

const KEY_STRING_LIMIT = 512;

/** Texts longer than this are identified exactly: masking them costs more than it could match. */
const MASKED_TEXT_LIMIT = 1024;
const NOTHING_MASKED: readonly MaskKind[] = Object.freeze([]);
/**
 * Shared by every call: identifying is synchronous, so one call never sees another's findings. It is
 * replaced rather than cleared, and only when used: clearing gives a set a new table each time, and
 * the chain of tables a long-lived set leaves that way outlives young-generation collections.
 */
let found = new Set<MaskKind>();

function maskArgument(text: string): string {
  return text.length > MASKED_TEXT_LIMIT ? text : maskWith(ARGUMENT_RULES, text, found);
}
const ARGUMENT_FORM: CanonicalOptions = { maxString: KEY_STRING_LIMIT, mapString: maskArgument };

/** Identifying is synchronous and never re-entered, so one hasher serves every call. */
const argumentsHash = new TextHash();

export interface IdentifiedCall {
  readonly identity: CallIdentity;
  /**
   * The arguments the engine works on: the caller's own, or, when they were hostile or huge, a
   * bounded copy (see `boundedArguments`), whose bounds the identity then shows.
   */
  readonly args: Readonly<Record<string, unknown>>;
}

type ArgumentNormalizer = (args: Readonly<Record<string, unknown>>) => Readonly<Record<string, unknown>>;

const AS_THEY_ARE: ArgumentNormalizer = (args) => args;

/**
 * `identifyCall` that never throws and tells when the arguments had to be bounded. The arguments
 * are identified in the adapter's normal form (`normalizeArguments`), so that two spellings of one
 * call are one call.
 */
export function identifyArguments(
  tool: string,
  args: Readonly<Record<string, unknown>>,
  normalizeArguments: ArgumentNormalizer = AS_THEY_ARE,
): IdentifiedCall {
  let keys: string[] | undefined;
  try {
    keys = Object.keys(args);
  } catch {
    keys = undefined;
  }
  if (keys === undefined || keys.length > MAX_KEYS) {
    // Huge (or unreadable) at the top: bounded at once, its keys enumerated this once only.
    const bounded = boundedArguments(args, keys);
    return { identity: identifyCall(tool, normalizeArguments(bounded)), args: bounded };
  }
  cut = false;
  let normal = args;
  try {
    normal = normalizeArguments(args);
  } catch {
    // A getter that throws: identified as it is, where it becomes a marker.
  }
  const identity = identifyCall(tool, normal);
  if (!cut) return { identity, args };
  const bounded = boundedArguments(args);
  return { identity: identifyCall(tool, normalizeArguments(bounded)), args: bounded };
}

export function identifyCall(tool: string, args: unknown): CallIdentity {
  if (found.size > 0) found = new Set<MaskKind>();
  const hash = argumentsHash.reset();
  const keys = flatKeys(args);
  if (keys) hashFlatArguments(args as Record<string, unknown>, keys, hash);
  else hash.add(canonicalJson(args, ARGUMENT_FORM));
  const argumentHash = hash.finish();
  return new Identity(
    tool,
    args,
    argumentHash,
    hash.fingerprint,
    found.size === 0 ? NOTHING_MASKED : [...found],
  );
}

/** The shape key is read only for creations, so it is worked out on first use. */
class Identity implements CallIdentity {
  readonly callKey: string;
  private shape: string | undefined;

  constructor(
    private readonly tool: string,
    private readonly args: unknown,
    argumentHash: string,
    readonly fingerprint: number,
    readonly masked: readonly MaskKind[],
  ) {
    this.callKey = `${tool}#${argumentHash}`;
  }

  get shapeKey(): string {
    if (this.shape === undefined) {
      const { tool } = this;
      const argumentForm = canonicalJson(this.args, ARGUMENT_FORM);
      const shapeForm = maskWith(HEX_ONLY, argumentForm);
      this.shape =
        shapeForm === argumentForm
          ? `${tool}~${this.callKey.slice(tool.length + 1)}`
          : `${tool}~${hashString(shapeForm)}`;
    }
    return this.shape;
  }
}

/**
 * The sorted keys of a flat object of scalars — most tool arguments — whose canonical form
 * `hashFlatArguments` can hash directly; undefined for anything else, which takes the general path.
 */
function flatKeys(args: unknown): string[] | undefined {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return undefined;
  let keys: string[];
  try {
    const prototype = Object.getPrototypeOf(args);
    if (prototype !== Object.prototype && prototype !== null) return undefined;
    keys = Object.keys(args);
    if (keys.length > 32) return undefined;
    for (const key of keys) {
      const value = (args as Record<string, unknown>)[key];
      const type = typeof value;
      if (type === 'bigint' || (type === 'object' && value !== null)) return undefined;
      if (type === 'number' && !Number.isFinite(value)) return undefined;
    }
  } catch {
    // A throwing getter or proxy: the canonical form writes it as a marker.
    return undefined;
  }
  return sortKeys(keys);
}

/**
 * The order of `Array.prototype.sort()` for strings. Objects mostly have a handful of keys, which
 * insertion sorts in place; the built-in sort copies the array first.
 */
function sortKeys(keys: string[]): string[] {
  if (keys.length > 16) return keys.sort();
  for (let index = 1; index < keys.length; index++) {
    const key = keys[index] as string;
    let at = index - 1;
    while (at >= 0 && (keys[at] as string) > key) {
      keys[at + 1] = keys[at] as string;
      at--;
    }
    keys[at + 1] = key;
  }
  return keys;
}

/** Hashes the canonical form of flat arguments, exactly as `canonicalJson` writes it, unwritten. */
function hashFlatArguments(args: Readonly<Record<string, unknown>>, keys: readonly string[], hash: TextHash) {
  hash.addCode(OPEN_BRACE);
  let first = true;
  for (const key of keys) {
    const value = args[key];
    const type = typeof value;
    if (type === 'undefined' || type === 'function' || type === 'symbol') continue;
    if (!first) hash.addCode(COMMA);
    first = false;
    addJsonString(hash, key, candidateRules(key));
    hash.addCode(COLON);
    if (type === 'string') addArgumentString(hash, value as string);
    else if (type === 'number') hash.add(JSON.stringify(value === 0 ? 0 : value));
    else if (type === 'boolean') hash.add(value ? 'true' : 'false');
    else hash.add('null');
  }
  hash.addCode(CLOSE_BRACE);
}

const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const COMMA = 44;
const COLON = 58;
const QUOTE = 34;

/** A string argument as the canonical form writes it: masked, and cut down when long. */
function addArgumentString(hash: TextHash, text: string): void {
  if (text.length > KEY_STRING_LIMIT) {
    hash.add(stringForm(maskArgument(text), KEY_STRING_LIMIT));
    return;
  }
  const candidates = candidateRules(text);
  // Masking only ever replaces characters JSON leaves alone with ones it leaves alone too.
  addJsonString(hash, applyRules(ARGUMENT_RULES, text, candidates, found), candidates);
}

/** `JSON.stringify(text)`, hashed; written out only when the scan saw something to escape. */
function addJsonString(hash: TextHash, text: string, candidates: number): void {
  if ((candidates & ESCAPE_BIT) !== 0) {
    hash.add(JSON.stringify(text));
    return;
  }
  hash.addCode(QUOTE).add(text).addCode(QUOTE);
}

/** Digest of a whole result after masking what changes between identical runs. */
export function digestResult(content: string | undefined): string {
  if (content === undefined || content.length === 0) return 'empty';
  if (content.length > MASK_SCAN_LIMIT) return hashString(content);
  const candidates = candidateRules(content, wholeTextHash);
  if ((candidates & RULE_BITS) === 0) return wholeTextHash.finish();
  return hashString(applyRules(RESULT_RULES, content, candidates));
}

/** A short, readable form of a call for evidence and reasons: `read_file {path: "a.ts"}`. */
export function describeCall(tool: string, args: unknown, limit = 120): string {
  let body: string;
  if (args && typeof args === 'object' && !Array.isArray(args)) {
    const entries = Object.entries(args as Record<string, unknown>).slice(0, 4);
    body = entries
      .map(([key, value]) => {
        const shown = typeof value === 'string' ? JSON.stringify(truncate(value, 60)) : shortJson(value);
        return `${key}: ${shown}`;
      })
      .join(', ');
  } else {
    body = shortJson(args);
  }
  return truncate(`${tool} {${body}}`, limit);
}

function shortJson(value: unknown): string {
  return truncate(canonicalJson(value, { maxString: 60 }), 60);
}

export function truncate(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, Math.max(0, limit - 1))}…`;
}
