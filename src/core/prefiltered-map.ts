/** Below this many keys a miss in the Map itself is cheap, and no filter is kept. */
const FILTER_FROM = 4096;
/**
 * Bits per key the filter is sized for, twice the keys there are when it is built: with three bits
 * a key, between one absent key in two hundred and one in twenty-five gets past it.
 */
const BITS_PER_KEY = 8;
const NO_BITS = new Int32Array(0);

/**
 * A Map keyed by strings that, once large, turns away most lookups of absent keys with a bit filter
 * before the Map is touched.
 *
 * On the hot path nearly every lookup misses, since most calls have no ban; and in a Map of tens of
 * thousands of keys a miss walks a bucket chain through memory that is no longer in cache, several
 * cache misses in a row. The filter costs one: a key's three bits are in one 32-bit word (a blocked
 * Bloom filter). Deleted keys keep their bits until the filter is rebuilt, which only lets a few more
 * lookups through to the Map.
 */
export class PrefilteredMap<V> {
  private readonly map = new Map<string, V>();
  private bits = NO_BITS;
  /** Shifts a 32-bit hash down to a word's index. */
  private shift = 32;
  /** Keys the filter was sized for: it is rebuilt larger when the map outgrows it. */
  private sizedFor = 0;
  /** Keys deleted since the filter was built, whose bits are still set. */
  private stale = 0;

  /** `filterFrom`: the size from which lookups go through the filter. */
  constructor(private readonly filterFrom = FILTER_FROM) {}

  get size(): number {
    return this.map.size;
  }

  get(key: string): V | undefined {
    if (this.bits !== NO_BITS && !this.mayHold(key)) return undefined;
    return this.map.get(key);
  }

  set(key: string, value: V): this {
    const before = this.map.size;
    this.map.set(key, value);
    if (this.map.size === before) return this;
    if (this.map.size > this.sizedFor) this.rebuild();
    else if (this.bits !== NO_BITS) this.mark(key);
    return this;
  }

  delete(key: string): boolean {
    if (!this.map.delete(key)) return false;
    if (this.bits !== NO_BITS && ++this.stale > this.map.size) this.rebuild();
    return true;
  }

  private mayHold(key: string): boolean {
    const hash = keyHash(key);
    const bits = keyBits(hash);
    return ((this.bits[wordOf(hash, this.shift)] as number) & bits) === bits;
  }

  private mark(key: string): void {
    const hash = keyHash(key);
    const word = wordOf(hash, this.shift);
    this.bits[word] = (this.bits[word] as number) | keyBits(hash);
  }

  /** Sized for twice the keys there are now, so that it is rebuilt only each time the map doubles. */
  private rebuild(): void {
    this.stale = 0;
    if (this.map.size < this.filterFrom) {
      this.bits = NO_BITS;
      this.sizedFor = this.filterFrom;
      return;
    }
    this.sizedFor = this.map.size * 2;
    let words = 1;
    this.shift = 32;
    while (words * 32 < this.sizedFor * BITS_PER_KEY) {
      words *= 2;
      this.shift--;
    }
    this.bits = new Int32Array(words);
    for (const key of this.map.keys()) this.mark(key);
  }
}

/** The word a key's bits are in, from the high bits of the hash mixed again. */
function wordOf(hash: number, shift: number): number {
  return shift === 32 ? 0 : Math.imul(hash, 0x9e3779b1) >>> shift;
}

/** A key's three bits in its word, from three 5-bit pieces of the low half of its hash. */
function keyBits(hash: number): number {
  return (1 << (hash & 31)) | (1 << ((hash >>> 5) & 31)) | (1 << ((hash >>> 10) & 31));
}

/** The last key hashed: a target is looked up in several maps in a row. */
let lastKey = '';
let lastHash = 0;

/** A 32-bit FNV-1a hash, mixed at the end so that its high and low bits are both usable. */
function keyHash(key: string): number {
  if (key === lastKey) return lastHash;
  let hash = 0x811c9dc5;
  for (let index = 0; index < key.length; index++) hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193);
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  lastKey = key;
  lastHash = hash;
  return hash;
}
