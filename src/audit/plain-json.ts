/**
 * Canonical JSON of plain data: what `canonicalJson` writes, for the values the journal holds once
 * they are stored (`redact`'s output and the engine's own fields: strings, finite numbers, booleans,
 * null, arrays and plain objects, well inside canonical JSON's bounds). Without the checks only
 * arbitrary values need (cycles, getters, Dates, Maps, cuts), and written by concatenation, it
 * costs a fraction of the general writer on every journal line. Anything else is handed to it.
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
  try {
    return write(value, 0);
  } catch {
    // Not plain data (or a getter that threw): the general writer says what canonical JSON says of it.
    return canonicalJson(value);
  }
}

function write(value: unknown, depth: number): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new NotPlain();
      return JSON.stringify(value === 0 ? 0 : value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (value === null) return 'null';
      if (depth >= MAX_DEPTH) throw new NotPlain();
      if (Array.isArray(value)) return writeArray(value, depth);
      if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null)
        throw new NotPlain();
      return writeObject(value as Record<string, unknown>, depth);
    default:
      throw new NotPlain();
  }
}

function writeArray(items: readonly unknown[], depth: number): string {
  if (items.length > MAX_ITEMS) throw new NotPlain();
  let out = '[';
  for (let index = 0; index < items.length; index++) {
    if (index > 0) out += ',';
    out += write(items[index], depth + 1);
  }
  return `${out}]`;
}

function writeObject(object: Record<string, unknown>, depth: number): string {
  const names = Object.keys(object);
  if (names.length > MAX_KEYS) throw new NotPlain();
  const keys = sortKeys(names);
  let out = '{';
  let first = true;
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    const entry = object[key];
    if (entry === undefined) continue;
    out += `${first ? '' : ','}${JSON.stringify(key)}:${write(entry, depth + 1)}`;
    first = false;
  }
  return `${out}}`;
}
