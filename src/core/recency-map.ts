/**
 * A map that knows in which order its keys were last set, and gives up the least recently set entry
 * in constant time.
 *
 * A plain Map cannot do this cheaply for long: V8 leaves a hole in the table for each deleted entry
 * until the table is rebuilt, and a new iterator steps over every hole before the first live entry,
 * so reading the oldest key after many evictions takes thousands of steps. A long-lived iterator
 * would skip them, but it keeps every table the map has outgrown alive until it moves. Here the order
 * is a queue of keys beside the map; a key set again leaves a stale place in the queue, skipped
 * when reached and dropped when the queue is compacted.
 */
interface Slot<V> {
  value: V;
  /** Which place in the queue is this key's current one. */
  stamp: number;
}

export class RecencyMap<K, V> implements Iterable<[K, V]> {
  private readonly slots = new Map<K, Slot<V>>();
  private queue: K[] = [];
  private stamps: number[] = [];
  private head = 0;
  private nextStamp = 0;

  get size(): number {
    return this.slots.size;
  }

  get(key: K): V | undefined {
    return this.slots.get(key)?.value;
  }

  has(key: K): boolean {
    return this.slots.has(key);
  }

  /** Sets `key` as the most recent entry, wherever it was before. */
  set(key: K, value: V): this {
    const stamp = this.nextStamp++;
    const slot = this.slots.get(key);
    if (slot === undefined) {
      this.slots.set(key, { value, stamp });
    } else {
      slot.value = value;
      slot.stamp = stamp;
    }
    this.queue.push(key);
    this.stamps.push(stamp);
    this.compactIfSparse();
    return this;
  }

  delete(key: K): boolean {
    // Its place in the queue goes stale and is skipped.
    return this.slots.delete(key);
  }

  /** Removes the least recently set entry and returns its value; undefined when empty. */
  shift(): V | undefined {
    while (this.head < this.queue.length) {
      const key = this.queue[this.head] as K;
      const stamp = this.stamps[this.head] as number;
      this.head++;
      const slot = this.slots.get(key);
      if (slot !== undefined && slot.stamp === stamp) {
        this.slots.delete(key);
        this.compactIfSparse();
        return slot.value;
      }
    }
    return undefined;
  }

  clear(): void {
    this.slots.clear();
    this.queue = [];
    this.stamps = [];
    this.head = 0;
  }

  /** Least recently set first. */
  *entries(): IterableIterator<[K, V]> {
    const { queue, stamps, slots } = this;
    for (let at = this.head, end = queue.length; at < end; at++) {
      const key = queue[at] as K;
      const slot = slots.get(key);
      if (slot !== undefined && slot.stamp === stamps[at]) yield [key, slot.value];
    }
  }

  *values(): IterableIterator<V> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.entries();
  }

  /**
   * Keeps the queue within a small multiple of the live entries, and drops the places already
   * passed, so that neither stale places nor a long history cost memory.
   */
  private compactIfSparse(): void {
    const queued = this.queue.length - this.head;
    const mostlyStale = queued > this.slots.size + (this.slots.size >> 1) + 32;
    const mostlyPassed = this.head >= 1024 && this.head * 4 >= this.queue.length;
    if (!mostlyStale && !mostlyPassed) return;
    const queue: K[] = [];
    const stamps: number[] = [];
    for (let at = this.head; at < this.queue.length; at++) {
      const key = this.queue[at] as K;
      const stamp = this.stamps[at] as number;
      if (this.slots.get(key)?.stamp === stamp) {
        queue.push(key);
        stamps.push(stamp);
      }
    }
    this.queue = queue;
    this.stamps = stamps;
    this.head = 0;
  }
}
