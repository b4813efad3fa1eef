/**
 * A map that knows in which order its keys were last set, and gives up the least recently set entry
 * in constant time.
 *
 * A plain Map keeps insertion order, but V8 leaves a hole in its table for each deleted entry until
 * the table is rebuilt, and a new iterator steps over every hole before the first live entry: reading
 * the oldest key after many evictions takes thousands of steps. So one iterator is kept from one
 * eviction to the next, and steps over each hole once. Such an iterator also keeps alive every table
 * the map has outgrown since it last moved, so one that has stood still while the map kept changing
 * is let go, and the next eviction starts a new one.
 *
 * Once as many entries have been removed as are left, the entries move to a new Map. When V8 rebuilds
 * a table itself, the old table keeps a link to the new one, and in a map that keeps changing those
 * links chain every table it ever had: once one of them reaches the old generation, the chain keeps
 * what each held alive through young-generation collections, and every call's objects are promoted.
 * A map that is replaced this often never keeps a table long enough to start a chain.
 */
export class RecencyMap<K, V> implements Iterable<[K, V]> {
  private map = new Map<K, V>();
  private cursor: Iterator<K> | undefined;
  private changesSinceShift = 0;
  private removals = 0;

  get size(): number {
    return this.map.size;
  }

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  /** Sets `key` as the most recent entry, wherever it was before. */
  set(key: K, value: V): this {
    if (this.map.delete(key)) this.removed();
    this.map.set(key, value);
    this.changed();
    return this;
  }

  /** Adds `key`, which the map does not hold, as the most recent entry: `set` without its removal. */
  append(key: K, value: V): this {
    this.map.set(key, value);
    this.changed();
    return this;
  }

  delete(key: K): boolean {
    if (!this.map.delete(key)) return false;
    this.removed();
    this.changed();
    return true;
  }

  /** Removes the least recently set entry and returns its value; undefined when empty. */
  shift(): V | undefined {
    const oldest = this.oldest();
    if (oldest.done) return undefined;
    const value = this.map.get(oldest.value);
    this.map.delete(oldest.value);
    this.removed();
    return value;
  }

  /** Removes the least recently set entry without reading its value: `shift` for a map that trims. */
  dropOldest(): void {
    const oldest = this.oldest();
    if (oldest.done) return;
    this.map.delete(oldest.value);
    this.removed();
  }

  private oldest(): IteratorResult<K> {
    this.changesSinceShift = 0;
    const next = this.cursor?.next();
    if (next !== undefined && !next.done) return next;
    // A finished iterator stays finished, even once entries are added again.
    this.cursor = this.map.keys();
    return this.cursor.next();
  }

  /** Starts a new map rather than emptying this one, which would link the old table to the new. */
  clear(): void {
    if (this.map.size > 0 || this.removals > 0) this.map = new Map<K, V>();
    this.cursor = undefined;
    this.removals = 0;
  }

  /** Least recently set first. */
  entries(): IterableIterator<[K, V]> {
    return this.map.entries();
  }

  keys(): IterableIterator<K> {
    return this.map.keys();
  }

  values(): IterableIterator<V> {
    return this.map.values();
  }

  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.map.entries();
  }

  private changed(): void {
    if (this.cursor !== undefined && ++this.changesSinceShift > this.map.size + 1024) this.cursor = undefined;
  }

  private removed(): void {
    if (++this.removals <= this.map.size + MIN_REMOVALS_BEFORE_MOVING) return;
    const moved = new Map<K, V>();
    // forEach, not the Map constructor: that one would allocate an iterator result per entry.
    this.map.forEach((value, key) => {
      moved.set(key, value);
    });
    this.map = moved;
    this.cursor = undefined;
    this.removals = 0;
  }
}

/** Small maps are moved no more often than this many removals. */
const MIN_REMOVALS_BEFORE_MOVING = 64;
