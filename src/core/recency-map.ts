/**
 * A map that knows in which order its keys were last set, and gives up the least recently set entry
 * in constant time.
 *
 * The order is a list of its own, linked through the entries, and the Map only finds an entry by its
 * key: setting a key it holds again moves the entry to the end of the list and leaves the Map as it
 * was. Keeping the order in the Map (deleting the key and setting it again) costs more each time the
 * same key is set again: V8 leaves a deleted entry in its bucket's chain until the table is rebuilt,
 * and setting the key walks the chain first, so a key set again on every call (the strategy a failure
 * strengthens, a tool's streak) walked a chain as long as the times it had been set since, thousands
 * of steps in a map of thousands of entries.
 *
 * Once as many entries have been removed as are left, the entries move to a new Map. When V8 rebuilds
 * a table itself, the old table keeps a link to the new one, and in a map that keeps changing those
 * links chain every table it ever had: once one of them reaches the old generation, the chain keeps
 * what each held alive through young-generation collections, and every call's objects are promoted.
 * A map that is replaced this often never keeps a table long enough to start a chain.
 */
interface Link<K, V> {
  readonly key: K;
  value: V;
  previous: Link<K, V> | undefined;
  /** Kept when the entry leaves the list, so that a reading standing on it goes on to the next. */
  next: Link<K, V> | undefined;
  live: boolean;
}

export class RecencyMap<K, V> implements Iterable<[K, V]> {
  private map = new Map<K, Link<K, V>>();
  private first: Link<K, V> | undefined;
  private last: Link<K, V> | undefined;
  /** Entries that left the list from its end: the next entry added is the one after each. */
  private leftAtEnd: Link<K, V>[] = [];
  private removals = 0;

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
    const held = this.map.get(key);
    if (held === undefined) return this.append(key, value);
    if (held === this.last) {
      held.value = value;
      return this;
    }
    // A new link rather than the old one moved: a reading standing on the old one goes on from where
    // it stood, and meets the key again at the end, as a Map's iterator does.
    this.unlink(held);
    this.map.set(key, this.link(key, value));
    return this;
  }

  /** Adds `key`, which the map does not hold, as the most recent entry: `set` without its look-up. */
  append(key: K, value: V): this {
    this.map.set(key, this.link(key, value));
    return this;
  }

  delete(key: K): boolean {
    const held = this.map.get(key);
    if (held === undefined) return false;
    this.map.delete(key);
    this.unlink(held);
    this.removed();
    return true;
  }

  /** Removes the least recently set entry and returns its value; undefined when empty. */
  shift(): V | undefined {
    const oldest = this.first;
    if (oldest === undefined) return undefined;
    this.map.delete(oldest.key);
    this.unlink(oldest);
    this.removed();
    return oldest.value;
  }

  /** Removes the least recently set entry without reading its value: `shift` for a map that trims. */
  dropOldest(): void {
    this.shift();
  }

  /** Starts a new map rather than emptying this one, which would link the old table to the new. */
  clear(): void {
    if (this.map.size > 0 || this.removals > 0) this.map = new Map<K, Link<K, V>>();
    this.first = undefined;
    this.last = undefined;
    this.leftAtEnd = [];
    this.removals = 0;
  }

  /** Least recently set first. */
  *entries(): IterableIterator<[K, V]> {
    for (let link = this.first; link !== undefined; link = link.next)
      if (link.live) yield [link.key, link.value];
  }

  *keys(): IterableIterator<K> {
    for (let link = this.first; link !== undefined; link = link.next) if (link.live) yield link.key;
  }

  *values(): IterableIterator<V> {
    for (let link = this.first; link !== undefined; link = link.next) if (link.live) yield link.value;
  }

  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.entries();
  }

  private link(key: K, value: V): Link<K, V> {
    const added: Link<K, V> = { key, value, previous: this.last, next: undefined, live: true };
    if (this.last === undefined) this.first = added;
    else this.last.next = added;
    this.last = added;
    if (this.leftAtEnd.length > 0) {
      for (const left of this.leftAtEnd) left.next = added;
      this.leftAtEnd = [];
    }
    return added;
  }

  private unlink(link: Link<K, V>): void {
    link.live = false;
    const { previous, next } = link;
    if (previous === undefined) this.first = next;
    else previous.next = next;
    if (next === undefined) {
      this.last = previous;
      this.leftAtEnd.push(link);
    } else next.previous = previous;
  }

  private removed(): void {
    if (++this.removals <= this.map.size + MIN_REMOVALS_BEFORE_MOVING) return;
    const moved = new Map<K, Link<K, V>>();
    // forEach, not the Map constructor: that one would allocate an iterator result per entry.
    this.map.forEach((link, key) => {
      moved.set(key, link);
    });
    this.map = moved;
    this.removals = 0;
  }
}

/** Small maps are moved no more often than this many removals. */
const MIN_REMOVALS_BEFORE_MOVING = 64;
