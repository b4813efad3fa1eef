/**
 * Identity of calls and results: canonical JSON, volatile-value masking and hashing. Everything
 * here must take hostile input (cycles, huge strings, deep nesting, odd types) in bounded time and
 * memory, because arguments come straight from a model.
 */

const MAX_DEPTH = 64;
const MAX_KEYS = 1_000;
const MAX_ITEMS = 10_000;

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
    if (Array.isArray(object) || ArrayBuffer.isView(object)) {
      const list = object as ArrayLike<unknown>;
      const length = Math.min(list.length, MAX_ITEMS);
      parts.push('[');
      for (let index = 0; index < length; index++) {
        if (index > 0) parts.push(',');
        write(list[index], depth + 1);
      }
      if (list.length > length) parts.push(`,"[+${list.length - length} items]"`);
      parts.push(']');
    } else if (object instanceof Map) {
      write(Object.fromEntries([...object.entries()].map(([k, v]) => [String(k), v])), depth);
    } else if (object instanceof Set) {
      write([...object.values()], depth);
    } else {
      const keys = Object.keys(object).sort();
      const shown = keys.length > MAX_KEYS ? keys.slice(0, MAX_KEYS) : keys;
      parts.push('{');
      let first = true;
      for (const key of shown) {
        const entry = (object as Record<string, unknown>)[key];
        if (entry === undefined || typeof entry === 'function' || typeof entry === 'symbol') continue;
        if (!first) parts.push(',');
        first = false;
        parts.push(JSON.stringify(key), ':');
        write(entry, depth + 1);
      }
      if (keys.length > shown.length)
        parts.push(`${first ? '' : ','}"[+keys]":${keys.length - shown.length}`);
      parts.push('}');
    }
    seen.delete(object);
  }
}

/**
 * A 64-bit non-cryptographic hash (two independent 32-bit lanes), as 16 hex characters. Used for
 * call keys and result digests, where speed matters and nobody is attacking the hash; receipts use
 * SHA-256 in the audit layer.
 */
export function hashString(text: string): string {
  let h1 = 0xdeadbeef ^ text.length;
  let h2 = 0x41c6ce57 ^ text.length;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return hex32(h1) + hex32(h2);
}

/** Two hex digits per byte, looked up: a third of the time of `toString(16).padStart(8, '0')`. */
const HEX_BYTES = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

function hex32(value: number): string {
  return (
    (HEX_BYTES[value >>> 24] as string) +
    (HEX_BYTES[(value >>> 16) & 255] as string) +
    (HEX_BYTES[(value >>> 8) & 255] as string) +
    (HEX_BYTES[value & 255] as string)
  );
}

export type MaskKind = 'timestamp' | 'uuid' | 'epoch' | 'temp-path' | 'hex-id' | 'duration' | 'pid';

interface MaskRule {
  readonly kind: MaskKind;
  readonly pattern: RegExp;
  readonly replacement: string;
  /** A necessary condition for a match, read from one pass over the text: skips hopeless regex scans. */
  readonly mayMatch?: (features: TextFeatures) => boolean;
}

/**
 * Longest runs of digits and hex characters, and the longest ones directly before a `-`. Replacing a
 * masked value only ever shortens runs, so features of the original text bound every later rule.
 */
interface TextFeatures {
  readonly text: string;
  readonly digitRun: number;
  readonly hexRun: number;
  readonly digitsBeforeDash: number;
  readonly hexBeforeDash: number;
}

function featuresOf(text: string): TextFeatures {
  let digits = 0;
  let hex = 0;
  let digitRun = 0;
  let hexRun = 0;
  let digitsBeforeDash = 0;
  let hexBeforeDash = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 45) {
      if (digits > digitsBeforeDash) digitsBeforeDash = digits;
      if (hex > hexBeforeDash) hexBeforeDash = hex;
    }
    const digit = code >= 48 && code <= 57;
    digits = digit ? digits + 1 : 0;
    hex = digit || (code >= 97 && code <= 102) || (code >= 65 && code <= 70) ? hex + 1 : 0;
    if (digits > digitRun) digitRun = digits;
    if (hex > hexRun) hexRun = hex;
  }
  return { text, digitRun, hexRun, digitsBeforeDash, hexBeforeDash };
}

