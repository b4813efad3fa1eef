/**
 * Hashing of texts, for call keys and result digests. A text under `LONG_TEXT` characters is hashed
 * by a fast 64-bit non-cryptographic hash written here; a longer one by SHA-256 (its first 64 bits),
 * which a native implementation computes three times faster per character than any hash in
 * JavaScript. The engine holds no native code: the runtime hands one in (`useLongTextHash`), and
 * without it the SHA-256 written here gives the same keys, more slowly.
 */
import { NarrowingError } from '../errors.js';
import { sha256Hex } from './sha256.js';

/** From this length on, a text is hashed by SHA-256: below it, the hash written here is faster. */
export const LONG_TEXT = 256;

/**
 * Which hash keys are computed with: 1 hashed every text with the 64-bit hash written here (state
 * written before format version 3); 2 hashes texts of `LONG_TEXT` characters or more by SHA-256.
 */
export const HASH_GENERATION = 2;

/** SHA-256 of a text's UTF-8 encoding (lone surrogates as U+FFFD), as 64 lowercase hex digits. */
export type LongTextHash = (text: string) => string;

let longTextHash: LongTextHash = sha256Hex;

/** A text no implementation could pass by chance: its digest is checked when a hash is handed in. */
export const LONG_TEXT_PROBE = `narrowing\u00e9\u{1F600}\ud800${'x'.repeat(LONG_TEXT)}`;
/**
 * SHA-256 of {@link LONG_TEXT_PROBE}, written out (a test checks the hash written here gives it):
 * a fresh process that hands a hash in does not compute it again before V8 has optimised anything.
 */
export const LONG_TEXT_PROBE_DIGEST = 'a3419381e7a09e27e7ef8ddabfd062dec1fd6d408c5afdb8274b4cd8a211842b';

/**
 * Hands the engine a native SHA-256 for long texts (`undefined`: back to the one written here). It
 * must give what SHA-256 gives, or keys would depend on where they were computed: a hash that does
 * not is refused with `USAGE`.
 */
export function useLongTextHash(hash: LongTextHash | undefined): void {
  if (hash === undefined) {
    longTextHash = sha256Hex;
    return;
  }
  let given: unknown;
  try {
    given = hash(LONG_TEXT_PROBE);
  } catch (error) {
    throw new NarrowingError('USAGE', 'the long-text hash handed to narrowing threw on a test text', {
      cause: error,
    });
  }
  if (given !== LONG_TEXT_PROBE_DIGEST) {
    throw new NarrowingError(
      'USAGE',
      'the long-text hash handed to narrowing is not SHA-256 of UTF-8 text in lowercase hex: keys would differ from those computed without it',
    );
  }
  longTextHash = hash;
}

/**
 * Set while `withLegacyHash` runs: every text is hashed as generation 1 hashed it, to find what a
 * state written before generation 2 keyed a call by.
 */
let legacy = false;

/** `run()` with keys computed as generation 1 computed them. Not re-entrant; nothing else runs meanwhile. */
export function withLegacyHash<T>(run: () => T): T {
  legacy = true;
  try {
    return run();
  } finally {
    legacy = false;
  }
}

/** Whether texts are hashed as generation 1 hashed them just now (see `withLegacyHash`). */
export function hashingAsLegacy(): boolean {
  return legacy;
}

/** Long texts hashed so far: whether identifying a call hashed one is the change of this count. */
let longTexts = 0;

export function longTextsHashed(): number {
  return longTexts;
}

/** A hash as 16 hex characters: see the module's comment for which texts get which hash. */
export function hashString(text: string): string {
  if (text.length < LONG_TEXT || legacy) return wholeTextHash.reset().add(text).finish();
  longTexts++;
  for (let slot = 0; slot < REMEMBERED; slot++) {
    if (rememberedTexts[slot] === text) return rememberedHashes[slot] as string;
  }
  const hash = longTextHash(text).slice(0, 16);
  rememberedTexts[nextRemembered] = text;
  rememberedHashes[nextRemembered] = hash;
  nextRemembered = (nextRemembered + 1) % REMEMBERED;
  return hash;
}

/*
 * The last few long texts hashed, and their hashes. One call hashes the same long text more than
 * once (an edit's search text, for its identity and again for the key its failure is learned
 * under), and comparing the same string is at once. Every long text is kept, whatever its length:
 * a search text of 500 to 1,000 characters is hashed whole for both keys too, and a comparison
 * that fails on the lengths costs nothing beside a hash.
 */
