/**
 * Secrets must not reach the journal. Redaction works on two levels: values under secret-sounding
 * keys (`password`, `Authorization`, `apiKey`, …) are dropped whatever they look like, and strings
 * anywhere are scrubbed of things that look like credentials (see `redactText` in core/secrets).
 *
 * The result is plain JSON data with bounded size, whatever came in: cycles, getters that throw,
 * BigInts, Maps, Buffers. Redaction never throws.
 */
import { isSecretKey, REDACTED, redactText, SECRET_KEY, TOKEN_COUNT_KEY } from '../core/secrets.js';

export { isSecretKey, REDACTED, redactText };

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

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
