/**
 * A fixed number of keys, each a 64-bit hash given as two 32-bit lanes, in the order they were
 * added: once full, adding a key drops the oldest. Each key has a position in the ring, where callers
 * keep what they remember of it in typed arrays of their own.
 *
 * Memories that live for a whole run and change on most calls are built on this rather than on a
 * Map: a Map whose entries keep coming and going reallocates its table again and again, and in a
 * large heap the abandoned tables keep the young objects they held alive through collections, so
 * that every call's garbage ends up in the old generation. Typed arrays start small and double
 * while the ring fills, up to `capacity`; once it is full they are never allocated again. Positions
 * do not move when the arrays grow: a caller grows its own arrays to `allocated` when a position
 * reaches their length.
 */
/** Positions allocated by a new table: most runs never hold more keys than this. */
const INITIAL_ROOM = 256;

/** Buckets for a number of positions: a power of two, at least twice as many. */
function bucketCountFor(room: number): number {
  let size = 2;
  while (size < room * 2) size *= 2;
  return size;
}

export class RingTable {
  private highs: Int32Array;
  private lows: Int32Array;
  private live: Uint8Array;
  /** A key's position plus one, by open addressing on its low lane; 0 is an empty bucket. */
  private buckets: Int32Array;
  private mask: number;
  private next = 0;
  /** No key is older than this position: the slots before it, up to `next`, are all empty. */
  private tail = 0;
  private count = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`RingTable capacity must be a positive integer, got ${capacity}`);
    const room = Math.min(capacity, INITIAL_ROOM);
    this.highs = new Int32Array(room);
    this.lows = new Int32Array(room);
    this.live = new Uint8Array(room);
    this.buckets = new Int32Array(bucketCountFor(room));
    this.mask = this.buckets.length - 1;
  }

  /** How many positions the arrays hold now: positions below it are valid indices. */
  get allocated(): number {
    return this.live.length;
  }

  get size(): number {
    return this.count;
  }

  /** The position of a key, or -1. */
  find(high: number, low: number): number {
    return (this.buckets[this.bucketOf(high, low)] as number) - 1;
  }

  /** The position the next `add` takes; a key still there is dropped. */
  get nextPosition(): number {
    return this.next;
  }

  isLive(position: number): boolean {
    return this.live[position] === 1;
  }

  /** The position of the oldest key, or -1 when empty. */
  oldest(): number {
    if (this.count === 0) return -1;
    // Each empty slot is stepped over once a lap, so this is constant time amortised.
    while (this.live[this.tail] !== 1) this.tail = this.tail + 1 === this.capacity ? 0 : this.tail + 1;
    return this.tail;
  }

  /** Adds a key that is not in the table, dropping the oldest when full; returns its position. */
  add(high: number, low: number): number {
    const position = this.next;
    // The ring has not wrapped yet (`next` only reaches the end of the arrays before it does).
    if (position === this.live.length) this.grow();
    if (this.live[position] === 1) this.remove(position);
    this.next = position + 1 === this.capacity ? 0 : position + 1;
    this.highs[position] = high;
    this.lows[position] = low;
    this.live[position] = 1;
    this.count++;
    // The newest key now sits where the search for the oldest would start: start after it.
    if (this.tail === position && this.count > 1) this.tail = this.next;
    this.buckets[this.bucketOf(high, low)] = position + 1;
    return position;
  }

  /** Drops the key at a position, shifting back the keys that probed past its bucket. */
  remove(position: number): void {
    if (this.live[position] !== 1) return;
    this.live[position] = 0;
    this.count--;
    let hole = this.bucketOf(this.highs[position] as number, this.lows[position] as number);
    this.buckets[hole] = 0;
    for (let bucket = (hole + 1) & this.mask; ; bucket = (bucket + 1) & this.mask) {
      const held = this.buckets[bucket] as number;
      if (held === 0) return;
      const home = this.home(this.lows[held - 1] as number);
      // It may move back only when its home is not in the cyclic range (hole, bucket].
      const reachable = hole <= bucket ? home > hole && home <= bucket : home > hole || home <= bucket;
      if (!reachable) {
        this.buckets[hole] = held;
        this.buckets[bucket] = 0;
        hole = bucket;
      }
    }
  }

  clear(): void {
    this.buckets.fill(0);
    this.live.fill(0);
    this.next = 0;
    this.tail = 0;
    this.count = 0;
  }

  high(position: number): number {
    return this.highs[position] as number;
  }

  low(position: number): number {
    return this.lows[position] as number;
  }

  /**
   * Positions of the keys held, oldest first: from the next position to take round to the one
   * before it. Positions the arrays have not grown to yet hold no key and are not visited (a
   * table holding a few keys of a large capacity is read in a few steps).
   */
  *positions(): IterableIterator<number> {
    const allocated = this.live.length;
    for (let position = this.next; position < allocated; position++) {
      if (this.live[position] === 1) yield position;
    }
    for (let position = 0; position < this.next && position < allocated; position++) {
      if (this.live[position] === 1) yield position;
    }
  }

  /** Doubles the arrays (up to `capacity`), keeping every key at its position. */
  private grow(): void {
    const room = Math.min(this.capacity, this.live.length * 2);
    const highs = new Int32Array(room);
    const lows = new Int32Array(room);
    const live = new Uint8Array(room);
    highs.set(this.highs);
    lows.set(this.lows);
    live.set(this.live);
    const held = this.live.length;
    this.highs = highs;
    this.lows = lows;
    this.live = live;
    this.buckets = new Int32Array(bucketCountFor(room));
    this.mask = this.buckets.length - 1;
    for (let position = 0; position < held; position++) {
      if (live[position] !== 1) continue;
      let bucket = this.home(lows[position] as number);
      while (this.buckets[bucket] !== 0) bucket = (bucket + 1) & this.mask;
      this.buckets[bucket] = position + 1;
    }
  }

  private home(low: number): number {
    return Math.imul(low, 0x9e3779b1) & this.mask;
  }

  /** The bucket holding the key, or the empty one where it would go. */
  private bucketOf(high: number, low: number): number {
    let bucket = this.home(low);
    for (;;) {
      const held = this.buckets[bucket] as number;
      if (held === 0 || (this.lows[held - 1] === low && this.highs[held - 1] === high)) return bucket;
      bucket = (bucket + 1) & this.mask;
    }
  }
}
