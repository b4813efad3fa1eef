/**
 * A map that knows in which order its keys were last set, and gives up the least recently set entry
 * in constant time.
 *
 * The order is a list through the entries, from the least recently set to the most: setting a key
 * the map holds moves its entry to the recent end of the list and leaves the table alone. A plain Map
 * keeps insertion order, and moving a key to its end means deleting it and adding it again; but V8
 * leaves each deleted entry in its bucket's chain until the table is rebuilt, so a key set again and
 * again (a constraint strengthened by every failure of its kind, a detector's memory of one tool)
 * makes its own chain longer each time, and every later look-up of it walks that chain.
 *
 * Once as many entries have been removed as are left, the entries move to a new Map. When V8 rebuilds
 * a table itself, the old table keeps a link to the new one, and in a map that keeps changing those
 * links chain every table it ever had: once one of them reaches the old generation, the chain keeps
 * what each held alive through young-generation collections, and every call's objects are promoted.
 * A map that is replaced this often never keeps a table long enough to start a chain. An entry that
 * leaves lets go of its key, its value and its neighbours, for the same reason.
 */
export class RecencyMap<K, V> implements Iterable<[K, V]> {
  private map = new Map<K, Link<K, V>>();
  /** The least recently set entry, and the most. */
  private oldestLink: Link<K, V> | undefined;
  private newestLink: Link<K, V> | undefined;
  private removals = 0;
  /**
   * The entry that left last, emptied, for the next key added: a map that trims adds one key and
   * drops one on every write, and this spares it an allocation each time.
   */
  private spare: Link<K, V> | undefined;

  get size(): number {
    return this.map.size;
  }

  get(key: K): V | undefined {
    return this.map.get(key)?.value;
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  /** Sets `key` as the most recent entry, wherever it was before. */
  set(key: K, value: V): this {
    const link = this.map.get(key);
    if (link === undefined) return this.append(key, value);
    link.value = value;
    if (link !== this.newestLink) {
      this.unlink(link);
      this.linkNewest(link);
    }
    return this;
  }

  /** Adds `key`, which the map does not hold, as the most recent entry: `set` without its look-up. */
  append(key: K, value: V): this {
    let link = this.spare;
    if (link === undefined) {
      link = { key, value, older: undefined, newer: undefined };
    } else {
      this.spare = undefined;
      link.key = key;
      link.value = value;
    }
    this.linkNewest(link);
    this.map.set(key, link);
    return this;
  }

  delete(key: K): boolean {
    const link = this.map.get(key);
    if (link === undefined) return false;
    this.remove(link);
    return true;
  }

  /** Removes the least recently set entry and returns its value; undefined when empty. */
  shift(): V | undefined {
    const oldest = this.oldestLink;
    if (oldest === undefined) return undefined;
    const value = oldest.value;
    this.remove(oldest);
    return value;
  }

  /** Removes the least recently set entry without reading its value: `shift` for a map that trims. */
  dropOldest(): void {
    const oldest = this.oldestLink;
    if (oldest !== undefined) this.remove(oldest);
  }

  /** Starts a new map rather than emptying this one, which would link the old table to the new. */
  clear(): void {
    if (this.map.size > 0 || this.removals > 0) this.map = new Map<K, Link<K, V>>();
    // The entries are let go of as a whole: nothing outside the map holds them.
    this.oldestLink = undefined;
    this.newestLink = undefined;
    this.spare = undefined;
    this.removals = 0;
  }

  /**
   * Least recently set first. The entries are read as the list stands when each is reached: nothing
   * may be set, deleted or dropped while they are read (copy them first to change the map meanwhile).
   */
  *entries(): IterableIterator<[K, V]> {
    for (let link = this.oldestLink; link !== undefined; link = link.newer) yield [link.key, link.value];
  }

  *keys(): IterableIterator<K> {
    for (let link = this.oldestLink; link !== undefined; link = link.newer) yield link.key;
  }

  *values(): IterableIterator<V> {
    for (let link = this.oldestLink; link !== undefined; link = link.newer) yield link.value;
  }

  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.entries();
  }

  private linkNewest(link: Link<K, V>): void {
    const newest = this.newestLink;
    link.older = newest;
    link.newer = undefined;
    if (newest === undefined) this.oldestLink = link;
    else newest.newer = link;
    this.newestLink = link;
  }

  private unlink(link: Link<K, V>): void {
    const { older, newer } = link;
    if (older === undefined) this.oldestLink = newer;
    else older.newer = newer;
    if (newer === undefined) this.newestLink = older;
    else newer.older = older;
  }

  private remove(link: Link<K, V>): void {
    this.map.delete(link.key);
    this.unlink(link);
    link.older = undefined;
    link.newer = undefined;
    link.key = undefined as K;
    link.value = undefined as V;
    this.spare = link;
    if (++this.removals <= this.map.size + MIN_REMOVALS_BEFORE_MOVING) return;
    const moved = new Map<K, Link<K, V>>();
    // Oldest first, as the list runs: the new table's order is of no use, but it costs nothing.
    for (let next = this.oldestLink; next !== undefined; next = next.newer) moved.set(next.key, next);
    this.map = moved;
    this.removals = 0;
  }
}

/** An entry of a `RecencyMap`, in the list of entries from the least recently set to the most. */
interface Link<K, V> {
  key: K;
  value: V;
  older: Link<K, V> | undefined;
  newer: Link<K, V> | undefined;
}

/** Small maps are moved no more often than this many removals. */
const MIN_REMOVALS_BEFORE_MOVING = 64;