const TIMESTAMP: MaskRule = {
  kind: 'timestamp',
  pattern: /\b\d{4}-\d{2}-\d{2}[T_ ]\d{2}[:-]\d{2}(?:[:-]\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g,
  replacement: '<time>',
  mayMatch: (features) => features.digitsBeforeDash >= 4,
};
const COMPACT_TIMESTAMP: MaskRule = {
  kind: 'timestamp',
  pattern: /\b20\d{2}[01]\d[0-3]\d[T_-]?[0-2]\d[0-5]\d[0-5]\d\b/g,
  replacement: '<time>',
  mayMatch: (features) => features.digitRun >= 8,
};
const UUID: MaskRule = {
  kind: 'uuid',
  pattern: /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi,
  replacement: '<uuid>',
  mayMatch: (features) => features.hexBeforeDash >= 8,
};
const EPOCH: MaskRule = {
  kind: 'epoch',
  pattern: /\b1[6-9]\d{8}(?:\d{3})?\b/g,
  replacement: '<epoch>',
  mayMatch: (features) => features.digitRun >= 10,
};
/** Only the random part of a temporary path: `/tmp/output.txt` stays what it is. */
const TEMP_PATH: MaskRule = {
  kind: 'temp-path',
  pattern:
    /(\/(?:private\/)?(?:tmp|var\/tmp|var\/folders\/[^/\s]+\/[^/\s]+\/T)\/)([A-Za-z_.-]*(?=[A-Za-z_.-]*\d)[A-Za-z0-9_.-]{6,})/g,
  replacement: '$1<tmp>',
  mayMatch: ({ text }) => text.includes('/tmp/') || text.includes('/var/folders/'),
};
const HEX_ID: MaskRule = {
  kind: 'hex-id',
  pattern: /\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{16,}\b/gi,
  replacement: '<hex>',
  mayMatch: (features) => features.hexRun >= 16,
};
const DURATION: MaskRule = {
  kind: 'duration',
  pattern: /\b\d+(?:\.\d+)?\s?(?:ms|µs|us|ns|s|sec|secs|seconds|m|min|mins|minutes|h|hrs|hours)\b/g,
  replacement: '<duration>',
};
const PID: MaskRule = { kind: 'pid', pattern: /\b(pid[:= ]\s*)\d+/gi, replacement: '$1<pid>' };

/**
 * Which values count as volatile depends on what is compared. Arguments keep hex ids and
 * durations (two commits, or two timeouts, are different calls); shapes and results mask them.
 */
const ARGUMENT_RULES: readonly MaskRule[] = [TIMESTAMP, COMPACT_TIMESTAMP, UUID, EPOCH, TEMP_PATH];
const SHAPE_RULES: readonly MaskRule[] = [...ARGUMENT_RULES, HEX_ID];
const RESULT_RULES: readonly MaskRule[] = [...SHAPE_RULES, DURATION, PID];

function hasDigit(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 48 && code <= 57) return true;
  }
  return false;
}

function maskWith(rules: readonly MaskRule[], text: string, found?: Set<MaskKind>): string {
  // Every rule needs a digit; most strings have none, and this keeps the hot path cheap.
  if (!hasDigit(text) || text.length > 1_000_000) return text;
  const features = featuresOf(text);
  let out = text;
  for (const rule of rules) {
    if (rule.mayMatch && !rule.mayMatch(features)) continue;
    rule.pattern.lastIndex = 0;
    if (!rule.pattern.test(out)) continue;
    rule.pattern.lastIndex = 0;
    out = out.replace(rule.pattern, rule.replacement);
    found?.add(rule.kind);
  }
  return out;
}

export function maskVolatile(text: string, scope: 'argument' | 'shape' | 'result' = 'argument'): string {
  return maskWith(
    scope === 'argument' ? ARGUMENT_RULES : scope === 'shape' ? SHAPE_RULES : RESULT_RULES,
    text,
  );
}

export interface CallIdentity {
  /** Same key = the same call after masking timestamps, UUIDs, epochs and temp-path noise. */
  readonly callKey: string;
  /** Coarser: also masks hex ids; used to see runaway creation of same-shaped resources. */
  readonly shapeKey: string;
  /** What was masked, so an explanation can say so. */
  readonly masked: readonly MaskKind[];
}

