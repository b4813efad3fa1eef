/**
 * Fixed-capacity containers. Detector state lives for a whole run, possibly millions of calls, so
 * every collection a detector keeps must forget its oldest entries instead of growing.
 */
import { RecencyMap } from '../recency-map.js';

/** A map that forgets its least recently written entries beyond `capacity`. */
export class LruMap<V> {
  private readonly map = new RecencyMap<string, V>();

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.map.size;
  }

  /** Reads without making the entry more recent: `check` must not change what is remembered. */
  peek(key: string): V | undefined {
    return this.map.get(key);
  }

  set(key: string, value: V): void {
    this.map.set(key, value);
    this.trim(this.capacity);
  }

  /** `set` for a key the map does not hold (a `peek` just found nothing): one lookup fewer. */
  add(key: string, value: V): void {
    this.map.append(key, value);
    this.trim(this.capacity);
  }

  delete(key: string): void {
    this.map.delete(key);
  }

  /** Forgets the least recently written entries beyond `size`. */
  trim(size: number): void {
    while (this.map.size > size) this.map.dropOldest();
  }

  clear(): void {
    this.map.clear();
  }

  values(): IterableIterator<V> {
    return this.map.values();
  }

  /** The keys, without copying them: nothing may be added while they are read. */
  keys(): IterableIterator<string> {
    return this.map.keys();
  }

  /** Oldest first, so that restoring in this order rebuilds the same recency. */
  entries(): [string, V][] {
    return [...this.map.entries()];
  }
}

/**
 * A map that remembers at least the last `capacity / 2` keys written and at most `capacity`, for
 * records where forgetting a little earlier than a strict LRU would does no harm. Writes go to a
 * young map; once it holds half the capacity it becomes the old one and the old one is dropped, so
 * nothing is ever deleted: a strict LRU of thousands of keys spends most of its time evicting.
 */
export class GenerationalMap<V> {
  private young = new Map<string, V>();
  private old = new Map<string, V>();
  private readonly half: number;

  constructor(capacity: number) {
    this.half = Math.max(1, Math.floor(capacity / 2));
  }

  get(key: string): V | undefined {
    const value = this.young.get(key);
    return value !== undefined ? value : this.old.get(key);
  }

  set(key: string, value: V): void {
    if (this.young.has(key)) this.young.set(key, value);
    else this.addYoung(key, value);
  }

  /**
   * Writes `change(value held for key, given)`, undefined when none is: one lookup when the key was
   * written lately, where a read and a write would take two, and no write when `change` gives back
   * what it was given. A key found only among the older entries is written as the latest, as `set`
   * would. `given` is passed on, so that `change` need not be a new closure on every call.
   */
  update<A>(key: string, change: (held: V | undefined, given: A) => V, given: A): void {
    const young = this.young.get(key);
    if (young !== undefined) {
      const value = change(young, given);
      if (value !== young) this.young.set(key, value);
      return;
    }
    this.addYoung(key, change(this.old.get(key), given));
  }

  private addYoung(key: string, value: V): void {
    if (this.young.size >= this.half) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, value);
  }

  /** The keys held, the latest first by generation; a key in both generations once. */
  *keys(): IterableIterator<string> {
    yield* this.young.keys();
    for (const key of this.old.keys()) if (!this.young.has(key)) yield key;
  }

  /** Starts new maps rather than emptying these, which would link the old tables to the new. */
  clear(): void {
    if (this.young.size > 0) this.young = new Map();
    if (this.old.size > 0) this.old = new Map();
  }
}

/** The last `capacity` items pushed, addressable from the newest end. */
export class Ring<T> {
  private readonly items: (T | undefined)[];
  private next = 0;
  private count = 0;

  constructor(readonly capacity: number) {
    this.items = new Array<T | undefined>(capacity);
  }

  get length(): number {
    return this.count;
  }

  push(item: T): void {
    this.items[this.next] = item;
    this.next = (this.next + 1) % this.capacity;
    if (this.count < this.capacity) this.count++;
  }

  /** `fromEnd(0)` is the newest item; undefined beyond what is held. */
  fromEnd(offset: number): T | undefined {
    if (offset < 0 || offset >= this.count) return undefined;
    return this.items[(this.next - 1 - offset + this.capacity * 2) % this.capacity];
  }

  clear(): void {
    this.items.fill(undefined);
    this.next = 0;
    this.count = 0;
  }

  /** Oldest first. */
  toArray(): T[] {
    const out: T[] = [];
    for (let offset = this.count - 1; offset >= 0; offset--) out.push(this.fromEnd(offset) as T);
    return out;
  }
}
