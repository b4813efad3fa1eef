/**
 * The index beside the state file (`state.json.idx`): where each constraint's line is in the file,
 * by the keys a check looks constraints up by (a call's key, a target, a tool). A process that
 * handles one hook event reads the index and the few lines it points to, instead of parsing and
 * checking every constraint of a large state.
 *
 * The state file itself stays what every version reads: a JSON object, written one constraint per
 * line so that each line's place is known. The index is a cache of it. It names the file it was
 * built for (inode, size, modification time): written by another process since, or by a build that
 * keeps no index, the file no longer matches, and a reader falls back to reading the file whole
 * (which writes the index anew). A key finds a superset of what it names (hashes collide); the
 * engine skips what does not apply, so a superset is always safe, never a subset.
 *
 * Layout (little-endian):
 *   8 bytes  `NGSTIDX\n`
 *   u32      layout version (1)
 *   u32      header length, then the header: JSON `{ stateVersion, stamp, bytes, savedAt, buckets, records }`
 *   u32 × (buckets + 1)  where each bucket's records start
 *   records × 16 bytes   (hash high, hash low, offset of the line in the state file, its length)
 * A key's bucket is its hash's low lane modulo the (power of two) bucket count.
 */
import { closeSync, fstatSync, readSync, statSync } from 'node:fs';
import { TextHash } from '../core/identity/hashing.js';
import type { Constraint, PersistedState } from '../core/types.js';
import { openNoFollowSync, READ_FLAGS } from '../node/safe-fs.js';
import { parseConstraintText } from './schema.js';
import { STATE_VERSION } from './state-format.js';
import type { LaidOutState } from './state-layout.js';

const MAGIC = 'NGSTIDX\n';
const LAYOUT_VERSION = 1;
const RECORD_BYTES = 16;
const MAX_HEADER_BYTES = 4096;
/** A constraint's line is bounded far below this (evidence is capped); a longer one is not trusted. */
const MAX_LINE_BYTES = 1024 * 1024;
/** Lines one lookup reads at most: more than this, and reading the file whole is no slower. */
const MAX_LINES_PER_LOOKUP = 4096;
/** Offsets are 32-bit: a state file this large (never near, at 40,000 constraints) gets no index. */
const MAX_INDEXED_BYTES = 0xffff_ffff;

/** The index's path for a state file. */
export function stateIndexPath(statePath: string): string {
  return `${statePath}.idx`;
}

/** What changes when any process replaces or rewrites a file: inode, size and modification time. */
export function fileStamp(path: string): string {
  try {
    // An absent file is told without an error made for it: the helper asks on every event.
    const stat = statSync(path, { bigint: true, throwIfNoEntry: false });
    return stat === undefined ? 'absent' : stampOf(stat);
  } catch {
    return 'absent';
  }
}

function stampOf(stat: { ino: bigint; size: bigint; mtimeNs: bigint }): string {
  return `${stat.ino}:${stat.size}:${stat.mtimeNs}`;
}

/** The keys a constraint is found by: what the engine looks it up by when it checks or records a call. */
export function constraintLookupKeys(constraint: Constraint): string[] {
  const keys: string[] = [];
  if (constraint.scope === 'call' && constraint.callKey !== undefined)
    keys.push(callLookupKey(constraint.callKey));
  if (constraint.target !== undefined) keys.push(targetLookupKey(constraint.target));
  if (constraint.scope === 'parameter') keys.push(toolLookupKey(constraint.tool ?? ''));
  if (constraint.scope === 'strategy') keys.push(`s\u0000${constraint.actionClass}`);
  return keys;
}

/** The key of the call ban on a call (its ban key: failure key, else call key). */
export function callLookupKey(banKey: string): string {
  return `c\u0000${banKey}`;
}

/** The key of the bans on a target (target bans, and call bans whose target it is). */
export function targetLookupKey(target: string): string {
  return `t\u0000${target}`;
}

/** The key of a tool's parameter bans. */
export function toolLookupKey(tool: string): string {
  return `p\u0000${tool}`;
}

/** The key of an action class's strategy bans (kept by no store today; read when a file holds some). */
export function strategyLookupKey(actionClass: string): string {
  return `s\u0000${actionClass}`;
}

