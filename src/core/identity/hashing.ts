/** Fast non-cryptographic hashing of texts, for call keys and result digests. */

/**
 * A 64-bit non-cryptographic hash (two independent 32-bit lanes), as 16 hex characters. Used for
 * call keys and result digests, where speed matters and nobody is attacking the hash; receipts use
 * SHA-256 in the audit layer.
 */
export function hashString(text: string): string {
  if (text.length < REMEMBERED_LENGTH) return wholeTextHash.reset().add(text).finish();
  for (let slot = 0; slot < REMEMBERED; slot++) {
    if (rememberedTexts[slot] === text) return rememberedHashes[slot] as string;
  }
  const hash = wholeTextHash.reset().add(text).finish();
  rememberedTexts[nextRemembered] = text;
  rememberedHashes[nextRemembered] = hash;
  nextRemembered = (nextRemembered + 1) % REMEMBERED;
  return hash;
}

/*
 * The last few long texts hashed, and their hashes. One call hashes the same long text more than
 * once (an edit's search text, for its identity and again for the key its failure is learned
 * under), and hashing costs a turn per two characters where comparing the same string is at once.
 */
const REMEMBERED = 4;
const REMEMBERED_LENGTH = 1024;
const rememberedTexts: (string | undefined)[] = new Array<string | undefined>(REMEMBERED).fill(undefined);
const rememberedHashes: (string | undefined)[] = new Array<string | undefined>(REMEMBERED).fill(undefined);
let nextRemembered = 0;

/**
 * `hashString` as its two 32-bit lanes, with no string built. The object is shared: read both lanes
 * before hashing anything else.
 */
export function hashLanes(text: string): { readonly high: number; readonly low: number } {
  return wholeTextHash.reset().add(text).mix();
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
 * `hashString` over a text given in pieces: `new TextHash().add(a).add(b).finish()` equals
 * `hashString(a + b)`, without the concatenation ever being built.
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
