import { hashingAsLegacy } from './identity/hashing.js';
import { hashLanes } from './identity/index.js';
import { RingTable } from './ring-table.js';

/** A key's and its value's hashes, each as two 32-bit lanes: how a `HashMemory` is saved. */
export type HashedEntry = readonly [keyHigh: number, keyLow: number, valueHigh: number, valueLow: number];

/**
 * What each of the last `capacity` keys set was last set to, kept as 64-bit hashes of key and value.
 * It answers one question, whether a key still has a given value, in constant time and in memory
 * that grows with the keys up to its bound and is then kept; two different values pass for the same
 * one with odds of one in 2^64. A key not set again in twice `capacity` sets is forgotten too, since each set takes the next slot of a ring.
 */
export class HashMemory {
  private readonly keys: RingTable;
  private valueHighs: Int32Array;
  private valueLows: Int32Array;
  /**
   * The last key hashed and its lanes: a change asks whether its target was last set to one value,
   * then to another, then sets it, and the target is hashed once for the three.
   */
  private hashedKey: string | undefined;
  private hashedAsLegacy = false;
  private keyHigh = 0;
  private keyLow = 0;

  constructor(readonly capacity: number) {
    this.keys = new RingTable(capacity * 2);
    this.valueHighs = new Int32Array(this.keys.allocated);
    this.valueLows = new Int32Array(this.keys.allocated);
  }

  get size(): number {
    return this.keys.size;
  }

  /** Whether `key` was last set to `value`. */
  holds(key: string, value: string): boolean {
    this.hashKey(key);
    const position = this.keys.find(this.keyHigh, this.keyLow);
    if (position < 0) return false;
    const expected = hashLanes(value);
    return this.valueHighs[position] === expected.high && this.valueLows[position] === expected.low;
  }

  /** Whether `key` is remembered, whatever its value. */
  has(key: string): boolean {
    this.hashKey(key);
    return this.keys.find(this.keyHigh, this.keyLow) >= 0;
  }

  /** Sets `key` to `value` as the most recent key, forgetting the oldest when full. */
  set(key: string, value: string): void {
    this.hashKey(key);
    const valued = hashLanes(value);
    this.put(this.keyHigh, this.keyLow, valued.high, valued.low);
  }

  /** Sets `keyHigh` and `keyLow` to the lanes of `key`, hashing it only when it was not the last key. */
  private hashKey(key: string): void {
    const legacy = hashingAsLegacy();
    if (key === this.hashedKey && legacy === this.hashedAsLegacy) return;
    // The hasher's lanes are shared: copied before anything else is hashed.
    const hashed = hashLanes(key);
    this.keyHigh = hashed.high;
    this.keyLow = hashed.low;
    this.hashedKey = key;
    this.hashedAsLegacy = legacy;
  }

  clear(): void {
    this.keys.clear();
  }

  /** Oldest first, so that restoring them in order rebuilds the same memory. */
  entries(): HashedEntry[] {
    const entries: HashedEntry[] = [];
    for (const position of this.keys.positions()) {
      entries.push([
        this.keys.high(position),
        this.keys.low(position),
        this.valueHighs[position] as number,
        this.valueLows[position] as number,
      ]);
    }
    return entries;
  }

  /** Adds saved entries, skipping any that is not four 32-bit integers. */
  restore(entries: unknown): void {
    if (!Array.isArray(entries)) return;
    for (const entry of entries) {
      if (!Array.isArray(entry) || entry.length !== 4 || !entry.every(isInt32)) continue;
      const [keyHigh, keyLow, valueHigh, valueLow] = entry as number[];
      this.put(keyHigh as number, keyLow as number, valueHigh as number, valueLow as number);
    }
  }

  private put(keyHigh: number, keyLow: number, valueHigh: number, valueLow: number): void {
    const previous = this.keys.find(keyHigh, keyLow);
    if (previous >= 0) this.keys.remove(previous);
    else if (this.keys.size === this.capacity) this.keys.remove(this.keys.oldest());
    const position = this.keys.add(keyHigh, keyLow);
    if (position >= this.valueHighs.length) this.growValues();
    this.valueHighs[position] = valueHigh;
    this.valueLows[position] = valueLow;
  }

  /** Grows the values to the keys' positions. */
  private growValues(): void {
    const highs = new Int32Array(this.keys.allocated);
    const lows = new Int32Array(this.keys.allocated);
    highs.set(this.valueHighs);
    lows.set(this.valueLows);
    this.valueHighs = highs;
    this.valueLows = lows;
  }
}

function isInt32(value: unknown): value is number {
  return typeof value === 'number' && (value | 0) === value;
}