/** The index of a laid-out state, once its file is written and `stamp` is the file's. */
export function buildStateIndex(
  laidOut: LaidOutState,
  stamp: string,
  savedAt: number,
): Uint8Array | undefined {
  const bytes = Buffer.byteLength(laidOut.text);
  if (bytes > MAX_INDEXED_BYTES) return undefined;
  const hash = new TextHash();
  const highs: number[] = [];
  const lows: number[] = [];
  const lines: number[] = [];
  laidOut.constraints.forEach((constraint, line) => {
    for (const key of constraintLookupKeys(constraint)) {
      hash.reset().add(key).mix();
      highs.push(hash.high >>> 0);
      lows.push(hash.low >>> 0);
      lines.push(line);
    }
  });
  const records = highs.length;
  let buckets = 1;
  while (buckets * 4 < records) buckets *= 2;
  const header = Buffer.from(
    JSON.stringify({ stateVersion: STATE_VERSION, stamp, bytes, savedAt, buckets, records }),
  );
  const directoryAt = MAGIC.length + 8 + header.length;
  const recordsAt = directoryAt + 4 * (buckets + 1);
  const out = Buffer.alloc(recordsAt + RECORD_BYTES * records);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(LAYOUT_VERSION, MAGIC.length);
  out.writeUInt32LE(header.length, MAGIC.length + 4);
  header.copy(out, MAGIC.length + 8);
  // Records grouped by bucket: count, then place (a counting sort, linear in the records).
  const starts = new Uint32Array(buckets + 1);
  for (let i = 0; i < records; i++) starts[((lows[i] as number) & (buckets - 1)) + 1]! += 1;
  for (let b = 0; b < buckets; b++) starts[b + 1]! += starts[b] as number;
  for (let b = 0; b <= buckets; b++) out.writeUInt32LE(starts[b] as number, directoryAt + 4 * b);
  const next = starts.slice(0, buckets);
  for (let i = 0; i < records; i++) {
    const bucket = (lows[i] as number) & (buckets - 1);
    const slot = next[bucket]!++;
    const at = recordsAt + RECORD_BYTES * slot;
    const [offset, length] = laidOut.spans[lines[i] as number] as readonly [number, number];
    out.writeUInt32LE(highs[i] as number, at);
    out.writeUInt32LE(lows[i] as number, at + 4);
    out.writeUInt32LE(offset, at + 8);
    out.writeUInt32LE(length, at + 12);
  }
  return out;
}

/** The header of an index, once checked. */
interface IndexHeader {
  readonly stamp: string;
  readonly bytes: number;
  readonly savedAt: number;
  readonly buckets: number;
  readonly records: number;
  readonly directoryAt: number;
  readonly recordsAt: number;
}

/** The header of an index, or undefined when it is not an index this build reads. Never throws. */
function readHeader(index: Uint8Array): IndexHeader | undefined {
  const buffer = Buffer.from(index.buffer, index.byteOffset, index.byteLength);
  if (buffer.length < MAGIC.length + 8 || buffer.toString('latin1', 0, MAGIC.length) !== MAGIC)
    return undefined;
  if (buffer.readUInt32LE(MAGIC.length) !== LAYOUT_VERSION) return undefined;
  const headerLength = buffer.readUInt32LE(MAGIC.length + 4);
  const headerAt = MAGIC.length + 8;
  if (headerLength > MAX_HEADER_BYTES || headerAt + headerLength > buffer.length) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(buffer.toString('utf8', headerAt, headerAt + headerLength));
  } catch {
    return undefined;
  }
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { stateVersion, stamp, bytes, savedAt, buckets, records } = raw as Record<string, unknown>;
  if (stateVersion !== STATE_VERSION || typeof stamp !== 'string' || typeof savedAt !== 'number')
    return undefined;
  if (!isCount(bytes) || !isCount(buckets) || !isCount(records) || buckets === 0) return undefined;
  // A power of two, so that a bucket is the low bits of a hash.
  if ((buckets & (buckets - 1)) !== 0) return undefined;
  const directoryAt = headerAt + headerLength;
  const recordsAt = directoryAt + 4 * (buckets + 1);
  if (recordsAt + RECORD_BYTES * records !== buffer.length) return undefined;
  return { stamp, bytes, savedAt, buckets, records, directoryAt, recordsAt };
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** Whether the index at `indexPath` was built for the state file as it is now (`stamp`). */
export function indexIsCurrent(index: Uint8Array | undefined, stamp: string): boolean {
  return index !== undefined && readHeader(index)?.stamp === stamp;
}

/**
 * The byte ranges of the lines `keys` find in the state file the index describes; undefined when
 * the index is not for `stamp` or does not hold together (then read the file whole).
 */
