/**
 * Secrets must not reach the journal. Redaction works on two levels: values under secret-sounding
 * keys (`password`, `Authorization`, `apiKey`, …) are dropped whatever they look like, and strings
 * anywhere are scrubbed of things that look like credentials (bearer tokens, provider keys, JWTs,
 * private keys, passwords in URLs).
 *
 * The result is plain JSON data with bounded size, whatever came in: cycles, getters that throw,
 * BigInts, Maps, Buffers. Redaction never throws.
 */

export const REDACTED = '[REDACTED]';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

const SECRET_WORDS = [
  'token',
  'passw(?:or)?d',
  'passphrase',
  'secret',
  'authori[sz]ation',
  'api[-_]?key',
  'access[-_]?key',
  'private[-_]?key',
  'credential',
  'cookie',
  'session',
];
const SECRET_KEY = new RegExp(SECRET_WORDS.join('|'), 'i');

/** Query parameters that carry credentials: `?access_token=…`, `&sig=…`. */
const SECRET_PARAMS = [
  'access_token',
  'id_token',
  'refresh_token',
  'token',
  'api[-_]?key',
  'key',
  'password',
  'passwd',
  'secret',
  'client_secret',
  'signature',
  'sig',
];
/** Names of environment variables that carry credentials: `GITHUB_TOKEN=…`. */
const SECRET_VARIABLE_WORDS = [
  'token',
  'passw(?:or)?d',
  'secret',
  'api[-_]?key',
  'access[-_]?key',
  'private[-_]?key',
];

/** `max_tokens: 4096` is a count, not a credential. Only numbers under such keys are kept. */
const TOKEN_COUNT_KEY = /tokens|tokenizer|token[-_]?(?:count|limit|budget|usage)/i;

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

interface SecretPattern {
  readonly pattern: RegExp;
  readonly replacement: string;
}

