/**
 * Canonical JSON: the one written form of a value, whatever the order of its keys, safe on hostile
 * input (cycles, huge strings, deep nesting, getters that throw) in bounded time and memory.
 */
import { hashString } from './hashing.js';

const MAX_DEPTH = 64;
export const MAX_KEYS = 1_000;
const MAX_ITEMS = 10_000;

/** What a value that cannot be read (a getter or a proxy that throws) is written as. */
export const UNREADABLE = '[unreadable]';

/**
 * Set by `canonicalJson` when it cut something (keys, items, depth) or could not read a value:
 * the arguments are then hostile or huge, and the engine works on a bounded copy of them.
 */
let cut = false;

/** Starts watching for cuts: `wasCut()` then says whether `canonicalJson` cut anything since. */
export function watchForCuts(): void {
  cut = false;
}

export function wasCut(): boolean {
  return cut;
}

export interface CanonicalOptions {
  /** Strings longer than this are replaced by their length and hash, keeping keys small. */
  readonly maxString?: number;
  /** Applied to every string before it is written. */
  readonly mapString?: (value: string) => string;
}

/** A string as canonical JSON writes it: quoted, or replaced by its length and hash when too long. */
export function stringForm(text: string, limit: number | undefined): string {
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

export function quotedKey(key: string): string {
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
 * The order of `Array.prototype.sort()` for strings. Objects mostly have a handful of keys, which
 * insertion sorts in place; the built-in sort copies the array first.
 */
export function sortKeys(keys: string[]): string[] {
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