export function lookUpLines(
  index: Uint8Array,
  stamp: string,
  keys: readonly string[],
): (readonly [offset: number, length: number])[] | undefined {
  const header = readHeader(index);
  if (header === undefined || header.stamp !== stamp) return undefined;
  const buffer = Buffer.from(index.buffer, index.byteOffset, index.byteLength);
  const hash = new TextHash();
  const found = new Map<number, number>();
  for (const key of keys) {
    const bucket = bucketOf(hash, key, header.buckets);
    const high = hash.high >>> 0;
    const low = hash.low >>> 0;
    const start = buffer.readUInt32LE(header.directoryAt + 4 * bucket);
    const end = buffer.readUInt32LE(header.directoryAt + 4 * (bucket + 1));
    if (start > end || end > header.records) return undefined;
    for (let slot = start; slot < end; slot++) {
      const at = header.recordsAt + RECORD_BYTES * slot;
      if (buffer.readUInt32LE(at) !== high || buffer.readUInt32LE(at + 4) !== low) continue;
      const offset = buffer.readUInt32LE(at + 8);
      const length = buffer.readUInt32LE(at + 12);
      if (length === 0 || length > MAX_LINE_BYTES || offset + length > header.bytes) return undefined;
      found.set(offset, length);
      if (found.size > MAX_LINES_PER_LOOKUP) return undefined;
    }
  }
  return [...found].sort((a, b) => a[0] - b[0]);
}

/** A key's bucket in an index of `buckets` buckets; `hash` holds the key's lanes after. */
function bucketOf(hash: TextHash, key: string, buckets: number): number {
  hash.reset().add(key).mix();
  return (hash.low >>> 0) & (buckets - 1);
}

/**
 * What of the index open at `fd` (`size` bytes) finding `keys` reads: its header, each key's
 * directory entries and records, in a buffer of the index's size whose other bytes stay zeros and
 * are never read. A process that looks a few keys up reads a few kilobytes of a large state's
 * index rather than all of it; `lookUpLines` and `indexIsCurrent` give of it what they give of the
 * whole (no keys: the header alone). The index is replaced by rename, never changed in place, so
 * the parts read through one descriptor are of one index.
 */
export function readIndexParts(fd: number, size: number, keys: readonly string[]): Uint8Array {
  const index = Buffer.alloc(size);
  const readAt = (at: number, length: number) => {
    const end = Math.min(size, at + length);
    for (let done = at; done < end; ) {
      const count = readSync(fd, index, done, end - done, done);
      if (count === 0) return;
      done += count;
    }
  };
  readAt(0, MAGIC.length + 8 + MAX_HEADER_BYTES);
  const header = readHeader(index);
  if (header === undefined) return index;
  const hash = new TextHash();
  for (const key of keys) {
    const bucket = bucketOf(hash, key, header.buckets);
    const entry = header.directoryAt + 4 * bucket;
    readAt(entry, 8);
    const start = index.readUInt32LE(entry);
    const end = index.readUInt32LE(entry + 4);
    // A directory that does not hold together is refused by `lookUpLines`, which reads no record.
    if (start <= end && end <= header.records)
      readAt(header.recordsAt + RECORD_BYTES * start, RECORD_BYTES * (end - start));
  }
  return index;
}

/**
 * The constraints `keys` find in the state file at `statePath`, read through its index: the index
 * and the lines it points to only. Undefined when that cannot be done (no index, an index of
 * another version of the file, a line that is not a constraint): read the file whole then.
 * A file that is not there is an empty state. Never follows a link.
 */
export function readIndexedConstraints(
  statePath: string,
  index: Uint8Array | undefined,
  keys: readonly string[],
): { readonly state: PersistedState | undefined; readonly stamp: string } | undefined {
  let fd: number;
  try {
    fd = openNoFollowSync(statePath, READ_FLAGS);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: undefined, stamp: 'absent' };
    return undefined;
  }
  try {
    // The stamp of the file this descriptor reads: a writer replacing the file meanwhile changes
    // the name's file, never this one.
    const stamp = stampOf(fstatSync(fd, { bigint: true }));
    if (index === undefined) return undefined;
    const lines = lookUpLines(index, stamp, keys);
    if (lines === undefined) return undefined;
    const header = readHeader(index) as IndexHeader;
    const constraints: Constraint[] = [];
    for (const [offset, length] of lines) {
      const bytes = Buffer.allocUnsafe(length);
      if (readSync(fd, bytes, 0, length, offset) !== length) return undefined;
      const constraint = parseConstraintText(bytes.toString('utf8'));
      if (constraint === undefined) return undefined;
      constraints.push(constraint);
    }
    return { state: { version: 1, savedAt: header.savedAt, constraints, lifted: [] }, stamp };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
