/**
 * The values last stored for a few keys, found by key identity in a fixed ring: once full, the newest
 * replaces the oldest. The loop keeps each proposal's context here between its check and its outcome.
 *
 * A Map would do the same job, but a Map whose entries come and go on every call reallocates its
 * table over and over, and in a large heap the tables it leaves behind keep the calls they held alive
 * through young-generation collections: every call would end up in the old generation.
 */
export class IdentityCache<K extends object, V> {
  private readonly keys: (K | undefined)[];
  private readonly values: (V | undefined)[];
  private next = 0;
  /** Keys held: a lookup stops once it has passed them all, and a new proposal finds none. */
  private held = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`IdentityCache capacity must be a positive integer, got ${capacity}`);
    this.keys = new Array<K | undefined>(capacity).fill(undefined);
    this.values = new Array<V | undefined>(capacity).fill(undefined);
  }

  get(key: K): V | undefined {
    const slot = this.slotOf(key);
    return slot < 0 ? undefined : this.values[slot];
  }

  has(key: K): boolean {
    return this.slotOf(key) >= 0;
  }

  set(key: K, value: V): void {
    let slot = this.slotOf(key);
    if (slot < 0) {
      slot = this.next;
      this.next = slot + 1 === this.capacity ? 0 : slot + 1;
      if (this.keys[slot] === undefined) this.held++;
      this.keys[slot] = key;
    }
    this.values[slot] = value;
  }

  /** The newest key held that satisfies `test`, if any. */
  findKey(test: (key: K) => boolean): K | undefined {
    let passed = 0;
    for (let slot = this.next - 1; passed < this.held; slot--) {
      if (slot < 0) slot = this.capacity - 1;
      const held = this.keys[slot];
      if (held === undefined) continue;
      if (test(held)) return held;
      passed++;
    }
    return undefined;
  }

  delete(key: K): void {
    const slot = this.slotOf(key);
    if (slot < 0) return;
    this.keys[slot] = undefined;
    this.values[slot] = undefined;
    this.held--;
  }

  clear(): void {
    this.keys.fill(undefined);
    this.values.fill(undefined);
    this.held = 0;
  }

  /** Newest first: a context is usually asked for right after it was stored. */
  private slotOf(key: K): number {
    let passed = 0;
    for (let slot = this.next - 1; passed < this.held; slot--) {
      if (slot < 0) slot = this.capacity - 1;
      const held = this.keys[slot];
      if (held === key) return slot;
      if (held !== undefined) passed++;
    }
    return -1;
  }
}
