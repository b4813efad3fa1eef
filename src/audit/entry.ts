/**
 * One journal line: the event as stored (digested or redacted), its place in the journal, and,
 * with receipts on, its link in the hash chain. The line is the canonical JSON of the receipt
 * with the hash appended, so the bytes on disk are exactly the bytes that were hashed.
 */
import { createHmac, hash } from 'node:crypto';
import { canonicalJson } from '../core/identity/index.js';
import { persistableConstraint } from '../core/secrets.js';
import type { Constraint, JournalEvent, RecordedVerdict } from '../core/types.js';
import { plainCanonicalJson } from './plain-json.js';
import { type JsonValue, redact } from './redact.js';

/** The `prev` of the first receipt. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * What the journal keeps of arguments and results. `digest` (the default) keeps a hash and a size
 * of each argument object; `redacted` keeps the arguments with secrets removed.
 */
export type ContentPolicy = 'digest' | 'redacted';

export interface ArgsDigest {
  readonly sha256: string;
  readonly bytes: number;
}

export interface ReceiptFields {
  /** 1-based, continuous across reopenings of the same journal. */
  readonly seq: number;
  readonly sessionId?: string;
  /** Hash of the previous receipt (64 zeros for the first). Absent with receipts off. */
  readonly prev?: string;
  /**
   * `sha256(prev + canonicalJson(this entry without hash))`, or with a journal key
   * `hmacSha256(key, …)` of the same. Absent with receipts off.
   */
  readonly hash?: string;
  /** Present (true) on receipts chained with the journal key. */
  readonly keyed?: true;
}

/**
 * A person's word that a verdict was wrong (`narrowing-guard feedback … --wrong "why"`): it names
 * the disputed entry, the rule and the constraints the verdict rested on, and which were lifted.
 */
export interface DisputeEvent {
  readonly type: 'dispute';
  readonly at: number;
  /** The file name of the journal holding the disputed entry (`journal.jsonl`, `journal.2.jsonl`…). */
  readonly journal: string;
  /** The disputed proposal's `seq` in that journal. */
  readonly entry: number;
  readonly tool: string;
  readonly callKey: string;
  readonly verdict: RecordedVerdict;
  readonly rule?: string;
  readonly constraintIds: readonly string[];
  /** The constraints the dispute lifted (those still in force). */
  readonly lifted: readonly string[];
  readonly why: string;
}

/** What a journal records: the engine's events and people's disputes. */
export type JournalRecord = JournalEvent | DisputeEvent;

/** A journal line as read back. With the `digest` policy, `args` holds an `ArgsDigest`. */
export type JournalEntry = JournalRecord & ReceiptFields;

const MAX_STORED_STRING = 8_192;

export function sha256Hex(text: string): string {
  // The one-shot form: a Hash object per receipt costs more than the hashing itself.
  return hash('sha256', text, 'hex');
}

/**
 * Fields the engine fills with its own values (kinds, times, tool names, keys, digests): no secret
 * can be in them, so they are stored as they are, without a walk through the redactor.
 */
const ENGINE_FIELDS: ReadonlySet<string> = new Set([
  'type',
  'at',
  'tool',
  'callKey',
  'verdict',
  'rule',
  'success',
  'signature',
  'blame',
  'resultDigest',
  'sessionId',
]);

/** The event as it may be written down: plain JSON, no secrets, bounded in size. */
export function storedFields(event: JournalRecord, content: ContentPolicy): Record<string, JsonValue> {
  const fields: Record<string, JsonValue> = {};
  for (const key in event) {
    const value = (event as Record<string, unknown>)[key];
    if (value === undefined) continue;
    if (key === 'args') fields[key] = content === 'digest' ? digestArgs(value) : storedArgs(value);
    else if (key === 'constraint' && isConstraint(value)) {
      // As the stores keep it: an edit's search text as a hash and a redacted excerpt, never in clear.
      fields[key] = redact(persistableConstraint(value), { maxString: MAX_STORED_STRING });
    } else if (ENGINE_FIELDS.has(key) && (typeof value !== 'string' || value.length <= MAX_STORED_STRING)) {
      fields[key] = value as JsonValue;
    } else fields[key] = redact(value, { maxString: MAX_STORED_STRING });
  }
  return fields;
}

function isConstraint(value: unknown): value is Constraint {
  return typeof value === 'object' && value !== null && 'evidence' in value && 'id' in value;
}

function storedArgs(args: unknown): JsonValue {
  return redact(args, { maxString: MAX_STORED_STRING });
}

/**
 * Digests the redacted form: a hash of the raw arguments would let anyone who can read the
 * journal confirm a guessed password.
 */
function digestArgs(args: unknown): JsonValue {
  const canonical = plainCanonicalJson(redact(args));
  return { sha256: sha256Hex(canonical), bytes: Buffer.byteLength(canonical) };
}

export interface SealedLine {
  readonly seq: number;
  /** The line with its newline. */
  readonly text: string;
  readonly hash?: string;
}

export type UnsealedEntry = Record<string, JsonValue> & { readonly seq: number; readonly prev?: string };

export function hmacSha256Hex(key: string, text: string): string {
  return createHmac('sha256', key).update(text).digest('hex');
}

function receiptHash(prev: string, canonical: string, key: string | undefined): string {
  return key === undefined ? sha256Hex(prev + canonical) : hmacSha256Hex(key, prev + canonical);
}

/**
 * Turns an entry into its line; an entry with `prev` is chained, and its hash returned. With a
 * `key`, the entry is marked `keyed` and its hash is an HMAC.
 */
export function sealLine(entry: UnsealedEntry, key?: string): SealedLine {
  const { seq, prev } = entry;
  if (prev !== undefined && key !== undefined) (entry as Record<string, JsonValue>).keyed = true;
  const canonical = plainCanonicalJson(entry);
  if (prev === undefined) return { seq, text: `${canonical}\n` };
  const hash = receiptHash(prev, canonical, key);
  return { seq, text: `${withHash(canonical, hash)}\n`, hash };
}

function withHash(canonical: string, hash: string): string {
  return `${canonical.slice(0, -1)},"hash":"${hash}"}`;
}

/**
 * Whether a line is exactly what its writer hashed: the hash matches the canonical form of every
 * other field, and the line is that canonical form byte for byte (nothing added that the
 * canonical form would drop).
 */
export function receiptHolds(line: string, entry: object, key?: string): boolean {
  const { hash, ...rest } = entry as Readonly<Record<string, unknown>>;
  if (typeof hash !== 'string' || typeof rest.prev !== 'string') return false;
  if (rest.keyed !== undefined && (rest.keyed !== true || key === undefined)) return false;
  const canonical = canonicalJson(rest);
  const expected = receiptHash(rest.prev, canonical, rest.keyed === true ? key : undefined);
  return expected === hash && line === withHash(canonical, hash);
}

/** A parsed line that has the shape of an entry, or `undefined`. */
export function parseEntry(line: string): JournalEntry | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const seq = (value as { seq?: unknown }).seq;
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 1) return undefined;
  return value as JournalEntry;
}