const SECRET_PATTERNS: readonly SecretPattern[] = [
  {
    pattern: /-----BEGIN[A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END[A-Z0-9 ]*PRIVATE KEY-----|$)/g,
    replacement: REDACTED,
  },
  // A header written out as text: `Authorization: Basic dXNlcjpwYXNz`.
  {
    pattern: /\b((?:proxy-)?authorization["']?\s*[:=]\s*["']?)[^\s"',;]+(?:[ \t]+[^\s"',;]+)?/gi,
    replacement: `$1${REDACTED}`,
  },
  // Real bearer tokens carry digits; the lookahead spares prose such as "Bearer authentication".
  { pattern: /\bBearer\s+(?=[\w.~+/=-]*\d)[\w.~+/=-]{8,}/gi, replacement: REDACTED },
  { pattern: /\bsk-[\w-]{16,}/g, replacement: REDACTED },
  { pattern: /\bgh[pousr]_[A-Za-z0-9]{20,}/g, replacement: REDACTED },
  { pattern: /\bgithub_pat_\w{20,}/g, replacement: REDACTED },
  { pattern: /\bglpat-[\w-]{20,}/g, replacement: REDACTED },
  { pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, replacement: REDACTED },
  { pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, replacement: REDACTED },
  { pattern: /\bAIza[\w-]{35}/g, replacement: REDACTED },
  { pattern: /\beyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]{8,}/g, replacement: REDACTED },
  // The password in `https://user:password@host/`. Bounded repeats keep hostile input linear.
  {
    pattern: /(\b[a-z][a-z0-9+.-]{0,30}:\/\/[^\s/:@]{0,256}:)[^\s/@]{1,512}@/gi,
    replacement: `$1${REDACTED}@`,
  },
  {
    pattern: new RegExp(`([?&#;](?:${SECRET_PARAMS.join('|')})=)[^&#\\s"']+`, 'gi'),
    replacement: `$1${REDACTED}`,
  },
  // Environment-style assignments in command lines and error texts: `GITHUB_TOKEN=…`.
  {
    pattern: new RegExp(
      `\\b(\\w{0,64}(?:${SECRET_VARIABLE_WORDS.join('|')})\\w{0,64}=)(["']?)[^\\s"'&;]+`,
      'gi',
    ),
    replacement: `$1$2${REDACTED}`,
  },
];

/**
 * Something every pattern above needs. One scan with this spares most strings (paths, ids, error
 * messages) the full set.
 */
const MAYBE_SECRET =
  /[=@]|-----BEGIN|authori[sz]ation|bearer|sk-|gh[pousr]_|github_pat_|glpat-|xox|AKIA|ASIA|AIza|eyJ/i;

/** Replaces what looks like a credential inside a text, keeping the rest readable. */
export function redactText(text: string): string {
  if (text.length < 8 || !MAYBE_SECRET.test(text)) return text;
  let out = text;
  for (const { pattern, replacement } of SECRET_PATTERNS) {
    pattern.lastIndex = 0;
    out = out.replace(pattern, replacement);
  }
  return out;
}

export interface RedactOptions {
  /** Longer strings are cut (after redaction), with their length noted. */
  readonly maxString?: number;
}

// Well inside what canonical JSON keeps, so a redacted value is hashed exactly as it is stored.
const MAX_DEPTH = 32;
const MAX_KEYS = 500;
const MAX_ITEMS = 5_000;

export function redact(value: unknown, options: RedactOptions = {}): JsonValue {
  const seen = new Set<object>();
  const maxString = options.maxString ?? Number.POSITIVE_INFINITY;
  return walk(value, 0);

  function text(raw: string): string {
    const clean = redactText(raw);
    return clean.length > maxString ? `${clean.slice(0, maxString)}…[${clean.length} chars]` : clean;
  }

  function walk(item: unknown, depth: number): JsonValue {
    switch (typeof item) {
      case 'string':
        return text(item);
      case 'number':
        return Number.isFinite(item) ? (item === 0 ? 0 : item) : `[${String(item)}]`;
      case 'boolean':
        return item;
      case 'bigint':
        return `[bigint ${item.toString()}]`;
      case 'undefined':
      case 'function':
      case 'symbol':
        return null;
    }
    if (item === null) return null;
    const object = item as object;
    if (seen.has(object)) return '[circular]';
    if (depth >= MAX_DEPTH) return '[too deep]';
    seen.add(object);
    try {
      return container(object, depth);
    } catch {
      // A throwing getter or a hostile proxy: say so rather than fail the whole record.
      return '[unreadable]';
    } finally {
      seen.delete(object);
    }
  }

  function container(object: object, depth: number): JsonValue {
    if (object instanceof Date)
      return Number.isNaN(object.getTime()) ? '[invalid date]' : object.toISOString();
    if (ArrayBuffer.isView(object)) return `[binary ${object.byteLength} bytes]`;
    if (object instanceof ArrayBuffer) return `[binary ${object.byteLength} bytes]`;
    if (object instanceof Error) {
      return entries([
        ['name', object.name],
        ['message', object.message],
      ]);
    }
    if (Array.isArray(object)) return list(object, depth);
    if (object instanceof Set) return list([...object], depth);
    if (object instanceof Map)
      return entries(
        [...object].map(([key, entry]) => [String(key), entry]),
        depth,
      );
    const toJson = (object as { toJSON?: unknown }).toJSON;
    if (typeof toJson === 'function') {
      const plain: unknown = toJson.call(object);
      return plain === object ? entries(Object.entries(object), depth) : walk(plain, depth + 1);
    }
    return entries(Object.entries(object), depth);
  }

  function list(items: readonly unknown[], depth: number): JsonValue[] {
    const shown = Math.min(items.length, MAX_ITEMS);
    const out: JsonValue[] = [];
    for (let index = 0; index < shown; index++) out.push(walk(items[index], depth + 1));
    if (items.length > shown) out.push(`[+${items.length - shown} items]`);
    return out;
  }

  function entries(pairs: readonly (readonly [string, unknown])[], depth = 0): JsonValue {
    const out: [string, JsonValue][] = [];
    for (const [key, entry] of pairs.slice(0, MAX_KEYS)) {
      if (entry === undefined || typeof entry === 'function' || typeof entry === 'symbol') continue;
      out.push([key, isSecretKey(key) && !isCount(key, entry) ? REDACTED : walk(entry, depth + 1)]);
    }
    if (pairs.length > MAX_KEYS) out.push(['[+keys]', pairs.length - MAX_KEYS]);
    // fromEntries defines own properties, so a `__proto__` key stays data.
    return Object.fromEntries(out);
  }
}

function isCount(key: string, value: unknown): boolean {
  return (
    typeof value === 'number' &&
    TOKEN_COUNT_KEY.test(key) &&
    !SECRET_KEY.test(key.replace(TOKEN_COUNT_KEY, ''))
  );
}
