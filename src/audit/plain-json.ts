/**
 * Canonical JSON of plain data: what `canonicalJson` writes, for the values the journal holds once
 * they are stored (`redact`'s output and the engine's own fields: strings, finite numbers, booleans,
 * null, arrays and plain objects, well inside canonical JSON's bounds). The data is copied with its
 * keys in canonical order and written by one `JSON.stringify`, which quotes every string exactly as
 * canonical JSON does, instead of one call for each key and value. Anything else is handed to the
 * general writer.
 */
import { canonicalJson, sortKeys } from '../core/identity/index.js';

/**
 * Redaction keeps data well inside these (32 levels, 500 keys, 5,000 items); larger data is left to
 * the general writer, which cuts it where canonical JSON does.
 */
const MAX_DEPTH = 48;
const MAX_KEYS = 500;
const MAX_ITEMS = 5_000;

class NotPlain extends Error {}

export function plainCanonicalJson(value: unknown): string {
  let copy: unknown;
  try {
    copy = sortedCopy(value, 0);
  } catch {
    // Not plain data (or a getter that threw): the general writer says what canonical JSON says of it.
    return canonicalJson(value);
  }
  return JSON.stringify(copy);
}

function sortedCopy(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw new NotPlain();
      return value;
    case 'object':
      if (value === null) return null;
      if (depth >= MAX_DEPTH) throw new NotPlain();
      if (Array.isArray(value)) return sortedArray(value, depth);
      return sortedObject(value as Record<string, unknown>, depth);
    default:
      throw new NotPlain();
  }
}

function sortedArray(items: readonly unknown[], depth: number): unknown[] {
  if (items.length > MAX_ITEMS) throw new NotPlain();
  const copy = new Array<unknown>(items.length);
  for (let index = 0; index < items.length; index++) {
    const item = items[index];
    // A hole or an undefined item is left to the general writer.
    if (item === undefined) throw new NotPlain();
    copy[index] = sortedCopy(item, depth + 1);
  }
  return copy;
}

function sortedObject(object: Record<string, unknown>, depth: number): Record<string, unknown> {
  const prototype = Object.getPrototypeOf(object);
  if (prototype !== Object.prototype && prototype !== null) throw new NotPlain();
  const names = Object.keys(object);
  if (names.length > MAX_KEYS) throw new NotPlain();
  const keys = sortKeys(names);
  const copy: Record<string, unknown> = {};
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    // An object lists keys that look like array indices first whatever their order, and a copy by
    // assignment would take `__proto__` for its prototype: such keys go to the general writer.
    if (startsWithDigit(key) || key === '__proto__') throw new NotPlain();
    const entry = object[key];
    if (entry === undefined) continue;
    copy[key] = sortedCopy(entry, depth + 1);
  }
  return copy;
}

function startsWithDigit(key: string): boolean {
  const code = key.charCodeAt(0);
  return code >= 48 && code <= 57;
}