const REMEMBERED = 4;
const rememberedTexts: (string | undefined)[] = new Array<string | undefined>(REMEMBERED).fill(undefined);
const rememberedHashes: (string | undefined)[] = new Array<string | undefined>(REMEMBERED).fill(undefined);
let nextRemembered = 0;

/** What `hashLanes` returns for a long text: one object, shared like the hasher's. */
const longLanes = { high: 0, low: 0 };

/**
 * `hashString` as its two 32-bit lanes (signed, as `Math.imul` leaves them). The object is shared:
 * read both lanes before hashing anything else.
 */
export function hashLanes(text: string): { readonly high: number; readonly low: number } {
  if (text.length < LONG_TEXT || legacy) return wholeTextHash.reset().add(text).mix();
  const hex = hashString(text);
  longLanes.high = Number.parseInt(hex.slice(0, 8), 16) | 0;
  longLanes.low = Number.parseInt(hex.slice(8, 16), 16) | 0;
  return longLanes;
}

/** The fingerprint (`TextHash.fingerprint`) of a hash `hashString` returned. */
export function fingerprintOf(hash: string): number {
  return Number.parseInt(hash.slice(8, 16), 16) & FINGERPRINT_MASK;
}

/*
 * The lanes' constants. Loops read them from these module-private bindings: V8 folds a private
 * `const` into optimised code but loads an exported one from its module cell on every character,
 * which doubles the cost of hashing. Other modules get the same values through the exports below,
 * and copy them into private bindings of their own before using them in a loop.
 */
const SEED_1 = 0xdeadbeef;
const SEED_2 = 0x41c6ce57;
const MULTIPLIER_1 = 2654435761;
const MULTIPLIER_2 = 1597334677;
export const LANE1_SEED: number = SEED_1;
export const LANE2_SEED: number = SEED_2;
export const LANE1_MULTIPLIER: number = MULTIPLIER_1;
export const LANE2_MULTIPLIER: number = MULTIPLIER_2;
const FINGERPRINT_MASK = 0x3fffffff;

/**
 * The hash written here over a text given in pieces: `new TextHash().add(a).add(b).finish()` equals
 * `hashString(a + b)` while `a + b` is shorter than `LONG_TEXT`, without the concatenation ever being
 * built. A caller whose text may be longer checks `isLong` before `finish` and hashes the whole text
 * with `hashString` instead.
 */
export class TextHash {
  private lane1 = SEED_1;
  private lane2 = SEED_2;
  private length = 0;
  /** The low 30 bits of the last hash finished: a small integer, which costs a map nothing to keep. */
  fingerprint = 0;
  /** The finished hash's lanes, `hashString`'s first and last eight hex digits. */
  high = 0;
  low = 0;

  /** Whether the text added so far is too long for this hash: `hashString` gives SHA-256's. */
  get isLong(): boolean {
    return this.length >= LONG_TEXT && !legacy;
  }

  /** Characters added since the last reset. */
  get size(): number {
    return this.length;
  }

  reset(): this {
    this.lane1 = SEED_1;
    this.lane2 = SEED_2;
    this.length = 0;
    return this;
  }

  add(text: string): this {
    return this.addRange(text, 0, text.length);
  }

  /** `add(text.slice(start, end))`, without the slice. */
  addRange(text: string, start: number, end: number): this {
    let h1 = this.lane1;
    let h2 = this.lane2;
    let index = start;
    // Two characters a turn: the same steps in the same order, with half the loop's own work.
    for (; index + 1 < end; index += 2) {
      const code = text.charCodeAt(index);
      const following = text.charCodeAt(index + 1);
      h1 = Math.imul(Math.imul(h1 ^ code, MULTIPLIER_1) ^ following, MULTIPLIER_1);
      h2 = Math.imul(Math.imul(h2 ^ code, MULTIPLIER_2) ^ following, MULTIPLIER_2);
    }
    if (index < end) {
      const code = text.charCodeAt(index);
      h1 = Math.imul(h1 ^ code, MULTIPLIER_1);
      h2 = Math.imul(h2 ^ code, MULTIPLIER_2);
    }
    this.lane1 = h1;
    this.lane2 = h2;
    this.length += Math.max(0, end - start);
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
    this.lane1 = Math.imul(this.lane1 ^ code, MULTIPLIER_1);
    this.lane2 = Math.imul(this.lane2 ^ code, MULTIPLIER_2);
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
