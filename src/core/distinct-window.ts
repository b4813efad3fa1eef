/**
 * The last `capacity` distinct calls seen, by fingerprint, and how many of them were last ruled out.
 * It feeds a ratio reported with every verdict, so it runs on every call: it is built on typed arrays
 * (an open-addressed table and a ring in order of first sight) and allocates nothing once made.
 */
export class DistinctWindow {
  /** Fingerprints in order of first sight; the oldest is replaced first. */
  private readonly ring: Int32Array;
  private readonly ruledOut: Uint8Array;
  /** Fingerprint's position in the ring, plus one; 0 is an empty bucket. */
  private readonly table: Int32Array;
  private readonly mask: number;
  private next = 0;
  private count = 0;
  private blockedCount = 0;

  constructor(readonly capacity: number) {
    this.ring = new Int32Array(capacity);
    this.ruledOut = new Uint8Array(capacity);
    let buckets = 1;
    while (buckets < capacity * 2) buckets *= 2;
    this.table = new Int32Array(buckets);
    this.mask = buckets - 1;
  }

  get size(): number {
    return this.count;
  }

  get blocked(): number {
    return this.blockedCount;
  }

  has(fingerprint: number): boolean {
    return this.table[this.find(fingerprint)] !== 0;
  }

  /** Records that the call with this fingerprint was proposed, and whether it was ruled out. */
  note(fingerprint: number, blocked: boolean): void {
    const flag = blocked ? 1 : 0;
    const bucket = this.find(fingerprint);
    const held = this.table[bucket] as number;
    if (held !== 0) {
      const position = held - 1;
      this.blockedCount += flag - (this.ruledOut[position] as number);
      this.ruledOut[position] = flag;
      return;
    }
    if (this.count === this.capacity) this.forget(this.next);
    else this.count++;
    const position = this.next;
    this.next = (this.next + 1) % this.capacity;
    this.ring[position] = fingerprint;
    this.ruledOut[position] = flag;
    this.blockedCount += flag;
    this.table[this.find(fingerprint)] = position + 1;
  }

  clear(): void {
    this.table.fill(0);
    this.next = 0;
    this.count = 0;
    this.blockedCount = 0;
  }

  /** The bucket holding `fingerprint`, or the empty one where it would go. */
  private find(fingerprint: number): number {
    let bucket = Math.imul(fingerprint, 0x9e3779b1) & this.mask;
    for (;;) {
      const held = this.table[bucket] as number;
      if (held === 0 || this.ring[held - 1] === fingerprint) return bucket;
      bucket = (bucket + 1) & this.mask;
    }
  }

  /** Drops the entry at a ring position, shifting back the buckets that probed past it. */
  private forget(position: number): void {
    this.blockedCount -= this.ruledOut[position] as number;
    let hole = this.find(this.ring[position] as number);
    this.table[hole] = 0;
    for (let bucket = (hole + 1) & this.mask; ; bucket = (bucket + 1) & this.mask) {
      const held = this.table[bucket] as number;
      if (held === 0) return;
      const home = Math.imul(this.ring[held - 1] as number, 0x9e3779b1) & this.mask;
      // Move it back when its home is not in the cyclic range (hole, bucket].
      const inRange = hole <= bucket ? home > hole && home <= bucket : home > hole || home <= bucket;
      if (!inRange) {
        this.table[hole] = held;
        this.table[bucket] = 0;
        hole = bucket;
      }
    }
  }
}
