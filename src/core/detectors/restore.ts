/**
 * Readers for snapshots that come back from a store. A snapshot may be from an older version,
 * truncated or hand-edited: anything that does not read as expected is dropped, never trusted.
 */

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function readNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** A finite count of at least zero, or undefined. */
export function readCount(value: unknown): number | undefined {
  const number = readNumber(value);
  return number !== undefined && number >= 0 ? Math.floor(number) : undefined;
}

export function readString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function readStrings(value: unknown, limit: number): string[] {
  if (!Array.isArray(value)) return [];
  return value.filter((item): item is string => typeof item === 'string').slice(-limit);
}

/** What `hashString` writes: 16 lower-case hex digits. */
const HASH = /^[0-9a-f]{16}$/;

/** Whether `value` is a hash as `hashString` writes it. */
export function isHash(value: unknown): value is string {
  return typeof value === 'string' && HASH.test(value);
}

export function readHash(value: unknown): string | undefined {
  return isHash(value) ? value : undefined;
}

/** At most `limit` hashes, all of them hashes, or undefined. */
export function readHashes(value: unknown, limit: number): string[] | undefined {
  if (!Array.isArray(value) || value.length > limit) return undefined;
  return value.every(isHash) ? [...value] : undefined;
}

/** The fields of a snapshot written by this version, or undefined when it is something else. */
export function readSnapshot(state: unknown, version: number): Record<string, unknown> | undefined {
  return isRecord(state) && state.version === version ? state : undefined;
}

/**
 * `[key, value]` pairs whose value `parse` accepts, at most `limit` of them (the newest, since
 * entries are written oldest first).
 */
export function readEntries<V>(
  value: unknown,
  limit: number,
  parse: (raw: Record<string, unknown>) => V | undefined,
): [string, V][] {
  if (!Array.isArray(value)) return [];
  const out: [string, V][] = [];
  for (const item of value.slice(-limit)) {
    if (!Array.isArray(item) || typeof item[0] !== 'string' || !isRecord(item[1])) continue;
    const parsed = parse(item[1]);
    if (parsed !== undefined) out.push([item[0], parsed]);
  }
  return out;
}

/** `[key, text]` pairs, the newest `limit` of them; anything else is dropped. */
export function readPairs(value: unknown, limit: number): [string, string][] {
  if (!Array.isArray(value)) return [];
  const out: [string, string][] = [];
  for (const item of value.slice(-limit)) {
    if (Array.isArray(item) && typeof item[0] === 'string' && typeof item[1] === 'string')
      out.push([item[0], item[1]]);
  }
  return out;
}