const KEY_STRING_LIMIT = 512;

/** A hex id is 16 or more hex digits in a row; most argument forms have no such run at all. */
function hasLongHexRun(text: string): boolean {
  let run = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index) | 0x20;
    if ((code >= 48 && code <= 57) || (code >= 97 && code <= 102)) {
      if (++run >= 16) return true;
    } else {
      run = 0;
    }
  }
  return false;
}

/** Texts longer than this are identified exactly: masking them costs more than it could match. */
const MASKED_TEXT_LIMIT = 1024;
const NOTHING_MASKED: readonly MaskKind[] = Object.freeze([]);
/** Reused for every call: identifying is synchronous, so one call never sees another's findings. */
const found = new Set<MaskKind>();
/**
 * Agents pass the same paths and commands again and again; remembering how a short string masks
 * saves the scan. Bounded: it starts over when full.
 */
const maskedArguments = new Map<string, { readonly text: string; readonly kinds: readonly MaskKind[] }>();
const MASK_CACHE_SIZE = 4096;
const MASK_CACHE_TEXT = 256;

function maskArgument(text: string): string {
  if (text.length > MASKED_TEXT_LIMIT) return text;
  if (text.length > MASK_CACHE_TEXT) return maskWith(ARGUMENT_RULES, text, found);
  const cached = maskedArguments.get(text);
  if (cached) {
    for (const kind of cached.kinds) found.add(kind);
    return cached.text;
  }
  const own = new Set<MaskKind>();
  const masked = maskWith(ARGUMENT_RULES, text, own);
  for (const kind of own) found.add(kind);
  if (maskedArguments.size >= MASK_CACHE_SIZE) maskedArguments.clear();
  maskedArguments.set(text, { text: masked, kinds: own.size === 0 ? NOTHING_MASKED : [...own] });
  return masked;
}
const ARGUMENT_FORM: CanonicalOptions = { maxString: KEY_STRING_LIMIT, mapString: maskArgument };

export function identifyCall(tool: string, args: unknown): CallIdentity {
  found.clear();
  const argumentForm = flatArgumentForm(args) ?? canonicalJson(args, ARGUMENT_FORM);
  const callKey = `${tool}#${hashString(argumentForm)}`;
  const shapeForm = hasLongHexRun(argumentForm) ? maskWith(HEX_ONLY, argumentForm) : argumentForm;
  const shapeKey =
    shapeForm === argumentForm
      ? `${tool}~${callKey.slice(tool.length + 1)}`
      : `${tool}~${hashString(shapeForm)}`;
  return { callKey, shapeKey, masked: found.size === 0 ? NOTHING_MASKED : [...found] };
}

/**
 * The canonical form of a flat object of scalars — most tool arguments — written directly, exactly
 * as `canonicalJson` would write it. Anything else gives `undefined` and takes the general path.
 */
function flatArgumentForm(args: unknown): string | undefined {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return undefined;
  const prototype = Object.getPrototypeOf(args);
  if (prototype !== Object.prototype && prototype !== null) return undefined;
  const keys = Object.keys(args);
  if (keys.length > 32) return undefined;
  keys.sort();
  let out = '{';
  let first = true;
  for (const key of keys) {
    const value = (args as Record<string, unknown>)[key];
    let part: string;
    switch (typeof value) {
      case 'string':
        part = stringForm(maskArgument(value), KEY_STRING_LIMIT);
        break;
      case 'number':
        if (!Number.isFinite(value)) return undefined;
        part = JSON.stringify(value === 0 ? 0 : value);
        break;
      case 'boolean':
        part = value ? 'true' : 'false';
        break;
      case 'undefined':
      case 'function':
      case 'symbol':
        continue;
      default:
        if (value !== null) return undefined;
        part = 'null';
    }
    out += `${first ? '' : ','}${JSON.stringify(key)}:${part}`;
    first = false;
  }
  return `${out}}`;
}

const HEX_ONLY: readonly MaskRule[] = [HEX_ID];

/** Digest of a whole result after masking what changes between identical runs. */
export function digestResult(content: string | undefined): string {
  if (content === undefined || content.length === 0) return 'empty';
  return hashString(maskWith(RESULT_RULES, content));
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
